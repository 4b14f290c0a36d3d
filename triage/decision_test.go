package triage

import "testing"

func TestADecisionCarriedFromAnAbsorbedModeFillsOnlyWhatItLeavesEmpty(t *testing.T) {
	tests := []struct {
		name           string
		onto, absorbed Decision
		want           Decision
	}{
		{"an empty decision takes the absorbed mode's", Decision{}, Decision{Owner: "infra", Status: "triaged"}, Decision{Owner: "infra", Status: "triaged"}},
		{"the absorber's own fields win", Decision{Owner: "web"}, Decision{Owner: "infra", Severity: "low"}, Decision{Owner: "web", Severity: "low"}},
		{"layer and primitive go together", Decision{Primitive: ""}, Decision{Layer: "sandbox", Primitive: "memory"}, Decision{Layer: "sandbox", Primitive: "memory"}},
		{"a reclassified absorber keeps its class", Decision{Layer: "test", Primitive: "harness"}, Decision{Layer: "sandbox", Primitive: "memory"}, Decision{Layer: "test", Primitive: "harness"}},
		{"a merge into the absorber itself is dropped", Decision{}, Decision{MergedInto: "m-into"}, Decision{}},
		{"a merge into another mode is kept", Decision{}, Decision{MergedInto: "m-other"}, Decision{MergedInto: "m-other"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.onto.CarriedFrom(tt.absorbed, "m-into"); got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}
