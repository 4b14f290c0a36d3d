package triage

import (
	"slices"
	"testing"
)

func TestSuggestMerges(t *testing.T) {
	tests := []struct {
		name  string
		modes []MergeCandidate
		want  []MergeSuggestion
	}{
		{
			name: "three modes that differ in one word are one suggestion into the biggest",
			modes: []MergeCandidate{
				{ID: "m-a", Layer: "sandbox", Primitive: "process-spawn", Signature: "spawn blocked: gcc refused by policy", Count: 3},
				{ID: "m-b", Layer: "sandbox", Primitive: "process-spawn", Signature: "spawn blocked: javac refused by policy", Count: 9},
				{ID: "m-c", Layer: "sandbox", Primitive: "process-spawn", Signature: "spawn blocked: rustc refused by policy", Count: 1},
			},
			want: []MergeSuggestion{{Into: "m-b", From: []string{"m-a", "m-c"}, Template: "spawn blocked: <*> refused by policy", Tokens: []string{"javac", "gcc", "rustc"}}},
		},
		{
			name: "modes of another primitive are never suggested together",
			modes: []MergeCandidate{
				{ID: "m-a", Layer: "sandbox", Primitive: "process-spawn", Signature: "blocked gcc by policy", Count: 3},
				{ID: "m-b", Layer: "sandbox", Primitive: "network-egress", Signature: "blocked pypi by policy", Count: 3},
			},
		},
		{
			name: "modes that differ in an anchor are two causes",
			modes: []MergeCandidate{
				{ID: "m-a", Layer: "sandbox", Primitive: "network-egress", Signature: "getaddrinfo ENOTFOUND in fetch", Count: 3},
				{ID: "m-b", Layer: "sandbox", Primitive: "network-egress", Signature: "getaddrinfo EAI_AGAIN in fetch", Count: 3},
			},
		},
		{
			name: "modes that differ in two words are not suggested",
			modes: []MergeCandidate{
				{ID: "m-a", Layer: "sandbox", Primitive: "memory", Signature: "worker gcc died in build", Count: 3},
				{ID: "m-b", Layer: "sandbox", Primitive: "memory", Signature: "worker javac died in test", Count: 3},
			},
		},
		{
			name: "one-word modes share nothing to suggest",
			modes: []MergeCandidate{
				{ID: "m-a", Layer: "sandbox", Primitive: "memory", Signature: "Killed", Count: 3},
				{ID: "m-b", Layer: "sandbox", Primitive: "memory", Signature: "Terminated", Count: 3},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := SuggestMerges(tt.modes)
			if len(got) != len(tt.want) {
				t.Fatalf("got %d suggestions %+v, want %d", len(got), got, len(tt.want))
			}
			for i := range got {
				g, w := got[i], tt.want[i]
				if g.Into != w.Into || !slices.Equal(g.From, w.From) || g.Template != w.Template || !slices.Equal(g.Tokens, w.Tokens) {
					t.Errorf("got %+v, want %+v", g, w)
				}
			}
		})
	}
}
