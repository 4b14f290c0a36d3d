package store

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"sandtrap"
	"sandtrap/compare"
	"sandtrap/triage"
)

// openBudgeted opens a store whose finished runs may hold budget bytes of
// rows (0 keeps them all) and waits for the first read.
func openBudgeted(t *testing.T, state string, budget int64, campaigns ...string) *Store {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := Open(ctx, Options{StatePath: state, Campaigns: campaigns, Poll: 5 * time.Millisecond, IndexMemory: budget})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	s.Start(context.Background())
	if err := s.WaitIndexed(ctx); err != nil {
		t.Fatalf("WaitIndexed: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// historyRows inserts n results into run, started a second apart: tests
// recur within the run and across runs, about one in four fails with one of
// two causes, some are skipped.
func historyRows(run string, n int) string {
	return `WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < ` + itoa(n) + `)
	INSERT INTO results (run_id, test, target, domain, status, started_at, error, log)
	SELECT '` + run + `', 'suite/t-' || (i % 150),
		CASE i % 3 WHEN 0 THEN 'browser' WHEN 1 THEN 'code-interpreter' ELSE 'shell' END,
		CASE i % 4 WHEN 0 THEN 'file-io' WHEN 1 THEN 'package-install' WHEN 2 THEN 'web-browsing' ELSE 'git' END,
		CASE WHEN i % 5 = 0 THEN 'failed' WHEN i % 7 = 0 THEN 'error' WHEN i % 11 = 0 THEN 'skipped' ELSE 'passed' END,
		strftime('%Y-%m-%dT%H:%M:%SZ', '2026-06-30T22:00:00Z', '+' || i || ' seconds'),
		CASE WHEN i % 5 = 0 THEN 'PermissionError: [Errno 13] Permission denied: ''/usr/lib/x' || i || ''''
		     WHEN i % 7 = 0 THEN 'page.goto: Target crashed' END,
		'log line ' || i
	FROM seq;`
}

// isLoaded reports whether a run's rows are in memory.
func isLoaded(s *Store, id string) bool {
	r, err := s.ix.Resident(id)
	return err == nil && r.Rows
}

// pages is what every page that reads a run's rows gets from the store.
type pages struct {
	Results     []sandtrap.ResultPage
	Modes       []sandtrap.ModeStat
	ModeFacets  map[string][]sandtrap.FacetValue
	Breakdown   []sandtrap.Cell
	Failed      sandtrap.Result
	Failure     sandtrap.Classification
	Passed      sandtrap.Classification
	Minutes     []triage.Minute
	Windows     []triage.Window
	Last        map[string]time.Time
	New         []sandtrap.NewMode
	Activity    sandtrap.Activity
	Occurrences []sandtrap.Occurrence
	OccTotal    int
}

// pagesOf reads the pages of one run.
func pagesOf(t *testing.T, s *Store, run string) pages {
	t.Helper()
	ctx := context.Background()
	var p pages
	for _, f := range []sandtrap.ResultFilter{{}, {Status: sandtrap.StatusAll}, {Status: sandtrap.StatusAll, Offset: 40, Limit: 7},
		{Q: "permission"}, {Target: "browser", Domain: "web-browsing"}, {Status: sandtrap.StatusPassed, Offset: 3}} {
		page, err := s.FindResults(ctx, run, f)
		if err != nil {
			t.Fatalf("FindResults(%s, %+v): %v", run, f, err)
		}
		p.Results = append(p.Results, page)
	}
	modes, facets, err := s.RunModes(ctx, run, sandtrap.ResultFilter{})
	if err != nil {
		t.Fatalf("RunModes(%s): %v", run, err)
	}
	slices.SortFunc(modes, func(a, b sandtrap.ModeStat) int { return strings.Compare(a.ID, b.ID) })
	p.Modes, p.ModeFacets = modes, facets
	if p.Breakdown, err = s.Breakdown(ctx, run); err != nil {
		t.Fatal(err)
	}
	failed := p.Results[0].Results[0].ID
	if p.Failed, p.Failure, err = s.FindResult(ctx, run, failed); err != nil {
		t.Fatalf("FindResult(%s, %d): %v", run, failed, err)
	}
	passed := p.Results[5].Results[0].ID
	if _, p.Passed, err = s.FindResult(ctx, run, passed); err != nil {
		t.Fatalf("FindResult(%s, %d): %v", run, passed, err)
	}
	if p.Minutes, p.Windows, err = s.RunTimeline(ctx, run); err != nil {
		t.Fatal(err)
	}
	if p.Last, err = s.LastFailures(ctx, run); err != nil {
		t.Fatal(err)
	}
	if p.New, err = s.NewModesSince(ctx, run, time.Time{}); err != nil {
		t.Fatal(err)
	}
	if p.Activity, err = s.RunActivity(ctx, run, time.Date(2026, 6, 30, 22, 5, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	if p.Occurrences, p.OccTotal, err = s.ModeOccurrences(ctx, p.Results[0].Results[0].Mode, 5, 3); err != nil {
		t.Fatal(err)
	}
	scrub(reflect.ValueOf(&p).Elem())
	return p
}

// scrub zeroes the first-seen time of every failure mode in v: when each
// store first classified one, which two stores never share.
func scrub(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			scrub(v.Elem())
		}
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[sandtrap.Mode]() {
			v.FieldByName("FirstSeen").Set(reflect.ValueOf(time.Time{}))
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				scrub(v.Field(i))
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			scrub(v.Index(i))
		}
	}
}

// differences names the fields in which two values of one struct type
// differ, with both values.
func differences(got, want any) string {
	g, w := reflect.ValueOf(got), reflect.ValueOf(want)
	var out []string
	for i := range g.NumField() {
		if !reflect.DeepEqual(g.Field(i).Interface(), w.Field(i).Interface()) {
			out = append(out, fmt.Sprintf("%s: got %.1500v\nwant %.1500v", g.Type().Field(i).Name, g.Field(i).Interface(), w.Field(i).Interface()))
		}
	}
	return strings.Join(out, "\n")
}

// comparisonOf compares two runs.
func comparisonOf(t *testing.T, s *Store, base, head string) compare.Comparison {
	t.Helper()
	c, err := s.Compare(context.Background(), base, head, 0)
	if err != nil {
		t.Fatalf("Compare(%s, %s): %v", base, head, err)
	}
	scrub(reflect.ValueOf(&c).Elem())
	return c
}

// memoryCampaign holds two finished runs of 600 and 400 results and a live
// run of 300.
func memoryCampaign(t *testing.T) string {
	path := newCampaign(t, "c.db")
	addRun(t, path, "r1", true, historyRows("r1", 600))
	addRun(t, path, "r2", true, historyRows("r2", 400))
	addRun(t, path, "live", false, historyRows("live", 300))
	return path
}

func TestAnEvictedRunAnswersAsOneKeptInMemory(t *testing.T) {
	path := memoryCampaign(t)
	kept := openBudgeted(t, filepath.Join(t.TempDir(), "kept.db"), 0, path)
	tight := openBudgeted(t, filepath.Join(t.TempDir(), "tight.db"), 1, path)
	for _, run := range []string{"r1", "r2"} {
		if isLoaded(tight, run) {
			t.Errorf("finished run %s: got its rows in memory after the first read, want them evicted", run)
		}
	}
	for _, run := range []string{"r1", "r2", "live"} {
		t.Run("the pages of "+run+" are the same", func(t *testing.T) {
			if diff := differences(pagesOf(t, tight, run), pagesOf(t, kept, run)); diff != "" {
				t.Error(diff)
			}
		})
	}
	t.Run("comparisons are the same", func(t *testing.T) {
		for _, pair := range [][2]string{{"r1", "r2"}, {"r2", "live"}, {"r1", "r1"}} {
			if diff := differences(comparisonOf(t, tight, pair[0], pair[1]), comparisonOf(t, kept, pair[0], pair[1])); diff != "" {
				t.Errorf("Compare(%s, %s): %s", pair[0], pair[1], diff)
			}
		}
	})
	t.Run("what was paged in for a page is evicted again", func(t *testing.T) {
		for _, run := range []string{"r1", "r2"} {
			if isLoaded(tight, run) {
				t.Errorf("run %s: got its rows in memory over a budget of 1 byte, want them evicted", run)
			}
		}
	})
}

func TestALiveRunIsNeverEvicted(t *testing.T) {
	path := memoryCampaign(t)
	s := openBudgeted(t, filepath.Join(t.TempDir(), "state.db"), 1, path)
	if !isLoaded(s, "live") {
		t.Fatal("got the live run evicted after the first read, want it in memory")
	}
	harness(t, path, historyRows("live", 50))
	waitUntil(t, func() bool { run, _ := s.FindRun(context.Background(), "live"); return run.Counts.Total == 350 })
	pagesOf(t, s, "r1") // pages in and evicts another run meanwhile
	if !isLoaded(s, "live") {
		t.Error("got the live run evicted after it grew, want it in memory")
	}
	page, err := s.FindResults(context.Background(), "live", sandtrap.ResultFilter{Status: sandtrap.StatusAll})
	if err != nil {
		t.Fatal(err)
	}
	if page.Total != 350 {
		t.Errorf("got %d results of the live run, want 350", page.Total)
	}
}

func TestTheRunLookedAtLeastLatelyIsEvictedFirst(t *testing.T) {
	path := newCampaign(t, "c.db")
	for _, run := range []string{"a", "b", "c"} {
		addRun(t, path, run, true, historyRows(run, 500))
	}
	state := filepath.Join(t.TempDir(), "state.db")
	openBudgeted(t, state, 0, path).Close()
	// Started again, the store holds no rows until they are looked at.
	measure := openBudgeted(t, state, 0, path)
	if _, err := measure.FindResults(context.Background(), "a", sandtrap.ResultFilter{}); err != nil {
		t.Fatal(err)
	}
	held, err := measure.ix.Resident("a")
	if err != nil {
		t.Fatal(err)
	}
	size := held.RowBytes
	measure.Close()

	// Room for two runs, not three.
	s := openBudgeted(t, state, 2*size+size/2, path)
	for _, run := range []string{"a", "b", "a", "c"} {
		if _, err := s.FindResults(context.Background(), run, sandtrap.ResultFilter{}); err != nil {
			t.Fatal(err)
		}
	}
	for run, want := range map[string]bool{"a": true, "b": false, "c": true} {
		if got := isLoaded(s, run); got != want {
			t.Errorf("run %s after looking at a, b, a, c: got loaded=%v, want %v", run, got, want)
		}
	}
}

func TestLateResultsOfAnEvictedRunAreAddedToIt(t *testing.T) {
	path := memoryCampaign(t)
	state := filepath.Join(t.TempDir(), "state.db")
	s := openBudgeted(t, state, 1, path)
	harness(t, path, historyRows("r1", 20))
	waitUntil(t, func() bool { run, _ := s.FindRun(context.Background(), "r1"); return run.Counts.Total == 620 })
	check := func(s *Store, when string) {
		page, err := s.FindResults(context.Background(), "r1", sandtrap.ResultFilter{Status: sandtrap.StatusAll, Limit: 1})
		if err != nil {
			t.Fatal(err)
		}
		failed, err := s.FindResults(context.Background(), "r1", sandtrap.ResultFilter{})
		if err != nil {
			t.Fatal(err)
		}
		// 600/5 + 600/7 - 600/35 failures, and 20/5 + 20/7 late ones.
		if page.Total != 620 || failed.Total != 194 {
			t.Errorf("%s: got %d results and %d failures, want 620 and 194", when, page.Total, failed.Total)
		}
	}
	check(s, "after the late results")
	s.Close()
	check(openBudgeted(t, state, 1, path), "after a restart")
}

func TestARestartReadsOnlyCountsUntilARunIsLookedAt(t *testing.T) {
	path := memoryCampaign(t)
	state := filepath.Join(t.TempDir(), "state.db")
	want := pagesOf(t, openBudgeted(t, state, 0, path), "r2")

	s, err := Open(context.Background(), Options{StatePath: state, Campaigns: []string{path}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, run := range []string{"r1", "r2", "live"} {
		if isLoaded(s, run) {
			t.Errorf("run %s: got its rows loaded by Open, want only its counts", run)
		}
	}
	runs, err := s.ListRuns(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var totals []int
	for _, r := range runs {
		totals = append(totals, r.Counts.Total)
	}
	if !reflect.DeepEqual(totals, []int{300, 600, 400}) {
		t.Errorf("got run totals %v from the counts, want [300 600 400]", totals)
	}
	if diff := differences(pagesOf(t, s, "r2"), want); diff != "" {
		t.Error(diff)
	}
	if !isLoaded(s, "r2") || isLoaded(s, "r1") {
		t.Errorf("got r2 loaded=%v and r1 loaded=%v after looking at r2, want true and false", isLoaded(s, "r2"), isLoaded(s, "r1"))
	}
}

func TestReadersSeeTheSameAnswersWhileRunsAreEvictedAndPagedIn(t *testing.T) {
	path := memoryCampaign(t)
	kept := openBudgeted(t, filepath.Join(t.TempDir(), "kept.db"), 0, path)
	ctx := context.Background()
	type answer struct {
		Page  sandtrap.ResultPage
		Modes int
		Cmp   compare.Comparison
	}
	answerOf := func(s *Store, run string) (answer, error) {
		page, err := s.FindResults(ctx, run, sandtrap.ResultFilter{Status: sandtrap.StatusAll, Offset: 100, Limit: 20})
		if err != nil {
			return answer{}, err
		}
		modes, _, err := s.RunModes(ctx, run, sandtrap.ResultFilter{})
		if err != nil {
			return answer{}, err
		}
		c, err := s.Compare(ctx, "r1", run, 10)
		scrub(reflect.ValueOf(&c).Elem())
		return answer{page, len(modes), c}, err
	}
	want := map[string]answer{}
	for _, run := range []string{"r1", "r2"} {
		a, err := answerOf(kept, run)
		if err != nil {
			t.Fatal(err)
		}
		want[run] = a
	}
	// A byte evicts what a call pages in at once; 45 kB keeps one run of
	// the two in memory at a time.
	for _, budget := range []int64{1, 45_000} {
		t.Run(fmt.Sprintf("with a budget of %d bytes", budget), func(t *testing.T) {
			tight := openBudgeted(t, filepath.Join(t.TempDir(), "tight.db"), budget, path)
			var wg sync.WaitGroup
			errs := make(chan error, 8)
			for g := range 8 {
				wg.Go(func() {
					for i := range 10 {
						run := []string{"r1", "r2"}[(g+i)%2]
						got, err := answerOf(tight, run)
						if err != nil {
							errs <- err
							return
						}
						if diff := differences(got, want[run]); diff != "" {
							errs <- fmt.Errorf("run %s: %s", run, diff)
							return
						}
					}
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
		})
	}
}

func TestComparisonFactsOutliveTheRowsTheyWereFoldedFrom(t *testing.T) {
	path := memoryCampaign(t)
	kept := openBudgeted(t, filepath.Join(t.TempDir(), "kept.db"), 0, path)
	want := comparisonOf(t, kept, "r1", "r2")
	// Room for the facts of both runs (150 tests each), not for the rows
	// of either.
	var facts int64
	for _, run := range []string{"r1", "r2"} {
		held, err := kept.ix.Resident(run)
		if err != nil {
			t.Fatal(err)
		}
		facts += held.FactBytes
	}
	s := openBudgeted(t, filepath.Join(t.TempDir(), "state.db"), facts+1000, path)
	if diff := differences(comparisonOf(t, s, "r1", "r2"), want); diff != "" {
		t.Fatal(diff)
	}
	for _, run := range []string{"r1", "r2"} {
		held, err := s.ix.Resident(run)
		if err != nil {
			t.Fatal(err)
		}
		if held.Rows || !held.Facts {
			t.Errorf("run %s after a comparison: got rows loaded=%v and facts kept=%v, want the rows evicted and the facts kept", run, held.Rows, held.Facts)
		}
	}
	if diff := differences(comparisonOf(t, s, "r1", "r2"), want); diff != "" {
		t.Errorf("compared again from the kept facts: %s", diff)
	}
	if isLoaded(s, "r1") || isLoaded(s, "r2") {
		t.Error("got rows paged in to compare again, want the kept facts used")
	}
}

func TestTheModesBesideAModeComeFromTheCountsOfItsRuns(t *testing.T) {
	path := memoryCampaign(t)
	addRun(t, path, "disk", true, `INSERT INTO results (run_id, test, target, domain, status, error) VALUES
		('disk', 'a', 'shell', 'file-io', 'failed', 'OSError: [Errno 28] No space left on device'),
		('disk', 'b', 'shell', 'file-io', 'passed', NULL);`)
	state := filepath.Join(t.TempDir(), "state.db")
	openBudgeted(t, state, 0, path).Close()
	s := openBudgeted(t, state, 1, path)
	ctx := context.Background()
	page, err := s.FindResults(ctx, "r1", sandtrap.ResultFilter{Q: "permission", Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	disk, err := s.FindResults(ctx, "disk", sandtrap.ResultFilter{Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	// Which modes are offered is history_test's; here, that finding them
	// reads no run's rows.
	for _, mode := range []string{page.Results[0].Mode, disk.Results[0].Mode} {
		if _, err := s.ModesBeside(ctx, mode, 30); err != nil {
			t.Fatal(err)
		}
	}
	for _, run := range []string{"r1", "r2", "disk"} {
		if isLoaded(s, run) {
			t.Errorf("run %s: got its rows in memory, want the counts alone read", run)
		}
	}
	if _, err := s.ModesBeside(ctx, "m-nope", 30); sandtrap.ErrorCode(err) != sandtrap.ENOTFOUND {
		t.Errorf("got %v for an unknown mode, want not found", err)
	}
}
