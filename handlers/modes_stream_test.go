package handlers

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"sandtrap"
	"sandtrap/static"
	"sandtrap/store"
	"sandtrap/store/campaign"
	"sandtrap/triage"
)

func TestPageSpan(t *testing.T) {
	tests := []struct {
		name                string
		total, page, per    int
		wantOffset, wantPgs int
		wantErr             string
	}{
		{"an empty list has its first page", 0, 1, 50, 0, 1, ""},
		{"a full last page", 100, 2, 50, 50, 2, ""},
		{"a partial last page counts", 101, 3, 50, 100, 3, ""},
		{"a page past the last is refused, naming the last", 101, 4, 50, 0, 3, "page must be from 1 to 3"},
		{"an empty list has no second page", 0, 2, 50, 0, 1, "page must be from 1 to 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			off, pages, err := pageSpan(tt.total, tt.page, tt.per, "things")
			if tt.wantErr != "" {
				if sandtrap.ErrorCode(err) != sandtrap.EINVALID || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("got %v, want an invalid error saying %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || off != tt.wantOffset || pages != tt.wantPgs {
				t.Errorf("got offset %d of %d pages, %v, want %d of %d", off, pages, err, tt.wantOffset, tt.wantPgs)
			}
		})
	}
}

func TestParseModeStream(t *testing.T) {
	tests := []struct {
		name    string
		query   string
		want    modeStreamQuery
		wantErr string
	}{
		{"nothing asks for the first page, latest seen first", "", modeStreamQuery{Sort: triage.SortLastSeen, Page: 1}, ""},
		{"every filter, an order and a page", "q=+crash+&layer=sandbox&primitive=memory&status=new&owner=platform&severity=high&sort=failures&page=3",
			modeStreamQuery{ModeQuery: triage.ModeQuery{Text: "crash", Layer: "sandbox", Primitive: "memory", Status: "new", Owner: "platform", Severity: "high"},
				Sort: triage.SortFailures, Page: 3}, ""},
		{"an unknown order names the parameter", "sort=newest", modeStreamQuery{}, "sort must be one of"},
		{"an unknown status names the parameter", "status=open", modeStreamQuery{}, "status must be one of"},
		{"an unknown severity names the parameter", "severity=urgent", modeStreamQuery{}, "severity must be one of"},
		{"an unknown layer names the parameter", "layer=kernel", modeStreamQuery{}, "layer must be one of"},
		{"page 0 is refused", "page=0", modeStreamQuery{}, `page must be a whole number of 1 or more, not "0"`},
		{"a page that is not a number is refused", "page=two", modeStreamQuery{}, `not "two"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, _ := url.ParseQuery(tt.query)
			got, err := parseModeStream(v)
			if tt.wantErr != "" {
				if sandtrap.ErrorCode(err) != sandtrap.EINVALID || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("got %v, want an invalid error saying %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, %v, want %+v", got, err, tt.want)
			}
			// The link to a page reads back as what it links to.
			u, _ := url.Parse(modeStreamHref("/modes", got, got.Page))
			if back, err := parseModeStream(u.Query()); err != nil || !reflect.DeepEqual(back, got) {
				t.Errorf("got %+v back from %s, want %+v", back, u, got)
			}
		})
	}
}

// historyRuns and historyPer shape the campaign newHistoryServer serves.
const (
	historyRuns = 40
	historyPer  = 60
)

// newHistoryServer serves runs h-01…h-40 of 60 results each: a permission
// error in every run (6 a run), a tab crash in every third (2 a run) and a
// missing module in the first five (3 a run).
func newHistoryServer(t *testing.T) *httptest.Server {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "campaign.db")
	w, err := campaign.OpenWriter(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for n := 1; n <= historyRuns; n++ {
		s := start.Add(time.Duration(n) * time.Hour)
		end := s.Add(time.Hour)
		var results []campaign.Result
		for k := 1; k <= historyPer; k++ {
			r := campaign.Result{RunID: fmt.Sprintf("h-%02d", n), Test: fmt.Sprintf("wf-%d", k), Target: "code-interpreter", Domain: "file-io", Status: "passed"}
			switch {
			case k%10 == 0:
				r.Status, r.Error = "failed", ptr(fmt.Sprintf("PermissionError: [Errno 13] Permission denied: '/data/out/x%d'", k))
			case k%30 == 1 && n%3 == 0:
				r.Target, r.Status, r.Error = "browser", "error", ptr("page.goto: Target crashed")
			case k%20 == 3 && n <= 5:
				r.Status, r.Error = "failed", ptr("ModuleNotFoundError: No module named 'numpy'")
			}
			results = append(results, r)
		}
		if _, err := w.AppendRun(ctx, campaign.Run{ID: fmt.Sprintf("h-%02d", n), Name: fmt.Sprintf("Night %d", n), StartedAt: s, FinishedAt: &end}, results); err != nil {
			t.Fatal(err)
		}
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

// apiModes reads GET /api/modes with query q.
func apiModes(t *testing.T, srv *httptest.Server, q string) (modes []APIModeSummary, body map[string]any) {
	t.Helper()
	resp, text := get(t, srv.URL+"/api/modes"+q)
	if resp.StatusCode != 200 {
		t.Fatalf("GET /api/modes%s: %d %s", q, resp.StatusCode, text)
	}
	var page struct {
		Modes []APIModeSummary `json:"modes"`
	}
	if err := json.Unmarshal([]byte(text), &page); err != nil {
		t.Fatal(err)
	}
	json.Unmarshal([]byte(text), &body)
	return page.Modes, body
}

// historyModes maps a word of each mode's signature to its id.
func historyModes(t *testing.T, srv *httptest.Server) map[string]string {
	t.Helper()
	modes, _ := apiModes(t, srv, "")
	out := map[string]string{}
	for _, m := range modes {
		for _, word := range []string{"Permission", "crashed", "module"} {
			if strings.Contains(m.Signature, word) {
				out[word] = m.ID
			}
		}
	}
	if len(out) != 3 {
		t.Fatalf("got modes %v, want the three of the campaign", out)
	}
	return out
}

func TestModePageShowsItsHistory(t *testing.T) {
	srv := newHistoryServer(t)
	ids := historyModes(t, srv)
	perm, crash := ids["Permission"], ids["crashed"]
	tests := []struct {
		name   string
		path   string
		status int
		want   []string
		count  map[string]int // data-testid values and how often each shows
	}{
		{"the first page lists 50 failures of 240 and links to the next", "/modes/" + perm, 200,
			[]string{"1–50 of 240", "page 1 of 5", `href="/modes/` + perm + `?page=2#occurrences"`, `href="/modes/` + perm + `?page=5#occurrences"`,
				"in 40 of 40 runs", "240 failures"},
			map[string]int{`data-testid="occurrence"`: 50, `data-testid="run-bar"`: RecentRuns, `data-testid="occ-prev"`: 0}},
		{"the last page holds the rest and links back", "/modes/" + perm + "?page=5", 200,
			[]string{"201–240 of 240", "page 5 of 5", `href="/modes/` + perm + `?page=4#occurrences"`, `href="/modes/` + perm + `#occurrences"`},
			map[string]int{`data-testid="occurrence"`: 40, `data-testid="occ-next"`: 0}},
		{"first and last seen name their runs, and runs without the mode show as zero", "/modes/" + crash, 200,
			[]string{"h-03</a>", "h-39</a>", "in 13 of 40 runs", `data-run="h-40" data-count="0"`, `data-run="h-39" data-count="2"`},
			map[string]int{`data-testid="run-bar"`: RecentRuns, `data-count="0"`: 20, `data-count="2"`: 10}},
		{"the page links to every mode across the runs", "/modes/" + perm, 200, []string{`href="/modes" data-testid="all-modes-link"`}, nil},
		{"a page past the last is a 400 naming the last", "/modes/" + perm + "?page=6", 400, []string{"page must be from 1 to 5"}, nil},
		{"page 0 is a 400", "/modes/" + perm + "?page=0", 400, []string{"page must be a whole number of 1 or more"}, nil},
		{"a page that is not a number is a 400", "/modes/" + perm + "?page=x", 400, []string{"page must be a whole number"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := get(t, srv.URL+tt.path)
			if resp.StatusCode != tt.status {
				t.Fatalf("got %d, want %d", resp.StatusCode, tt.status)
			}
			for _, w := range tt.want {
				if !strings.Contains(body, w) {
					t.Errorf("got no %q in the page", w)
				}
			}
			for w, n := range tt.count {
				if got := strings.Count(body, w); got != n {
					t.Errorf("got %d of %s, want %d", got, w, n)
				}
			}
		})
	}
}

func TestModeStream(t *testing.T) {
	srv := newHistoryServer(t)
	ids := historyModes(t, srv)
	tests := []struct {
		name   string
		query  string
		status int
		rows   []string // the modes listed, in order
		want   []string
	}{
		{"every mode, the latest seen first", "", 200, []string{ids["Permission"], ids["crashed"], ids["module"]},
			[]string{"3 failure modes across 40 runs", "1–3 of 3", "page 1 of 1", `data-trend="quiet"`}},
		{"by failures", "?sort=failures", 200, []string{ids["Permission"], ids["crashed"], ids["module"]}, []string{`data-testid="sort-active">failures`}},
		{"by severity", "?sort=severity", 200, []string{ids["crashed"], ids["Permission"], ids["module"]}, nil},
		{"by a primitive", "?primitive=memory", 200, []string{ids["crashed"]}, []string{`data-testid="active-filter"`}},
		{"by text, keeping the other filters in the search form", "?q=module&layer=sandbox", 200, []string{ids["module"]},
			[]string{`name="layer" type="hidden" value="sandbox"`}},
		{"nothing matching says so and clears", "?status=fixed", 200, nil, []string{"No failure modes match these filters."}},
		{"a page past the last is a 400", "?page=2", 400, nil, []string{"page must be from 1 to 1"}},
		{"an unknown order is a 400", "?sort=newest", 400, nil, []string{"sort must be one of"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := get(t, srv.URL+"/modes"+tt.query)
			if resp.StatusCode != tt.status {
				t.Fatalf("got %d, want %d", resp.StatusCode, tt.status)
			}
			for _, w := range tt.want {
				if !strings.Contains(body, w) {
					t.Errorf("got no %q in the page", w)
				}
			}
			if tt.status != 200 {
				return
			}
			var rows []string
			for _, part := range strings.Split(body, `data-testid="stream-row" data-href="/modes/`)[1:] {
				rows = append(rows, part[:strings.IndexByte(part, '"')])
			}
			if !reflect.DeepEqual(rows, tt.rows) {
				t.Errorf("got rows %v, want %v", rows, tt.rows)
			}
			modes, _ := apiModes(t, srv, tt.query)
			var api []string
			for _, m := range modes {
				api = append(api, m.ID)
			}
			if !reflect.DeepEqual(api, tt.rows) {
				t.Errorf("got %v from /api/modes%s, want the page's %v", api, tt.query, tt.rows)
			}
		})
	}
	t.Run("the API gives each mode's history", func(t *testing.T) {
		modes, body := apiModes(t, srv, "?q=crashed")
		if len(modes) != 1 {
			t.Fatalf("got %d modes, want the crash", len(modes))
		}
		m := modes[0]
		if m.Failures != 26 || m.Runs != 13 || m.FirstSeen != "h-03" || m.LastSeen != "h-39" || m.LastSeenAt != "2026-01-02T15:00:00Z" ||
			len(m.Recent) != RecentRuns || m.Trend != triage.TrendSteady || m.Owner == "" {
			t.Errorf("got %+v, want 26 failures in 13 runs from h-03 to h-39, steady, with an owner", m)
		}
		if body["total"] != 1.0 || body["pages"] != 1.0 || body["runs"] != float64(historyRuns) {
			t.Errorf("got total %v, pages %v, runs %v, want 1, 1 and %d", body["total"], body["pages"], body["runs"], historyRuns)
		}
	})
}

func TestAPIModeHistory(t *testing.T) {
	srv := newHistoryServer(t)
	perm := historyModes(t, srv)["Permission"]
	var got struct {
		Seen        APIModeSeen   `json:"seen"`
		Runs        []APIRunCount `json:"runs"`
		Occurrences struct {
			Total, Page, Pages int
			Next               string
			Items              []APIOccurrence
		} `json:"occurrences"`
	}
	resp, body := get(t, srv.URL+"/api/modes/"+perm+"?page=2")
	if resp.StatusCode != 200 {
		t.Fatalf("got %d %s", resp.StatusCode, body)
	}
	if err := json.Unmarshal([]byte(body), &got); err != nil {
		t.Fatal(err)
	}
	if s := got.Seen; s.Failures != 240 || s.Runs != historyRuns || s.Of != historyRuns || s.First == nil || s.First.RunID != "h-01" ||
		s.Last == nil || s.Last.RunID != "h-40" || s.Last.Count != 6 {
		t.Errorf("got seen %+v, want 240 failures in all 40 runs, from h-01 to h-40 (6 there)", s)
	}
	if len(got.Runs) != RecentRuns || got.Runs[0].RunID != "h-11" || got.Runs[RecentRuns-1].Count != 6 || got.Runs[0].Total != historyPer {
		t.Errorf("got %d runs from %+v, want the last %d from h-11 with 6 of %d each", len(got.Runs), got.Runs[0], RecentRuns, historyPer)
	}
	o := got.Occurrences
	if o.Total != 240 || o.Page != 2 || o.Pages != 5 || len(o.Items) != 50 || o.Next != "/api/modes/"+perm+"?page=3" {
		t.Errorf("got occurrences %d of %d, page %d of %d, next %q, want 50 of 240, page 2 of 5, and page 3", len(o.Items), o.Total, o.Page, o.Pages, o.Next)
	}
	// 6 a run, newest first: the second page starts in the ninth newest run.
	if len(o.Items) > 0 && (o.Items[0].RunID != "h-32" || o.Items[0].Mode != perm) {
		t.Errorf("got the page starting with %+v, want one of %s in h-32", o.Items[0], perm)
	}
	if resp, body := get(t, srv.URL+"/api/modes/"+perm+"?page=9"); resp.StatusCode != 400 || !strings.Contains(body, "page must be from 1 to 5") {
		t.Errorf("got %d %s past the last page, want 400 naming the last", resp.StatusCode, body)
	}
}

func TestModePagesEscapeHostileText(t *testing.T) {
	srv, _ := newServer(t)
	modes, _ := apiModes(t, srv, "")
	if len(modes) == 0 {
		t.Fatal("got no modes, want the hostile campaign's")
	}
	paths := []string{"/modes", "/modes?q=" + url.QueryEscape(`"><img src=x onerror=alert(1)>`), "/compare?base=r1&head=r1"}
	for _, m := range modes {
		paths = append(paths, "/modes/"+url.PathEscape(m.ID))
	}
	for _, path := range paths {
		t.Run("the page at "+path+" has no live markup from the campaign", func(t *testing.T) {
			resp, body := get(t, srv.URL+path)
			if resp.StatusCode != 200 {
				t.Fatalf("got %d, want 200", resp.StatusCode)
			}
			for _, bad := range []string{"<script>alert", "<img src=x", "data-on-load=\"alert", "\x00"} {
				if strings.Contains(body, bad) {
					t.Errorf("got %q in the page, want it escaped", bad)
				}
			}
		})
	}
}
