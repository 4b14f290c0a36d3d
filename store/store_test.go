package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"sandtrap"
	"sandtrap/store/campaign"
	"sandtrap/triage"
)

func TestOpenRefusesFilesOutsideTheContract(t *testing.T) {
	dir := t.TempDir()
	notSQLite := filepath.Join(dir, "notes.db")
	os.WriteFile(notSQLite, []byte("this is not a database, just text that is long enough to have a header"), 0o644)
	noResults := filepath.Join(dir, "noresults.db")
	harness(t, noResults, `CREATE TABLE runs (id TEXT PRIMARY KEY, name TEXT, started_at TEXT, finished_at TEXT, planned INTEGER, notes TEXT);`)
	noDomain := filepath.Join(dir, "nodomain.db")
	harness(t, noDomain, strings.Replace(campaign.Schema, "domain      TEXT NOT NULL,", "area TEXT,", 1))
	badSteps := filepath.Join(dir, "badsteps.db")
	harness(t, badSteps, strings.Replace(campaign.Schema, "tool        TEXT NOT NULL,", "", 1))

	tests := []struct {
		name string
		path string
		want []string
	}{
		{"a missing file is named", filepath.Join(dir, "missing.db"), []string{"missing.db", "no such file"}},
		{"a directory is refused", dir, []string{dir, "directory"}},
		{"a file that is not SQLite is named", notSQLite, []string{"notes.db", "not"}},
		{"a missing table is named", noResults, []string{"noresults.db", `"results"`}},
		{"a missing column names its table and column", noDomain, []string{"nodomain.db", `"results"`, `"domain"`}},
		{"an incomplete optional table is named", badSteps, []string{"badsteps.db", `"steps"`, `"tool"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Open(context.Background(), Options{StatePath: filepath.Join(t.TempDir(), "state.db"), Campaigns: []string{tt.path}})
			if err == nil {
				t.Fatal("got no error, want one")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("got error %q, want it to mention %q", err, w)
				}
			}
		})
	}
}

func TestIndexCountsEveryResultOfARun(t *testing.T) {
	path := newCampaign(t, "campaign.db")
	addRun(t, path, "r1", true, resultsSQL("r1", 700)+
		`INSERT INTO results (run_id, test, target, domain, status) VALUES ('r1', 'odd/x', 'browser', 'web-browsing', 'xfail'), ('r1', 'skip/y', 'browser', 'web-browsing', 'skipped');`)
	before := fileSHA(t, path)
	s := openStore(t, filepath.Join(t.TempDir(), "state.db"), path)
	ctx := context.Background()

	run, err := s.FindRun(ctx, "r1")
	if err != nil {
		t.Fatal(err)
	}
	// Of 1..700: 140 multiples of 5 fail; multiples of 7 but not 35: 100-20 = 80 error.
	want := sandtrap.Counts{Total: 702, Passed: 480, Failed: 140, Errored: 80, Skipped: 1, Other: 1}
	if run.Counts != want {
		t.Errorf("got counts %+v, want %+v", run.Counts, want)
	}
	if run.Live() {
		t.Error("got a live run, want it finished")
	}

	t.Run("the failures list holds every failure by default", func(t *testing.T) {
		page, err := s.FindResults(ctx, "r1", sandtrap.ResultFilter{Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := page.Total, 221; got != want {
			t.Errorf("got total %d, want %d", got, want)
		}
		if got := len(page.Results); got != 10 {
			t.Errorf("got %d rows, want 10", got)
		}
		if page.Results[0].ID < page.Results[1].ID {
			t.Errorf("got ids %d then %d, want newest first", page.Results[0].ID, page.Results[1].ID)
		}
	})
	t.Run("a facet counts with the other filters applied", func(t *testing.T) {
		page, err := s.FindResults(ctx, "r1", sandtrap.ResultFilter{Target: "browser"})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]int{}
		for _, v := range page.Facets[sandtrap.FacetTarget] {
			got[v.Value] = v.Count
		}
		// code-interpreter failures stay visible in the target facet.
		if got["browser"] == 0 || got["code-interpreter"] == 0 {
			t.Errorf("got target facet %v, want both targets counted", got)
		}
		if page.Total != got["browser"] {
			t.Errorf("got total %d, want the browser count %d", page.Total, got["browser"])
		}
	})
	t.Run("status passed lists passed results", func(t *testing.T) {
		page, err := s.FindResults(ctx, "r1", sandtrap.ResultFilter{Status: "passed", Limit: 5, Offset: 470})
		if err != nil {
			t.Fatal(err)
		}
		if page.Total != 480 || len(page.Results) != 5 {
			t.Errorf("got total %d and %d rows, want 480 and 5", page.Total, len(page.Results))
		}
		if page.Results[0].Test == "" {
			t.Error("got an empty test key, want details read from the campaign")
		}
	})
	t.Run("text search matches the error", func(t *testing.T) {
		page, err := s.FindResults(ctx, "r1", sandtrap.ResultFilter{Q: "TARGET CRASHED"})
		if err != nil {
			t.Fatal(err)
		}
		if page.Total != 80 {
			t.Errorf("got %d matches, want 80", page.Total)
		}
	})
	t.Run("an unknown status is kept as it is", func(t *testing.T) {
		page, err := s.FindResults(ctx, "r1", sandtrap.ResultFilter{Status: "xfail"})
		if err != nil {
			t.Fatal(err)
		}
		if page.Total != 1 || page.Results[0].Status != "xfail" {
			t.Errorf("got %d results, want the one xfail", page.Total)
		}
	})
	t.Run("permission errors of different paths are one mode", func(t *testing.T) {
		cells, err := s.Breakdown(ctx, "r1")
		if err != nil {
			t.Fatal(err)
		}
		modes := map[string]int{}
		for _, c := range cells {
			if c.Status == "failed" {
				modes[c.Mode] += c.N
			}
		}
		if len(modes) != 1 {
			t.Errorf("got %d modes for the permission errors, want 1: %v", len(modes), modes)
		}
	})
	if after := fileSHA(t, path); after != before {
		t.Errorf("got campaign sha256 %s after use, want it unchanged (%s)", after, before)
	}
}

func TestIndexFollowsCommitsFromAnotherProcess(t *testing.T) {
	path := newCampaign(t, "live.db")
	addRun(t, path, "live", false, resultsSQL("live", 50))
	changes := make(chan Change, 16)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := Open(ctx, Options{StatePath: filepath.Join(t.TempDir(), "state.db"), Campaigns: []string{path},
		Poll: 5 * time.Millisecond, OnChange: func(c Change) { changes <- c }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.Start(ctx)
	if err := s.WaitIndexed(ctx); err != nil {
		t.Fatal(err)
	}
	<-changes // the first read

	harness(t, path, `INSERT INTO results (run_id, test, target, domain, status, error) VALUES
		('live', 'a', 'browser', 'web-browsing', 'failed', 'page.goto: net::ERR_NAME_NOT_RESOLVED at https://x.example/'),
		('live', 'b', 'browser', 'web-browsing', 'passed', NULL);`)
	select {
	case c := <-changes:
		if c.NewResults != 2 {
			t.Errorf("got %d new results in one change, want 2", c.NewResults)
		}
		if len(c.Runs) != 1 || c.Runs[0] != "live" {
			t.Errorf("got changed runs %v, want [live]", c.Runs)
		}
	case <-ctx.Done():
		t.Fatal("got no change event after another process committed")
	}
	run, _ := s.FindRun(ctx, "live")
	if run.Counts.Total != 52 {
		t.Errorf("got %d results, want 52", run.Counts.Total)
	}

	harness(t, path, `UPDATE runs SET finished_at = '2026-07-01T05:00:00Z', notes = 'stopped early' WHERE id = 'live';`)
	select {
	case c := <-changes:
		if len(c.Runs) != 1 {
			t.Errorf("got changed runs %v, want the finished run", c.Runs)
		}
	case <-ctx.Done():
		t.Fatal("got no change event after the run finished")
	}
	run, _ = s.FindRun(ctx, "live")
	if run.Live() || run.Notes != "stopped early" {
		t.Errorf("got live=%v notes=%q, want a finished run with its notes", run.Live(), run.Notes)
	}
}

func TestIndexSurvivesARestartWithoutRereading(t *testing.T) {
	path := newCampaign(t, "c.db")
	addRun(t, path, "r", true, resultsSQL("r", 300))
	state := filepath.Join(t.TempDir(), "state.db")
	s := openStore(t, state, path)
	first, _ := s.FindResults(context.Background(), "r", sandtrap.ResultFilter{})
	s.Close()

	s2, err := Open(context.Background(), Options{StatePath: state, Campaigns: []string{path}})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	// Not started: everything shown comes from the state.
	run, err := s2.FindRun(context.Background(), "r")
	if err != nil {
		t.Fatal(err)
	}
	if run.Counts.Total != 300 {
		t.Errorf("got %d results from the state, want 300", run.Counts.Total)
	}
	again, _ := s2.FindResults(context.Background(), "r", sandtrap.ResultFilter{})
	if again.Total != first.Total || len(again.Results) != len(first.Results) || again.Results[0].Mode != first.Results[0].Mode {
		t.Errorf("got %d failures (first mode %q), want %d (%q)", again.Total, again.Results[0].Mode, first.Total, first.Results[0].Mode)
	}
}

func TestIndexRereadsAReplacedFile(t *testing.T) {
	path := newCampaign(t, "c.db")
	addRun(t, path, "old", true, resultsSQL("old", 100))
	state := filepath.Join(t.TempDir(), "state.db")
	s := openStore(t, state, path)
	s.Close()

	other := newCampaign(t, "other.db")
	addRun(t, other, "new", true, resultsSQL("new", 40))
	if err := os.Rename(other, path); err != nil {
		t.Fatal(err)
	}
	os.Remove(path + "-wal")
	os.Remove(path + "-shm")
	s2 := openStore(t, state, path)
	if _, err := s2.FindRun(context.Background(), "old"); sandtrap.ErrorCode(err) != sandtrap.ENOTFOUND {
		t.Errorf("got %v for the old run, want not found", err)
	}
	run, err := s2.FindRun(context.Background(), "new")
	if err != nil {
		t.Fatal(err)
	}
	if run.Counts.Total != 40 {
		t.Errorf("got %d results, want the replacement's 40", run.Counts.Total)
	}
}

func TestRunIDsStayUniqueAcrossFiles(t *testing.T) {
	a := newCampaign(t, "nightly.db")
	addRun(t, a, "r1", true, resultsSQL("r1", 10))
	addRun(t, a, "only-a", true, resultsSQL("only-a", 10))
	b := filepath.Join(t.TempDir(), "nightly.db")
	harness(t, b, campaign.Schema)
	addRun(t, b, "r1", true, resultsSQL("r1", 20))
	s := openStore(t, filepath.Join(t.TempDir(), "state.db"), a, b)
	runs, err := s.ListRuns(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, r := range runs {
		got[r.ID] = r.Counts.Total
	}
	want := map[string]int{"nightly:r1": 10, "nightly-2:r1": 20, "only-a": 10}
	for id, n := range want {
		if got[id] != n {
			t.Errorf("got run %q with %d results, want %d (all: %v)", id, got[id], n, got)
		}
	}
}

func TestUnknownRunIsNotFound(t *testing.T) {
	path := newCampaign(t, "c.db")
	s := openStore(t, filepath.Join(t.TempDir(), "state.db"), path)
	if _, err := s.FindRun(context.Background(), "nope"); sandtrap.ErrorCode(err) != sandtrap.ENOTFOUND {
		t.Errorf("got %v, want a not-found error", err)
	}
	if _, err := s.FindResults(context.Background(), "nope", sandtrap.ResultFilter{}); sandtrap.ErrorCode(err) != sandtrap.ENOTFOUND {
		t.Errorf("got %v, want a not-found error", err)
	}
}

func TestAMissingFileIsReportedAndPickedUpAgain(t *testing.T) {
	path := newCampaign(t, "c.db")
	addRun(t, path, "r", false, resultsSQL("r", 20))
	s := openStore(t, filepath.Join(t.TempDir(), "state.db"), path)
	ctx := context.Background()
	aside := path + ".aside"
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Rename(path+suffix, aside+suffix)
	}
	waitUntil(t, func() bool { st, _ := s.RunSource(ctx, "r"); return strings.Contains(st.Fault, "missing") })
	if run, _ := s.FindRun(ctx, "r"); run.Counts.Total != 20 {
		t.Errorf("got %d results while the file is missing, want the 20 read before", run.Counts.Total)
	}
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Rename(aside+suffix, path+suffix)
	}
	harness(t, path, `INSERT INTO results (run_id, test, target, domain, status) VALUES ('r', 'late', 'browser', 'web-browsing', 'passed');`)
	waitUntil(t, func() bool { st, _ := s.RunSource(ctx, "r"); return st.Fault == "" })
	waitUntil(t, func() bool { run, _ := s.FindRun(ctx, "r"); return run.Counts.Total == 21 })
}

func TestAFileRewrittenSmallerIsReadAgainWhileWatched(t *testing.T) {
	path := newCampaign(t, "c.db")
	addRun(t, path, "r", false, resultsSQL("r", 50))
	s := openStore(t, filepath.Join(t.TempDir(), "state.db"), path)
	ctx := context.Background()
	harness(t, path, `DELETE FROM results; INSERT INTO results (run_id, test, target, domain, status) VALUES ('r', 'x', 'browser', 'web-browsing', 'failed');`)
	waitUntil(t, func() bool { run, _ := s.FindRun(ctx, "r"); return run.Counts.Total == 1 })
}

// waitUntil polls cond for up to 90 s.
func waitUntil(t *testing.T, cond func() bool) {
	t.Helper()
	// Generous, for a loaded machine: what is waited for is the state, not
	// its speed.
	deadline := time.Now().Add(90 * time.Second)
	for time.Now().Before(deadline) {
		if cond() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("condition not met within 90 s")
}

func TestCampaignsOutsideTheUsualShapeStillRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "odd.db")
	// No artifacts or steps tables, an extra table and an extra column, and
	// numbers the harness filled with junk.
	harness(t, path, `
		CREATE TABLE runs (id TEXT PRIMARY KEY, name TEXT NOT NULL, started_at TEXT NOT NULL, finished_at TEXT, planned INTEGER, notes TEXT, owner TEXT);
		CREATE TABLE results (id INTEGER PRIMARY KEY, run_id TEXT NOT NULL, test TEXT NOT NULL, target TEXT NOT NULL, domain TEXT NOT NULL,
			title TEXT, status TEXT NOT NULL, started_at TEXT, duration_ms INTEGER, exit_code INTEGER, error TEXT, log BLOB,
			layer TEXT, primitive TEXT, worker TEXT, attempt INTEGER NOT NULL DEFAULT 1, gpu TEXT);
		CREATE TABLE harness_notes (x);
		INSERT INTO runs VALUES ('r', 'Odd', '2026-06-30T22:00:00Z', NULL, 'lots', NULL, 'me');
		INSERT INTO results (run_id, test, target, domain, status, duration_ms, exit_code, attempt, error)
			VALUES ('r', 'a', 'browser', 'web-browsing', 'failed', 'slow', 'n/a', 'second', 'page.goto: Target crashed'),
			       ('r', 'b', 'browser', 'web-browsing', 'passed', 12.5, 0, 1, NULL);`)
	s := openStore(t, filepath.Join(t.TempDir(), "state.db"), path)
	ctx := context.Background()
	run, err := s.FindRun(ctx, "r")
	if err != nil {
		t.Fatal(err)
	}
	if run.Counts.Total != 2 || run.Counts.Failed != 1 {
		t.Errorf("got counts %+v, want 2 results with 1 failure", run.Counts)
	}
	page, err := s.FindResults(ctx, "r", sandtrap.ResultFilter{})
	if err != nil || page.Total != 1 {
		t.Fatalf("got %d failures (%v), want 1", page.Total, err)
	}
	res, _, err := s.FindResult(ctx, "r", page.Results[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if res.DurationMS != -1 || res.ExitCode != nil || len(res.Problems) != 3 {
		t.Errorf("got duration %d, exit code %v and problems %q, want unknowns and three problems named", res.DurationMS, res.ExitCode, res.Problems)
	}
	if arts, err := s.Artifacts(ctx, "r", res.ID); err != nil || len(arts) != 0 {
		t.Errorf("got %v, %v without an artifacts table, want none and no error", arts, err)
	}
}

func TestPagesReadWhileAHarnessHoldsTheWriteLock(t *testing.T) {
	path := newCampaign(t, "busy.db")
	addRun(t, path, "r", false, resultsSQL("r", 30))
	s := openStore(t, filepath.Join(t.TempDir(), "state.db"), path)
	ctx := context.Background()

	w, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)&_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	tx, err := w.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.Exec(`INSERT INTO results (run_id, test, target, domain, status) VALUES ('r', 'pending', 'browser', 'web-browsing', 'passed')`); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	page, err := s.FindResults(ctx, "r", sandtrap.ResultFilter{Status: sandtrap.StatusAll, Limit: 5})
	if err != nil || len(page.Results) != 5 || page.Results[0].Test == "" {
		t.Fatalf("got %v and %d results while the harness writes, want a full page", err, len(page.Results))
	}
	if _, _, err := s.FindResult(ctx, "r", page.Results[0].ID); err != nil {
		t.Errorf("got %v reading one result while the harness writes, want it read", err)
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("got reads that waited %s on the harness's lock, want none", took)
	}
}

func TestOneTransactionOfThousandsIsOneChange(t *testing.T) {
	path := newCampaign(t, "bulk.db")
	addRun(t, path, "r", false, resultsSQL("r", 10))
	changes := make(chan Change, 64)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := Open(ctx, Options{StatePath: filepath.Join(t.TempDir(), "state.db"), Campaigns: []string{path},
		Poll: 5 * time.Millisecond, OnChange: func(c Change) { changes <- c }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.Start(ctx)
	s.WaitIndexed(ctx)
	<-changes
	harness(t, path, resultsSQL("r", 5000))
	// A pass that takes more than a second on a loaded machine also sends
	// notices of its progress, which carry no results: only the changes
	// that carry some count. carrying waits for one until quiet has
	// passed without any change.
	carrying := func(quiet time.Duration) (Change, bool) {
		for {
			select {
			case c := <-changes:
				if c.NewResults > 0 || len(c.NewModes) > 0 {
					return c, true
				}
			case <-time.After(quiet):
				return Change{}, false
			}
		}
	}
	c, ok := carrying(90 * time.Second)
	if !ok {
		t.Fatal("got no change carrying the 5000 results")
	}
	if c.NewResults != 5000 {
		t.Errorf("got a change of %d results, want one change of 5000", c.NewResults)
	}
	if extra, ok := carrying(100 * time.Millisecond); ok {
		t.Errorf("got a second change %+v, want one", extra)
	}
}

// outageSQL writes a run of 10 calm minutes (20 results a minute, every
// tenth failing with a permission error) and, at minute 5, a burst of 30
// results of which 25 fail in five different ways.
const outageSQL = `
	WITH RECURSIVE seq(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM seq WHERE i < 199)
	INSERT INTO results (run_id, test, target, domain, status, error, started_at)
	SELECT 'o', 'calm/' || i, 'code-interpreter', 'file-io',
		CASE WHEN i % 10 = 0 THEN 'failed' ELSE 'passed' END,
		CASE WHEN i % 10 = 0 THEN 'PermissionError: [Errno 13] Permission denied: ''/data/x' || i || '''' END,
		strftime('%Y-%m-%dT%H:%M:%SZ', '2026-07-01T02:00:00Z', '+' || (i / 20) || ' minutes', '+' || (i % 20) || ' seconds')
	FROM seq;
	WITH RECURSIVE seq(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM seq WHERE i < 29)
	INSERT INTO results (run_id, test, target, domain, status, error, started_at)
	SELECT 'o', 'burst/' || i, 'browser', 'web-browsing',
		CASE WHEN i < 25 THEN 'failed' ELSE 'passed' END,
		CASE WHEN i >= 25 THEN NULL
			WHEN i % 5 = 0 THEN 'page.goto: net::ERR_CONNECTION_REFUSED at https://a.example/'
			WHEN i % 5 = 1 THEN 'session sbx-4f2a91c0 expired after 1800 s: sandbox not found (HTTP 404)'
			WHEN i % 5 = 2 THEN 'MCP error -32603: Internal error: response stream closed before the result was sent'
			WHEN i % 5 = 3 THEN 'page.goto: Target crashed'
			ELSE 'TimeoutError: execution exceeded the 300 s CPU time limit' END,
		strftime('%Y-%m-%dT%H:%M:%SZ', '2026-07-01T02:05:00Z', '+' || i || ' seconds')
	FROM seq;`

func TestAnOutageBurstIsOneWindowAndStaysOutOfTheModes(t *testing.T) {
	path := newCampaign(t, "outage.db")
	addRun(t, path, "o", true, outageSQL)
	s := openStore(t, filepath.Join(t.TempDir(), "state.db"), path)
	ctx := context.Background()
	_, windows, err := s.RunTimeline(ctx, "o")
	if err != nil {
		t.Fatal(err)
	}
	if len(windows) != 1 {
		t.Fatalf("got %d outage windows, want 1: %+v", len(windows), windows)
	}
	w := windows[0]
	if got, want := w.Start.Format("15:04"), "02:05"; got != want {
		t.Errorf("got a window from %s, want %s", got, want)
	}
	modes, _, err := s.RunModes(ctx, "o", sandtrap.ResultFilter{})
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, m := range modes {
		total += m.Count
	}
	// Minute 5 is the outage's, with its two calm failures.
	if total != 18 {
		t.Errorf("got %d failures in the modes, want the 18 outside the window", total)
	}
	page, err := s.FindResults(ctx, "o", sandtrap.ResultFilter{From: w.Start, To: w.End})
	if err != nil {
		t.Fatal(err)
	}
	if page.Total != 25+2 {
		// The burst's 25 failures and minute 5's two calm ones.
		t.Errorf("got %d failures in the window, want 27", page.Total)
	}
}

func TestAFileReplacedWhileWatchedIsReadAgain(t *testing.T) {
	path := newCampaign(t, "c.db")
	addRun(t, path, "old", true, resultsSQL("old", 60))
	s := openStore(t, filepath.Join(t.TempDir(), "state.db"), path)
	ctx := context.Background()

	other := newCampaign(t, "next.db")
	addRun(t, other, "new", true, resultsSQL("new", 25))
	for _, suffix := range []string{"-wal", "-shm"} {
		os.Remove(path + suffix)
	}
	if err := os.Rename(other, path); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, func() bool { run, err := s.FindRun(ctx, "new"); return err == nil && run.Counts.Total == 25 })
	if _, err := s.FindRun(ctx, "old"); sandtrap.ErrorCode(err) != sandtrap.ENOTFOUND {
		t.Errorf("got %v for the replaced file's run, want not found", err)
	}
	page, err := s.FindResults(ctx, "new", sandtrap.ResultFilter{Status: sandtrap.StatusAll})
	if err != nil || page.Total != 25 || page.Results[0].Test == "" {
		t.Errorf("got %d results (%v), want the new file's 25 with their details", page.Total, err)
	}
}

func TestAReadOnlyStoreLeavesTheStateFileAsItWas(t *testing.T) {
	path := newCampaign(t, "c.db")
	addRun(t, path, "r", false, resultsSQL("r", 50))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	t.Run("an existing state file keeps its bytes while the store reads new rows and a triage change is refused", func(t *testing.T) {
		state := filepath.Join(t.TempDir(), "state.db")
		a := openStore(t, state, path)
		a.Close()
		before := stateFiles(t, state)

		harness(t, path, resultsSQL("r", 20))
		b, err := Open(ctx, Options{StatePath: state, Campaigns: []string{path}, ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		b.Start(ctx)
		b.WaitIndexed(ctx)
		if run, _ := b.FindRun(ctx, "r"); run.Counts.Total != 70 {
			t.Errorf("got %d results in the read-only store, want 70", run.Counts.Total)
		}
		modes, _, err := b.RunModes(ctx, "r", sandtrap.ResultFilter{})
		if err != nil || len(modes) == 0 {
			t.Fatalf("got %d modes (%v), want the run's", len(modes), err)
		}
		if err := b.AddNote(ctx, modes[0].ID, "seen"); sandtrap.ErrorCode(err) != sandtrap.EFORBIDDEN {
			t.Errorf("got %v for a note on a read-only store, want forbidden", err)
		}
		b.Close()
		// Reading a WAL file leaves its -wal and -shm beside it, as any
		// reader does; the database itself must be byte for byte the same.
		if got := stateFiles(t, state); got["state.db"] != before["state.db"] {
			t.Errorf("the state's files changed under a read-only store: got %v, want %v", got, before)
		}

		c := openStore(t, state, path)
		if run, _ := c.FindRun(ctx, "r"); run.Counts.Total != 70 {
			t.Errorf("got %d results after a read-only store read the same rows, want 70 counted once", run.Counts.Total)
		}
	})
	t.Run("a missing state file is not created", func(t *testing.T) {
		state := filepath.Join(t.TempDir(), "state.db")
		b, err := Open(ctx, Options{StatePath: state, Campaigns: []string{path}, ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		b.Start(ctx)
		b.WaitIndexed(ctx)
		if run, err := b.FindRun(ctx, "r"); err != nil || run.Counts.Total == 0 {
			t.Errorf("got %d results (%v) from a read-only store without state, want the run's results", run.Counts.Total, err)
		}
		b.Close()
		if got := stateFiles(t, state); len(got) != 0 {
			t.Errorf("got state files %v, want none", got)
		}
	})
}

// stateFiles returns the sha256 of the state file and of its -wal and -shm
// companions, by name, for those that exist.
func stateFiles(t *testing.T, state string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, suffix := range []string{"", "-wal", "-shm"} {
		b, err := os.ReadFile(state + suffix)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		} else if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(state+suffix)] = fmt.Sprintf("%x", sha256.Sum256(b))
	}
	return out
}

func TestAFileLockedByItsHarnessIsBusyNotBroken(t *testing.T) {
	path := newCampaign(t, "rollback.db")
	addRun(t, path, "r", true, resultsSQL("r", 10))
	// A harness in rollback-journal mode locks readers out while it writes.
	if db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(DELETE)"); err != nil {
		t.Fatal(err)
	} else if err := db.Ping(); err != nil {
		t.Fatal(err)
	} else {
		db.Close()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := Open(ctx, Options{StatePath: filepath.Join(t.TempDir(), "s.db"), Campaigns: []string{path}, BusyTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.Start(ctx)
	s.WaitIndexed(ctx)

	// The harness waits for the store's watcher to finish a read, as a
	// harness's own busy timeout would.
	w, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)&_pragma=journal_mode(DELETE)")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	conn, err := w.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `BEGIN EXCLUSIVE`); err != nil {
		t.Fatal(err)
	}
	defer conn.ExecContext(ctx, `ROLLBACK`)

	page, err := s.FindResults(ctx, "r", sandtrap.ResultFilter{})
	if err != nil || page.Total != 3 || page.Results[0].Test == "" {
		t.Errorf("got %d failures (%v) while the harness holds the file, want the 3 from the index, with their tests", page.Total, err)
	}
	_, _, err = s.FindResult(ctx, "r", page.Results[0].ID)
	if sandtrap.ErrorCode(err) != sandtrap.EUNAVAILABLE || !strings.Contains(err.Error(), "busy") {
		t.Errorf("got %v for one result while the harness holds the file, want it called busy", err)
	}
}

func TestTheOtherStatusFilterSelectsWhatTheOtherCountCounts(t *testing.T) {
	path := newCampaign(t, "c.db")
	addRun(t, path, "r", true, resultsSQL("r", 20)+`
		INSERT INTO results (run_id, test, target, domain, status, error) VALUES
			('r', 'a', 'browser', 'web-browsing', 'timeout', 'no answer in 300 s'),
			('r', 'b', 'browser', 'web-browsing', 'cancelled', 'stopped by the harness'),
			('r', 'c', 'browser', 'web-browsing', 'timeout', 'no answer in 300 s');`)
	s := openStore(t, filepath.Join(t.TempDir(), "state.db"), path)
	ctx := context.Background()
	run, err := s.FindRun(ctx, "r")
	if err != nil {
		t.Fatal(err)
	}
	page, err := s.FindResults(ctx, "r", sandtrap.ResultFilter{Status: sandtrap.StatusOther})
	if err != nil {
		t.Fatal(err)
	}
	if page.Total != run.Counts.Other || page.Total != 3 {
		t.Errorf("got %d results under the other filter and an Other count of %d, want 3 of each", page.Total, run.Counts.Other)
	}
	for _, r := range page.Results {
		if r.Status != "timeout" && r.Status != "cancelled" {
			t.Errorf("got a %s result under the other filter, want only timeout and cancelled", r.Status)
		}
	}
}

func TestShowsProgressOfFirstReadsAndBigPassesOnly(t *testing.T) {
	tests := []struct {
		name       string
		readBefore bool
		pass       int64
		want       bool
	}{
		{"the first read of a file, however small", false, 1, true},
		{"a few rows a live harness added", true, 12, false},
		{"a pass big enough to watch", true, watchedPass, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := showsProgress(tt.readBefore, tt.pass); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestAResultIsReadOnlyThroughItsOwnRun(t *testing.T) {
	path := newCampaign(t, "c.db")
	addRun(t, path, "a", true, resultsSQL("a", 5))
	addRun(t, path, "b", true, resultsSQL("b", 5))
	s := openStore(t, filepath.Join(t.TempDir(), "state.db"), path)
	ctx := context.Background()
	page, err := s.FindResults(ctx, "a", sandtrap.ResultFilter{Status: sandtrap.StatusAll})
	if err != nil || len(page.Results) == 0 {
		t.Fatalf("got %d results of run a (%v), want some", len(page.Results), err)
	}
	id := page.Results[0].ID
	reads := map[string]func(run string) error{
		"its log":         func(run string) error { _, _, err := s.ResultLog(ctx, run, id, 100); return err },
		"its log's end":   func(run string) error { _, err := s.ResultLogTail(ctx, run, id, 100); return err },
		"its artifacts":   func(run string) error { _, err := s.Artifacts(ctx, run, id); return err },
		"an artifact":     func(run string) error { _, _, err := s.ArtifactData(ctx, run, id, 1); return err },
		"its steps":       func(run string) error { _, err := s.Steps(ctx, run, id); return err },
		"the result page": func(run string) error { _, _, err := s.FindResult(ctx, run, id); return err },
	}
	for what, read := range reads {
		t.Run(what+" is not found through another run", func(t *testing.T) {
			if err := read("b"); sandtrap.ErrorCode(err) != sandtrap.ENOTFOUND {
				t.Errorf("got %v, want not found", err)
			}
		})
	}
	t.Run("its log is read through its own run", func(t *testing.T) {
		if b, _, err := s.ResultLog(ctx, "a", id, 100); err != nil || len(b) == 0 {
			t.Errorf("got %q (%v), want the log", b, err)
		}
	})
}

func TestNewClassificationRulesReadTheCampaignAgain(t *testing.T) {
	path := newCampaign(t, "c.db")
	addRun(t, path, "r", true, resultsSQL("r", 70))
	state := filepath.Join(t.TempDir(), "state.db")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	open := func(rules []triage.Rule) (*Store, []string) {
		t.Helper()
		var logged []string
		s, err := Open(ctx, Options{StatePath: state, Campaigns: []string{path}, Classifier: triage.NewClassifier(rules),
			Logf: func(format string, args ...any) { logged = append(logged, fmt.Sprintf(format, args...)) }})
		if err != nil {
			t.Fatal(err)
		}
		s.Start(ctx)
		if err := s.WaitIndexed(ctx); err != nil {
			t.Fatal(err)
		}
		return s, logged
	}
	primitives := func(s *Store) map[string]int {
		modes, _, err := s.RunModes(ctx, "r", sandtrap.ResultFilter{})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]int{}
		for _, m := range modes {
			out[m.Layer+"/"+m.Primitive] += m.Count
		}
		return out
	}
	first, _ := open(nil)
	before := primitives(first)
	first.Close()

	mine := []triage.Rule{{Name: "dist-packages", ErrorRegex: regexp.MustCompile(`dist-packages`), Layer: "sandbox", Primitive: "package-path"}}
	second, logged := open(mine)
	after := primitives(second)
	run, _ := second.FindRun(ctx, "r")
	second.Close()
	if after["sandbox/package-path"] != 14 || before["sandbox/package-path"] != 0 {
		t.Errorf("got %v before and %v after a rule for dist-packages, want its 14 failures moved to sandbox/package-path", before, after)
	}
	if run.Counts.Total != 70 {
		t.Errorf("got %d results after reading again, want 70 counted once", run.Counts.Total)
	}
	if !slices.ContainsFunc(logged, func(l string) bool { return strings.Contains(l, "rules changed") }) {
		t.Errorf("got log %q, want it to say the rules changed", logged)
	}

	third, logged := open(mine)
	third.Close()
	if slices.ContainsFunc(logged, func(l string) bool { return strings.Contains(l, "rules changed") }) {
		t.Errorf("got log %q with the same rules, want the index kept", logged)
	}
}

func TestAFileIsBeingReadUntilItsFirstReadEnds(t *testing.T) {
	path := newCampaign(t, "campaign.db")
	addRun(t, path, "r1", true, resultsSQL("r1", 50))
	ctx := context.Background()
	s, err := Open(ctx, Options{StatePath: filepath.Join(t.TempDir(), "state.db"), Campaigns: []string{path}, Poll: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	reading := func() bool {
		src, err := s.RunSource(ctx, "r1")
		if err != nil {
			t.Fatal(err)
		}
		return src.Progress.Reading
	}
	// Before its first pass has counted anything, a page drawn now must
	// follow the run: a finished run's pages stream only while it changes.
	if !reading() {
		t.Error("got a file not being read before its first read, want it being read")
	}
	s.Start(ctx)
	if err := s.WaitIndexed(ctx); err != nil {
		t.Fatal(err)
	}
	if reading() {
		t.Error("got a file still being read after its first read ended, want it read")
	}
}
