package main

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"sandtrap/store/campaign"
)

// spawnCampaign writes a finished run whose spawn failures name the
// refused program first: the miner keeps them apart, since the tree keys on
// leading tokens, so the queue suggests merging them.
func spawnCampaign(t *testing.T) string {
	msg := func(s string) *string { return &s }
	var results []campaign.Result
	for i, prog := range []string{"gcc", "gcc", "javac", "rustc", "gcc"} {
		results = append(results, campaign.Result{Test: "builds/b" + string(rune('a'+i)), Target: "code-interpreter",
			Domain: "builds", Status: "failed", Error: msg(prog + ": fork refused by policy")})
	}
	return nightCampaign(t, "spawn.db", results)
}

func TestBrowserMergesModesTheQueueSuggests(t *testing.T) {
	chromiumPath(t)
	base := startServeRead(t, spawnCampaign(t))
	ctx := newBrowser(t, 1366, 900, false)
	browse(t, ctx, chromedp.Navigate(base+"/runs/night/modes"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=queue]`)))
	waitFor(t, ctx, `document.querySelectorAll("[data-testid=queue-row]").length === 3`)
	text := read(t, ctx, chromedp.Text(chromedp.CSS(`[data-testid=merge-suggestion]`)))
	for _, want := range []string{"These 3 modes share a template but for one token", "<*> fork refused by policy", "gcc", "javac", "rustc"} {
		if !strings.Contains(text, want) {
			t.Errorf("got suggestion %q, want it to say %q", text, want)
		}
	}
	screenshot(t, ctx, "queue-merge-suggestion-1366")
	browse(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=merge-suggested]`)))
	waitFor(t, ctx, `document.querySelectorAll("[data-testid=queue-row]").length === 1 && !document.querySelector("[data-testid=merge-suggestions]")`)
	got := read(t, ctx, chromedp.Text(chromedp.CSS(`[data-testid=queue-row]`)))
	if !strings.Contains(got, "5") {
		t.Errorf("got queue row %q, want the merged mode to count all 5 failures", got)
	}
}
