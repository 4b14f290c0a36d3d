package main

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"sandtrap/demo"
	"sandtrap/views"
)

// demoCampaign writes the demo campaign once per test into a temp folder.
func demoCampaign(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "demo.db")
	if _, err := demo.Write(context.Background(), path, demo.Options{Seed: 1}); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestBrowserWalksFromTheRunsListToOneResult(t *testing.T) {
	chromiumPath(t)
	base := startServeRead(t, demoCampaign(t))
	ctx := newBrowser(t, 1366, 768, false)

	browse(t, ctx, chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=runs-table]`)))
	rows := read(t, ctx, chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=run-row]").length`))
	if rows != 2 {
		t.Errorf("got %d runs in the list, want the demo's 2", rows)
	}
	screenshot(t, ctx, "runs-1366")
	assertNoHorizontalScroll(t, ctx, "the runs list")

	browse(t, ctx, chromedp.Click(chromedp.CSS(`#run-2026-06-30-overnight a`)), chromedp.WaitVisible(chromedp.CSS(`[data-testid=headline]`)))
	headline := read(t, ctx, chromedp.Text(chromedp.CSS(`[data-testid=headline]`)))
	if !strings.Contains(headline, "% passed — ") || !strings.Contains(headline, "failures") {
		t.Errorf("got headline %q, want the pass rate and the failures", headline)
	}
	screenshot(t, ctx, "overview-1366")
	assertNoHorizontalScroll(t, ctx, "the overview")

	// A heatmap cell leads to exactly the failures it counts.
	cell := read(t, ctx, chromedp.Evaluate[map[string]string](`(() => {
		const a = document.querySelector("#heat-domain-primitive a");
		return {href: a.getAttribute("href"), count: a.querySelector("text").textContent.trim()};
	})()`))
	browse(t, ctx, chromedp.Navigate(base+cell["href"]), chromedp.WaitVisible(chromedp.CSS(`[data-testid=range]`)))
	rangeText := read(t, ctx, chromedp.Text(chromedp.CSS(`[data-testid=range]`)))
	if want := "of " + cell["count"]; !strings.HasSuffix(rangeText, want) {
		t.Errorf("got range %q after clicking a heatmap cell of %s, want it to end with %q", rangeText, cell["count"], want)
	}

	// A facet value narrows the list and lands in the URL.
	browse(t, ctx, chromedp.Navigate(base+"/runs/2026-06-30-overnight/failures"),
		chromedp.Click(chromedp.CSS(`[data-testid=facet-target] [data-testid=facet-value]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=active-filter]`)))
	loc := read(t, ctx, chromedp.Location())
	if u, _ := url.Parse(loc); u.Query().Get("target") == "" {
		t.Errorf("got URL %s after clicking a target facet, want target= in it", loc)
	}
	screenshot(t, ctx, "failures-1366")
	assertNoHorizontalScroll(t, ctx, "the failures list")

	// Searching keeps the filter and finds the error text.
	browse(t, ctx, chromedp.SendKeys(chromedp.CSS(`#search`), "Target crashed\n"))
	waitFor(t, ctx, `location.search.includes("q=")`)
	loc = read(t, ctx, chromedp.Location())
	if u, _ := url.Parse(loc); u.Query().Get("q") != "Target crashed" || u.Query().Get("target") == "" {
		t.Errorf("got URL %s after searching, want q and the target filter", loc)
	}

	// The first row opens its result with the log and the fields.
	browse(t, ctx, chromedp.Navigate(base+"/runs/2026-06-30-overnight/failures?primitive=encoding"),
		chromedp.Click(chromedp.CSS(`[data-testid=failure-row] td.test a`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=fields]`)))
	lines := read(t, ctx, chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=log] .log-line").length`))
	if lines == 0 {
		t.Error("got a result page without log lines")
	}
	screenshot(t, ctx, "result-1366")
}

// assertNoHorizontalScroll fails when the page is wider than the window.
func assertNoHorizontalScroll(t *testing.T, ctx context.Context, what string) {
	t.Helper()
	over := read(t, ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth - document.documentElement.clientWidth`))
	if over > 0 {
		t.Errorf("got %s %d px wider than the window, want no horizontal scroll", what, over)
	}
}

func TestBrowserShowsHostileBytesFaithfully(t *testing.T) {
	chromiumPath(t)
	path := demoCampaign(t)
	base := startServeRead(t, path)
	ctx := newBrowser(t, 1366, 768, false)
	// The demo's harness quoted a page with a script tag in some titles.
	browse(t, ctx, chromedp.Navigate(base+"/runs/2026-06-30-overnight/failures?status=all&limit=500"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=range]`)))
	shown := read(t, ctx, chromedp.Evaluate[bool](`document.body.innerText.includes("<script>alert(1)</script>")`))
	if !shown {
		t.Error("got no visible <script>alert(1)</script> text, want the hostile title shown as text")
	}
	scripts := read(t, ctx, chromedp.Evaluate[int](`document.querySelectorAll("script:not([src])").length + document.querySelectorAll("img[onerror]").length`))
	if scripts != 0 {
		t.Errorf("got %d inline scripts or event handlers in the page, want none", scripts)
	}
}

func TestScreenshotsInBothThemesAndSizes(t *testing.T) {
	if os.Getenv("SANDTRAP_SCREENSHOTS") == "" {
		t.Skip("set SANDTRAP_SCREENSHOTS to a folder to take every screenshot")
	}
	base := startServe(t, demoCampaign(t))
	pages := map[string]string{
		"runs": "/", "overview": "/runs/2026-06-30-overnight", "failures": "/runs/2026-06-30-overnight/failures",
		"result": "/runs/2026-06-30-overnight/failures?primitive=encoding",
	}
	for _, size := range [][2]int{{1366, 768}, {1920, 1080}} {
		for _, dark := range []bool{false, true} {
			ctx := newBrowser(t, size[0], size[1], dark)
			theme := map[bool]string{false: "light", true: "dark"}[dark]
			for name, p := range pages {
				browse(t, ctx, chromedp.Navigate(base+p), chromedp.WaitVisible(chromedp.CSS(`[data-testid=main]`)))
				if name == "result" {
					browse(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=failure-row] td.test a`)), chromedp.WaitVisible(chromedp.CSS(`[data-testid=fields]`)))
				}
				screenshot(t, ctx, fmt.Sprintf("%s-%d-%s", name, size[0], theme))
				assertNoHorizontalScroll(t, ctx, name)
			}
		}
	}
}

func TestBrowserShowsTheEndOfALogTooLongToShowWhole(t *testing.T) {
	chromiumPath(t)
	path := demoCampaign(t)
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	var (
		id    int64
		run   string
		size  int
		whole []byte
	)
	err = db.QueryRow(`SELECT id, run_id, length(CAST(log AS BLOB)), CAST(log AS BLOB) FROM results
		WHERE length(CAST(log AS BLOB)) > 1048576 ORDER BY id LIMIT 1`).Scan(&id, &run, &size, &whole)
	db.Close()
	if err != nil {
		t.Fatalf("finding the demo's long log: %v", err)
	}
	lastLine := string(whole[bytes.LastIndexByte(bytes.TrimRight(whole, "\n"), '\n')+1:])
	lastLine = strings.TrimSpace(lastLine)

	base := startServe(t, path)
	ctx := newBrowser(t, 1366, 768, false)
	browse(t, ctx, chromedp.Navigate(fmt.Sprintf("%s/runs/%s/results/%d", base, run, id)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=log-truncated]`)))
	got := read(t, ctx, chromedp.Evaluate[map[string]any](`(() => {
		const tail = [...document.querySelectorAll("[data-testid=log-tail] .log-line .lt")];
		return {tailLines: tail.length, last: tail.length ? tail[tail.length - 1].innerText.trim() : "",
			meta: document.querySelector("[data-testid=log-meta]").innerText,
			download: document.querySelector("[data-testid=log-download]").getAttribute("href")};
	})()`))
	if n, _ := got["tailLines"].(float64); n < 10 {
		t.Errorf("got %v lines at the end of the cut log, want the last few hundred", got["tailLines"])
	}
	if got["last"] != lastLine {
		t.Errorf("got %q as the last line shown, want the log's own last line %q", got["last"], lastLine)
	}
	if meta, _ := got["meta"].(string); !strings.Contains(meta, "showing the first 1,048,576 bytes of "+views.FormatInt(size)) {
		t.Errorf("got %q above the log, want it to say how much of the %d bytes it shows", meta, size)
	}
	resp, err := http.Get(base + got["download"].(string))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !bytes.Equal(body, whole) {
		t.Errorf("got %d bytes from the download, want the whole log's %d", len(body), len(whole))
	}
	browse(t, ctx, chromedp.ScrollIntoView(chromedp.CSS(`[data-testid=log-truncated]`)))
	screenshot(t, ctx, "result-long-log")
}

func TestBrowserSaysHowARoundTripDamagedAnArtifact(t *testing.T) {
	chromiumPath(t)
	path := demoCampaign(t)
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	// A download cut at its first NUL byte (a zip, whose format says so)
	// and an image whose bytes were flipped (which do not say how).
	find := func(where string) (run string, id int64) {
		t.Helper()
		err := db.QueryRow(`SELECT r.run_id, r.id FROM results r JOIN artifacts a ON a.result_id = r.id
			WHERE `+where+` ORDER BY r.id LIMIT 1`).Scan(&run, &id)
		if err != nil {
			t.Fatalf("finding a demo result where %s: %v", where, err)
		}
		return run, id
	}
	cutRun, cutID := find(`a.name LIKE '%.zip' AND r.error LIKE '%truncated at first NUL byte%'`)
	flipRun, flipID := find(`a.name LIKE 'roundtrip-%' AND r.error LIKE 'artifact round trip mismatch%'`)
	db.Close()

	base := startServe(t, path)
	ctx := newBrowser(t, 1366, 768, false)
	browse(t, ctx, chromedp.Navigate(fmt.Sprintf("%s/runs/%s/results/%d", base, cutRun, cutID)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=artifact-damage]`)))
	got := read(t, ctx, chromedp.Text(chromedp.CSS(`[data-testid=artifact-damage]`)))
	if want := "cut where the first NUL byte was"; got != want {
		t.Errorf("got %q as the cut download's damage, want %q", got, want)
	}
	browse(t, ctx, chromedp.Navigate(fmt.Sprintf("%s/runs/%s/results/%d", base, flipRun, flipID)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=artifact-diff]`)))
	damages := read(t, ctx, chromedp.Evaluate[int](`document.querySelectorAll("[data-testid=artifact-damage]").length`))
	if damages != 0 {
		t.Errorf("got %d damage notes on an image whose bytes were flipped, want none: its bytes do not say how", damages)
	}
}
