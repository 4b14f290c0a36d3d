package triage

import "time"

// Minute is what happened in one minute of a run.
type Minute struct {
	Start    time.Time
	Results  int
	Failures int
	Modes    int // distinct failure modes among the failures
}

// Window is a burst of failures of many kinds close together in time: an
// outage of the platform, not many separate bugs.
type Window struct {
	Start, End time.Time // End is the end of the last stormy minute
	Results    int
	Failures   int
}

// Outage thresholds: a minute is stormy when more than half of at least
// outageMinResults results failed, with at least outageMinModes different
// failure modes among them.
const (
	outageMinResults = 10
	outageMinModes   = 3
	outageShare      = 0.5
)

// Stormy reports whether one minute looks like an outage.
func Stormy(m Minute) bool {
	return m.Results >= outageMinResults && m.Modes >= outageMinModes &&
		float64(m.Failures) > outageShare*float64(m.Results)
}

// Outages finds the outage windows in a run's minutes, given in time order:
// runs of stormy minutes, a quiet minute or a gap in time ending each one.
func Outages(minutes []Minute) []Window {
	var out []Window
	var cur *Window
	for _, m := range minutes {
		if !Stormy(m) {
			cur = nil
			continue
		}
		if cur != nil && m.Start.Equal(cur.End) {
			cur.End = m.Start.Add(time.Minute)
			cur.Results += m.Results
			cur.Failures += m.Failures
			continue
		}
		out = append(out, Window{Start: m.Start, End: m.Start.Add(time.Minute), Results: m.Results, Failures: m.Failures})
		cur = &out[len(out)-1]
	}
	return out
}
