package main

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

	"github.com/chromedp/chromedp"

	"sandtrap/store/campaign"
)

// Shape of the history campaign: historyRuns runs of historyPer results.
const (
	historyRuns = 40
	historyPer  = 60
	rareTests   = 55 // the last run's first tests, each failing with a cause of its own
	// historyModes is every cause: the rare ones are the rare tests but
	// every tenth, which has the permission error.
	historyModes = 2 + rareTests - rareTests/10
)

// historyCampaign writes runs h-01…h-40, an hour apart: a permission error
// in every run (6 a run), a tab crash in every third (2 a run), and in the
// last run rare errors, each its own cause, so that /modes has two pages.
func modesHistoryCampaign(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "history.db")
	w, err := campaign.OpenWriter(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	text := func(s string) *string { return &s }
	for n := 1; n <= historyRuns; n++ {
		run := fmt.Sprintf("h-%02d", n)
		var results []campaign.Result
		for k := 1; k <= historyPer; k++ {
			r := campaign.Result{RunID: run, Test: fmt.Sprintf("wf-%d", k), Target: "code-interpreter", Domain: "file-io", Status: "passed"}
			switch {
			case k%10 == 0:
				r.Status, r.Error = "failed", text(fmt.Sprintf("PermissionError: [Errno 13] Permission denied: '/data/out/x%d'", k))
			case k%30 == 1 && n%3 == 0:
				r.Target, r.Status, r.Error = "browser", "error", text("page.goto: Target crashed")
			case n == historyRuns && k <= rareTests:
				r.Test = fmt.Sprintf("rare-%d", k)
				r.Status, r.Error = "failed", text(fmt.Sprintf("%sError: the %s subsystem gave up", rareName(k), rareName(k)))
			}
			results = append(results, r)
		}
		s := start.Add(time.Duration(n) * time.Hour)
		end := s.Add(time.Hour)
		if _, err := w.AppendRun(ctx, campaign.Run{ID: run, Name: fmt.Sprintf("Night %d", n), StartedAt: s, FinishedAt: &end}, results); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// rareName is a made-up word per k, so that each rare error names its own
// exception.
func rareName(k int) string {
	const letters = "bcdfghjklmnpqrstvwxz"
	return "Q" + string(letters[k%20]) + "u" + string(letters[k/20]) + "x"
}

// waitForModes waits until /api/modes lists at least n modes.
func waitForModes(t *testing.T, base string, n int) {
	t.Helper()
	deadline := time.Now().Add(patience)
	for time.Now().Before(deadline) {
		var body struct{ Total int }
		if resp, err := http.Get(base + "/api/modes"); err == nil {
			json.NewDecoder(resp.Body).Decode(&body)
			resp.Body.Close()
			if body.Total >= n {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("waited %s for %d modes in /api/modes", patience, n)
}

func TestBrowserFollowsAModeAcrossTheRuns(t *testing.T) {
	chromiumPath(t)
	base := startServe(t, modesHistoryCampaign(t))
	waitForModes(t, base, historyModes)
	ctx := newBrowser(t, 1366, 900, false)
	count := func(css string) int {
		return read(t, ctx, chromedp.Evaluate[int](`document.querySelectorAll(`+jsString(css)+`).length`))
	}
	query := func() url.Values {
		u, _ := url.Parse(read(t, ctx, chromedp.Location()))
		return u.Query()
	}

	// The top bar leads to every mode across the runs, 50 to a page.
	browse(t, ctx, chromedp.Navigate(base+"/runs/h-40"), chromedp.Click(chromedp.CSS(`[data-nav=all-modes]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=stream]`)))
	if got := count(`[data-testid=stream-row]`); got != 50 {
		t.Errorf("got %d modes on the first page, want 50", got)
	}
	if got := read(t, ctx, chromedp.Text(chromedp.CSS(`[data-testid=page]`))); got != "page 1 of 2" {
		t.Errorf("got %q, want page 1 of 2", got)
	}
	screenshot(t, ctx, "modes-stream-1366")
	assertNoHorizontalScroll(t, ctx, "the modes across runs")
	browse(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=page-next]`)), chromedp.WaitVisible(chromedp.CSS(`[data-testid=page-prev]`)))
	if got, want := count(`[data-testid=stream-row]`), historyModes-50; got != want || query().Get("page") != "2" {
		t.Errorf("got %d modes on page %s, want %d on page 2", got, query().Get("page"), want)
	}

	// Filters are links and a search form, kept in the URL.
	browse(t, ctx, chromedp.Navigate(base+"/modes"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=facet-primitive]`)))
	browse(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=facet-primitive] a[href*="primitive=memory"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=active-filter]`)))
	if got := count(`[data-testid=stream-row]`); got != 1 || query().Get("primitive") != "memory" {
		t.Errorf("got %d modes at %v, want the tab crash alone", got, query())
	}
	browse(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=clear-filters]`)), chromedp.WaitVisible(chromedp.CSS(`[data-testid=page-next]`)),
		chromedp.SetValue(chromedp.CSS(`#search`), "permission"), chromedp.Submit(chromedp.CSS(`[data-testid=search-form]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=active-filter]`)))
	if got := count(`[data-testid=stream-row]`); got != 1 || query().Get("q") != "permission" {
		t.Fatalf("got %d modes at %v, want the permission error alone", got, query())
	}
	trend := read(t, ctx, chromedp.Evaluate[string](`document.querySelector("[data-testid=trend]").dataset.trend`))
	if trend != "steady" {
		t.Errorf("got trend %q for a mode that fails alike in every run, want steady", trend)
	}

	// The mode's page draws its last 30 runs, each a link to that run.
	browse(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=mode-title]`)), chromedp.WaitVisible(chromedp.CSS(`[data-testid=chart-mode-spark]`)))
	bars := read(t, ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("[data-testid=run-bar]")].map(a => a.dataset.run + "=" + a.dataset.count)`))
	if len(bars) != 30 || bars[0] != "h-11=6" || bars[29] != "h-40=6" {
		t.Errorf("got bars %v, want the last 30 runs, h-11 to h-40, with 6 failures each", bars)
	}
	facts := read(t, ctx, chromedp.Text(chromedp.CSS(`[data-testid=history-facts]`)))
	for _, want := range []string{"240 failures", "in 40 of 40 runs", "h-01", "h-40"} {
		if !strings.Contains(facts, want) {
			t.Errorf("got %q, want %q in the history", facts, want)
		}
	}
	title := read(t, ctx, chromedp.Evaluate[string](`document.querySelector("[data-testid=chart-mode-spark] svg").getAttribute("aria-label")`))
	if !strings.Contains(title, "last 30 runs") {
		t.Errorf("got the chart labelled %q, want it to say what it draws", title)
	}
	screenshot(t, ctx, "mode-history-1366")
	assertNoHorizontalScroll(t, ctx, "a mode's page")

	// Its failures are paged, newest first.
	browse(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=occ-next]`)), chromedp.WaitVisible(chromedp.CSS(`[data-testid=occ-prev]`)))
	if got := read(t, ctx, chromedp.Text(chromedp.CSS(`[data-testid=occ-range]`))); got != "51–100 of 240" || query().Get("page") != "2" {
		t.Errorf("got %q on page %s, want 51–100 of 240 on page 2", got, query().Get("page"))
	}
	if got := count(`[data-testid=occurrence]`); got != 50 {
		t.Errorf("got %d failures on the page, want 50", got)
	}
	browse(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=run-bar][data-run="h-39"]`)), chromedp.WaitVisible(chromedp.CSS(`[data-testid=failure-row]`)))
	if loc := read(t, ctx, chromedp.Location()); !strings.Contains(loc, "/runs/h-39/failures?mode=") {
		t.Errorf("got %s after clicking the bar of h-39, want its failures of the mode", loc)
	}

	// Compare suggests the latest runs and stays small.
	browse(t, ctx, chromedp.Navigate(base+"/compare"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=compare-form]`)))
	form := read(t, ctx, chromedp.Evaluate[map[string]any](`({base: document.getElementById("base").value, head: document.getElementById("head").value,
		choices: document.querySelectorAll("#compare-runs option").length, bytes: document.documentElement.outerHTML.length})`))
	if form["base"] != "h-39" || form["head"] != "h-40" || form["choices"] != 20.0 {
		t.Errorf("got %v, want h-39 against h-40 with the latest 20 runs to choose from", form)
	}
	if b := form["bytes"].(float64); b > 300_000 {
		t.Errorf("got a compare page of %.0f bytes, want at most 300 KB", b)
	}
	browse(t, ctx, chromedp.SetValue(chromedp.CSS(`#base`), "h-02"), chromedp.Submit(chromedp.CSS(`[data-testid=compare-form]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=compare-headline]`)))
	if q := query(); q.Get("base") != "h-02" || q.Get("head") != "h-40" {
		t.Errorf("got %v, want a run typed by hand, older than the suggestions, compared", q)
	}
}

// jsString quotes s for JavaScript.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
