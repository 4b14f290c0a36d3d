package main

import (
	"context"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"sandtrap/store/campaign"
)

// reversed is a title whose right-to-left override would show "exe.FDP" as
// "PDF.exe" if the browser got it raw.
const reversed = "Quarterly report \u202eexe.FDP"

// glyphOrder measures, in the page, the left edge of each character of the
// first text node of the element that selector finds; a fresh element with
// text is appended first when text is not empty.
const glyphOrder = `((selector, text) => {
	let el = document.querySelector(selector);
	if (text) {
		el = document.createElement("div");
		el.textContent = text;
		document.body.append(el);
	}
	const node = el.firstChild, range = document.createRange(), xs = [];
	for (let i = 0; i < node.length; i++) {
		range.setStart(node, i);
		range.setEnd(node, i + 1);
		xs.push(range.getBoundingClientRect().left);
	}
	return {text: node.textContent, xs};
})`

type glyphs struct {
	Text string    `json:"text"`
	Xs   []float64 `json:"xs"`
}

// inLogicalOrder reports whether every character stands right of the one
// before it, as text read left to right does.
func (g glyphs) inLogicalOrder() bool {
	for i := 1; i < len(g.Xs); i++ {
		if g.Xs[i] < g.Xs[i-1] {
			return false
		}
	}
	return len(g.Xs) > 1
}

func TestBrowserShowsAReversedTitleInLogicalOrder(t *testing.T) {
	chromiumPath(t)
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "reversed.db")
	w, err := campaign.OpenWriter(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 6, 30, 22, 0, 0, 0, time.UTC)
	target := "browser\u202e"
	title := reversed
	if err := w.InsertRun(ctx, campaign.Run{ID: "r1", Name: "Night", StartedAt: start}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.InsertResults(ctx, []campaign.Result{{RunID: "r1", Test: "report/pdf", Target: target, Domain: "report-generation",
		Status: "failed", Title: &title, Error: &title}}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	base := startServe(t, path)
	b := newBrowser(t, 1366, 768, false)

	filtered := base + "/runs/r1/failures?" + url.Values{"target": {target}}.Encode()
	browse(t, b, chromedp.Navigate(filtered), chromedp.WaitVisible(chromedp.CSS(`[data-testid=failure-row]`)))
	shown := read(t, b, chromedp.Evaluate[glyphs](glyphOrder+`("[data-testid=failure-row] td.test .sub", "")`))
	if strings.ContainsRune(shown.Text, '\u202e') || !strings.Contains(shown.Text, `\u202eexe.FDP`) {
		t.Errorf("got title %q, want the override shown as \\u202e", shown.Text)
	}
	if !shown.inLogicalOrder() {
		t.Errorf("got the title's characters at x = %v, want each right of the one before", shown.Xs)
	}
	// The same measure on the raw title finds the reordering, so the check
	// above can fail.
	if raw := read(t, b, chromedp.Evaluate[glyphs](glyphOrder+`("body", "`+strings.ReplaceAll(reversed, "\u202e", `\u202e`)+`")`)); raw.inLogicalOrder() {
		t.Errorf("got the raw title in logical order too (x = %v), want the override to reorder it", raw.Xs)
	}
	// The filter's hidden input sends the raw target back.
	kept := read(t, b, chromedp.Evaluate[string](`document.querySelector("[data-testid=search-form] input[name=target]").value`))
	if kept != target {
		t.Errorf("got the search form's target %q, want the raw %q", kept, target)
	}
}
