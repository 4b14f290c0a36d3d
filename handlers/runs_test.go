package handlers

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sandtrap"
	"sandtrap/static"
	"sandtrap/store"
	"sandtrap/store/campaign"
)

func TestParseRunsQuery(t *testing.T) {
	sources := []string{"history", "ingest"}
	day := func(m time.Month, d int) time.Time { return time.Date(2026, m, d, 0, 0, 0, 0, time.UTC) }
	tests := []struct {
		name  string
		query string
		want  runsQuery
	}{
		{"no parameter is the newest page of every run", "", runsQuery{Page: 1, Per: defaultPer}},
		{"text is trimmed", "q=+nightly+", runsQuery{Filter: sandtrap.RunFilter{Q: "nightly"}, Page: 1, Per: defaultPer}},
		{"a page and its size are read", "page=3&per=20", runsQuery{Page: 3, Per: 20}},
		{"the largest page size is allowed", "per=500", runsQuery{Page: 1, Per: 500}},
		{"a state is read", "state=live", runsQuery{Filter: sandtrap.RunFilter{State: sandtrap.RunLive}, Page: 1, Per: defaultPer}},
		{"a served source is read", "source=ingest", runsQuery{Filter: sandtrap.RunFilter{Source: "ingest"}, Page: 1, Per: defaultPer}},
		{"a to date takes in its whole day", "from=2026-07-01&to=2026-07-01",
			runsQuery{Filter: sandtrap.RunFilter{From: day(7, 1), To: day(7, 2)}, From: "2026-07-01", To: "2026-07-01", Page: 1, Per: defaultPer}},
		{"a to date at the end of a month ends on the next", "to=2026-06-30",
			runsQuery{Filter: sandtrap.RunFilter{To: day(7, 1)}, To: "2026-06-30", Page: 1, Per: defaultPer}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, _ := url.ParseQuery(tt.query)
			got, err := parseRunsQuery(v, sources)
			if err != nil {
				t.Fatalf("got error %v, want none", err)
			}
			if got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}

	refused := []struct {
		name, query, param string
	}{
		{"a page of 0", "page=0", "page"},
		{"a page that is not a number", "page=two", "page"},
		{"a negative page size", "per=-5", "per"},
		{"a page size of 0", "per=0", "per"},
		{"a page size over the largest", "per=501", "per"},
		{"a state that is neither live nor finished", "state=done", "state"},
		{"a source that is not served", "source=nope", "source"},
		{"a date in another form", "from=07/01/2026", "from"},
		{"a date that does not exist", "to=2026-02-30", "to"},
		{"a from after the to", "from=2026-07-02&to=2026-07-01", "from"},
	}
	for _, tt := range refused {
		t.Run(tt.name+" is refused by name", func(t *testing.T) {
			v, _ := url.ParseQuery(tt.query)
			_, err := parseRunsQuery(v, sources)
			if sandtrap.ErrorCode(err) != sandtrap.EINVALID || !strings.HasPrefix(sandtrap.ErrorMessage(err), tt.param+" ") {
				t.Errorf("got error %v, want an invalid %s", err, tt.param)
			}
		})
	}
}

func TestPageCount(t *testing.T) {
	tests := []struct {
		name               string
		total, page, per   int
		wantPages          int
		wantRefused        bool
		wantMessageContain string
	}{
		{"an empty list has its first page", 0, 1, 50, 1, false, ""},
		{"an empty list has no second page", 0, 2, 50, 1, true, "page must be from 1 to 1"},
		{"a full last page is the last", 100, 2, 50, 2, false, ""},
		{"one run more opens a page", 101, 3, 50, 3, false, ""},
		{"3,000 runs at 50 fill 60 pages", 3000, 60, 50, 60, false, ""},
		{"a page past the last is refused with the last", 3000, 61, 50, 60, true, "page must be from 1 to 60, the last page of 3,000 runs at 50 a page, not 61"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pages, err := pageCount(tt.total, tt.page, tt.per)
			if pages != tt.wantPages {
				t.Errorf("got %d pages, want %d", pages, tt.wantPages)
			}
			if (err != nil) != tt.wantRefused || err != nil && !strings.Contains(err.Error(), tt.wantMessageContain) {
				t.Errorf("got error %v, want refused %v with %q", err, tt.wantRefused, tt.wantMessageContain)
			}
		})
	}
}

func TestRunsHrefKeepsTheFilters(t *testing.T) {
	q := runsQuery{Filter: sandtrap.RunFilter{Q: "night & day", Source: "history", State: sandtrap.RunFinished}, From: "2026-07-01", To: "2026-07-31", Page: 2, Per: 20}
	tests := []struct {
		name string
		got  string
		want string
	}{
		{"defaults are left out", runsHref("/", runsQuery{Page: 1, Per: defaultPer}, 1), "/"},
		{"the page is kept past the first", runsHref("/", runsQuery{Page: 1, Per: defaultPer}, 4), "/?page=4"},
		{"every filter is kept and escaped", runsHref("/", q, 3), "/?from=2026-07-01&page=3&per=20&q=night+%26+day&source=history&state=finished&to=2026-07-31"},
		{"the API and the stream take the same query", runsHref("/api/runs", q, 1), "/api/runs?from=2026-07-01&per=20&q=night+%26+day&source=history&state=finished&to=2026-07-31"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("got %q, want %q", tt.got, tt.want)
			}
		})
	}
	t.Run("a URL reads back into its query", func(t *testing.T) {
		u, _ := url.Parse(runsHref("/", q, 2))
		got, err := parseRunsQuery(u.Query(), []string{"history"})
		if err != nil {
			t.Fatal(err)
		}
		want := q
		want.Filter.From, want.Filter.To = time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 8, 1, 0, 0, 0, 0, time.UTC)
		if got != want {
			t.Errorf("got %+v, want %+v", got, want)
		}
	})
}

func TestRunsPager(t *testing.T) {
	q := runsQuery{Filter: sandtrap.RunFilter{State: sandtrap.RunFinished}, Per: 50}
	at := func(page int) runsQuery { q := q; q.Page = page; return q }
	tests := []struct {
		name        string
		q           runsQuery
		n, total    int
		pages       int
		wantRange   string
		wantPage    string
		first, last string
		newer       string
		older       string
	}{
		{"the first page links only to older runs", at(1), 50, 3000, 60, "showing 1–50 of 3,000 runs", "page 1 of 60",
			"", "/?page=60&state=finished", "", "/?page=2&state=finished"},
		{"a middle page links both ways", at(2), 50, 3000, 60, "showing 51–100 of 3,000 runs", "page 2 of 60",
			"/?state=finished", "/?page=60&state=finished", "/?state=finished", "/?page=3&state=finished"},
		{"the last page holds the oldest and links only to newer runs", at(60), 50, 3000, 60, "showing 2,951–3,000 of 3,000 runs", "page 60 of 60",
			"/?state=finished", "", "/?page=59&state=finished", ""},
		{"a short last page says how far it goes", at(3), 1, 101, 3, "showing 101–101 of 101 runs", "page 3 of 3",
			"/?state=finished", "", "/?page=2&state=finished", ""},
		{"an empty list says so", at(1), 0, 0, 1, "showing 0 of 0 runs", "page 1 of 1", "", "", "", ""},
		{"one run is one run", at(1), 1, 1, 1, "showing 1–1 of 1 run", "page 1 of 1", "", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := runsPager(tt.q, tt.n, tt.total, tt.pages)
			for _, c := range [][3]string{{"range", p.Range, tt.wantRange}, {"page", p.Page, tt.wantPage}, {"first", p.First, tt.first},
				{"last", p.Last, tt.last}, {"newer", p.Newer, tt.newer}, {"older", p.Older, tt.older}} {
				if c[1] != c[2] {
					t.Errorf("got %s %q, want %q", c[0], c[1], c[2])
				}
			}
		})
	}
}

// manyRunsServer serves a campaign of n runs, one an hour from 2026-01-01
// and each of one result: run i is "r%05d", named "Nightly i" for even i
// and "Canary i" for odd. The last live runs are still going.
func manyRunsServer(t *testing.T, n, live int) string {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "history.db")
	w, err := campaign.OpenWriter(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 1; i <= n; i++ {
		at := start.Add(time.Duration(i) * time.Hour)
		end := ptr(at.Add(30 * time.Minute))
		if i > n-live {
			end = nil
		}
		name := fmt.Sprintf("Nightly %d", i)
		if i%2 == 1 {
			name = fmt.Sprintf("Canary %d", i)
		}
		status := "passed"
		if i%3 == 0 {
			status = "failed"
		}
		if _, err := w.AppendRun(ctx, campaign.Run{ID: fmt.Sprintf("r%05d", i), Name: name, StartedAt: at, FinishedAt: end},
			[]campaign.Result{{RunID: fmt.Sprintf("r%05d", i), Test: "file-io/a", Target: "code-interpreter", Domain: "file-io", Status: status,
				Error: ptr("PermissionError: [Errno 13] Permission denied")}}); err != nil {
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
	t.Cleanup(func() { st.Close() })
	return httptestServer(t, h.Routes())
}

func TestRunsListRefusesBadParametersByName(t *testing.T) {
	base := manyRunsServer(t, 120, 0)
	tests := []struct {
		name, path, param string
	}{
		{"a bad date", "/?from=2026-13-01", "from"},
		{"a page past the last", "/?page=4", "page"},
		{"a page past the last of a filter", "/?q=canary&per=20&page=4", "page"},
		{"a negative page size", "/?per=-1", "per"},
		{"an unknown state", "/?state=running", "state"},
		{"an unknown source", "/?source=elsewhere", "source"},
		{"a bad date in the API", "/api/runs?to=tomorrow", "to"},
		{"a page past the last in the API", "/api/runs?page=9", "page"},
		{"a bad page size in the live stream", "/live?per=x", "per"},
	}
	for _, tt := range tests {
		t.Run(tt.name+" is a 400 naming "+tt.param, func(t *testing.T) {
			resp, body := get(t, base+tt.path)
			if resp.StatusCode != http.StatusBadRequest {
				t.Errorf("got status %d, want 400", resp.StatusCode)
			}
			if !strings.Contains(body, tt.param+" must") {
				t.Errorf("got a body without %q:\n%.400s", tt.param+" must", body)
			}
		})
	}
	t.Run("the last page is served", func(t *testing.T) {
		resp, body := get(t, base+"/?page=3")
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, "showing 101–120 of 120 runs") || !strings.Contains(body, "r00001") {
			t.Errorf("got status %d, want the last page with the oldest run", resp.StatusCode)
		}
	})
}

func TestAPIRunsPagesReachEveryRun(t *testing.T) {
	base := manyRunsServer(t, 120, 0)
	var seen []string
	next := "/api/runs?per=25"
	pages := 0
	for next != "" {
		var page APIRunPage
		resp, body := get(t, base+next)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: got status %d: %s", next, resp.StatusCode, body)
		}
		if err := json.Unmarshal([]byte(body), &page); err != nil {
			t.Fatal(err)
		}
		pages++
		if page.Total != 120 || page.Per != 25 || page.Pages != 5 || page.Page != pages {
			t.Errorf("got total %d, per %d, page %d of %d; want 120, 25, %d of 5", page.Total, page.Per, page.Page, page.Pages, pages)
		}
		if pages > 1 && page.Prev == "" {
			t.Errorf("got page %d without a link to the newer page", pages)
		}
		for _, r := range page.Runs {
			seen = append(seen, r.ID)
		}
		next = page.Next
	}
	if pages != 5 || len(seen) != 120 {
		t.Fatalf("got %d runs over %d pages, want 120 over 5", len(seen), pages)
	}
	if seen[0] != "r00120" || seen[119] != "r00001" {
		t.Errorf("got %s first and %s last, want the newest first and the oldest last", seen[0], seen[119])
	}

	t.Run("without parameters it answers the newest page", func(t *testing.T) {
		var page APIRunPage
		_, body := get(t, base+"/api/runs")
		json.Unmarshal([]byte(body), &page)
		if len(page.Runs) != defaultPer || page.Runs[0].ID != "r00120" || page.Next != "/api/runs?page=2" || page.Prev != "" {
			t.Errorf("got %d runs from %v, next %q, prev %q; want the newest %d, next /api/runs?page=2", len(page.Runs), page.Runs[0].ID, page.Next, page.Prev, defaultPer)
		}
	})
	t.Run("filters apply as on the page, and the links keep them", func(t *testing.T) {
		var page APIRunPage
		_, body := get(t, base+"/api/runs?q=canary&from=2026-01-02&to=2026-01-02&per=5")
		json.Unmarshal([]byte(body), &page)
		// Runs 24..47 start on 2026-01-02; the odd ones are canaries.
		if page.Total != 12 || page.Runs[0].ID != "r00047" || page.Next != "/api/runs?from=2026-01-02&page=2&per=5&q=canary&to=2026-01-02" {
			t.Errorf("got total %d from %s, next %q; want 12 from r00047, with the filters in next", page.Total, page.Runs[0].ID, page.Next)
		}
	})
}

func TestRunPickerSearchesInsteadOfListing(t *testing.T) {
	base := manyRunsServer(t, 3000, 0)
	pages := []string{"/", "/runs/r00001", "/runs/r00001/failures", "/runs/r00001/modes", "/runs/r00001/targets", "/runs/r00001/results/1", "/compare?base=r00001&head=r03000", "/teams", "/modes"}
	for _, path := range pages {
		t.Run("the page at "+path+" stays small with 3,000 runs", func(t *testing.T) {
			resp, body := get(t, base+path)
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("got status %d", resp.StatusCode)
			}
			if len(body) > 300<<10 {
				t.Errorf("got %d bytes, want at most 300 KB", len(body))
			}
			if n := strings.Count(body, `data-testid="picker-run"`); n > pickerRecent+1 {
				t.Errorf("got %d runs in the picker, want the recent %d and the current one", n, pickerRecent)
			}
		})
	}
	t.Run("a run page's picker marks its old run among the recent ones", func(t *testing.T) {
		_, body := get(t, base+"/runs/r00001")
		if !strings.Contains(body, `<a href="/runs/r00001" data-testid="picker-run" class="current" aria-current="true">`) {
			t.Errorf("got a picker without the current run r00001")
		}
		if !strings.Contains(body, `href="/runs/r03000" data-testid="picker-run"`) || strings.Contains(body, `href="/runs/r02990" data-testid="picker-run"`) {
			t.Errorf("got a picker without the newest run, or with more than the recent ten")
		}
		if !strings.Contains(body, "All 3,000 runs") {
			t.Errorf("got a picker that does not lead to every run")
		}
	})

	pick := func(t *testing.T, query string, datastar bool) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest("GET", base+"/picker?"+query, nil)
		if datastar {
			req.Header.Set("Datastar-Request", "true")
		}
		client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var b strings.Builder
		buf := make([]byte, 32<<10)
		for {
			n, err := resp.Body.Read(buf)
			b.Write(buf[:n])
			if err != nil {
				break
			}
		}
		return resp, b.String()
	}
	tests := []struct {
		name, query string
		want        []string
		wantRuns    int
	}{
		{"a search finds an old run by id", "q=r00007", []string{"datastar-patch-elements", `id="picker-results"`, `href="/runs/r00007"`, "1 run matches"}, 1},
		{"a search finds runs by name, the newest first, up to twenty", "q=canary+1", []string{`href="/runs/r01999"`, "runs match, the newest 20 here", `href="/?q=canary+1"`}, pickerMatches},
		{"a search marks the page's run", "q=r00001&current=r00001", []string{`href="/runs/r00001" data-testid="picker-run" class="current"`}, 1},
		{"a search that finds nothing says so", "q=weekly", []string{"No run matches this search."}, 0},
		{"an empty search lists the recent runs again", "q=", []string{"Recent runs", `href="/runs/r03000"`}, pickerRecent},
		{"an empty search lists the page's old run first again", "q=&current=r00001",
			[]string{`<ul><li><a href="/runs/r00001" data-testid="picker-run" class="current"`, `href="/runs/r03000"`}, pickerRecent + 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := pick(t, tt.query, true)
			if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
				t.Errorf("got Content-Type %q, want an event stream", ct)
			}
			for _, w := range tt.want {
				if !strings.Contains(body, w) {
					t.Errorf("got a patch without %q:\n%.1000s", w, body)
				}
			}
			if n := strings.Count(body, `data-testid="picker-run"`); n != tt.wantRuns {
				t.Errorf("got %d runs, want %d", n, tt.wantRuns)
			}
		})
	}
	t.Run("without Datastar the search leads to the runs list", func(t *testing.T) {
		resp, _ := pick(t, "q=canary", false)
		if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/?q=canary" {
			t.Errorf("got %d to %q, want 303 to /?q=canary", resp.StatusCode, resp.Header.Get("Location"))
		}
	})
}

func TestRunsStreamIsTheViewedPageOnly(t *testing.T) {
	base := manyRunsServer(t, 60, 2)
	t.Run("a page with a live run streams its own rows, with its filters", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, "GET", base+"/live?state=live&per=1", nil)
		req.Header.Set("Accept", "text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("got status %d, want a stream", resp.StatusCode)
		}
		var b strings.Builder
		buf := make([]byte, 4096)
		for !strings.Contains(b.String(), "</div>\n\n") {
			n, err := resp.Body.Read(buf)
			b.Write(buf[:n])
			if err != nil {
				t.Fatalf("stream ended early: %v\n%s", err, b.String())
			}
		}
		first := b.String()
		if n := strings.Count(first, `data-testid="run-row"`); n != 1 {
			t.Errorf("got %d rows in the first event, want the page's one", n)
		}
		for _, want := range []string{`id="run-r00060"`, "showing 1–1 of 2 runs", `href="/?page=2&amp;per=1&amp;state=live"`} {
			if !strings.Contains(first, want) {
				t.Errorf("got a first event without %q", want)
			}
		}
	})
	t.Run("a page of finished runs has nothing to stream", func(t *testing.T) {
		resp, _ := get(t, base+"/live?page=2&per=10")
		if resp.StatusCode != http.StatusNoContent {
			t.Errorf("got status %d, want 204", resp.StatusCode)
		}
	})
	t.Run("the page says where its stream is", func(t *testing.T) {
		_, body := get(t, base+"/?state=live&per=1")
		if !strings.Contains(body, `&#34;_stream&#34;:&#34;/live?per=1\u0026state=live&#34;`) {
			t.Errorf("got a page without its filtered stream")
		}
	})
}
