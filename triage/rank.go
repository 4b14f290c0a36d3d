package triage

import (
	"sort"

	"sandtrap"
	"sandtrap/filing"
)

// Rank orders a run's failure modes for triage: worst severity first, then
// by blast radius (more failures, more domains, more targets), and a
// deterministic mode before an intermittent one of the same reach, since it
// reproduces on the first try.
func Rank(modes []sandtrap.ModeStat) {
	sort.SliceStable(modes, func(i, j int) bool {
		a, b := &modes[i], &modes[j]
		if ra, rb := SeverityRank(a.Severity), SeverityRank(b.Severity); ra != rb {
			return ra < rb
		}
		if a.Count != b.Count {
			return a.Count > b.Count
		}
		if len(a.Domains) != len(b.Domains) {
			return len(a.Domains) > len(b.Domains)
		}
		if len(a.Targets) != len(b.Targets) {
			return len(a.Targets) > len(b.Targets)
		}
		if a.Deterministic != b.Deterministic {
			return a.Deterministic
		}
		return a.ID < b.ID
	})
}

// UntriagedCritical returns the modes that "File all untriaged critical
// modes" files: critical, still new to triage, and without a ticket, most
// urgent first.
func UntriagedCritical(modes []sandtrap.ModeStat, tickets map[string]filing.Stored) []sandtrap.ModeStat {
	var todo []sandtrap.ModeStat
	for _, m := range modes {
		if _, filed := tickets[m.ID]; m.Severity == sandtrap.SeverityCritical && m.Status == StatusNew && !filed {
			todo = append(todo, m)
		}
	}
	Rank(todo)
	return todo
}
