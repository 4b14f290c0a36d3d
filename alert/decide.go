package alert

import (
	"sandtrap/logview"
	"sandtrap/paths"
	"slices"
	"strings"
	"time"

	"sandtrap"
)

// statusFixed is triage's status for a mode a person marked fixed; triage
// cannot be imported here (see the vocabulary above).
const statusFixed = "fixed"

// RunFacts is what detection reads about one run that is watched: a run
// seen live, until its end has been told.
type RunFacts struct {
	Run sandtrap.Run
	// Modes are the run's failure modes, worst first, triage applied.
	Modes []sandtrap.ModeStat
	// FixedAt is when each mode marked fixed was last marked so.
	FixedAt map[string]time.Time
	// LastFailure is the start of each mode's latest failure in the run;
	// a mode whose failures carry no start time has none.
	LastFailure map[string]time.Time
}

// Key names one alert's event for one mode in one run. Each key is sent
// once: it is the outbox's unique key.
type Key struct {
	Alert  string
	Event  string
	ModeID string // "" for run-finished
	RunID  string
}

// Fire is an event an alert sends, with what its message says.
type Fire struct {
	Key
	Message Message
}

// Links makes the absolute URLs of sandtrap's pages.
type Links struct {
	Base string // --public-url, or the address serve listens on
}

// Mode is the URL of a mode's page.
func (l Links) Mode(id string) string {
	return paths.Absolute(l.Base, paths.Mode(id))
}

// Run is the URL of a run's overview.
func (l Links) Run(id string) string {
	return paths.Absolute(l.Base, paths.Run(id))
}

// listed caps the modes a run-finished message names in each list.
const listed = 5

// Detect returns what the alerts send about a watched run, now. A mode that
// failed in the run and in no earlier one is new; a mode marked fixed that
// failed in the run after it was marked so is returned (not also new); a
// finished run is told with its numbers. Each alert keeps the modes of its
// severity and filters. Detecting again returns the same keys, which the
// outbox sends once.
func Detect(alerts []Alert, f RunFacts, links Links) []Fire {
	var fresh, back []sandtrap.ModeStat
	for _, m := range f.Modes {
		switch {
		case m.Count == 0:
		case returned(m, f):
			back = append(back, m)
		case m.NewInRun:
			fresh = append(fresh, m)
		}
	}
	run := runInfo(f.Run, links)
	var out []Fire
	for _, a := range alerts {
		fire := func(event string, m *sandtrap.ModeStat, msg Message) {
			k := Key{Alert: a.Name, Event: event, RunID: f.Run.ID}
			if m != nil {
				k.ModeID = m.ID
			}
			msg.Event, msg.Alert, msg.Run = event, a.Name, run
			out = append(out, Fire{Key: k, Message: msg})
		}
		for event, modes := range map[string][]sandtrap.ModeStat{EventNewMode: fresh, EventReturnedMode: back} {
			if !a.Sends(event) {
				continue
			}
			for _, m := range modes {
				if a.keeps(m) {
					fire(event, &m, Message{Mode: new(modeInfo(m, links))})
				}
			}
		}
		if a.Sends(EventRunFinished) && !f.Run.Live() {
			fire(EventRunFinished, nil, Message{Summary: new(summary(a, f, fresh, back, links))})
		}
	}
	slices.SortFunc(out, func(x, y Fire) int { return compareKeys(x.Key, y.Key) })
	return out
}

func compareKeys(a, b Key) int {
	for _, c := range [][2]string{{a.Alert, b.Alert}, {a.Event, b.Event}, {a.ModeID, b.ModeID}} {
		if n := strings.Compare(c[0], c[1]); n != 0 {
			return n
		}
	}
	return 0
}

// returned reports whether a mode marked fixed failed in the run after it
// was marked so: its latest failure is later, or, when its failures carry
// no start time, the run began later.
func returned(m sandtrap.ModeStat, f RunFacts) bool {
	if m.Status != statusFixed {
		return false
	}
	fixed, ok := f.FixedAt[m.ID]
	if !ok {
		return false
	}
	if last, ok := f.LastFailure[m.ID]; ok {
		return last.After(fixed)
	}
	return f.Run.StartedAt.After(fixed)
}

// keeps reports whether the alert sends about mode m: severe enough, and
// matching each filter that is set.
func (a Alert) keeps(m sandtrap.ModeStat) bool {
	anyIn := func(want []string, have map[string]int) bool {
		return len(want) == 0 || slices.ContainsFunc(want, func(v string) bool { return have[v] > 0 })
	}
	return severityRank(m.Severity) <= severityRank(a.minSeverity()) &&
		(len(a.Layers) == 0 || slices.Contains(a.Layers, m.Layer)) &&
		anyIn(a.Targets, m.Targets) && anyIn(a.Domains, m.Domains)
}

func runInfo(r sandtrap.Run, links Links) RunInfo {
	return RunInfo{ID: logview.Visible(r.ID), Name: logview.Visible(r.Name), URL: links.Run(r.ID)}
}

func modeInfo(m sandtrap.ModeStat, links Links) ModeInfo {
	return ModeInfo{
		ID: m.ID, Title: logview.Visible(m.Title), Severity: logview.Visible(m.Severity),
		Layer: logview.Visible(m.Layer), Primitive: logview.Visible(m.Primitive), Count: m.Count, URL: links.Mode(m.ID),
	}
}

// summary is what a run-finished message says: the run's numbers, and the
// new, returned and worst modes the alert keeps.
func summary(a Alert, f RunFacts, fresh, back []sandtrap.ModeStat, links Links) Summary {
	c := f.Run.Counts
	s := Summary{Total: c.Total, Passed: c.Passed, Skipped: c.Skipped, Failures: c.Failures(), PassRate: c.PassRate(), MinSeverity: a.minSeverity()}
	pick := func(modes []sandtrap.ModeStat) (infos []ModeInfo, total int) {
		infos = []ModeInfo{} // a list, never null, in the webhook's JSON
		for _, m := range modes {
			if !a.keeps(m) {
				continue
			}
			if total++; len(infos) < listed {
				infos = append(infos, modeInfo(m, links))
			}
		}
		return infos, total
	}
	s.New, s.NewTotal = pick(fresh)
	s.Returned, s.ReturnedTotal = pick(back)
	s.Worst, s.ModesTotal = pick(f.Modes)
	return s
}
