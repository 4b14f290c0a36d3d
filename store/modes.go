package store

import (
	"context"
	"time"

	"sandtrap"
)

// RunModes groups a run's failures that match f into failure modes, with
// their counts and blast radius, and counts the facets as the failures list
// does. The order is the store's; callers rank.
func (s *Store) RunModes(ctx context.Context, runID string, f ResultFilter) ([]sandtrap.ModeStat, map[string][]FacetValue, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	ri, ok := s.runs[runID]
	if !ok {
		return nil, nil, sandtrap.Errorf(sandtrap.ENOTFOUND, "run %q not found", runID)
	}
	type agg struct {
		stat  *sandtrap.ModeStat
		tests map[uint64]bool
	}
	byRoot := map[string]*agg{}
	var order []string
	facets := s.filter(ri, f, func(r *row, fl *failure) {
		if fl == nil {
			return
		}
		e := &s.eff[fl.mode]
		a := byRoot[e.ID]
		if a == nil {
			m, _ := s.modeOf(e.ID, false)
			if m.ID == "" {
				m = sandtrap.Mode{ID: e.ID, Layer: e.Layer, Primitive: e.Primitive, Signature: e.Signature,
					Title: e.Title, Severity: e.Severity, SeverityReason: e.SeverityReason, Status: e.Status, Owner: e.Owner}
			}
			a = &agg{stat: &sandtrap.ModeStat{Mode: m, Domains: map[string]int{}, Targets: map[string]int{}, Statuses: map[string]int{}},
				tests: map[uint64]bool{}}
			byRoot[e.ID] = a
			order = append(order, e.ID)
		}
		a.stat.Count++
		a.tests[r.testHash] = true
		a.stat.Domains[s.names.value(kindDomain, r.domain)]++
		a.stat.Targets[s.names.value(kindTarget, r.target)]++
		a.stat.Statuses[s.names.value(kindStatus, r.status)]++
	})
	if len(byRoot) == 0 {
		return nil, facets, nil
	}
	// A mode is intermittent when one of its tests also passed in the run.
	failing := map[uint64][]string{}
	for id, a := range byRoot {
		a.stat.Tests = len(a.tests)
		a.stat.Deterministic = true
		for h := range a.tests {
			failing[h] = append(failing[h], id)
		}
	}
	passed, _ := s.names.lookup(kindStatus, sandtrap.StatusPassed)
	for i := range ri.rows {
		r := &ri.rows[i]
		if r.status != passed || r.fail >= 0 {
			continue
		}
		for _, id := range failing[r.testHash] {
			byRoot[id].stat.Deterministic = false
		}
	}
	stats := make(map[string]*sandtrap.ModeStat, len(byRoot))
	for id, a := range byRoot {
		stats[id] = a.stat
	}
	s.seenRange(stats, ri)
	out := make([]sandtrap.ModeStat, 0, len(order))
	for _, id := range order {
		out = append(out, *byRoot[id].stat)
	}
	return out, facets, nil
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
	i, ok := s.modeIdx[id]
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

// Occurrence is one failure of a mode, in some run.
type Occurrence struct {
	RunID string
	ResultRow
}

// ModeOccurrences returns a page of a mode's failures across every run,
// newest run first, and how many there are.
func (s *Store) ModeOccurrences(ctx context.Context, id string, limit, offset int) ([]Occurrence, int, error) {
	s.mu.RLock()
	i, ok := s.modeIdx[id]
	if !ok {
		s.mu.RUnlock()
		return nil, 0, sandtrap.Errorf(sandtrap.ENOTFOUND, "failure mode %q not found", id)
	}
	root := s.eff[i].ID
	type pick struct {
		runID string
		file  *campaignFile
		row   ResultRow
	}
	var picks []pick
	total := 0
	for j := len(s.order) - 1; j >= 0; j-- {
		runID := s.order[j]
		ri := s.runs[runID]
		for k := len(ri.rows) - 1; k >= 0; k-- {
			r := &ri.rows[k]
			if r.fail < 0 {
				continue
			}
			fl := &ri.fails[r.fail]
			if s.eff[fl.mode].ID != root {
				continue
			}
			total++
			if total <= offset || len(picks) >= limit {
				continue
			}
			e := &s.eff[fl.mode]
			picks = append(picks, pick{runID: runID, file: ri.src.file, row: ResultRow{
				Result: sandtrap.Result{ID: r.id, Test: fl.test, Error: fl.err, HasError: true, Attempt: int(fl.attempt),
					Status: s.names.value(kindStatus, r.status), Target: s.names.value(kindTarget, r.target), Domain: s.names.value(kindDomain, r.domain)},
				Layer: e.Layer, Primitive: e.Primitive, Mode: e.ID, ClassifiedBy: s.byOf(fl), Severity: e.Severity,
			}})
		}
	}
	s.mu.RUnlock()

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
