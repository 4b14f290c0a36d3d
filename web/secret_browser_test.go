package main

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"sandtrap/store/campaign"
)

// leakedToken and leakedPassword are credentials a failing workflow
// printed; sandtrap must not show them again.
const (
	leakedToken    = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
	leakedPassword = "AbMvKXy4J54JPK"
)

// leakCampaign writes a run whose builds failed with a GitHub token in the
// error, a database password in the log and an API key in an MCP call.
func leakCampaign(t *testing.T) string {
	msg := func(s string) *string { return &s }
	var results []campaign.Result
	for _, repo := range []string{"api", "web", "worker"} {
		results = append(results, campaign.Result{Test: "builds/clone-" + repo, Target: "code-interpreter", Domain: "builds", Status: "failed",
			Error: msg("fatal: could not read from remote repository https://" + leakedToken + "@github.com/acme/" + repo),
			Log:   []byte("step 2 run_code: psql host=db user=ci password=" + leakedPassword + "\nstep 3 git clone failed\n"),
			Steps: []campaign.Step{{Seq: 1, Tool: "run_code", Request: []byte(`{"code":"fetch('/v1?api_key=sk-live0123456789abcdefghijkl')"}`), Response: []byte(`{"ok":false}`)}}})
	}
	return nightCampaign(t, "leak.db", results)
}

func TestBrowserHidesALeakedCredentialAndSaysToRotateIt(t *testing.T) {
	chromiumPath(t)
	base := startServeRead(t, leakCampaign(t))
	ctx := newBrowser(t, 1366, 900, false)

	browse(t, ctx, chromedp.Navigate(base+"/runs/night/modes"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=queue]`)))
	waitFor(t, ctx, `document.querySelectorAll("[data-testid=queue-row]").length === 1`)
	row := read(t, ctx, chromedp.Text(chromedp.CSS(`[data-testid=queue-row]`)))
	if !strings.Contains(row, "critical") || !strings.Contains(row, "secret leaked") || strings.Contains(row, leakedToken) {
		t.Errorf("got queue row %q, want one critical mode for the leaked secret, without its value", row)
	}

	browse(t, ctx, chromedp.Navigate(base+"/runs/night/failures"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=failure-row]`)),
		chromedp.Click(chromedp.CSS(`[data-testid=failure-row] td.test a`)), chromedp.WaitVisible(chromedp.CSS(`[data-testid=fields]`)))
	first := read(t, ctx, chromedp.Text(chromedp.CSS(`[data-testid=error]`)))
	if want := "https://ghp_[redacted]@github.com/acme/"; !strings.Contains(first, want) {
		t.Errorf("got error %q, want it to contain %q", first, want)
	}
	notice := read(t, ctx, chromedp.Evaluate[string](`document.querySelector("[data-testid=secret-redacted]")?.innerText ?? ""`))
	for _, want := range []string{"3 credentials leaked into the error and the log and the MCP steps", "rotate them"} {
		if !strings.Contains(notice, want) {
			t.Errorf("got notice %q, want it to contain %q", notice, want)
		}
	}
	text := read(t, ctx, chromedp.Evaluate[string](`document.body.textContent`))
	for _, leaked := range []string{leakedToken, leakedPassword, "sk-live0123456789abcdefghijkl"} {
		if strings.Contains(text, leaked) {
			t.Errorf("got the credential %q on the result page, want its value hidden", leaked)
		}
	}
	if got := strings.Count(text, "[redacted]"); got < 3 {
		t.Errorf("got %d [redacted] marks on the result page, want one in the error, the log and the MCP step", got)
	}
	screenshot(t, ctx, "result-secret-1366")

	// The log download is the campaign's bytes, whole.
	href := read(t, ctx, chromedp.Evaluate[string](`document.querySelector("[data-testid=log-download]").href`))
	resp, err := http.Get(href)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(b), leakedPassword) {
		t.Errorf("got log download %q, want the log as the campaign holds it", b)
	}
}
