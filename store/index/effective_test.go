package index

import (
	"context"
	"slices"
	"testing"

	"sandtrap/triage"
)

func TestMergesAndAliasesLeadEveryMemberToOneRoot(t *testing.T) {
	tests := []struct {
		name      string
		decisions map[string]triage.Decision
		aliases   map[string]string
		want      string // the root both modes show as
	}{
		{"a mode a person merged into another shows as the other",
			map[string]triage.Decision{"m-crash": {MergedInto: "m-permission"}}, nil, "m-permission"},
		{"a template the miner absorbed shows as its absorber",
			nil, map[string]string{"m-permission": "m-crash"}, "m-crash"},
		{"a merge and an alias that point at each other show as the smaller id",
			map[string]triage.Decision{"m-crash": {MergedInto: "m-permission"}}, map[string]string{"m-permission": "m-crash"}, "m-crash"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, 0)
			f.run("r", true)
			f.add(f.results("r", 100))
			f.ix.SetDecisions(tt.decisions)
			if tt.aliases != nil {
				f.ix.AddAliases(tt.aliases)
			}
			ctx := context.Background()
			for _, id := range []string{"m-crash", "m-permission"} {
				m, err := f.ix.FindMode(ctx, id)
				if err != nil {
					t.Fatal(err)
				}
				slices.Sort(m.Members)
				if m.ID != tt.want || !slices.Equal(m.Members, []string{"m-crash", "m-permission"}) {
					t.Errorf("FindMode(%s): got %s with members %v, want %s with both", id, m.ID, m.Members, tt.want)
				}
			}
			h, err := f.ix.ModeHistory(ctx, tt.want, 5)
			if err != nil {
				t.Fatal(err)
			}
			// Of results 0 to 99, the 20 multiples of 5 fail with a
			// permission error and the other 12 multiples of 7 crash.
			if len(h.Modes) != 1 || h.Modes[0].Failures != 32 {
				t.Errorf("history of %s: got %+v, want one mode with 32 failures", tt.want, h.Modes)
			}
		})
	}
}
