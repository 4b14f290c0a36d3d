package index

import (
	"context"
	"slices"

	"sandtrap"
)

// RunModes groups a run's failures that match f into failure modes, with
// their counts and blast radius, and counts the facets as the failures list
// does. The order is the index's; callers rank.
func (ix *Index) RunModes(ctx context.Context, runID string, f sandtrap.ResultFilter) ([]sandtrap.ModeStat, map[string][]sandtrap.FacetValue, error) {
	var q queue
	err := ix.withRun(ctx, runID, func(ri *run, d *runData) error {
		q = ix.queueOf(ri, d, f)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	// Callers sort their copy; the maps inside are only read.
	return slices.Clone(q.modes), q.facets, nil
}

// queueOf returns the queue of run ri with rows d under filter f, computed
// once per change of what it is computed from. Callers hold mu.
func (ix *Index) queueOf(ri *run, d *runData, f sandtrap.ResultFilter) queue {
	key := queueKey{filter: f, rows: len(d.rows), cells: ix.cells, decisions: ix.decisionsVersion, runs: ix.runsVersion}
	q, ok := ri.queue(key)
	if !ok {
		q.modes, q.facets = ix.runModes(ri, d, f)
		if ri.keeps(d) {
			ri.keepQueue(key, q)
		}
	}
	return q
}

// queueKey says what a run's queue was computed from: the same filter over
// the same rows with the same decisions gives the same queue. (First and
// last seen look at every run's breakdown, hence its count of cells, and
// at the runs' order and rows, hence their version: a run's row may come
// after its results were counted.)
type queueKey struct {
	filter    sandtrap.ResultFilter
	rows      int
	cells     int
	decisions int
	runs      int
}

type queue struct {
	modes  []sandtrap.ModeStat
	facets map[string][]sandtrap.FacetValue
}

// queuesKept bounds the queues a run keeps, one per filter in use.
const queuesKept = 16

func (ri *run) queue(k queueKey) (queue, bool) {
	ri.factsMu.Lock()
	defer ri.factsMu.Unlock()
	q, ok := ri.queues[k]
	return q, ok
}

func (ri *run) keepQueue(k queueKey, q queue) {
	ri.factsMu.Lock()
	defer ri.factsMu.Unlock()
	// Rows, cells and decisions only grow: a queue computed from fewer is
	// never asked for again.
	for old := range ri.queues {
		if old.rows < k.rows || old.cells < k.cells || old.decisions < k.decisions {
			delete(ri.queues, old)
		}
	}
	if ri.queues == nil || len(ri.queues) >= queuesKept {
		ri.queues = map[queueKey]queue{}
	}
	ri.queues[k] = q
}

// runModes computes the queue of run ri with rows d. Callers hold mu.
func (ix *Index) runModes(ri *run, d *runData, f sandtrap.ResultFilter) ([]sandtrap.ModeStat, map[string][]sandtrap.FacetValue) {
	// Count in flat tables indexed by mode and code while walking; strings
	// come at the end, once per mode rather than once per failure.
	type test struct {
		mode int32
		hash uint64
	}
	nd, nt, ns := len(ix.names.values[kindDomain])+1, len(ix.names.values[kindTarget])+1, len(ix.names.values[kindStatus])+1
	modes := len(ix.modes)
	counts := make([]int, modes)
	domains, targets, statuses := make([]int, modes*nd), make([]int, modes*nt), make([]int, modes*ns)
	tests := make(map[test]struct{}, len(d.fails))
	// Failures in an outage window are the outage's, not their modes'.
	windows := ix.timelineOf(ri, d).windows
	facets := ix.filter(d, f, func(r *row, fl *failure) {
		if fl == nil || (len(windows) > 0 && inWindow(windows, r.at)) {
			return
		}
		root := int(ix.rootIndex(fl.mode))
		counts[root]++
		domains[root*nd+int(r.domain)]++
		targets[root*nt+int(r.target)]++
		statuses[root*ns+int(r.status)]++
		tests[test{int32(root), r.testHash}] = struct{}{}
	})
	stats := map[int32]*sandtrap.ModeStat{}
	for root, n := range counts {
		if n == 0 {
			continue
		}
		e := &ix.eff[root]
		m, _ := ix.modeOf(e.ID, false)
		if m.ID == "" {
			m = sandtrap.Mode{ID: e.ID, Layer: e.Layer, Primitive: e.Primitive, Signature: e.Signature,
				Title: e.Title, Severity: e.Severity, SeverityReason: e.SeverityReason, Status: e.Status, Owner: e.Owner}
		}
		st := &sandtrap.ModeStat{Mode: m, Count: n, Deterministic: true,
			Domains: map[string]int{}, Targets: map[string]int{}, Statuses: map[string]int{}}
		tally := func(into map[string]int, kind string, table []int, width int) {
			for code, c := range table[root*width : (root+1)*width] {
				if c > 0 {
					into[ix.names.value(kind, uint16(code))] += c
				}
			}
		}
		tally(st.Domains, kindDomain, domains, nd)
		tally(st.Targets, kindTarget, targets, nt)
		tally(st.Statuses, kindStatus, statuses, ns)
		stats[int32(root)] = st
	}
	if len(stats) == 0 {
		return nil, facets
	}
	// A mode is intermittent when one of its tests also passed in the run.
	alsoPassed := ix.alsoPassed(ri, d)
	for t := range tests {
		st := stats[t.mode]
		st.Tests++
		if alsoPassed[t.hash] {
			st.Deterministic = false
		}
	}
	byID := make(map[string]*sandtrap.ModeStat, len(stats))
	for _, st := range stats {
		byID[st.ID] = st
	}
	ix.seenRange(byID, ri)
	out := make([]sandtrap.ModeStat, 0, len(stats))
	for _, st := range stats {
		out = append(out, *st)
	}
	return out, facets
}

// rootIndex is the index of the mode that absorbs m through merges, or m
// itself when that mode was never seen. Callers hold mu.
func (ix *Index) rootIndex(m int32) int32 {
	if r := ix.eff[m].root; r >= 0 {
		return r
	}
	return m
}

// alsoPassed returns the failing tests of run ri with rows d that also
// passed in it, by hash. It is cached until the run grows: finding them
// walks every row. Callers hold mu.
func (ix *Index) alsoPassed(ri *run, d *runData) map[uint64]bool {
	ri.factsMu.Lock()
	defer ri.factsMu.Unlock()
	if ri.passedRows == len(d.rows) && ri.passed != nil {
		return ri.passed
	}
	failing := make(map[uint64]bool, len(d.fails))
	for i := range d.rows {
		if r := &d.rows[i]; r.fail >= 0 {
			failing[r.testHash] = false
		}
	}
	passed, _ := ix.names.lookup(kindStatus, sandtrap.StatusPassed)
	for i := range d.rows {
		r := &d.rows[i]
		if r.status != passed || r.fail >= 0 {
			continue
		}
		if _, ok := failing[r.testHash]; ok {
			failing[r.testHash] = true
		}
	}
	if ri.keeps(d) {
		ri.passed, ri.passedRows = failing, len(d.rows)
	}
	return failing
}
