package triage

import (
	"slices"
	"strings"
	"testing"
)

func TestDiff(t *testing.T) {
	tests := []struct {
		name    string
		samples []string
		want    [][]Segment
	}{
		{"no samples", nil, [][]Segment{}},
		{"one sample has nothing to compare", []string{"Killed"}, [][]Segment{{{Text: "Killed"}}}},
		{
			"numbers and ids vary",
			[]string{"session sbx-4f2a91c0 expired after 1800 s", "session sbx-9c03be17 expired after 3600 s"},
			[][]Segment{
				{{Text: "session sbx-"}, {Text: "4f2a91c0", Varies: true}, {Text: " expired after "}, {Text: "1800", Varies: true}, {Text: " s"}},
				{{Text: "session sbx-"}, {Text: "9c03be17", Varies: true}, {Text: " expired after "}, {Text: "3600", Varies: true}, {Text: " s"}},
			},
		},
		{
			"a part constant in two samples varies in the third",
			[]string{"No module named 'sklearn'", "No module named 'sklearn'", "No module named 'pandas'"},
			[][]Segment{
				{{Text: "No module named '"}, {Text: "sklearn", Varies: true}, {Text: "'"}},
				{{Text: "No module named '"}, {Text: "sklearn", Varies: true}, {Text: "'"}},
				{{Text: "No module named '"}, {Text: "pandas", Varies: true}, {Text: "'"}},
			},
		},
		{
			"identical samples have no varying part",
			[]string{"Page crashed!", "Page crashed!"},
			[][]Segment{{{Text: "Page crashed!"}}, {{Text: "Page crashed!"}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Diff(tt.samples)
			if !slices.EqualFunc(got, tt.want, slices.Equal) {
				t.Errorf("Diff(%q)\n got %+v\nwant %+v", tt.samples, got, tt.want)
			}
		})
	}
}

func TestDiffSegmentsRebuildTheSamples(t *testing.T) {
	samples := []string{"héllo wörld 1\x00x", "héllo wörld 22\x00y", strings.Repeat("long ", 2000)}
	for i, segs := range Diff(samples) {
		var b strings.Builder
		for _, s := range segs {
			b.WriteString(s.Text)
		}
		if got := b.String(); got != samples[i] {
			t.Errorf("sample %d: segments join to %q, want %q", i, got, samples[i])
		}
	}
}
