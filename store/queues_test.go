package store

import (
	"context"
	"path/filepath"
	"testing"

	"sandtrap"
)

func TestARunKeepsOnlyTheQueuesOfItsCurrentRows(t *testing.T) {
	path := newCampaign(t, "c.db")
	addRun(t, path, "r", false, resultsSQL("r", 100))
	s := openStore(t, filepath.Join(t.TempDir(), "state.db"), path)
	ctx := context.Background()
	filters := []sandtrap.ResultFilter{{}, {Target: "browser"}, {Domain: "file-io"}}
	for i := range 5 {
		harness(t, path, resultsSQL("r", 10))
		want := 100 + 10*(i+1)
		waitUntil(t, func() bool { run, _ := s.FindRun(ctx, "r"); return run.Counts.Total == want })
		for _, f := range filters {
			if _, _, err := s.RunModes(ctx, "r", f); err != nil {
				t.Fatal(err)
			}
		}
	}
	s.mu.RLock()
	ri := s.runs["r"]
	s.mu.RUnlock()
	ri.factsMu.Lock()
	kept := len(ri.queues)
	ri.factsMu.Unlock()
	if kept != len(filters) {
		t.Errorf("got %d queues kept after the run grew 5 times, want one for each of the %d filters in use", kept, len(filters))
	}
}
