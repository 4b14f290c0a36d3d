package store

import (
	"context"
	"maps"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"sandtrap"
)

// manyRunsSQL inserts runs 1..n, one an hour from 2026-01-01T00:00Z (run i
// starts i hours later), each with two results, one of them failed. Odd
// runs are "canary", even ones "nightly"; every tenth has notes; the last
// live are still going.
func manyRunsSQL(n, live int) string {
	return `WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < ` + itoa(n) + `)
	INSERT INTO runs (id, name, started_at, finished_at, notes)
	SELECT printf('r%04d', i),
		CASE WHEN i % 2 = 1 THEN 'Canary ' ELSE 'Nightly ' END || i,
		strftime('%Y-%m-%dT%H:%M:%SZ', '2026-01-01', '+' || i || ' hours'),
		CASE WHEN i > ` + itoa(n-live) + ` THEN NULL ELSE strftime('%Y-%m-%dT%H:%M:%SZ', '2026-01-01', '+' || i || ' hours', '+30 minutes') END,
		CASE WHEN i % 10 = 0 THEN 'after the Flaky network fix' END
	FROM seq;
	WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < ` + itoa(n) + `)
	INSERT INTO results (run_id, test, target, domain, status, error)
	SELECT printf('r%04d', i), 'file-io/a', 'code-interpreter', 'file-io', 'passed', NULL FROM seq
	UNION ALL
	SELECT printf('r%04d', i), 'file-io/b', 'code-interpreter', 'file-io', 'failed', 'PermissionError: [Errno 13] Permission denied' FROM seq;`
}

func runIDs(runs []sandtrap.Run) []string {
	ids := make([]string, len(runs))
	for i, r := range runs {
		ids[i] = r.ID
	}
	return ids
}

func TestFindRunsFiltersAndPagesNewestFirst(t *testing.T) {
	path := newCampaign(t, "history.db")
	harness(t, path, manyRunsSQL(300, 3))
	other := newCampaign(t, "other.db")
	harness(t, other, `INSERT INTO runs (id, name, started_at, finished_at) VALUES
		('o1', 'Other one', '2025-06-01T00:00:00Z', '2025-06-01T01:00:00Z'),
		('o2', 'Other two', '2025-06-02T00:00:00Z', '2025-06-02T01:00:00Z');
		INSERT INTO results (run_id, test, target, domain, status) VALUES ('o1', 't', 'browser', 'forms', 'passed');`)
	s := openStore(t, filepath.Join(t.TempDir(), "state.db"), path, other)
	ctx := context.Background()
	day := func(d int) time.Time { return time.Date(2026, 1, d, 0, 0, 0, 0, time.UTC) }

	tests := []struct {
		name      string
		f         sandtrap.RunFilter
		wantTotal int
		wantIDs   []string // the page, newest first; nil checks only its length
		wantLen   int
	}{
		{"the first page holds the newest runs", sandtrap.RunFilter{Limit: 3}, 302, []string{"r0300", "r0299", "r0298"}, 3},
		{"the last page holds the oldest runs", sandtrap.RunFilter{Limit: 50, Offset: 300}, 302, []string{"o2", "o1"}, 2},
		{"a page past the end is empty but counts the runs", sandtrap.RunFilter{Limit: 50, Offset: 400}, 302, nil, 0},
		{"no limit returns every run", sandtrap.RunFilter{}, 302, nil, 302},
		{"text matches the name in any case", sandtrap.RunFilter{Q: "CANARY", Limit: 2}, 150, []string{"r0299", "r0297"}, 2},
		{"text matches the id", sandtrap.RunFilter{Q: "r0042"}, 1, []string{"r0042"}, 1},
		{"text matches the notes", sandtrap.RunFilter{Q: "flaky network", Limit: 2}, 30, []string{"r0300", "r0290"}, 2},
		{"text that matches nothing finds nothing", sandtrap.RunFilter{Q: "weekly"}, 0, nil, 0},
		{"live runs are the unfinished ones", sandtrap.RunFilter{State: sandtrap.RunLive}, 3, []string{"r0300", "r0299", "r0298"}, 3},
		{"finished runs leave the live ones out", sandtrap.RunFilter{State: sandtrap.RunFinished, Limit: 1}, 299, []string{"r0297"}, 1},
		{"a date range holds the runs started in it", sandtrap.RunFilter{From: day(2), To: day(3)}, 24, nil, 24},
		{"a date range starts at its first instant", sandtrap.RunFilter{From: day(2), To: day(3), Offset: 23}, 24, []string{"r0024"}, 1},
		{"a from date alone is open-ended", sandtrap.RunFilter{From: day(13), Limit: 1}, 13, []string{"r0300"}, 1},
		{"a to date alone is open-ended", sandtrap.RunFilter{To: day(1).Add(2 * time.Hour)}, 3, []string{"r0001", "o2", "o1"}, 3},
		{"a source holds its file's runs", sandtrap.RunFilter{Source: "other"}, 2, []string{"o2", "o1"}, 2},
		{"filters combine", sandtrap.RunFilter{Q: "nightly", State: sandtrap.RunFinished, From: day(2), To: day(3), Limit: 2}, 12, []string{"r0046", "r0044"}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			page, err := s.FindRuns(ctx, tt.f)
			if err != nil {
				t.Fatal(err)
			}
			if page.Total != tt.wantTotal {
				t.Errorf("got total %d, want %d", page.Total, tt.wantTotal)
			}
			if len(page.Runs) != tt.wantLen {
				t.Errorf("got %d runs, want %d", len(page.Runs), tt.wantLen)
			}
			if got := runIDs(page.Runs); tt.wantIDs != nil && !slices.Equal(got, tt.wantIDs) {
				t.Errorf("got runs %v, want %v", got, tt.wantIDs)
			}
			for _, r := range page.Runs {
				if !tt.f.Match(r) {
					t.Errorf("got run %s, which the filter does not match", r.ID)
				}
			}
		})
	}

	t.Run("a page's runs carry their counts", func(t *testing.T) {
		page, err := s.FindRuns(ctx, sandtrap.RunFilter{Q: "r0042"})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := page.Runs[0].Counts, (sandtrap.Counts{Total: 2, Passed: 1, Failed: 1}); got != want {
			t.Errorf("got counts %+v, want %+v", got, want)
		}
	})
	t.Run("a filter that selects every run pages as no filter does", func(t *testing.T) {
		all, err := s.FindRuns(ctx, sandtrap.RunFilter{Limit: 7, Offset: 95})
		if err != nil {
			t.Fatal(err)
		}
		every, err := s.FindRuns(ctx, sandtrap.RunFilter{From: day(1).AddDate(-5, 0, 0), Limit: 7, Offset: 95})
		if err != nil {
			t.Fatal(err)
		}
		if every.Total != all.Total || !slices.Equal(runIDs(every.Runs), runIDs(all.Runs)) {
			t.Errorf("got %d %v, want %d %v", every.Total, runIDs(every.Runs), all.Total, runIDs(all.Runs))
		}
		for i := range all.Runs {
			if every.Runs[i].Counts != all.Runs[i].Counts {
				t.Errorf("got counts %+v for %s, want %+v", every.Runs[i].Counts, all.Runs[i].ID, all.Runs[i].Counts)
			}
		}
	})
	t.Run("a run's failure modes are counted, and an unknown run left out", func(t *testing.T) {
		got, err := s.RunModeCounts(ctx, []string{"r0001", "o1", "r0001", "nope"})
		if err != nil {
			t.Fatal(err)
		}
		if want := map[string]int{"r0001": 1, "o1": 0}; !maps.Equal(got, want) {
			t.Errorf("got %v, want %v", got, want)
		}
	})
	t.Run("a run's trail is the runs up to it in start order, oldest first", func(t *testing.T) {
		trails, err := s.RunTrails(ctx, []string{"r0300", "r0001", "o1", "nope"}, 4)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string][]string{
			"r0300": {"r0297", "r0298", "r0299", "r0300"},
			"r0001": {"o1", "o2", "r0001"},
			"o1":    {"o1"},
		}
		if len(trails) != len(want) {
			t.Errorf("got trails of %d runs, want %d: an unknown run is left out", len(trails), len(want))
		}
		for id, ids := range want {
			if got := runIDs(trails[id]); !slices.Equal(got, ids) {
				t.Errorf("got trail %v for %s, want %v", got, id, ids)
			}
		}
		if got := trails["r0300"][0].Counts.Total; got != 2 {
			t.Errorf("got %d results in a trail's run, want its counts, 2", got)
		}
	})
}
