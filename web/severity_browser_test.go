package main

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"sandtrap/store/campaign"
)

// lostWorkCampaign writes a finished run where a protobuf message came
// back cut, in words no severity refinement names, and a module is
// missing. lostWork is a loss that no severity refinement names, in a
// primitive whose default is not critical, so only the learned model
// rates it critical. Earlier sentences stopped fitting as the models and
// the defaults moved: "were lost" went to storage-persistence, whose
// refinement rated it critical first, and since 2026-12-02 that
// primitive is critical by default; a session whose kernel state was not
// restored stopped being guessed when the models learned realworld412
// to realworld419.
const lostWork = "google.protobuf.message.DecodeError: Truncated message."

func lostWorkCampaign(t *testing.T) string {
	msg := func(s string) *string { return &s }
	var results []campaign.Result
	for i := range 3 {
		results = append(results, campaign.Result{Test: "data-analysis/load-" + string(rune('a'+i)), Target: "code-interpreter",
			Domain: "data-analysis", Status: "failed", Error: msg(lostWork)})
	}
	for i := range 5 {
		results = append(results, campaign.Result{Test: "package-install/pandas-" + string(rune('a'+i)), Target: "code-interpreter",
			Domain: "package-install", Status: "failed", Error: msg("ModuleNotFoundError: No module named 'pandas'")})
	}
	return nightCampaign(t, "lost.db", results)
}

func TestBrowserShowsWhyTheSeverityModelRatesAModeCritical(t *testing.T) {
	chromiumPath(t)
	base := startServeRead(t, lostWorkCampaign(t))
	ctx := newBrowser(t, 1366, 900, false)
	browse(t, ctx, chromedp.Navigate(base+"/runs/night/modes"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=queue]`)))
	waitFor(t, ctx, `document.querySelectorAll("[data-testid=queue-row]").length === 2`)
	first := read(t, ctx, chromedp.Text(chromedp.CSS(`[data-testid=queue-row]`)))
	if !strings.Contains(first, "critical") || !strings.Contains(first, "Truncated message") {
		t.Errorf("got first queue row %q, want the cut message, critical, ranked above the five missing modules", first)
	}
	browse(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=queue-row] [data-testid=mode-title]`)), chromedp.WaitVisible(chromedp.CSS(`[data-testid=severity-reason]`)))
	reason := read(t, ctx, chromedp.Text(chromedp.CSS(`[data-testid=severity-reason]`)))
	words, ok := strings.CutPrefix(reason, "critical: reads like the failures people rated critical (")
	if !ok || !strings.HasSuffix(words, ")") {
		t.Fatalf("got severity reason %q, want the model's reason with its words", reason)
	}
	// Which words lean most moves as the model learns; that they are the
	// signature's does not.
	for _, w := range strings.Split(strings.TrimSuffix(words, ")"), ", ") {
		if !strings.Contains(strings.ToLower(lostWork), w) {
			t.Errorf("got the word %q in the reason %q, want only words of the signature", w, reason)
		}
	}
	screenshot(t, ctx, "mode-learned-critical-1366")
}
