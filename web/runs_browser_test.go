package main

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"sandtrap/store/campaign"
)

// historyCampaign writes n runs, one every six hours from 2026-03-01: run
// i is "r%05d", named "Canary i" when i is odd and "Nightly i" when even,
// each of two results. The last two are live.
func historyCampaign(t *testing.T, n int) string {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "history.db")
	w, err := campaign.OpenWriter(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	start := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	failed := "PermissionError: [Errno 13] Permission denied"
	for i := 1; i <= n; i++ {
		id := fmt.Sprintf("r%05d", i)
		run := campaign.Run{ID: id, Name: fmt.Sprintf("Nightly %d", i), StartedAt: start.Add(time.Duration(i-1) * 6 * time.Hour)}
		if i%2 == 1 {
			run.Name = fmt.Sprintf("Canary %d", i)
		}
		if i <= n-2 {
			end := run.StartedAt.Add(time.Hour)
			run.FinishedAt = &end
		}
		results := []campaign.Result{
			{RunID: id, Test: "file-io/a", Target: "code-interpreter", Domain: "file-io", Status: "passed"},
			{RunID: id, Test: "file-io/b", Target: "code-interpreter", Domain: "file-io", Status: "failed", Error: &failed},
		}
		if _, err := w.AppendRun(ctx, run, results); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// pressKey presses r as a keyboard does: one keyDown that carries its text,
// so that a page which handles the keydown keeps the character out of the
// field it focuses, as in a real browser. chromedp.KeyEvent sends the
// character as an event of its own, which lands whatever the page did.
func pressKey(r rune) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		down, up := *kb.Encode(r)[0], *kb.Encode(r)[0]
		down.Text, up.Type = string(r), kb.KeyUp
		for _, ev := range []input.DispatchKeyEventParams{down, up} {
			if _, err := cdp.Call(ctx, tg, input.DispatchKeyEvent, ev); err != nil {
				return err
			}
		}
		return nil
	})
}

func TestBrowserPagesFiltersAndSearchesManyRuns(t *testing.T) {
	chromiumPath(t)
	base := startServe(t, historyCampaign(t, 120))
	ctx := newBrowser(t, 1366, 900, false)
	rowIDs := `[...document.querySelectorAll("[data-testid=run-row]")].map(r => r.id)`
	rangeText := func() string { return read(t, ctx, chromedp.Text(chromedp.CSS(`[data-testid=range]`))) }

	browse(t, ctx, chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=runs-table]`)))
	waitFor(t, ctx, `document.querySelectorAll("[data-testid=run-row]").length === 50`)
	ids := read(t, ctx, chromedp.Evaluate[[]string](rowIDs))
	if ids[0] != "run-r00120" || ids[49] != "run-r00071" {
		t.Errorf("got rows %s to %s, want the newest 50, r00120 to r00071", ids[0], ids[49])
	}
	if got := rangeText(); got != "showing 1–50 of 120 runs" {
		t.Errorf("got range %q, want showing 1–50 of 120 runs", got)
	}
	screenshot(t, ctx, "runs-paged-1366")
	assertNoHorizontalScroll(t, ctx, "the paged runs list")

	t.Run("paging links reach the oldest run and back", func(t *testing.T) {
		browse(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=older]`)))
		waitFor(t, ctx, `location.search === "?page=2" && document.readyState === "complete"`)
		if got := rangeText(); got != "showing 51–100 of 120 runs" {
			t.Errorf("got range %q on page 2, want 51–100", got)
		}
		browse(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=last]`)))
		waitFor(t, ctx, `location.search === "?page=3" && document.readyState === "complete"`)
		ids := read(t, ctx, chromedp.Evaluate[[]string](rowIDs))
		if len(ids) != 20 || ids[19] != "run-r00001" {
			t.Errorf("got rows %v on the last page, want 20 ending with the oldest run, r00001", ids)
		}
		if n := read(t, ctx, chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=older], [data-testid=last]").length`)); n != 0 {
			t.Errorf("got %d links to older pages on the last page, want none", n)
		}
		browse(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=first]`)))
		waitFor(t, ctx, `location.pathname === "/" && location.search === "" && document.readyState === "complete"`)
	})

	t.Run("the form filters by name, state and dates and the URL keeps them", func(t *testing.T) {
		browse(t, ctx, chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=runs-form]`)),
			chromedp.SendKeys(chromedp.CSS(`#search`), "canary"),
			chromedp.SetValue(chromedp.CSS(`[data-testid=runs-state]`), "finished"),
			chromedp.SetValue(chromedp.CSS(`[data-testid=runs-from]`), "2026-03-05"),
			chromedp.SetValue(chromedp.CSS(`[data-testid=runs-to]`), "2026-03-10"),
			chromedp.Click(chromedp.CSS(`[data-testid=runs-filter]`)))
		waitFor(t, ctx, `location.search.includes("q=canary") && document.readyState === "complete"`)
		u, _ := url.Parse(read(t, ctx, chromedp.Location()))
		for k, want := range map[string]string{"q": "canary", "state": "finished", "from": "2026-03-05", "to": "2026-03-10"} {
			if got := u.Query().Get(k); got != want {
				t.Errorf("got %s=%q in the URL, want %q", k, got, want)
			}
		}
		// Runs 17..40 start from 5 to 10 March; the odd ones are canaries.
		ids := read(t, ctx, chromedp.Evaluate[[]string](rowIDs))
		if len(ids) != 12 || ids[0] != "run-r00039" || ids[11] != "run-r00017" {
			t.Errorf("got rows %v, want the 12 canaries r00039 to r00017", ids)
		}
		if got := rangeText(); got != "showing 1–12 of 12 runs" {
			t.Errorf("got range %q, want showing 1–12 of 12 runs", got)
		}
		kept := read(t, ctx, chromedp.Evaluate[[]string](`[document.getElementById("search").value, document.querySelector("[data-testid=runs-state]").value, document.querySelector("[data-testid=runs-from]").value]`))
		if strings.Join(kept, " ") != "canary finished 2026-03-05" {
			t.Errorf("got the form showing %v, want the filters in force", kept)
		}
		screenshot(t, ctx, "runs-filtered-1366")
		browse(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=clear-filters]`)))
		waitFor(t, ctx, `location.search === "" && document.querySelectorAll("[data-testid=run-row]").length === 50`)
	})

	t.Run("the live runs' page streams with its filters", func(t *testing.T) {
		browse(t, ctx, chromedp.Navigate(base+"/?state=live"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=runs-table]`)))
		stream := read(t, ctx, chromedp.Evaluate[string](`document.getElementById("live-anchor").dataset.signals`))
		if !strings.Contains(stream, `/live?state=live`) {
			t.Errorf("got stream signals %s, want the page's filters on /live", stream)
		}
		if n := read(t, ctx, chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=run-row] [data-testid=live-badge]").length`)); n != 2 {
			t.Errorf("got %d live rows, want the 2 live runs", n)
		}
	})

	t.Run("the picker's search jumps from a run page to an old run", func(t *testing.T) {
		browse(t, ctx, chromedp.Navigate(base+"/runs/r00118"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=headline]`)),
			chromedp.Click(chromedp.CSS(`[data-testid=run-picker] summary`)))
		waitFor(t, ctx, `document.activeElement.dataset.testid === "picker-search"`)
		if n := read(t, ctx, chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=picker-run]").length`)); n != 10 {
			t.Errorf("got %d runs in the picker, want the 10 most recent", n)
		}
		browse(t, ctx, chromedp.SendKeys(chromedp.CSS(`[data-testid=picker-search]`), "Canary 3"))
		waitFor(t, ctx, `!!document.querySelector("[data-testid=picker-run][href='/runs/r00003']")`)
		screenshot(t, ctx, "picker-search-1366")
		browse(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=picker-run][href='/runs/r00003']`)))
		waitFor(t, ctx, `location.pathname === "/runs/r00003" && document.readyState === "complete"`)
		if got := read(t, ctx, chromedp.Text(chromedp.CSS(`[data-testid=run-picker] summary .run-name`))); got != "Canary 3" {
			t.Errorf("got the picker showing %q, want the old run, Canary 3", got)
		}
		current := read(t, ctx, chromedp.Evaluate[string](`document.querySelector("[data-testid=picker-run].current").getAttribute("href")`))
		if current != "/runs/r00003" {
			t.Errorf("got %q marked current in the picker, want the old run it lists first", current)
		}
	})

	t.Run("the keyboard opens the picker, finds a run and opens it", func(t *testing.T) {
		browse(t, ctx, chromedp.Navigate(base+"/runs/r00118"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=headline]`)),
			pressKey('/'))
		waitFor(t, ctx, `document.querySelector("[data-testid=run-picker]").open && document.activeElement.dataset.testid === "picker-search"`)
		if got := read(t, ctx, chromedp.Evaluate[string](`document.activeElement.value`)); got != "" {
			t.Errorf("got %q in the picker's search after /, want it empty", got)
		}
		browse(t, ctx, chromedp.KeyEvent("r00002"))
		waitFor(t, ctx, `document.querySelectorAll("[data-testid=picker-run]").length === 1`)
		browse(t, ctx, chromedp.KeyEvent(kb.Tab))
		if got := read(t, ctx, chromedp.Evaluate[string](`document.activeElement.getAttribute("href")`)); got != "/runs/r00002" {
			t.Fatalf("got focus on %q after Tab, want the run found", got)
		}
		browse(t, ctx, chromedp.KeyEvent(kb.Enter))
		waitFor(t, ctx, `location.pathname === "/runs/r00002" && document.readyState === "complete"`)

		browse(t, ctx, pressKey('/'))
		waitFor(t, ctx, `document.querySelector("[data-testid=run-picker]").open`)
		browse(t, ctx, chromedp.KeyEvent(kb.Escape))
		waitFor(t, ctx, `!document.querySelector("[data-testid=run-picker]").open && document.activeElement.tagName === "SUMMARY"`)
	})

	t.Run("without a match the picker's search leads to the runs list", func(t *testing.T) {
		browse(t, ctx, chromedp.Navigate(base+"/runs/r00118"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=headline]`)),
			chromedp.Click(chromedp.CSS(`[data-testid=run-picker] summary`)),
			chromedp.SendKeys(chromedp.CSS(`[data-testid=picker-search]`), "nightly 11"))
		waitFor(t, ctx, `(document.querySelector("[data-testid=picker-heading]")?.textContent ?? "").includes("runs match")`)
		browse(t, ctx, chromedp.SendKeys(chromedp.CSS(`[data-testid=picker-search]`), kb.Enter))
		waitFor(t, ctx, `location.pathname === "/" && location.search === "?q=nightly+11" && document.readyState === "complete"`)
		// Nightly 110, 112, 114, 116 and 118.
		if got := rangeText(); got != "showing 1–5 of 5 runs" {
			t.Errorf("got range %q, want the 5 runs named nightly 11…", got)
		}
	})
}
