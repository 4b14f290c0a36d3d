package store

import (
	"context"
	"slices"
	"time"

	"sandtrap"
)

// RunModes groups a run's failures that match f into failure modes, with
// their counts and blast radius, and counts the facets as the failures list
// does. The order is the store's; callers rank.
func (s *Store) RunModes(ctx context.Context, runID string, f ResultFilter) ([]sandtrap.ModeStat, map[string][]FacetValue, error) {
	var q queue
	err := s.withRun(ctx, runID, func(ri *runIndex, d *runData) error {
		q = s.queueOf(ri, d, f)
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
func (s *Store) queueOf(ri *runIndex, d *runData, f ResultFilter) queue {
	key := queueKey{filter: f, rows: len(d.rows), cells: s.cells, decisions: s.decisionsVersion}
	q, ok := ri.queue(key)
	if !ok {
		q.modes, q.facets = s.runModes(ri, d, f)
		if ri.keeps(d) {
			ri.keepQueue(key, q)
		}
	}
	return q
}

// queueKey says what a run's queue was computed from: the same filter over
// the same rows with the same decisions gives the same queue. (First and
// last seen look at every run's breakdown, hence its count of cells.)
type queueKey struct {
	filter    ResultFilter
	rows      int
	cells     int
	decisions int
}

type queue struct {
	modes  []sandtrap.ModeStat
	facets map[string][]FacetValue
}

// queuesKept bounds the queues a run keeps, one per filter in use.
const queuesKept = 16

func (ri *runIndex) queue(k queueKey) (queue, bool) {
	ri.factsMu.Lock()
	defer ri.factsMu.Unlock()
	q, ok := ri.queues[k]
	return q, ok
}

func (ri *runIndex) keepQueue(k queueKey, q queue) {
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
func (s *Store) runModes(ri *runIndex, d *runData, f ResultFilter) ([]sandtrap.ModeStat, map[string][]FacetValue) {
	// Count in flat tables indexed by mode and code while walking; strings
	// come at the end, once per mode rather than once per failure.
	type test struct {
		mode int32
		hash uint64
	}
	nd, nt, ns := len(s.names.values[kindDomain])+1, len(s.names.values[kindTarget])+1, len(s.names.values[kindStatus])+1
	modes := len(s.modes)
	counts := make([]int, modes)
	domains, targets, statuses := make([]int, modes*nd), make([]int, modes*nt), make([]int, modes*ns)
	tests := make(map[test]struct{}, len(d.fails))
	// Failures in an outage window are the outage's, not their modes'.
	windows := s.timelineOf(ri, d).windows
	facets := s.filter(d, f, func(r *row, fl *failure) {
		if fl == nil || (len(windows) > 0 && inWindow(windows, r.at)) {
			return
		}
		root := int(s.rootIndex(fl.mode))
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
		e := &s.eff[root]
		m, _ := s.modeOf(e.ID, false)
		if m.ID == "" {
			m = sandtrap.Mode{ID: e.ID, Layer: e.Layer, Primitive: e.Primitive, Signature: e.Signature,
				Title: e.Title, Severity: e.Severity, SeverityReason: e.SeverityReason, Status: e.Status, Owner: e.Owner}
		}
		st := &sandtrap.ModeStat{Mode: m, Count: n, Deterministic: true,
			Domains: map[string]int{}, Targets: map[string]int{}, Statuses: map[string]int{}}
		tally := func(into map[string]int, kind string, table []int, width int) {
			for code, c := range table[root*width : (root+1)*width] {
				if c > 0 {
					into[s.names.value(kind, uint16(code))] += c
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
	alsoPassed := s.alsoPassed(ri, d)
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
	s.seenRange(byID, ri)
	out := make([]sandtrap.ModeStat, 0, len(stats))
	for _, st := range stats {
		out = append(out, *st)
	}
	return out, facets
}

// rootIndex is the index of the mode that absorbs m through merges, or m
// itself when that mode was never seen. Callers hold mu.
func (s *Store) rootIndex(m int32) int32 {
	if r := s.eff[m].root; r >= 0 {
		return r
	}
	return m
}

// alsoPassed returns the failing tests of run ri with rows d that also
// passed in it, by hash. It is cached until the run grows: finding them
// walks every row. Callers hold mu.
func (s *Store) alsoPassed(ri *runIndex, d *runData) map[uint64]bool {
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
	passed, _ := s.names.lookup(kindStatus, sandtrap.StatusPassed)
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

// seenRange fills in the first and last runs each mode was seen in, and
// whether ri is its first. Callers hold mu.
func (s *Store) seenRange(stats map[string]*sandtrap.ModeStat, ri *runIndex) {
	start := func(r *runIndex) time.Time { return parseTime(r.src.meta[r.rawID].StartedAt) }
	thisStart := start(ri)
	for _, id := range s.order {
		other := s.runs[id]
		at := start(other)
		seen := map[string]bool{}
		for k := range other.cube {
			if k.mode < 0 {
				continue
			}
			root := s.eff[k.mode].ID
			if seen[root] {
				continue
			}
			seen[root] = true
			st, ok := stats[root]
			if !ok {
				continue
			}
			if st.FirstRun == "" || at.Before(st.FirstSeen) {
				st.FirstRun, st.FirstSeen = id, at
			}
			if st.LastRun == "" || at.After(st.LastSeen) {
				st.LastRun, st.LastSeen = id, at
			}
		}
	}
	for _, st := range stats {
		st.NewInRun = !st.FirstSeen.Before(thisStart)
	}
}

// ModeRuns counts a mode's failures in every run that has one, oldest run
// first.
func (s *Store) ModeRuns(ctx context.Context, id string) ([]sandtrap.RunCount, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	i, ok := s.modeIndex(id)
	if !ok {
		return nil, sandtrap.Errorf(sandtrap.ENOTFOUND, "failure mode %q not found", id)
	}
	root := s.eff[i].ID
	var out []sandtrap.RunCount
	for _, runID := range s.order {
		ri := s.runs[runID]
		rc := sandtrap.RunCount{RunID: runID, RunName: s.runOf(runID, ri).Name, StartedAt: parseTime(ri.src.meta[ri.rawID].StartedAt)}
		for k, n := range ri.cube {
			rc.Total += n
			if k.mode >= 0 && s.eff[k.mode].ID == root {
				rc.Count += n
			}
		}
		out = append(out, rc)
	}
	return out, nil
}

// ModesBeside returns the failure modes, merges applied, of every run that
// mode id fails in: the modes it may be merged into. It reads the runs'
// counts, never their rows.
func (s *Store) ModesBeside(ctx context.Context, id string) ([]sandtrap.Mode, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	i, ok := s.modeIndex(id)
	if !ok {
		return nil, sandtrap.Errorf(sandtrap.ENOTFOUND, "failure mode %q not found", id)
	}
	root := s.eff[i].ID
	fails := func(cube map[cell]int) bool {
		for k := range cube {
			if k.mode >= 0 && s.eff[k.mode].ID == root {
				return true
			}
		}
		return false
	}
	var out []sandtrap.Mode
	seen := map[string]bool{}
	for _, runID := range s.order {
		cube := s.runs[runID].cube
		if !fails(cube) {
			continue
		}
		for k := range cube {
			if k.mode < 0 || seen[s.eff[k.mode].ID] {
				continue
			}
			seen[s.eff[k.mode].ID] = true
			if m, ok := s.modeOf(s.eff[k.mode].ID, false); ok {
				out = append(out, m)
			}
		}
	}
	return out, nil
}

// Occurrence is one failure of a mode, in some run.
type Occurrence struct {
	RunID string
	ResultRow
}

// ModeOccurrences returns a page of a mode's failures across every run,
// newest run first, and how many there are. The runs' counts say which
// runs hold the page, so only their rows are read.
func (s *Store) ModeOccurrences(ctx context.Context, id string, limit, offset int) ([]Occurrence, int, error) {
	s.mu.RLock()
	i, ok := s.modeIndex(id)
	if !ok {
		s.mu.RUnlock()
		return nil, 0, sandtrap.Errorf(sandtrap.ENOTFOUND, "failure mode %q not found", id)
	}
	root := s.eff[i].ID
	offset = max(offset, 0)
	// span is a run's share of the occurrences: skip of them come before
	// the page, take of them are on it.
	type span struct {
		runID      string
		skip, take int
	}
	var spans []span
	total := 0
	for j := len(s.order) - 1; j >= 0; j-- {
		runID := s.order[j]
		n := 0
		for k, c := range s.runs[runID].cube {
			if k.mode >= 0 && s.eff[k.mode].ID == root {
				n += c
			}
		}
		if n == 0 {
			continue
		}
		if skip := max(offset-total, 0); skip < n && total+skip < offset+limit {
			spans = append(spans, span{runID, skip, min(n-skip, offset+limit-total-skip)})
		}
		total += n
	}
	s.mu.RUnlock()

	type pick struct {
		runID string
		file  *campaignFile
		row   ResultRow
	}
	var picks []pick
	for _, sp := range spans {
		err := s.withRun(ctx, sp.runID, func(ri *runIndex, d *runData) error {
			seen := 0
			for k := len(d.rows) - 1; k >= 0 && seen < sp.skip+sp.take; k-- {
				r := &d.rows[k]
				if r.fail < 0 {
					continue
				}
				fl := &d.fails[r.fail]
				e := &s.eff[fl.mode]
				if e.ID != root {
					continue
				}
				seen++
				if seen <= sp.skip {
					continue
				}
				picks = append(picks, pick{runID: sp.runID, file: ri.src.file, row: ResultRow{
					Result: sandtrap.Result{ID: r.id, Test: fl.test, Error: fl.err, HasError: true, Attempt: int(fl.attempt),
						Status: s.names.value(kindStatus, r.status), Target: s.names.value(kindTarget, r.target), Domain: s.names.value(kindDomain, r.domain)},
					Layer: e.Layer, Primitive: e.Primitive, Mode: e.ID, ClassifiedBy: s.byOf(fl), Severity: e.Severity,
				}})
			}
			return nil
		})
		if sandtrap.ErrorCode(err) == sandtrap.ENOTFOUND {
			continue // the run is gone since its counts were read
		}
		if err != nil {
			return nil, 0, err
		}
	}

	// Details (titles, durations) come from each run's file, one query per file.
	byFile := map[*campaignFile][]int64{}
	for _, p := range picks {
		byFile[p.file] = append(byFile[p.file], p.row.ID)
	}
	details := map[*campaignFile]map[int64]sandtrap.Result{}
	for f, ids := range byFile {
		if d, err := f.resultsByID(ctx, ids); err == nil {
			details[f] = d
		}
	}
	out := make([]Occurrence, 0, len(picks))
	for _, p := range picks {
		if d, ok := details[p.file][p.row.ID]; ok {
			d.RunID = p.runID
			p.row.Result = d
		}
		out = append(out, Occurrence{RunID: p.runID, ResultRow: p.row})
	}
	return out, total, nil
}
