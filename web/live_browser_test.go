package main

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestMain lets the test binary run sandtrap's own commands in another
// process: with SANDTRAP_TEST_ARGS set it runs them and exits, the way the
// harness's sub-agents write while sandtrap reads.
func TestMain(m *testing.M) {
	if args := os.Getenv("SANDTRAP_TEST_ARGS"); args != "" {
		if err := run(context.Background(), strings.Split(args, "\x1f"), os.Stdout, os.Stderr); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// sandtrapProcess starts `sandtrap args...` as another process and stops it
// when the test ends.
func sandtrapProcess(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "SANDTRAP_TEST_ARGS="+strings.Join(args, "\x1f"))
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	})
	return cmd
}

// liveRunID waits for the live run to show up in the API.
func liveRunID(t *testing.T, base string) string {
	t.Helper()
	deadline := time.Now().Add(patience)
	for time.Now().Before(deadline) {
		resp, err := http.Get(base + "/api/runs")
		if err == nil {
			var body struct {
				Runs []struct {
					ID    string `json:"id"`
					Live  bool   `json:"live"`
					Total int    `json:"total"`
				} `json:"runs"`
			}
			json.NewDecoder(resp.Body).Decode(&body)
			resp.Body.Close()
			for _, r := range body.Runs {
				if r.Live && r.Total > 0 {
					return r.ID
				}
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("no live run appeared within %s", patience)
	return ""
}

func TestBrowserFollowsALiveRunAsAnotherProcessWritesIt(t *testing.T) {
	chromiumPath(t)
	campaign := demoCampaign(t)
	base := startServe(t, campaign)
	ctx := newBrowser(t, 1366, 900, false)
	// The failures list and the queue, filtered, in other browsers: a
	// background tab of one browser is frozen.
	failures := newBrowser(t, 1366, 900, false)
	queue := newBrowser(t, 1366, 900, false)

	// 250 results at 12 a second: the new failure mode comes at 60 %, the
	// end about 20 s after it starts. The writer is held while the three
	// browsers open their pages, so that a busy machine's set-up cannot use
	// up the run before they watch what only a live run shows (the demo's
	// writer goes on at its rate after a pause, not all at once).
	writer := sandtrapProcess(t, "demo", "--out", campaign, "--live", "--rate", "12", "--planned", "250", "--writers", "4")
	runID := liveRunID(t, base)
	if err := writer.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	// Runs before sandtrapProcess's cleanup, which a held writer would
	// never answer.
	t.Cleanup(func() { writer.Process.Signal(syscall.SIGCONT) })

	browse(t, failures, chromedp.Navigate(base+"/runs/"+runID+"/failures?target=browser"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=range]`)))
	browse(t, queue, chromedp.Navigate(base+"/runs/"+runID+"/modes"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=modes-summary]`)))
	firstRange := read(t, failures, chromedp.Text(chromedp.CSS(`[data-testid=range]`)))

	browse(t, ctx, chromedp.Navigate(base+"/runs/"+runID), chromedp.WaitVisible(chromedp.CSS(`[data-testid=headline]`)))
	read(t, ctx, chromedp.Evaluate[bool](`window.__stayed = true`))
	first := read(t, ctx, chromedp.Text(chromedp.CSS(`[data-testid=stat-results] .stat-value`)))
	if err := writer.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}

	// The numbers move while the other process commits.
	waitFor(t, ctx, `document.querySelector("[data-testid=stat-results] .stat-value").textContent.trim() !== `+strconv.Quote(first))
	live := read(t, ctx, chromedp.Text(chromedp.CSS(`[data-testid=live-badge]`)))
	if !strings.Contains(live, "results/min") {
		t.Errorf("got live indicator %q, want the rate", live)
	}
	screenshot(t, ctx, "overview-live-1366")

	// A failure mode never seen before in the campaign is announced. It
	// comes at 60 % of the run, at the writer's pace.
	waitFor(t, ctx, `!!document.querySelector("[data-testid=banner-new]")`)
	banner := read(t, ctx, chromedp.Text(chromedp.CSS(`[data-testid=banner-new]`)))
	if !strings.Contains(banner, "New failure mode") || !strings.Contains(banner, "first seen") {
		t.Errorf("got banner %q, want the new failure mode and when it was first seen", banner)
	}
	screenshot(t, ctx, "overview-new-mode-1366")

	// New failures arrive at the top of the filtered list, marked as new.
	waitFor(t, failures, `document.querySelector("[data-testid=range]").textContent !== `+strconv.Quote(firstRange))
	waitFor(t, failures, `!!document.querySelector("tr.flash-new")`)
	if loc := read(t, failures, chromedp.Location()); !strings.Contains(loc, "target=browser") {
		t.Errorf("got %s, want the filter kept", loc)
	}
	targets := read(t, failures, chromedp.Evaluate[[]string](`[...document.querySelectorAll("[data-testid=failure-row] td.where > span")].map(e => e.textContent.trim())`))
	for _, tg := range targets {
		if tg != "browser" {
			t.Errorf("got a %s row in the browser-only list", tg)
		}
	}
	screenshot(t, failures, "failures-live-1366")
	// The queue gains the new mode.
	waitFor(t, queue, `document.querySelector("[data-testid=queue]").innerText.includes("proxy tunnel")`)

	// The run's end is shown, and the page was never reloaded.
	waitFor(t, ctx, `!!document.querySelector("[data-testid=finished]")`)
	if !read(t, ctx, chromedp.Evaluate[bool](`window.__stayed === true`)) {
		t.Error("got a page reload, want updates in place")
	}
	total := read(t, ctx, chromedp.Text(chromedp.CSS(`[data-testid=stat-results] .stat-value`)))
	if strings.TrimSpace(total) != "250" {
		t.Errorf("got %q results at the end, want 250", total)
	}
}

func TestBrowserSaysReconnectingAndResumesWhenTheServerComesBack(t *testing.T) {
	chromiumPath(t)
	campaign := demoCampaign(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	state := filepath.Join(t.TempDir(), "state.db")
	base, stop := startServeWith(t, state, "--addr", addr, campaign)
	sandtrapProcess(t, "demo", "--out", campaign, "--live", "--rate", "4", "--planned", "10000")
	runID := liveRunID(t, base)
	ctx := newBrowser(t, 1366, 900, false)
	browse(t, ctx, chromedp.Navigate(base+"/runs/"+runID), chromedp.WaitVisible(chromedp.CSS(`[data-testid=live-badge]`)))
	read(t, ctx, chromedp.Evaluate[bool](`window.__stayed = true`))

	stop()
	waitFor(t, ctx, `document.querySelector("[data-testid=reconnecting]").classList.contains("on")`)
	screenshot(t, ctx, "overview-reconnecting-1366")

	startServeWith(t, state, "--addr", addr, campaign)
	waitFor(t, ctx, `!document.querySelector("[data-testid=reconnecting]").classList.contains("on")`)
	before := read(t, ctx, chromedp.Text(chromedp.CSS(`[data-testid=stat-results] .stat-value`)))
	waitFor(t, ctx, `document.querySelector("[data-testid=stat-results] .stat-value").textContent.trim() !== `+strconv.Quote(before))
	if !read(t, ctx, chromedp.Evaluate[bool](`window.__stayed === true`)) {
		t.Error("got a page reload, want the stream to resume in place")
	}
}
