package filing

import (
	"context"
	"strings"

	"sandtrap"
	"sandtrap/paths"
)

// ModeSource reads what a ticket says about a mode.
type ModeSource interface {
	FindMode(ctx context.Context, id string) (sandtrap.Mode, error)
	ModeRuns(ctx context.Context, id string) ([]sandtrap.RunCount, error)
	ModeOccurrences(ctx context.Context, id string, limit, offset int) ([]sandtrap.Occurrence, int, error)
}

// samplesForFacts is how many failures a ticket's facts are drawn from.
const samplesForFacts = 200

// Facts returns the FactsFunc that gathers what a ticket says about a mode
// from modes: its counts per run, target and domain, its samples, the
// quickest failing workflow, and a link back when publicURL is set.
func Facts(modes ModeSource, publicURL string) FactsFunc {
	return func(ctx context.Context, id string) (ModeFacts, bool, string, error) {
		m, err := modes.FindMode(ctx, id)
		if err != nil {
			return ModeFacts{}, false, "", err
		}
		f := ModeFacts{ID: m.ID, Title: m.Title, Signature: m.Signature, Layer: m.Layer, Primitive: m.Primitive,
			Severity: m.Severity, SeverityReason: m.SeverityReason, PerTarget: map[string]int{}, PerDomain: map[string]int{}}
		if publicURL != "" {
			f.Link = paths.Absolute(publicURL, paths.Mode(m.ID))
		}
		perRun, err := modes.ModeRuns(ctx, m.ID)
		if err != nil {
			return f, false, "", err
		}
		for _, rc := range perRun {
			if rc.Count == 0 {
				continue
			}
			f.PerRun = append(f.PerRun, RunCount{RunID: rc.RunID, Count: rc.Count})
			f.Count += rc.Count
			if f.FirstSeen.IsZero() || rc.StartedAt.Before(f.FirstSeen) {
				f.FirstSeen = rc.StartedAt
			}
			if rc.StartedAt.After(f.LastSeen) {
				f.LastSeen = rc.StartedAt
			}
		}
		occ, _, err := modes.ModeOccurrences(ctx, m.ID, samplesForFacts, 0)
		if err != nil {
			return f, false, "", err
		}
		seen := map[string]bool{}
		for _, o := range occ {
			f.PerTarget[o.Target]++
			f.PerDomain[o.Domain]++
			if e := FirstLine(o.Error); !seen[e] {
				seen[e] = true
				f.Samples = append(f.Samples, Sample{RunID: o.RunID, ResultID: o.ID, Test: o.Test, Error: o.Error})
			}
		}
		if q := Quickest(occ); q != nil {
			f.Smallest = &Sample{RunID: q.RunID, ResultID: q.ID, Test: q.Test, Error: q.Error}
		}
		return f, m.Status == sandtrap.TriageFixed, m.Owner, nil
	}
}

// Quickest is the failure of occ whose workflow failed soonest, the one a
// person reproduces first; the first of occ when none has a duration, and
// nil for none.
func Quickest(occ []sandtrap.Occurrence) *sandtrap.Occurrence {
	var best *sandtrap.Occurrence
	for i := range occ {
		o := &occ[i]
		if o.DurationMS < 0 {
			continue
		}
		if best == nil || o.DurationMS < best.DurationMS {
			best = o
		}
	}
	if best == nil && len(occ) > 0 {
		best = &occ[0]
	}
	return best
}

// FirstLine is the first line of s that holds more than spaces.
func FirstLine(s string) string {
	for _, line := range strings.Split(s, "\n") {
		if strings.TrimSpace(line) != "" {
			return strings.TrimRight(line, "\r")
		}
	}
	return ""
}
