package store

import (
	"context"

	"sandtrap"
	"sandtrap/compare"
)

// historyRuns is how many runs, up to the later of the two compared, a
// comparison looks back over to find flaky tests and modes.
const historyRuns = 10

// RunTests returns every test of a run over all of its attempts, in the
// order they first ran. The index keeps only a hash of the key of a test
// that never failed, so such a test comes without its key.
func (s *Store) RunTests(ctx context.Context, runID string) (*compare.Tests, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	ri, ok := s.runs[runID]
	if !ok {
		return nil, sandtrap.Errorf(sandtrap.ENOTFOUND, "run %q not found", runID)
	}
	return s.testsOf(ri), nil
}

// testsOf folds a run's rows into its tests. Callers hold mu.
func (s *Store) testsOf(ri *runIndex) *compare.Tests {
	passed, hasPassed := s.names.lookup(kindStatus, sandtrap.StatusPassed)
	t := compare.NewTests(len(ri.rows))
	for i := range ri.rows {
		r := &ri.rows[i]
		o, key := compare.Skipped, ""
		switch {
		case r.fail >= 0:
			o, key = compare.Failed, ri.fails[r.fail].test
		case hasPassed && r.status == passed:
			o = compare.Passed
		}
		t.Record(r.testHash, r.id, o, key)
	}
	return t.Done()
}

// modesIn returns the ids of the failure modes of a run, merges applied.
// Callers hold mu.
func (s *Store) modesIn(ri *runIndex) map[string]bool {
	out := map[string]bool{}
	for k := range ri.cube {
		if k.mode >= 0 {
			out[s.eff[k.mode].ID] = true
		}
	}
	return out
}

// Compare compares run headID against run baseID, with every triage
// decision applied; the runs may come from different files. limit caps
// each list of tests (0 keeps them all); the keys of the listed tests are
// read from the campaign files where the index does not keep them.
func (s *Store) Compare(ctx context.Context, baseID, headID string, limit int) (compare.Comparison, error) {
	in := compare.Input{Limit: limit}
	for _, side := range []struct {
		id  string
		out *compare.Side
	}{{baseID, &in.Base}, {headID, &in.Head}} {
		run, err := s.FindRun(ctx, side.id)
		if err != nil {
			return compare.Comparison{}, err
		}
		cells, err := s.Breakdown(ctx, run.ID)
		if err != nil {
			return compare.Comparison{}, err
		}
		modes, _, err := s.RunModes(ctx, run.ID, ResultFilter{})
		if err != nil {
			return compare.Comparison{}, err
		}
		*side.out = compare.Side{Run: run, Cells: cells, Modes: modes}
	}

	s.mu.RLock()
	for _, id := range s.history(baseID, headID) {
		ri, ok := s.runs[id]
		if !ok {
			continue
		}
		snap := compare.Snapshot{RunID: id, Modes: s.modesIn(ri), Tests: s.testsOf(ri)}
		in.History = append(in.History, snap)
		if id == baseID {
			in.Base.Tests = snap.Tests
		}
		if id == headID {
			in.Head.Tests = snap.Tests
		}
	}
	s.mu.RUnlock()
	if in.Base.Tests == nil || in.Head.Tests == nil {
		return compare.Comparison{}, sandtrap.Errorf(sandtrap.ENOTFOUND, "run %q or %q is no longer served", baseID, headID)
	}

	c := compare.Compare(in)
	if err := s.resolveKeys(ctx, &c); err != nil {
		return compare.Comparison{}, err
	}
	return c, nil
}

// history returns the public ids of the runs flakiness is judged over,
// oldest first: up to historyRuns runs ending with the later of a and b,
// and the earlier one even when it started before them. Callers hold mu.
func (s *Store) history(a, b string) []string {
	ia, ib := -1, -1
	for i, id := range s.order {
		if id == a {
			ia = i
		}
		if id == b {
			ib = i
		}
	}
	if ia < 0 || ib < 0 {
		return nil
	}
	first, last := min(ia, ib), max(ia, ib)
	start := max(0, last-historyRuns+1)
	out := make([]string, 0, historyRuns+1)
	if first < start {
		out = append(out, s.order[first])
	}
	return append(out, s.order[start:last+1]...)
}

// resolveKeys fills in the keys of listed tests that never failed, from the
// campaign file of the run the test was last seen in.
func (s *Store) resolveKeys(ctx context.Context, c *compare.Comparison) error {
	type want struct {
		run string
		id  int64
	}
	missing := map[want][]*compare.TestChange{}
	for _, l := range []*compare.TestList{&c.Fixed, &c.Regressed, &c.StillFailing, &c.Added, &c.Removed, &c.FlakyTests} {
		for i := range l.Tests {
			t := &l.Tests[i]
			if t.Key != "" {
				continue
			}
			w := want{c.Head.ID, t.Head.LastID}
			if t.Head.Last == 0 {
				w = want{c.Base.ID, t.Base.LastID}
			}
			missing[w] = append(missing[w], t)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	byRun := map[string][]int64{}
	for w := range missing {
		byRun[w.run] = append(byRun[w.run], w.id)
	}
	for run, ids := range byRun {
		f, err := s.fileOf(run)
		if err != nil {
			return err
		}
		results, err := f.resultsByID(ctx, ids)
		if err != nil {
			return errorf("resolving test keys of run %s: %w", run, err)
		}
		for id, r := range results {
			for _, t := range missing[want{run, id}] {
				t.Key = r.Test
			}
		}
	}
	return nil
}
