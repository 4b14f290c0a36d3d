package main

import (
	"bufio"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"sandtrap/store/campaign"
)

// nightCampaign writes results as one run, "night", finished at 06:00 on
// 2026-12-01 after eight hours, into a new campaign file named name.
func nightCampaign(t *testing.T, name string, results []campaign.Result) string {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), name)
	w, err := campaign.OpenWriter(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for i := range results {
		results[i].RunID = "night"
	}
	done := time.Date(2026, 12, 1, 6, 0, 0, 0, time.UTC)
	if _, err := w.AppendRun(ctx, campaign.Run{ID: "night", Name: "Night", StartedAt: done.Add(-8 * time.Hour), FinishedAt: &done}, results); err != nil {
		t.Fatal(err)
	}
	return path
}

// chromiumPath finds a Chromium the browser tests can drive. Without one
// the tests skip, except under CI=true, where a missing browser fails.
func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("Chromium is missing: install Debian's chromium package (make test does it when run as root)")
	}
	t.Skip("Chromium is missing: install it (apt-get install chromium) to run the browser tests")
	return ""
}

// startServe runs `sandtrap serve` on a free loopback port, as a user would,
// with a fresh state file, and returns its base URL. The server stops when
// the test ends.
func startServe(t *testing.T, args ...string) string {
	t.Helper()
	url, _ := startServeWith(t, filepath.Join(t.TempDir(), "state.db"), args...)
	return url
}

// startServeRead is startServe on a finished campaign file, returning once
// the server has read every result in it: serve prints its address before
// its first read ends, and a finished run's pages do not stream, so a page
// opened sooner would stay as empty as it was drawn.
func startServeRead(t *testing.T, campaign string) string {
	t.Helper()
	base := startServe(t, campaign)
	readToTheEnd(t, base, countResults(t, campaign))
	return base
}

// startServeWith is startServe with a given state file; stop ends the
// server early, as a restart would.
func startServeWith(t *testing.T, state string, args ...string) (url string, stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- runServe(ctx, append([]string{"--addr", "127.0.0.1:0", "--state", state, "--poll", "10ms"}, args...), pw, io.Discard)
		pw.Close()
	}()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Error("serve did not stop within 10 s of its context ending")
			}
		})
	}
	t.Cleanup(stop)
	urlRE := regexp.MustCompile(`http://[0-9.:]+/`)
	lines := bufio.NewScanner(pr)
	for lines.Scan() {
		if u := urlRE.FindString(lines.Text()); u != "" {
			go io.Copy(io.Discard, pr)
			return strings.TrimSuffix(u, "/"), stop
		}
	}
	t.Fatalf("serve printed no URL: %v", <-done)
	return "", stop
}

// newBrowser starts headless Chromium with a window of the given size, in
// the dark colour scheme when dark is set.
func newBrowser(t *testing.T, width, height int, dark bool) context.Context {
	t.Helper()
	path := chromiumPath(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(width, height),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	scheme := "light"
	if dark {
		scheme = "dark"
	}
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
		return err
	}))
	if err != nil {
		t.Fatalf("starting Chromium: %v", err)
	}
	return ctx
}

// browse runs actions with a deadline and fails the test on error.
func browse(t *testing.T, ctx context.Context, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatalf("browser: %v", err)
	}
}

// read runs one action that returns a value, with a deadline.
func read[T any](t *testing.T, ctx context.Context, a chromedp.Action[T]) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatalf("browser: %v", err)
	}
	return v
}

// screenshot saves a full-page PNG when SANDTRAP_SCREENSHOTS names a folder,
// so that people can look at every page after a run.
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv("SANDTRAP_SCREENSHOTS")
	if dir == "" {
		return
	}
	png := read(t, ctx, chromedp.FullScreenshot(100))
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// waitFor evaluates a JavaScript expression every 50 ms until it is true,
// for up to patience. Errors while a navigation replaces the page are
// retried.
func waitFor(t *testing.T, ctx context.Context, expression string) {
	t.Helper()
	deadline := time.Now().Add(patience)
	for time.Now().Before(deadline) {
		c, cancel := context.WithTimeout(ctx, 2*time.Second)
		ok, err := chromedp.Run(c, chromedp.Evaluate[bool](expression))
		cancel()
		if err == nil && ok {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("waited %s for %s", patience, expression)
}
