package handlers

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"sandtrap"
	"sandtrap/live"
	"sandtrap/mock"
	"sandtrap/static"
)

// newFakeServer serves the real routes over runs held in memory: n finished
// runs of one campaign file, a day apart, each with a passed result and a
// failure. No SQLite file is involved.
func newFakeServer(t *testing.T, n int) *httptest.Server {
	t.Helper()
	return serveFake(t, newFakeStore(n), nil)
}

// newFakeStore holds newFakeServer's runs, for a test to change first.
func newFakeStore(n int) *mock.Store {
	fake := &mock.Store{Results: map[string][]sandtrap.ResultRow{}, Files: []sandtrap.SourceStatus{{Label: "nightly", Path: "/campaigns/nightly.db"}}}
	start := time.Date(2026, 6, 1, 22, 0, 0, 0, time.UTC)
	for i := range n {
		id := fmt.Sprintf("run-%03d", i+1)
		at := start.AddDate(0, 0, i)
		run := sandtrap.Run{ID: id, RawID: id, Source: "nightly", Name: "Night " + itoa(int64(i+1)), StartedAt: at, FinishedAt: at.Add(7 * time.Hour)}
		run.Counts.Add("passed", 1)
		run.Counts.Add("failed", 1)
		fake.Runs = append(fake.Runs, run)
		fake.Results[id] = []sandtrap.ResultRow{
			{Result: sandtrap.Result{ID: int64(2*i + 1), RunID: id, Test: "file-io/a", Target: "code-interpreter", Domain: "file-io", Status: "passed"}},
			{Result: sandtrap.Result{ID: int64(2*i + 2), RunID: id, Test: "file-io/b", Target: "code-interpreter", Domain: "file-io", Status: "failed", Error: "PermissionError"},
				Layer: "sandbox", Primitive: "filesystem", Mode: "m-1"},
		}
	}
	return fake
}

// serveFake serves the real routes over fake, with hub fanning out live
// updates (nil serves none).
func serveFake(t *testing.T, fake *mock.Store, hub *live.Hub) *httptest.Server {
	t.Helper()
	h, err := New(Config{Runs: fake, Results: fake, Hub: hub, Static: static.FS})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h.Routes())
	t.Cleanup(srv.Close)
	return srv
}

func TestPagesOverAFakeStoreAnswerWithTheirStatus(t *testing.T) {
	srv := newFakeServer(t, 120)
	tests := []struct {
		name, path string
		status     int
		contains   []string
		lacks      []string
	}{
		{"the runs list shows the newest runs first", "/", 200, []string{"Night 120<", "Night 71<"}, []string{"Night 70<"}},
		{"the second page of the runs list goes on where the first ended", "/?page=2", 200, []string{"Night 70<", "Night 21<"}, []string{"Night 71<", "Night 20<"}},
		{"the last page of the runs list reaches the oldest run", "/?page=3", 200, []string{"Night 20<", "Night 1<"}, []string{"Night 21<"}},
		{"a page past the last is refused by name", "/?page=4", 400, []string{"page must be from 1 to 3"}, nil},
		{"a bad page size is refused by name", "/?per=0", 400, []string{"per must be a whole number"}, nil},
		{"an unknown source is refused by name", "/?source=weekly", 400, []string{"source must be the label of a served campaign file (nightly)"}, nil},
		{"an unknown run is a 404", "/runs/nope", 404, []string{"run &#34;nope&#34; not found"}, nil},
		{"the failures of an unknown run are a 404", "/runs/nope/failures", 404, []string{"not found"}, nil},
		{"a bad offset of the failures list is refused by name", "/runs/run-001/failures?offset=-3", 400, []string{"offset"}, nil},
		{"an unknown result is a 404", "/runs/run-001/results/999999", 404, []string{"not found"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := get(t, srv.URL+tt.path)
			if resp.StatusCode != tt.status {
				t.Fatalf("got status %d, want %d\n%.2000s", resp.StatusCode, tt.status, body)
			}
			for _, want := range tt.contains {
				if !strings.Contains(body, want) {
					t.Errorf("got a body without %q, want it", want)
				}
			}
			for _, unwanted := range tt.lacks {
				if strings.Contains(body, unwanted) {
					t.Errorf("got a body with %q, want it left out", unwanted)
				}
			}
		})
	}
}

func TestAFinishedRunsFailuresFollowItWhileItsFileIsFirstRead(t *testing.T) {
	tests := []struct {
		name       string
		reading    bool
		wantStream bool
		wantStatus int
	}{
		{"a finished run whose file is still being read streams its failures", true, true, http.StatusOK},
		{"a finished run read in full does not stream them", false, false, http.StatusNoContent},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := newFakeStore(1)
			fake.Files[0].Progress.Reading = tt.reading
			hub := live.NewHub(slog.New(slog.DiscardHandler))
			defer hub.Close()
			srv := serveFake(t, fake, hub)
			const page = "/runs/run-001/failures"
			resp, err := http.Get(srv.URL + page)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if got := strings.Contains(string(body), page+"/live"); got != tt.wantStream {
				t.Errorf("got a stream on %s: %v, want %v", page, got, tt.wantStream)
			}
			ctx, cancel := context.WithTimeout(context.Background(), patienceForStream)
			defer cancel()
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+page+"/live", nil)
			resp, err = http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tt.wantStatus {
				t.Errorf("got %d from %s/live, want %d", resp.StatusCode, page, tt.wantStatus)
			}
		})
	}
}

// patienceForStream bounds a request for a stream's headers, which come at
// once: the stream itself never ends while the file is being read.
const patienceForStream = 30 * time.Second
