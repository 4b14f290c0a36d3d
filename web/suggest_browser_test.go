package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"sandtrap/store/campaign"
)

// spawnCampaign writes a finished run whose spawn failures name the
// refused program first: the miner keeps them apart, since the tree keys on
// leading tokens, so the queue suggests merging them.
func spawnCampaign(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "spawn.db")
	if err := campaign.Create(ctx, path); err != nil {
		t.Fatal(err)
	}
	w, err := campaign.OpenWriter(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	msg := func(s string) *string { return &s }
	var results []campaign.Result
	for i, prog := range []string{"gcc", "gcc", "javac", "rustc", "gcc"} {
		results = append(results, campaign.Result{RunID: "night", Test: "builds/b" + string(rune('a'+i)), Target: "code-interpreter",
			Domain: "builds", Status: "failed", Error: msg(prog + ": fork refused by policy")})
	}
	done := time.Date(2026, 11, 30, 6, 0, 0, 0, time.UTC)
	if _, err := w.AppendRun(ctx, campaign.Run{ID: "night", Name: "Night", StartedAt: done.Add(-8 * time.Hour), FinishedAt: &done}, results); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestBrowserMergesModesTheQueueSuggests(t *testing.T) {
	chromiumPath(t)
	base := startServe(t, spawnCampaign(t))
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
