package index

import (
	"context"
	"sort"
	"time"

	"sandtrap/triage"
)

// timeline is a run's results per minute and its outage windows.
type timeline struct {
	key     queueKey
	minutes []triage.Minute
	windows []triage.Window
}

// RunTimeline returns a run's results and failures per minute, and the
// outage windows among them.
func (ix *Index) RunTimeline(ctx context.Context, runID string) ([]triage.Minute, []triage.Window, error) {
	var tl *timeline
	err := ix.withRun(ctx, runID, func(ri *run, d *runData) error {
		tl = ix.timelineOf(ri, d)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return tl.minutes, tl.windows, nil
}

// timelineOf folds a run's rows into minutes, once per change of the index
// or of the decisions (a merge changes how many modes a minute has).
// Callers hold mu.
func (ix *Index) timelineOf(ri *run, d *runData) *timeline {
	key := queueKey{rows: len(d.rows), decisions: ix.decisionsVersion}
	ri.factsMu.Lock()
	defer ri.factsMu.Unlock()
	if ri.timeline != nil && ri.timeline.key == key {
		return ri.timeline
	}
	type acc struct {
		m     triage.Minute
		modes map[int32]bool
	}
	byMinute := map[int64]*acc{}
	for i := range d.rows {
		r := &d.rows[i]
		if r.at == 0 {
			continue
		}
		minute := int64(r.at) / 60
		a := byMinute[minute]
		if a == nil {
			a = &acc{m: triage.Minute{Start: time.Unix(minute*60, 0).UTC()}, modes: map[int32]bool{}}
			byMinute[minute] = a
		}
		a.m.Results++
		if r.fail >= 0 {
			a.m.Failures++
			a.modes[ix.rootIndex(d.fails[r.fail].mode)] = true
		}
	}
	tl := &timeline{key: key, minutes: make([]triage.Minute, 0, len(byMinute))}
	for _, a := range byMinute {
		a.m.Modes = len(a.modes)
		tl.minutes = append(tl.minutes, a.m)
	}
	sort.Slice(tl.minutes, func(i, j int) bool { return tl.minutes[i].Start.Before(tl.minutes[j].Start) })
	tl.windows = triage.Outages(tl.minutes)
	if ri.keeps(d) {
		ri.timeline = tl
	}
	return tl
}

// inWindow reports whether a start time in Unix seconds falls in one of
// the windows.
func inWindow(windows []triage.Window, at uint32) bool {
	if at == 0 {
		return false
	}
	t := int64(at)
	for _, w := range windows {
		if t >= w.Start.Unix() && t < w.End.Unix() {
			return true
		}
	}
	return false
}
