package paths

import (
	"testing"
	"time"

	"sandtrap"
)

func TestPaths(t *testing.T) {
	tests := []struct {
		name, got, want string
	}{
		{"a run id is escaped", Run("r/1 x"), "/runs/r%2F1%20x"},
		{"a result is under its run", Result("r1", 42), "/runs/r1/results/42"},
		{"an artifact is under its result", Artifact("r1", 42, 7), "/runs/r1/results/42/artifacts/7"},
		{"a mode id is escaped", Mode("m-1/2"), "/modes/m-1%2F2"},
		{"targets are under the run", Targets("r1"), "/runs/r1/targets"},
		{"failures without a filter have no query", Failures("r1", sandtrap.ResultFilter{}), "/runs/r1/failures"},
		{"the default page size is left out", Failures("r1", sandtrap.ResultFilter{Status: "failed", Limit: DefaultLimit}), "/runs/r1/failures?status=failed"},
		{"a filter keeps its fields, sorted", Modes("r1", sandtrap.ResultFilter{Target: "browser", Layer: "sandbox", Offset: 50, Limit: 10}),
			"/runs/r1/modes?layer=sandbox&limit=10&offset=50&target=browser"},
		{"times are RFC 3339 in UTC", Failures("r1", sandtrap.ResultFilter{From: time.Date(2026, 7, 1, 2, 0, 0, 0, time.FixedZone("x", 3600))}),
			"/runs/r1/failures?from=2026-07-01T01%3A00%3A00Z"},
		{"compare without a base names the head", Compare("", "r2"), "/compare?head=r2"},
		{"compare names both runs", Compare("r1", "r2"), "/compare?base=r1&head=r2"},
		{"a stream keeps the list's filters", Stream("/runs/r1/failures?status=failed", "/failures"), "/runs/r1/failures/live?status=failed"},
		{"an absolute link drops a doubled slash", Absolute("https://sandtrap.example/", Mode("m-1")), "https://sandtrap.example/modes/m-1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("got %q, want %q", tt.got, tt.want)
			}
		})
	}
}
