package index

import (
	"context"

	"sandtrap"
	"sandtrap/compare"
)

// historyRuns is how many runs, up to the later of the two compared, a
// comparison looks back over to find flaky tests and modes.
const historyRuns = 10

// runFacts is what comparisons need of a run that its rows alone decide.
type runFacts struct {
	rows         int // how many rows the facts cover
	tests        *compare.Tests
	intermittent map[int32]bool // classifier modes a test failed with and also passed
}

// factsOf returns the facts of run ri with rows d, folding its rows only
// when the run grew since: folding a million rows takes longer than a
// comparison may, and a finished run never changes. Callers hold mu.
func (ix *Index) factsOf(ri *run, d *runData) *runFacts {
	ri.factsMu.Lock()
	defer ri.factsMu.Unlock()
	if f := ri.facts; f != nil && f.rows == len(d.rows) {
		return f
	}
	f := &runFacts{rows: len(d.rows), tests: ix.testsOf(d), intermittent: map[int32]bool{}}
	for i := range d.rows {
		r := &d.rows[i]
		if r.fail < 0 {
			continue
		}
		if t, _ := f.tests.Find(r.testHash); t.Passes > 0 {
			f.intermittent[d.fails[r.fail].mode] = true
		}
	}
	if len(d.rows) == ri.n {
		// The facts hold while the run does not grow, rows evicted or not.
		ri.facts = f
		ri.factsUsed.Store(ix.clock.Add(1))
	}
	return f
}

// testsOf folds a run's rows into its tests. Callers hold mu.
func (ix *Index) testsOf(d *runData) *compare.Tests {
	passed, hasPassed := ix.names.lookup(kindStatus, sandtrap.StatusPassed)
	return compare.BuildTests(len(d.rows), func(i int) (uint64, int64, compare.Outcome, string) {
		r := &d.rows[i]
		switch {
		case r.fail >= 0:
			return r.testHash, r.id, compare.Failed, d.fails[r.fail].test
		case hasPassed && r.status == passed:
			return r.testHash, r.id, compare.Passed, ""
		}
		return r.testHash, r.id, compare.Skipped, ""
	})
}

// modesIn returns the ids of the failure modes of a run, merges applied.
// Callers hold mu.
func (ix *Index) modesIn(ri *run) map[string]bool {
	out := map[string]bool{}
	for k := range ri.cube {
		if k.mode >= 0 {
			out[ix.eff[k.mode].ID] = true
		}
	}
	return out
}

// modeStats counts a run's failure modes from its breakdown, merges and
// triage applied; a mode is deterministic unless one of its tests also
// passed in the run. Callers hold mu.
func (ix *Index) modeStats(ri *run, f *runFacts) []sandtrap.ModeStat {
	byRoot := map[string]*sandtrap.ModeStat{}
	var order []string
	for k, n := range ri.cube {
		if k.mode < 0 {
			continue
		}
		e := &ix.eff[k.mode]
		st := byRoot[e.ID]
		if st == nil {
			m, ok := ix.modeOf(e.ID, false)
			if !ok {
				m = sandtrap.Mode{ID: e.ID, Layer: e.Layer, Primitive: e.Primitive, Signature: e.Signature,
					Title: e.Title, Severity: e.Severity, SeverityReason: e.SeverityReason, Status: e.Status, Owner: e.Owner}
			}
			st = &sandtrap.ModeStat{Mode: m, Deterministic: true}
			byRoot[e.ID] = st
			order = append(order, e.ID)
		}
		st.Count += n
		if f.intermittent[k.mode] {
			st.Deterministic = false
		}
	}
	out := make([]sandtrap.ModeStat, 0, len(order))
	for _, id := range order {
		out = append(out, *byRoot[id])
	}
	return out
}

// CompareInput gathers what comparing run headID against run baseID
// needs, with every triage decision applied: each run's breakdown, modes
// and tests, and those of the runs flakiness is judged over. limit caps
// each list of tests (0 keeps them all). The keys of tests that never
// failed are not kept: the campaign files have them.
func (ix *Index) CompareInput(ctx context.Context, baseID, headID string, limit int) (compare.Input, error) {
	in := compare.Input{Limit: limit}
	for _, side := range []struct {
		id  string
		out *compare.Side
	}{{baseID, &in.Base}, {headID, &in.Head}} {
		run, err := ix.FindRun(ctx, side.id)
		if err != nil {
			return compare.Input{}, err
		}
		cells, err := ix.Breakdown(ctx, run.ID)
		if err != nil {
			return compare.Input{}, err
		}
		*side.out = compare.Side{Run: run, Cells: cells}
	}

	ix.mu.RLock()
	ids := ix.history(baseID, headID)
	ix.mu.RUnlock()
	// One run at a time: the rows of a run read back to be folded are
	// not kept, and go before the next is read (a million rows each).
	// The facts folded count against the budget from then on.
	facts := make(map[string]*runFacts, len(ids))
	for _, id := range ids {
		f, err := ix.factsFor(ctx, id)
		if err != nil {
			return compare.Input{}, err
		}
		facts[id] = f
	}
	ix.shrinkNow()
	ix.mu.RLock()
	for _, id := range ids {
		ri, f := ix.runs[id], facts[id]
		if ri == nil {
			continue
		}
		in.History = append(in.History, compare.Snapshot{RunID: id, Modes: ix.modesIn(ri), Tests: f.tests})
		for _, side := range []*compare.Side{&in.Base, &in.Head} {
			if side.Run.ID == id {
				side.Tests, side.Modes = f.tests, ix.modeStats(ri, f)
			}
		}
	}
	ix.mu.RUnlock()
	if in.Base.Tests == nil || in.Head.Tests == nil {
		return compare.Input{}, sandtrap.Errorf(sandtrap.ENOTFOUND, "run %q or %q is no longer served", baseID, headID)
	}
	return in, nil
}

// history returns the public ids of the runs flakiness is judged over,
// oldest first: up to historyRuns runs ending with the later of a and b,
// and the earlier one even when it started before them. Callers hold mu.
func (ix *Index) history(a, b string) []string {
	ia, ib := -1, -1
	for i, id := range ix.order {
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
		out = append(out, ix.order[first])
	}
	return append(out, ix.order[start:last+1]...)
}
