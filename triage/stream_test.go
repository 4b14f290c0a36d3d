package triage

import (
	"reflect"
	"testing"

	"sandtrap"
)

func TestTrend(t *testing.T) {
	tests := []struct {
		name   string
		recent []int
		runs   int
		want   string
	}{
		{"no failures in the window is quiet", []int{0, 0, 0, 0}, 7, TrendQuiet},
		{"failures in the newer half only, never before, are new", []int{0, 0, 3, 1}, 2, TrendNew},
		{"a single run with failures is new", []int{4}, 1, TrendNew},
		{"failures in the newer half only, seen before the window, are back", []int{0, 0, 0, 2}, 9, TrendBack},
		{"failures in the older half only are gone", []int{5, 2, 0, 0}, 2, TrendGone},
		{"half again as many a run in the newer half is rising", []int{2, 2, 3, 3}, 4, TrendRising},
		{"a third fewer a run in the newer half is falling", []int{3, 3, 2, 2}, 4, TrendFalling},
		{"about as many is steady", []int{4, 5, 5, 4}, 4, TrendSteady},
		{"the newer half of an odd window is the longer one, compared a run", []int{2, 0, 1, 1, 1}, 4, TrendSteady},
		{"zeros in between do not stop a steady mode", []int{2, 0, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0}, 6, TrendSteady},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Trend(tt.recent, tt.runs); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func summaries() []sandtrap.ModeSummary {
	mode := func(id, title, layer, prim, sev, status, owner string, failures int) sandtrap.ModeSummary {
		return sandtrap.ModeSummary{Mode: sandtrap.Mode{ID: id, Title: title, Signature: "sig of " + title, Layer: layer, Primitive: prim,
			Severity: sev, Status: status, Owner: owner}, Failures: failures}
	}
	// Latest seen first, as the store lists them.
	return []sandtrap.ModeSummary{
		mode("m-1", "Disk full", "sandbox", "storage-persistence", "high", "new", "platform", 10),
		mode("m-2", "Tab crashed", "sandbox", "memory", "critical", "triaged", "workload", 30),
		mode("m-3", "Base64 corrupted", "interface", "encoding", "critical", "new", "mcp", 5),
		mode("m-4", "Fixture missing", "test", "", "low", "new", "harness", 30),
	}
}

func ids(ms []sandtrap.ModeSummary) []string {
	out := []string{}
	for _, m := range ms {
		out = append(out, m.ID)
	}
	return out
}

func TestSelect(t *testing.T) {
	tests := []struct {
		name string
		q    ModeQuery
		by   string
		want []string
	}{
		{"no filter keeps every mode, the latest seen first", ModeQuery{}, SortLastSeen, []string{"m-1", "m-2", "m-3", "m-4"}},
		{"the most failures first, ties kept latest seen first", ModeQuery{}, SortFailures, []string{"m-2", "m-4", "m-1", "m-3"}},
		{"the most severe first", ModeQuery{}, SortSeverity, []string{"m-2", "m-3", "m-1", "m-4"}},
		{"a layer narrows", ModeQuery{Layer: "sandbox"}, SortLastSeen, []string{"m-1", "m-2"}},
		{"filters add up", ModeQuery{Layer: "sandbox", Status: "new"}, SortLastSeen, []string{"m-1"}},
		{"text matches the title in any case", ModeQuery{Text: "tab CRASH"}, SortLastSeen, []string{"m-2"}},
		{"text matches the id", ModeQuery{Text: "m-3"}, SortLastSeen, []string{"m-3"}},
		{"text matches the signature", ModeQuery{Text: "sig of fixture"}, SortLastSeen, []string{"m-4"}},
		{"an owner and a severity", ModeQuery{Owner: "mcp", Severity: "critical"}, SortLastSeen, []string{"m-3"}},
		{"a primitive", ModeQuery{Primitive: "memory"}, SortLastSeen, []string{"m-2"}},
		{"nothing matches", ModeQuery{Layer: "interface", Status: "triaged"}, SortLastSeen, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ids(Select(summaries(), tt.q, tt.by)); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestFacetCounts(t *testing.T) {
	tests := []struct {
		name  string
		q     ModeQuery
		field string
		want  []FacetCount
	}{
		{"every value of a field, the most common first", ModeQuery{}, FieldStatus, []FacetCount{{"new", 3}, {"triaged", 1}}},
		{"a field's own filter does not narrow its counts", ModeQuery{Layer: "sandbox"}, FieldLayer,
			[]FacetCount{{"sandbox", 2}, {"interface", 1}, {"test", 1}}},
		{"the other filters do", ModeQuery{Layer: "sandbox"}, FieldSeverity, []FacetCount{{"critical", 1}, {"high", 1}}},
		{"modes without a value are not counted", ModeQuery{}, FieldPrimitive,
			[]FacetCount{{"encoding", 1}, {"memory", 1}, {"storage-persistence", 1}}},
		{"text narrows every field", ModeQuery{Text: "crash"}, FieldOwner, []FacetCount{{"workload", 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := FacetCounts(summaries(), tt.q)[tt.field]; !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}
