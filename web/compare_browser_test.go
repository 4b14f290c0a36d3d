package main

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"sandtrap/demo"

	"sandtrap"
	"sandtrap/store"
)

// markFixed marks the demo's persisting modes of the tab crash as fixed in
// a state file, as a person triaging would, and returns the state's path.
func markFixed(t *testing.T, campaign string) (state string, fixed int) {
	t.Helper()
	ctx := context.Background()
	state = filepath.Join(t.TempDir(), "state.db")
	st, err := store.Open(ctx, store.Options{StatePath: state, Campaigns: []string{campaign}})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	st.Start(ctx)
	if err := st.WaitIndexed(ctx); err != nil {
		t.Fatal(err)
	}
	c, err := st.Compare(ctx, demoBase, demoHead, 0)
	if err != nil {
		t.Fatal(err)
	}
	status := "fixed"
	for _, m := range c.Persisting {
		if strings.HasPrefix(m.Signature, "[known:browser-renderer-crashed]") {
			if _, err := st.UpdateMode(ctx, m.ID, sandtrap.Triage{Status: &status}); err != nil {
				t.Fatal(err)
			}
			fixed++
		}
	}
	if fixed == 0 {
		t.Fatal("the demo has no persisting tab crash to mark fixed")
	}
	return state, fixed
}

func TestBrowserComparesTheDemoRuns(t *testing.T) {
	chromiumPath(t)
	path := demoCampaign(t)
	state, fixed := markFixed(t, path)
	base := startServe(t, "--state", state, path)
	waitForDemo(t, base)
	ctx := newBrowser(t, 1366, 768, false)

	browse(t, ctx, chromedp.Navigate(base+"/runs/"+demoHead), chromedp.Click(chromedp.CSS(`[data-testid=run-views] [data-testid=compare-previous]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=compare-headline]`)))
	loc := read(t, ctx, chromedp.Location())
	if u, _ := url.Parse(loc); u.Query().Get("base") != demoBase || u.Query().Get("head") != demoHead {
		t.Errorf("got %s after compare with previous, want the permalink of %s against %s", loc, demoHead, demoBase)
	}
	counts := read(t, ctx, chromedp.Evaluate[map[string]int](`(() => {
		const rows = g => document.querySelectorAll("[data-testid=group-" + g + "] [data-testid=mode-change-row]").length;
		const returned = document.getElementById("returned"), modes = document.getElementById("modes");
		return {returned: rows("returned"), new: rows("new"), resolved: rows("resolved"),
			returnedFirst: returned.compareDocumentPosition(modes) & Node.DOCUMENT_POSITION_FOLLOWING ? 1 : 0,
			banner: document.querySelectorAll("[data-testid=returned-banner]").length,
			fixed: document.querySelectorAll("[data-testid=group-tests-fixed] [data-testid=test-row]").length,
			regressed: document.querySelectorAll("[data-testid=group-tests-regressed] [data-testid=test-row]").length};
	})()`))
	exp := demo.Expected()
	// One mode per demo key: the new ones are the demo's added keys, and
	// the resolved ones its fixed keys.
	want := map[string]int{"returned": fixed, "new": len(exp.ModesAdded), "resolved": len(exp.ModesFixed), "returnedFirst": 1, "banner": 1,
		"fixed": len(exp.TestsFixed), "regressed": len(exp.TestsRegressed)}
	for k, v := range want {
		if counts[k] != v {
			t.Errorf("got %s = %d on the compare page, want %d", k, counts[k], v)
		}
	}
	assertNoHorizontalScroll(t, ctx, "the compare page")

	// The selects are a plain GET form: swapping the runs by hand works.
	browse(t, ctx, chromedp.SetValue(chromedp.CSS(`#base`), demoHead), chromedp.SetValue(chromedp.CSS(`#head`), demoHead),
		chromedp.Submit(chromedp.CSS(`[data-testid=compare-form]`)), chromedp.WaitVisible(chromedp.CSS(`[data-testid=identical]`)))

	browse(t, ctx, chromedp.Navigate(base+"/runs/"+demoHead+"/targets"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=diff-toggle]`)))
	all := read(t, ctx, chromedp.Evaluate[int](`document.querySelectorAll("#target-primitives .bar-row").length`))
	browse(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=diff-toggle]`)), chromedp.WaitVisible(chromedp.CSS(`[data-testid=hidden-rows]`)))
	diff := read(t, ctx, chromedp.Evaluate[int](`document.querySelectorAll("#target-primitives .bar-row").length`))
	if loc := read(t, ctx, chromedp.Location()); diff >= all || diff == 0 {
		t.Errorf("got %d primitive rows of %d at %s with differences only, want fewer but some", diff, all, loc)
	}
	assertNoHorizontalScroll(t, ctx, "the targets page")
}

func TestScreenshotsOfTheComparisons(t *testing.T) {
	chromiumPath(t)
	path := demoCampaign(t)
	state, _ := markFixed(t, path)
	base := startServe(t, "--state", state, path)
	waitForDemo(t, base)
	pages := map[string]string{
		"compare":      "/compare?base=" + demoBase + "&head=" + demoHead,
		"targets":      "/runs/" + demoHead + "/targets",
		"targets-diff": "/runs/" + demoHead + "/targets?diff=1",
		"runs-trend":   "/",
	}
	for _, size := range [][2]int{{1366, 768}, {1920, 1080}} {
		for _, dark := range []bool{false, true} {
			ctx := newBrowser(t, size[0], size[1], dark)
			theme := map[bool]string{false: "light", true: "dark"}[dark]
			for name, p := range pages {
				browse(t, ctx, chromedp.Navigate(base+p), chromedp.WaitVisible(chromedp.CSS(`[data-testid=main]`)))
				screenshot(t, ctx, fmt.Sprintf("%s-%d-%s", name, size[0], theme))
				assertNoHorizontalScroll(t, ctx, name)
			}
		}
	}
}
