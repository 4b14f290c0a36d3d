package store

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"sandtrap"
)

// historySQL inserts runs h-00001… an hour apart, each of per results, with
// three causes: a permission error in every run (every tenth result), a tab
// crash in every third run (every 25th result) and a missing module in the
// first five runs only (every 20th result).
func historySQL(runs, per int) string {
	return fmt.Sprintf(`
	WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < %[1]d)
	INSERT INTO runs (id, name, started_at, finished_at, planned)
	SELECT printf('h-%%05d', n), 'sandtrap.History run ' || n,
		strftime('%%Y-%%m-%%dT%%H:%%M:%%SZ', '2026-01-01', '+' || n || ' hours'),
		strftime('%%Y-%%m-%%dT%%H:%%M:%%SZ', '2026-01-01', '+' || n || ' hours', '+50 minutes'), %[2]d FROM r;
	WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < %[1]d),
		i(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM i WHERE k < %[2]d),
		x AS (SELECT n, k, CASE WHEN k %% 10 = 0 THEN 1 WHEN k %% 25 = 1 AND n %% 3 = 0 THEN 2
			WHEN k %% 20 = 3 AND n <= 5 THEN 3 ELSE 0 END AS m FROM r, i)
	INSERT INTO results (run_id, test, target, domain, status, started_at, error)
	SELECT printf('h-%%05d', n), 'wf-' || k, CASE WHEN k %% 3 = 0 THEN 'browser' ELSE 'code-interpreter' END,
		CASE WHEN k %% 2 = 0 THEN 'file-io' ELSE 'web' END,
		CASE m WHEN 0 THEN 'passed' WHEN 2 THEN 'error' ELSE 'failed' END,
		strftime('%%Y-%%m-%%dT%%H:%%M:%%SZ', '2026-01-01', '+' || n || ' hours', '+' || k || ' seconds'),
		CASE m WHEN 1 THEN 'PermissionError: [Errno 13] Permission denied: ''/data/out/x' || k || ''''
			WHEN 2 THEN 'page.goto: Target crashed'
			WHEN 3 THEN 'ModuleNotFoundError: No module named ''numpy''' END
	FROM x;`, runs, per)
}

// historyStore serves a campaign of runs runs of per results, as
// historySQL writes them, with its state in state.
func historyStore(t *testing.T, state string, runs, per int) (*Store, string) {
	t.Helper()
	path := newCampaign(t, "history.db")
	harness(t, path, historySQL(runs, per))
	return openStore(t, state, path), path
}

// modeBySignature finds the mode whose signature holds sub.
func modeBySignature(t *testing.T, h sandtrap.History, sub string) sandtrap.ModeSummary {
	t.Helper()
	for _, m := range h.Modes {
		if strings.Contains(m.Signature, sub) {
			return m
		}
	}
	t.Fatalf("no mode with %q in its signature among %d", sub, len(h.Modes))
	return sandtrap.ModeSummary{}
}

func runID(n int) string { return fmt.Sprintf("h-%05d", n) }

// runStart is when historySQL's run n started.
func runStart(n int) time.Time {
	return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(n) * time.Hour)
}

func TestModeHistory(t *testing.T) {
	ctx := context.Background()
	const runs, per, recent = 40, 50, 10
	s, _ := historyStore(t, filepath.Join(t.TempDir(), "state.db"), runs, per)
	all, err := s.History(ctx, recent)
	if err != nil {
		t.Fatal(err)
	}
	every := func(n int) []int {
		out := make([]int, recent)
		for i := range out {
			out[i] = n
		}
		return out
	}
	thirds := make([]int, recent)
	for i := range thirds {
		if (runs-recent+1+i)%3 == 0 {
			thirds[i] = 2
		}
	}
	tests := []struct {
		name        string
		signature   string
		failures    int
		runs        int
		first, last int
		firstCount  int
		recent      []int
	}{
		{"a mode in every run is first seen in the first and last seen in the last", "Permission denied", runs * 5, runs, 1, runs, 5, every(5)},
		{"a mode in every third run counts zero in the runs without it", "Target crashed", 13 * 2, 13, 3, 39, 2, thirds},
		{"a mode of the first runs only is quiet in the recent ones", "No module named", 5 * 3, 5, 1, 5, 3, every(0)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := modeBySignature(t, all, tt.signature)
			one, err := s.ModeHistory(ctx, m.ID, recent)
			if err != nil {
				t.Fatal(err)
			}
			if len(one.Modes) != 1 || !reflect.DeepEqual(one.Modes[0], m) {
				t.Errorf("got %+v from ModeHistory, want what sandtrap.History says, %+v", one.Modes, m)
			}
			if m.Failures != tt.failures || m.Runs != tt.runs {
				t.Errorf("got %d failures in %d runs, want %d in %d", m.Failures, m.Runs, tt.failures, tt.runs)
			}
			if m.First.RunID != runID(tt.first) || m.Last.RunID != runID(tt.last) || m.First.Count != tt.firstCount {
				t.Errorf("got first seen %s (%d failures), last %s, want %s (%d), %s", m.First.RunID, m.First.Count, m.Last.RunID, runID(tt.first), tt.firstCount, runID(tt.last))
			}
			if first, last := runStart(tt.first), runStart(tt.last); !m.First.StartedAt.Equal(first) || !m.Last.StartedAt.Equal(last) {
				t.Errorf("got first and last seen at %v and %v, want the runs' starts, %v and %v", m.First.StartedAt, m.Last.StartedAt, first, last)
			}
			if !reflect.DeepEqual(m.Recent, tt.recent) {
				t.Errorf("got %v in the last %d runs, want %v", m.Recent, recent, tt.recent)
			}
			perRun, err := s.ModeRuns(ctx, m.ID)
			if err != nil {
				t.Fatal(err)
			}
			sum := 0
			for _, rc := range perRun {
				sum += rc.Count
				if rc.Total != per {
					t.Errorf("got %d results in %s, want %d", rc.Total, rc.RunID, per)
				}
			}
			if len(perRun) != tt.runs || sum != tt.failures || perRun[0].RunID != runID(tt.first) || perRun[len(perRun)-1].RunID != runID(tt.last) {
				t.Errorf("got %d runs with %d failures from %v, want %d with %d from %s to %s", len(perRun), sum, perRun[0].RunID, tt.runs, tt.failures, runID(tt.first), runID(tt.last))
			}
		})
	}
	t.Run("the recent runs are the last ones, oldest first, with their results", func(t *testing.T) {
		if all.Runs != runs || len(all.Recent) != recent {
			t.Fatalf("got %d runs and %d recent, want %d and %d", all.Runs, len(all.Recent), runs, recent)
		}
		for i, rc := range all.Recent {
			if want := runID(runs - recent + 1 + i); rc.RunID != want || rc.Total != per {
				t.Errorf("got recent run %d %s with %d results, want %s with %d", i, rc.RunID, rc.Total, want, per)
			}
		}
	})
	t.Run("every mode is listed, the latest seen first", func(t *testing.T) {
		var got []string
		for _, m := range all.Modes {
			got = append(got, m.Last.RunID)
		}
		if want := []string{runID(40), runID(39), runID(5)}; !reflect.DeepEqual(got, want) {
			t.Errorf("got modes last seen in %v, want %v", got, want)
		}
	})
	t.Run("an unknown mode is not found", func(t *testing.T) {
		if _, err := s.ModeHistory(ctx, "m-000000000000", recent); sandtrap.ErrorCode(err) != sandtrap.ENOTFOUND {
			t.Errorf("got %v, want not found", err)
		}
	})
}

func TestModeOccurrencesPages(t *testing.T) {
	ctx := context.Background()
	s, _ := historyStore(t, filepath.Join(t.TempDir(), "state.db"), 12, 50)
	h, err := s.History(ctx, 5)
	if err != nil {
		t.Fatal(err)
	}
	perm := modeBySignature(t, h, "Permission denied") // 5 a run, in every run
	crash := modeBySignature(t, h, "Target crashed")   // 2 a run, in runs 3, 6, 9 and 12
	for _, m := range []sandtrap.ModeSummary{perm, crash} {
		all, total, err := s.ModeOccurrences(ctx, m.ID, 1000, 0)
		if err != nil {
			t.Fatal(err)
		}
		if total != m.Failures || len(all) != total {
			t.Fatalf("%s: got %d of %d occurrences, want all %d", m.ID, len(all), total, m.Failures)
		}
		t.Run(m.Signature+": the newest run comes first, its latest failure first", func(t *testing.T) {
			if all[0].RunID != m.Last.RunID || all[len(all)-1].RunID != m.First.RunID {
				t.Errorf("got runs %s … %s, want %s … %s", all[0].RunID, all[len(all)-1].RunID, m.Last.RunID, m.First.RunID)
			}
			for i := 1; i < len(all); i++ {
				if all[i].RunID == all[i-1].RunID && all[i].ID > all[i-1].ID {
					t.Fatalf("got result %d after %d in run %s, want the latest first", all[i].ID, all[i-1].ID, all[i].RunID)
				}
			}
		})
		for _, size := range []int{1, 3, 7, 50} {
			t.Run(fmt.Sprintf("%s: pages of %d, across runs, make up the whole list", m.Signature, size), func(t *testing.T) {
				var paged []sandtrap.Occurrence
				for off := 0; off < total; off += size {
					page, n, err := s.ModeOccurrences(ctx, m.ID, size, off)
					if err != nil {
						t.Fatal(err)
					}
					if n != total || len(page) != min(size, total-off) {
						t.Fatalf("got %d of %d at offset %d, want %d of %d", len(page), n, off, min(size, total-off), total)
					}
					paged = append(paged, page...)
				}
				if !reflect.DeepEqual(paged, all) {
					t.Errorf("got pages that differ from the whole list")
				}
			})
		}
		t.Run(m.Signature+": past the end is an empty page", func(t *testing.T) {
			page, n, err := s.ModeOccurrences(ctx, m.ID, 10, total)
			if err != nil || len(page) != 0 || n != total {
				t.Errorf("got %d occurrences of %d, %v, want none of %d", len(page), n, err, total)
			}
		})
	}
}

func TestModeHistoryAfterARestart(t *testing.T) {
	ctx := context.Background()
	state := filepath.Join(t.TempDir(), "state.db")
	s, path := historyStore(t, state, 20, 40)
	before, err := s.History(ctx, 8)
	if err != nil {
		t.Fatal(err)
	}
	crash := modeBySignature(t, before, "Target crashed")
	runsBefore, err := s.ModeRuns(ctx, crash.ID)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()

	again := openStore(t, state, path)
	after, err := again.History(ctx, 8)
	if err != nil {
		t.Fatal(err)
	}
	// The state keeps when a mode was found to the second.
	for _, h := range []sandtrap.History{before, after} {
		for i := range h.Modes {
			h.Modes[i].FirstSeen = h.Modes[i].FirstSeen.UTC().Truncate(time.Second)
		}
	}
	if !reflect.DeepEqual(after, before) {
		t.Errorf("got after a restart\n%+v\nwant what was counted while reading\n%+v", after, before)
	}
	runsAfter, err := again.ModeRuns(ctx, crash.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(runsAfter, runsBefore) {
		t.Errorf("got per-run counts %+v after a restart, want %+v", runsAfter, runsBefore)
	}
}

func TestModeHistoryFollowsMerges(t *testing.T) {
	ctx := context.Background()
	s, _ := historyStore(t, filepath.Join(t.TempDir(), "state.db"), 9, 50)
	h, err := s.History(ctx, 9)
	if err != nil {
		t.Fatal(err)
	}
	crash, module := modeBySignature(t, h, "Target crashed"), modeBySignature(t, h, "No module named")
	if _, err := s.MergeMode(ctx, module.ID, crash.ID); err != nil {
		t.Fatal(err)
	}
	merged, err := s.ModeHistory(ctx, module.ID, 9)
	if err != nil {
		t.Fatal(err)
	}
	m := merged.Modes[0]
	want := make([]int, 9)
	for i := range want {
		want[i] = crash.Recent[i] + module.Recent[i]
	}
	if m.ID != crash.ID || m.Failures != crash.Failures+module.Failures || !reflect.DeepEqual(m.Recent, want) {
		t.Errorf("got %s with %d failures, %v, want %s with %d, %v", m.ID, m.Failures, m.Recent, crash.ID, crash.Failures+module.Failures, want)
	}
	// Runs 1–5 have the module, 3, 6 and 9 the crash: 1–6 and 9.
	if m.Runs != 7 || m.First.RunID != runID(1) || m.Last.RunID != runID(9) {
		t.Errorf("got %d runs from %s to %s, want 7 from %s to %s", m.Runs, m.First.RunID, m.Last.RunID, runID(1), runID(9))
	}
	all, err := s.History(ctx, 9)
	if err != nil {
		t.Fatal(err)
	}
	if len(all.Modes) != len(h.Modes)-1 {
		t.Errorf("got %d modes after the merge, want %d", len(all.Modes), len(h.Modes)-1)
	}
	occ, total, err := s.ModeOccurrences(ctx, crash.ID, 100, 0)
	if err != nil || total != m.Failures || len(occ) != total {
		t.Errorf("got %d of %d occurrences, %v, want all %d", len(occ), total, err, m.Failures)
	}
	beside, err := s.ModesBeside(ctx, crash.ID, 3)
	if err != nil {
		t.Fatal(err)
	}
	// The last three runs with the crash are 3, 6 and 9; beside it, only
	// the permission error, as the module is the crash now.
	if len(beside) != 1 || !strings.Contains(beside[0].Signature, "Permission denied") {
		t.Errorf("got %+v beside the merged mode, want the permission error alone", beside)
	}
}

func TestRunsBefore(t *testing.T) {
	ctx := context.Background()
	s, _ := historyStore(t, filepath.Join(t.TempDir(), "state.db"), 6, 20)
	ids := func(rcs []sandtrap.RunCount) []string {
		var out []string
		for _, rc := range rcs {
			out = append(out, rc.RunID)
		}
		return out
	}
	tests := []struct {
		name string
		id   string
		n    int
		want []string
	}{
		{"with no run, the latest runs, newest first", "", 3, []string{runID(6), runID(5), runID(4)}},
		{"more than there are gives them all", "", 10, []string{runID(6), runID(5), runID(4), runID(3), runID(2), runID(1)}},
		{"before a run, the ones that started before it", runID(4), 2, []string{runID(3), runID(2)}},
		{"nothing is before the first run", runID(1), 2, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.RunsBefore(ctx, tt.id, tt.n)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(ids(got), tt.want) {
				t.Errorf("got %v, want %v", ids(got), tt.want)
			}
		})
	}
	t.Run("an unknown run is not found", func(t *testing.T) {
		if _, err := s.RunsBefore(ctx, "nope", 1); sandtrap.ErrorCode(err) != sandtrap.ENOTFOUND {
			t.Errorf("got %v, want not found", err)
		}
	})
}

func TestRunModesSayWhereEachModeWasFirstAndLastSeen(t *testing.T) {
	ctx := context.Background()
	const runs, per = 40, 50
	s, path := historyStore(t, filepath.Join(t.TempDir(), "state.db"), runs, per)
	type seen struct {
		first, last string
		isNew       bool
	}
	queue := func(run int) map[string]seen {
		t.Helper()
		stats, _, err := s.RunModes(ctx, runID(run), sandtrap.ResultFilter{})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]seen{}
		for _, st := range stats {
			for _, cause := range []string{"Permission denied", "Target crashed", "No module named"} {
				if strings.Contains(st.Signature, cause) {
					out[cause] = seen{st.FirstRun, st.LastRun, st.NewInRun}
				}
			}
		}
		return out
	}
	checks := []struct {
		name  string
		run   int
		cause string
		want  seen
	}{
		{"a mode of every run is new in the first", 1, "Permission denied", seen{runID(1), runID(runs), true}},
		{"and not in the last", runs, "Permission denied", seen{runID(1), runID(runs), false}},
		{"a mode of every third run is new in the third", 3, "Target crashed", seen{runID(3), runID(39), true}},
		{"and seen last in the 39th", 6, "Target crashed", seen{runID(3), runID(39), false}},
		{"a mode of the first five runs was last seen in the fifth", 2, "No module named", seen{runID(1), runID(5), false}},
	}
	for _, c := range checks {
		t.Run(c.name, func(t *testing.T) {
			if got := queue(c.run)[c.cause]; got != c.want {
				t.Errorf("got %+v for %q in run %d, want %+v", got, c.cause, c.run, c.want)
			}
		})
	}

	t.Run("a mode that comes back in a new run was last seen there", func(t *testing.T) {
		back := runID(runs + 1)
		start := runStart(runs + 1).Format(time.RFC3339)
		harness(t, path, `INSERT INTO runs (id, name, started_at, finished_at, planned) VALUES ('`+back+`', 'Back', '`+start+`', '`+start+`', 1);
			INSERT INTO results (run_id, test, target, domain, status, started_at, error)
			VALUES ('`+back+`', 'wf-1', 'code-interpreter', 'web', 'failed', '`+start+`', 'ModuleNotFoundError: No module named ''numpy''');`)
		// Results may be counted before the run's row is read; the test
		// waits for both, as a page shows both once the file is read.
		waitUntil(t, func() bool {
			r, err := s.FindRun(ctx, back)
			return err == nil && r.Counts.Total == 1 && r.Name == "Back"
		})
		want := seen{runID(1), back, false}
		if got := queue(2)["No module named"]; got != want {
			t.Errorf("got %+v for the missing module in run 2, want %+v", got, want)
		}
		if got := queue(runs + 1)["No module named"]; got != want {
			t.Errorf("got %+v for the missing module in the new run, want %+v", got, want)
		}
	})
}
