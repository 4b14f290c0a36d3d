package store

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"sandtrap"
	"sandtrap/compare"
)

// compareRows inserts a run whose tests end as given: key → statuses of its
// attempts, in order.
func compareRows(run string, tests [][2]string) string {
	sql := ""
	for _, t := range tests {
		errText := "NULL"
		if t[1] != "passed" && t[1] != "skipped" {
			errText = "'PermissionError: [Errno 13] Permission denied: ''/data/x'''"
		}
		sql += `INSERT INTO results (run_id, test, target, domain, status, error) VALUES ('` + run + `', '` + t[0] + `', 'code-interpreter', 'file-io', '` + t[1] + `', ` + errText + `);`
	}
	return sql
}

func testKeys(l compare.TestList) []string {
	out := []string{}
	for _, t := range l.Tests {
		out = append(out, t.Key)
	}
	return out
}

func TestCompareAcrossFilesWithOverlappingRunIDs(t *testing.T) {
	dir := t.TempDir()
	a, b := newCampaign(t, "nightly.db"), newCampaign(t, "weekly.db")
	addRun(t, a, "r1", true, compareRows("r1", [][2]string{
		{"fixed", "failed"}, {"regressed", "passed"}, {"removed", "passed"}, {"kept", "failed"}, {"retried", "failed"}}))
	addRun(t, b, "r1", true, compareRows("r1", [][2]string{
		{"fixed", "passed"}, {"regressed", "failed"}, {"added", "passed"}, {"kept", "failed"}, {"retried", "failed"}, {"retried", "passed"}}))
	s := openStore(t, filepath.Join(dir, "state.db"), a, b)
	ctx := context.Background()

	c, err := s.Compare(ctx, "nightly:r1", "weekly:r1", 0)
	if err != nil {
		t.Fatalf("Compare: %v", err)
	}
	tests := []struct {
		name string
		got  []string
		want []string
	}{
		{"fixed", testKeys(c.Fixed), []string{"fixed", "retried"}},
		{"regressed", testKeys(c.Regressed), []string{"regressed"}},
		{"still failing", testKeys(c.StillFailing), []string{"kept"}},
		{"added, its key read from the file as it never failed", testKeys(c.Added), []string{"added"}},
		{"removed, its key read from the file as it never failed", testKeys(c.Removed), []string{"removed"}},
		{"flaky within a run", testKeys(c.FlakyTests), []string{"retried"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !slices.Equal(tt.got, tt.want) {
				t.Errorf("got %q, want %q", tt.got, tt.want)
			}
		})
	}
	t.Run("one permission failure mode persists", func(t *testing.T) {
		if len(c.Persisting) != 1 || c.Persisting[0].BaseCount != 3 || c.Persisting[0].HeadCount != 3 {
			t.Errorf("got persisting %+v, want one mode failing 3 → 3", c.Persisting)
		}
	})
}

func TestCompareShowsAModeMarkedFixedAsReturned(t *testing.T) {
	dir := t.TempDir()
	path := newCampaign(t, "c.db")
	addRun(t, path, "r1", true, compareRows("r1", [][2]string{{"a", "failed"}}))
	harness(t, path, `INSERT INTO runs (id, name, started_at, finished_at) VALUES ('r2', 'Run r2', '2026-07-01T22:00:00Z', '2026-07-01T23:00:00Z');`+
		compareRows("r2", [][2]string{{"b", "failed"}}))
	s := openStore(t, filepath.Join(dir, "state.db"), path)
	ctx := context.Background()
	before, err := s.Compare(ctx, "r1", "r2", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(before.Persisting) != 1 || len(before.Returned) != 0 {
		t.Fatalf("got %d persisting and %d returned before triage, want 1 and 0", len(before.Persisting), len(before.Returned))
	}
	fixed := "fixed"
	if _, err := s.UpdateMode(ctx, before.Persisting[0].ID, sandtrap.Triage{Status: &fixed}); err != nil {
		t.Fatal(err)
	}
	after, err := s.Compare(ctx, "r1", "r2", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(after.Returned) != 1 || len(after.Persisting) != 0 || after.Returned[0].ID != before.Persisting[0].ID {
		t.Errorf("got returned %v and %d persisting, want the mode marked fixed returned", after.Returned, len(after.Persisting))
	}
}

func TestCompareOfAnUnknownRunIsNotFound(t *testing.T) {
	path := newCampaign(t, "c.db")
	addRun(t, path, "r1", true, resultsSQL("r1", 10))
	s := openStore(t, filepath.Join(t.TempDir(), "state.db"), path)
	for _, pair := range [][2]string{{"nope", "r1"}, {"r1", "nope"}} {
		if _, err := s.Compare(context.Background(), pair[0], pair[1], 0); sandtrap.ErrorCode(err) != sandtrap.ENOTFOUND {
			t.Errorf("Compare(%q, %q): got %v, want not found", pair[0], pair[1], err)
		}
	}
}
