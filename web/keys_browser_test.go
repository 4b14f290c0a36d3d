package main

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

func TestBrowserKeyboardShortcuts(t *testing.T) {
	chromiumPath(t)
	base := startServeRead(t, demoCampaign(t))
	ctx := newBrowser(t, 1366, 900, false)
	browse(t, ctx, chromedp.Navigate(base+"/runs/2026-06-30-overnight/failures"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=failures-table]`)))

	// "/" focuses the search box.
	browse(t, ctx, chromedp.KeyEvent("/"))
	if focused := read(t, ctx, chromedp.Evaluate[string](`document.activeElement.id`)); focused != "search" {
		t.Errorf("got focus on %q after /, want the search box", focused)
	}
	read(t, ctx, chromedp.Evaluate[bool](`document.activeElement.blur(), true`))

	// j moves down the list, k back up, Enter opens the row.
	browse(t, ctx, chromedp.KeyEvent("j"), chromedp.KeyEvent("j"), chromedp.KeyEvent("k"))
	selected := read(t, ctx, chromedp.Evaluate[int](`[...document.querySelectorAll("[data-testid=failure-row]")].findIndex(r => r.classList.contains("selected"))`))
	if selected != 0 {
		t.Errorf("got row %d selected after j j k, want the first", selected)
	}
	browse(t, ctx, chromedp.KeyEvent(kb.Enter))
	waitFor(t, ctx, `location.pathname.includes("/results/") && document.readyState === "complete"`)

	// g m goes to the failure-mode queue, ? opens the shortcuts, g r the runs.
	browse(t, ctx, chromedp.KeyEvent("g"), chromedp.KeyEvent("m"))
	waitFor(t, ctx, `location.pathname.endsWith("/modes") && document.readyState === "complete"`)
	browse(t, ctx, chromedp.KeyEvent("?"))
	if open := read(t, ctx, chromedp.Evaluate[bool](`document.getElementById("shortcuts").open`)); !open {
		t.Error("got the shortcuts closed after ?, want them shown")
	}
	browse(t, ctx, chromedp.KeyEvent(kb.Escape), chromedp.KeyEvent("g"), chromedp.KeyEvent("r"))
	waitFor(t, ctx, `location.pathname === "/"`)
	if title := read(t, ctx, chromedp.Title()); !strings.Contains(title, "Runs") {
		t.Errorf("got title %q after g r, want the runs list", title)
	}
}
