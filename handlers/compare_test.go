package handlers

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sandtrap/static"
	"sandtrap/store"
	"sandtrap/store/campaign"
)

// newCompareServer serves a campaign of two runs: base fails a test that
// head fixes, head breaks one that base passed, and head's browser fails
// in a way the code interpreter never does.
func newCompareServer(t *testing.T) *httptest.Server {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "campaign.db")
	w, err := campaign.OpenWriter(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 6, 30, 22, 0, 0, 0, time.UTC)
	for i, id := range []string{"base", "head"} {
		s := start.AddDate(0, 0, i)
		end := s.Add(time.Hour)
		if err := w.InsertRun(ctx, campaign.Run{ID: id, Name: "Night " + id, StartedAt: s, FinishedAt: &end}); err != nil {
			t.Fatal(err)
		}
	}
	perm := ptr("PermissionError: [Errno 13] Permission denied: '/usr/lib/python3/dist-packages/x'")
	crash := ptr("page.goto: Target crashed")
	_, err = w.InsertResults(ctx, []campaign.Result{
		{RunID: "base", Test: "file-io/fixed-1", Target: "code-interpreter", Domain: "file-io", Status: "failed", Error: perm},
		{RunID: "base", Test: "file-io/regressed-1", Target: "code-interpreter", Domain: "file-io", Status: "passed"},
		{RunID: "base", Test: "web/ok-1", Target: "browser", Domain: "web-browsing", Status: "passed"},
		{RunID: "head", Test: "file-io/fixed-1", Target: "code-interpreter", Domain: "file-io", Status: "passed"},
		{RunID: "head", Test: "file-io/regressed-1", Target: "code-interpreter", Domain: "file-io", Status: "failed", Error: perm},
		{RunID: "head", Test: "web/crash-1", Target: "browser", Domain: "web-browsing", Status: "error", Error: crash},
		{RunID: "head", Test: hostile, Target: "browser", Domain: "web-browsing", Status: "passed"},
	})
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	st, err := store.Open(ctx, store.Options{StatePath: filepath.Join(t.TempDir(), "state.db"), Campaigns: []string{path}, Poll: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	st.Start(ctx)
	if err := st.WaitIndexed(ctx); err != nil {
		t.Fatal(err)
	}
	h, err := New(Config{Runs: st, Activity: st, Results: st, Modes: st, Triager: st, Compare: st, Static: static.FS})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h.Routes())
	t.Cleanup(func() { srv.Close(); st.Close() })
	return srv
}

func TestComparePages(t *testing.T) {
	srv := newCompareServer(t)
	tests := []struct {
		name, path string
		status     int
		contains   []string
	}{
		{"the comparison names fixed and regressed tests and the new mode", "/compare?base=base&head=head", 200,
			[]string{`data-testid="group-new"`, "Browser renderer crashed", "file-io/fixed-1", "file-io/regressed-1", `data-testid="group-returned"`}},
		{"a run against itself is identical", "/compare?base=head&head=head", 200, []string{`data-testid="identical"`}},
		{"an unknown base is a 404 that lists the runs", "/compare?base=nope&head=head", 404, []string{"not found", "Night base"}},
		{"an unknown head alone is a 404 too", "/compare?head=nope", 404, []string{"not found"}},
		{"the first run has nothing before it", "/compare?head=base", 200, []string{"is the first run"}},
		{"the targets page lays out both targets", "/runs/head/targets", 200,
			[]string{`data-testid="target-column"`, "code-interpreter", "browser", `href="/runs/head/failures?layer=sandbox&amp;target=browser"`}},
		{"differences only says how many rows it hides", "/runs/head/targets?diff=1", 200, []string{`data-testid="hidden-rows"`, `aria-checked="true"`}},
		{"the targets page of an unknown run is a 404", "/runs/nope/targets", 404, []string{"not found"}},
		{"the runs list links each run to the one before it", "/", 200, []string{`href="/compare?base=base&amp;head=head"`, `data-testid="pass-trend"`}},
		{"the overview links to its targets and to the previous run", "/runs/head", 200, []string{`href="/runs/head/targets"`, `href="/compare?head=head"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := get(t, srv.URL+tt.path)
			if resp.StatusCode != tt.status {
				t.Fatalf("got %d, want %d", resp.StatusCode, tt.status)
			}
			for _, want := range tt.contains {
				if !strings.Contains(body, want) {
					t.Errorf("got a page without %q", want)
				}
			}
			if strings.Contains(body, "<img src=x") {
				t.Error("got hostile campaign text unescaped")
			}
		})
	}
}

func TestCompareWithoutRunsRedirectsToThePermalink(t *testing.T) {
	srv := newCompareServer(t)
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, path := range []string{"/compare", "/compare?head=head"} {
		resp, err := client.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if got := resp.Header.Get("Location"); resp.StatusCode != http.StatusFound || got != "/compare?base=base&head=head" {
			t.Errorf("GET %s: got %d to %q, want 302 to the newest run against the one before", path, resp.StatusCode, got)
		}
	}
}

func TestAPICompare(t *testing.T) {
	srv := newCompareServer(t)
	resp, body := get(t, srv.URL+"/api/compare?base=base&head=head")
	if resp.StatusCode != 200 {
		t.Fatalf("got %d: %s", resp.StatusCode, body)
	}
	var got APIComparison
	if err := json.Unmarshal([]byte(body), &got); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		got, want any
	}{
		{"fixed tests name their keys", len(got.FixedTests) == 1 && got.FixedTests[0].Key == "file-io/fixed-1", true},
		{"regressed tests name their keys", len(got.RegressedTests) == 1 && got.RegressedTests[0].Key == "file-io/regressed-1", true},
		{"the browser crash is a new mode with its title and counts", len(got.NewModes) == 1 && got.NewModes[0].Title != "" && got.NewModes[0].HeadCount == 1, true},
		{"the permission mode persists", len(got.PersistingModes), 1},
		{"an added test that passed has its key read from the file", len(got.AddedTests) == 2 && got.AddedTests[1].Key == hostile, true},
		{"the failures delta", got.Failures.Change, 1.0},
		{"an empty list is empty, not null", strings.Contains(body, `"returned_modes": []`), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("got %v, want %v", tt.got, tt.want)
			}
		})
	}
	for _, bad := range []struct {
		path   string
		status int
	}{
		{"/api/compare?base=base", 400}, {"/api/compare?base=base&head=head&limit=0", 400}, {"/api/compare?base=base&head=nope", 404},
	} {
		if resp, _ := get(t, srv.URL+bad.path); resp.StatusCode != bad.status {
			t.Errorf("GET %s: got %d, want %d", bad.path, resp.StatusCode, bad.status)
		}
	}
}
