package sandtrap_test

import (
	"testing"
	"time"

	"sandtrap"
)

func TestRunFilterMatch(t *testing.T) {
	start := time.Date(2026, 7, 1, 22, 0, 0, 0, time.UTC)
	finished := sandtrap.Run{ID: "2026-07-01-overnight", Name: "Overnight fuzz", Source: "main", Notes: "after the seccomp change",
		StartedAt: start, FinishedAt: start.Add(7 * time.Hour)}
	live := sandtrap.Run{ID: "ci-4711", Name: "PR 4711", Source: "ingest", StartedAt: start}
	unknownStart := sandtrap.Run{ID: "old", Name: "old", FinishedAt: start}
	day := func(d int) time.Time { return time.Date(2026, 7, d, 0, 0, 0, 0, time.UTC) }

	tests := []struct {
		name string
		f    sandtrap.RunFilter
		run  sandtrap.Run
		want bool
	}{
		{"no condition matches every run", sandtrap.RunFilter{}, unknownStart, true},
		{"paging is no condition", sandtrap.RunFilter{Limit: 1, Offset: 5}, finished, true},
		{"text matches the id", sandtrap.RunFilter{Q: "07-01-over"}, finished, true},
		{"text matches the name in any case", sandtrap.RunFilter{Q: "overNIGHT FUZZ"}, finished, true},
		{"text matches the notes", sandtrap.RunFilter{Q: "seccomp"}, finished, true},
		{"text matches neither the source nor the counts", sandtrap.RunFilter{Q: "main"}, finished, false},
		{"a source matches its own runs", sandtrap.RunFilter{Source: "ingest"}, live, true},
		{"a source leaves other files' runs out", sandtrap.RunFilter{Source: "ingest"}, finished, false},
		{"live matches a run without an end", sandtrap.RunFilter{State: sandtrap.RunLive}, live, true},
		{"live leaves a finished run out", sandtrap.RunFilter{State: sandtrap.RunLive}, finished, false},
		{"finished matches a finished run", sandtrap.RunFilter{State: sandtrap.RunFinished}, finished, true},
		{"finished leaves a live run out", sandtrap.RunFilter{State: sandtrap.RunFinished}, live, false},
		{"a run started on From matches", sandtrap.RunFilter{From: day(1)}, finished, true},
		{"a run started before From does not", sandtrap.RunFilter{From: day(2)}, finished, false},
		{"a run started before To matches", sandtrap.RunFilter{To: day(2)}, finished, true},
		{"a run started at To does not", sandtrap.RunFilter{To: start}, finished, false},
		{"a run of unknown start meets no date", sandtrap.RunFilter{To: day(2)}, unknownStart, false},
		{"every condition must hold", sandtrap.RunFilter{Q: "overnight", State: sandtrap.RunLive}, finished, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.f.Match(tt.run); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}
