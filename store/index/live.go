package index

import (
	"context"
	"sort"
	"time"

	"sandtrap"
)

// activityWindow is how far back the rate of a live run looks.
const activityWindow = 5 * time.Minute

// RunActivity measures a run's recent pace from its results' start times.
func (ix *Index) RunActivity(ctx context.Context, runID string, now time.Time) (sandtrap.Activity, error) {
	var a sandtrap.Activity
	err := ix.withRun(ctx, runID, func(ri *run, d *runData) error {
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
func (ix *Index) NewModesSince(ctx context.Context, runID string, since time.Time) ([]sandtrap.NewMode, error) {
	var out []sandtrap.NewMode
	err := ix.withRun(ctx, runID, func(ri *run, d *runData) error {
		elsewhere := map[string]bool{}
		for _, other := range ix.runs {
			if other == ri {
				continue
			}
			for k := range other.cube {
				if k.mode >= 0 {
					elsewhere[ix.eff[k.mode].ID] = true
				}
			}
		}
		first := map[string]int64{}
		for i := range d.rows {
			r := &d.rows[i]
			if r.fail < 0 {
				continue
			}
			id := ix.eff[d.fails[r.fail].mode].ID
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
			m, _ := ix.modeOf(id, false)
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
func (ix *Index) LastFailures(ctx context.Context, runID string) (map[string]time.Time, error) {
	last := map[string]int64{}
	err := ix.withRun(ctx, runID, func(ri *run, d *runData) error {
		for i := range d.rows {
			r := &d.rows[i]
			if r.fail < 0 || r.at == 0 {
				continue
			}
			id := ix.eff[d.fails[r.fail].mode].ID
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
