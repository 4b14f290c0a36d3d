package main

import (
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// firstModes returns the ids of the demo's first run's modes, worst first,
// through the JSON API, once the server has read the run.
func firstModes(t *testing.T, base string) []string {
	t.Helper()
	deadline := time.Now().Add(patience)
	for time.Now().Before(deadline) {
		resp, err := http.Get(base + "/api/runs/2026-06-30-overnight/modes")
		if err != nil {
			t.Fatal(err)
		}
		var body struct {
			Modes []struct{ ID string } `json:"modes"`
		}
		err = json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		if err == nil && len(body.Modes) >= 18 {
			var ids []string
			for _, m := range body.Modes {
				ids = append(ids, m.ID)
			}
			return ids
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("got fewer than 18 failure modes after %s, want the demo's", patience)
	return nil
}

func TestBrowserTriagesAModeInPlaceAndItSurvivesARestart(t *testing.T) {
	chromiumPath(t)
	campaign := demoCampaign(t)
	state := filepath.Join(t.TempDir(), "state.db")
	base, stop := startServeWith(t, state, campaign)
	ids := firstModes(t, base)
	mode, other := ids[0], ids[1]
	ctx := newBrowser(t, 1366, 900, false)

	browse(t, ctx, chromedp.Navigate(base+"/modes/"+mode), chromedp.WaitVisible(chromedp.CSS(`[data-testid=triage-panel]`)))
	// A marker that a full page load would wipe out.
	read(t, ctx, chromedp.Evaluate[bool](`window.__stayed = true`))

	steps := []struct {
		name   string
		do     []chromedp.Action[chromedp.Void]
		expect string // JavaScript that is true once the page shows the outcome
	}{
		{"setting the status", []chromedp.Action[chromedp.Void]{
			chromedp.SetValue(chromedp.CSS(`[data-testid=status-select]`), "triaged"),
			chromedp.Click(chromedp.CSS(`[data-testid=set-status]`))},
			`document.querySelector("[data-testid=mode-status]").textContent.trim() === "triaged"`},
		{"overriding the severity", []chromedp.Action[chromedp.Void]{
			chromedp.SetValue(chromedp.CSS(`[data-testid=severity-select]`), "low"),
			chromedp.Click(chromedp.CSS(`[data-testid=set-severity]`))},
			`document.querySelector("[data-testid=mode-header]").innerText.includes("low: set by a person")`},
		{"reclassifying", []chromedp.Action[chromedp.Void]{
			chromedp.SetValue(chromedp.CSS(`[data-testid=layer-select]`), "test"),
			chromedp.SetValue(chromedp.CSS(`[data-testid=primitive-select]`), "harness"),
			chromedp.Click(chromedp.CSS(`[data-testid=reclassify]`))},
			`document.querySelector("[data-testid=mode-header]").innerText.includes("decided by human")`},
		{"renaming", []chromedp.Action[chromedp.Void]{
			chromedp.SetValue(chromedp.CSS(`[data-testid=title-input]`), "Renamed by the night shift"),
			chromedp.Click(chromedp.CSS(`[data-testid=rename]`))},
			`document.querySelector("[data-testid=mode-heading]").textContent.includes("Renamed by the night shift")`},
		{"adding a note", []chromedp.Action[chromedp.Void]{
			chromedp.SetValue(chromedp.CSS(`[data-testid=note-input]`), "looked at it at 3am"),
			chromedp.Click(chromedp.CSS(`[data-testid=add-note]`))},
			`document.querySelector("[data-testid=notes]").innerText.includes("looked at it at 3am")`},
	}
	for _, s := range steps {
		browse(t, ctx, s.do...)
		waitFor(t, ctx, s.expect)
		msg := read(t, ctx, chromedp.Evaluate[string](`(document.querySelector("[data-testid=triage-message]") || {}).textContent || ""`))
		if msg == "" {
			t.Errorf("%s: got no feedback message in place", s.name)
		}
	}
	if !read(t, ctx, chromedp.Evaluate[bool](`window.__stayed === true`)) {
		t.Error("got a full page reload, want the triage done in place")
	}
	screenshot(t, ctx, "mode-triaged-1366")

	// A bad value gets a clear error in place.
	browse(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=merge]`)))
	waitFor(t, ctx, `!!document.querySelector("[data-testid=triage-error]")`)
	errText := read(t, ctx, chromedp.Text(chromedp.CSS(`[data-testid=triage-error]`)))
	if !strings.Contains(errText, "choose the mode to merge into") {
		t.Errorf("got error %q, want it to say what is missing", errText)
	}

	// Merging the second mode into the first lists it as a member.
	browse(t, ctx, chromedp.Navigate(base+"/modes/"+other), chromedp.WaitVisible(chromedp.CSS(`[data-testid=merge-select]`)),
		chromedp.SetValue(chromedp.CSS(`[data-testid=merge-select]`), mode),
		chromedp.Click(chromedp.CSS(`[data-testid=merge]`)))
	waitFor(t, ctx, `document.querySelector("[data-testid=members]").innerText.includes("`+mode+`")`)
	heading := read(t, ctx, chromedp.Text(chromedp.CSS(`[data-testid=mode-heading]`)))
	if heading != "Renamed by the night shift" {
		t.Errorf("got heading %q after merging, want the mode merged into", heading)
	}

	// Everything survives a restart on the same state file.
	stop()
	base, _ = startServeWith(t, state, campaign)
	browse(t, ctx, chromedp.Navigate(base+"/modes/"+mode), chromedp.WaitVisible(chromedp.CSS(`[data-testid=mode-status]`)))
	checks := map[string]string{
		`document.querySelector("[data-testid=mode-status]").textContent.trim()`:  "triaged",
		`document.querySelector("[data-testid=mode-heading]").textContent.trim()`: "Renamed by the night shift",
	}
	for js, want := range checks {
		if got := read(t, ctx, chromedp.Evaluate[string](js)); got != want {
			t.Errorf("got %q after a restart, want %q", got, want)
		}
	}
	for _, want := range []string{"looked at it at 3am", other} {
		if !read(t, ctx, chromedp.Evaluate[bool](`document.body.innerText.includes("`+want+`")`)) {
			t.Errorf("got no %q after a restart", want)
		}
	}
}
