package store

import (
	"context"
	"sort"
	"time"

	"sandtrap"
)

// activityWindow is how far back the rate of a live run looks.
const activityWindow = 5 * time.Minute

// RunActivity measures a run's recent pace from its results' start times.
func (s *Store) RunActivity(ctx context.Context, runID string, now time.Time) (sandtrap.Activity, error) {
	var a sandtrap.Activity
	err := s.withRun(ctx, runID, func(ri *runIndex, d *runData) error {
		from := now.Add(-activityWindow).UnixMilli()
		first, n := int64(0), 0
		for i := len(d.rows) - 1; i >= 0; i-- {
			at := d.rows[i].startedMS()
			if at == 0 {
				continue
			}
			if a.LastAt.IsZero() || at > a.LastAt.UnixMilli() {
				a.LastAt = time.UnixMilli(at)
			}
			if at < from {
				break
			}
			n++
			first = at
		}
		if n > 1 {
			// A floor on the span keeps the first seconds of a run from
			// promising absurd rates.
			span := max(now.Sub(time.UnixMilli(first)), 10*time.Second)
			a.PerMinute = float64(n) / span.Minutes()
		}
		return nil
	})
	return a, err
}

// NewModesSince lists the failure modes whose first failure in the whole
// campaign is in this run and started at or after since, newest first.
func (s *Store) NewModesSince(ctx context.Context, runID string, since time.Time) ([]sandtrap.NewMode, error) {
	var out []sandtrap.NewMode
	err := s.withRun(ctx, runID, func(ri *runIndex, d *runData) error {
		elsewhere := map[string]bool{}
		for _, other := range s.runs {
			if other == ri {
				continue
			}
			for k := range other.cube {
				if k.mode >= 0 {
					elsewhere[s.eff[k.mode].ID] = true
				}
			}
		}
		first := map[string]int64{}
		for i := range d.rows {
			r := &d.rows[i]
			if r.fail < 0 {
				continue
			}
			id := s.eff[d.fails[r.fail].mode].ID
			if elsewhere[id] {
				continue
			}
			if at, seen := first[id]; !seen || (r.at != 0 && r.startedMS() < at) {
				first[id] = r.startedMS()
			}
		}
		for id, at := range first {
			t := time.UnixMilli(at)
			if at == 0 || t.Before(since) {
				continue
			}
			m, _ := s.modeOf(id, false)
			out = append(out, sandtrap.NewMode{Mode: m, FirstAt: t})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool { return out[i].FirstAt.After(out[j].FirstAt) })
	return out, nil
}

// LastFailures returns, for each failure mode of a run, when its latest
// failure started; modes whose failures carry no start time are left out.
func (s *Store) LastFailures(ctx context.Context, runID string) (map[string]time.Time, error) {
	last := map[string]int64{}
	err := s.withRun(ctx, runID, func(ri *runIndex, d *runData) error {
		for i := range d.rows {
			r := &d.rows[i]
			if r.fail < 0 || r.at == 0 {
				continue
			}
			id := s.eff[d.fails[r.fail].mode].ID
			last[id] = max(last[id], r.startedMS())
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make(map[string]time.Time, len(last))
	for id, ms := range last {
		out[id] = time.UnixMilli(ms)
	}
	return out, nil
}

// settle records, after a pass that read src's runs table and then its
// results, which runs were finished: a harness writes a run's results
// before its end, so each of these has all of its results read.
func (s *Store) settle(src *source) {
	s.mu.Lock()
	defer s.mu.Unlock()
	src.settled = map[string]bool{}
	for id, m := range src.meta {
		if m.FinishedAt.Valid {
			src.settled[id] = true
		}
	}
}

// RunSettled reports whether a run is finished with every result it had by
// then read, so that its numbers are final. Between reading a file's runs
// table and its new results, a run can look finished without its last
// results.
func (s *Store) RunSettled(ctx context.Context, runID string) (bool, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	ri, ok := s.runs[runID]
	if !ok {
		return false, sandtrap.Errorf(sandtrap.ENOTFOUND, "run %q not found", runID)
	}
	return ri.src.settled[ri.rawID], nil
}
