package main

import (
	"context"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"sandtrap"
	"sandtrap/demo"
	"sandtrap/store"
	"sandtrap/triage"
)

// TestTheDemoQueueHasOneModePerRootCause reads the demo as serve does and
// checks its queue against what the generator put in: one failure mode per
// root cause, each with the layer, primitive and severity it was made with,
// worst first.
func TestTheDemoQueueHasOneModePerRootCause(t *testing.T) {
	path := demoCampaign(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st, err := store.Open(ctx, store.Options{StatePath: filepath.Join(t.TempDir(), "s.db"), Campaigns: []string{path}})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	st.Start(ctx)
	st.WaitIndexed(ctx)

	exp := demo.Expected()
	byKey := map[string]demo.ExpectedMode{}
	for _, m := range exp.Modes {
		byKey[m.Key] = m
	}
	expect := func(keys ...[]string) []string {
		var out []string
		for _, list := range keys {
			for _, k := range list {
				m := byKey[k]
				out = append(out, m.Layer+"/"+m.Primitive+"/"+m.Severity)
			}
		}
		sort.Strings(out)
		return out
	}
	tests := []struct {
		name string
		run  string
		want []string
	}{
		{"the first run has the 18 modes it was written with", "2026-06-30-overnight", expect(exp.ModesFixed, exp.ModesKept)},
		{"the second run drops the fixed ones and adds two", "2026-07-01-overnight", expect(exp.ModesKept, exp.ModesAdded)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			modes, _, err := st.RunModes(ctx, tt.run, sandtrap.ResultFilter{})
			if err != nil {
				t.Fatal(err)
			}
			triage.Rank(modes)
			var got []string
			for i, m := range modes {
				got = append(got, m.Layer+"/"+m.Primitive+"/"+m.Severity)
				if i > 0 && triage.SeverityRank(m.Severity) < triage.SeverityRank(modes[i-1].Severity) {
					t.Errorf("got %s after %s, want the worst first", m.Severity, modes[i-1].Severity)
				}
			}
			sort.Strings(got)
			if strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Errorf("got %d modes\n%s\nwant %d\n%s", len(got), strings.Join(got, "\n"), len(tt.want), strings.Join(tt.want, "\n"))
			}
		})
	}
}
