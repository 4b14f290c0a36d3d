package triage

import (
	"slices"
	"testing"

	"sandtrap"
	"sandtrap/filing"
)

func TestRankPutsTheWorstAndWidestFirst(t *testing.T) {
	mode := func(id, sev string, count, domains int, deterministic bool) sandtrap.ModeStat {
		m := sandtrap.ModeStat{Mode: sandtrap.Mode{ID: id, Severity: sev}, Count: count, Domains: map[string]int{}, Deterministic: deterministic}
		for i := range domains {
			m.Domains[string(rune('a'+i))] = 1
		}
		return m
	}
	tests := []struct {
		name  string
		modes []sandtrap.ModeStat
		want  []string
	}{
		{"severity beats count", []sandtrap.ModeStat{mode("low", "low", 50, 1, true), mode("crit", "critical", 1, 1, true)}, []string{"crit", "low"}},
		{"more failures first within a severity", []sandtrap.ModeStat{mode("few", "high", 2, 1, true), mode("many", "high", 9, 1, true)}, []string{"many", "few"}},
		{"more domains break a tie in count", []sandtrap.ModeStat{mode("one", "high", 5, 1, true), mode("three", "high", 5, 3, true)}, []string{"three", "one"}},
		{"deterministic before intermittent", []sandtrap.ModeStat{mode("flaky", "medium", 5, 1, false), mode("solid", "medium", 5, 1, true)}, []string{"solid", "flaky"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			Rank(tt.modes)
			for i, id := range tt.want {
				if tt.modes[i].ID != id {
					t.Errorf("got %s at %d, want %s", tt.modes[i].ID, i, id)
				}
			}
		})
	}
}

func TestUntriagedCriticalPicksWhatFileAllWouldFile(t *testing.T) {
	mode := func(id, sev, status string, count int) sandtrap.ModeStat {
		return sandtrap.ModeStat{Mode: sandtrap.Mode{ID: id, Severity: sev, Status: status}, Count: count}
	}
	modes := []sandtrap.ModeStat{
		mode("small", sandtrap.SeverityCritical, StatusNew, 2),
		mode("high", sandtrap.SeverityHigh, StatusNew, 50),
		mode("triaged", sandtrap.SeverityCritical, StatusTriaged, 9),
		mode("filed", sandtrap.SeverityCritical, StatusNew, 9),
		mode("big", sandtrap.SeverityCritical, StatusNew, 30),
	}
	tickets := map[string]filing.Stored{"filed": {}}
	var got []string
	for _, m := range UntriagedCritical(modes, tickets) {
		got = append(got, m.ID)
	}
	if want := []string{"big", "small"}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v: critical, new and unfiled, the widest first", got, want)
	}
}
