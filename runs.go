package sandtrap

import (
	"strings"
	"time"
)

// Run states a RunFilter can ask for.
const (
	RunLive     = "live"
	RunFinished = "finished"
)

// RunFilter selects runs for the runs list, its API and the run picker.
// Empty fields match every run.
type RunFilter struct {
	Q      string    // case-insensitive text in the run's id, name or notes
	Source string    // label of the campaign file the run comes from
	From   time.Time // runs started at or after From; zero is open
	To     time.Time // runs started before To; zero is open
	State  string    // RunLive or RunFinished; "" is both
	Limit  int       // at most this many runs; 0 is every run
	Offset int       // runs skipped, newest first
}

// Match reports whether r meets the filter's conditions; paging aside. A
// run whose start is unknown meets no date condition.
func (f RunFilter) Match(r Run) bool {
	switch {
	case f.Source != "" && r.Source != f.Source,
		f.State == RunLive && !r.Live(),
		f.State == RunFinished && r.Live(),
		!f.From.IsZero() && (r.StartedAt.IsZero() || r.StartedAt.Before(f.From)),
		!f.To.IsZero() && (r.StartedAt.IsZero() || !r.StartedAt.Before(f.To)):
		return false
	}
	if f.Q == "" {
		return true
	}
	q := strings.ToLower(f.Q)
	for _, s := range []string{r.ID, r.Name, r.Notes} {
		if strings.Contains(strings.ToLower(s), q) {
			return true
		}
	}
	return false
}

// RunPage is one page of the runs a filter selects, newest first, and how
// many it selects over every page.
type RunPage struct {
	Runs  []Run
	Total int
}

// Activity is how fast a run is going.
type Activity struct {
	PerMinute float64   // results a minute over the recent window
	LastAt    time.Time // start time of the newest result
}

// NewMode is a failure mode first seen in a run.
type NewMode struct {
	Mode
	FirstAt time.Time // start time of its first failure
}
