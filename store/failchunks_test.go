package store

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"sandtrap"
	"sandtrap/store/state"
)

func TestFailuresSavedOverManyPassesLoadAsTheyWere(t *testing.T) {
	path := newCampaign(t, "live.db")
	addRun(t, path, "live", false, resultsSQL("live", 10))
	state := filepath.Join(t.TempDir(), "state.db")
	s := openStore(t, state, path)
	// Each pass adds failures that end part way through a chunk, so the
	// next one rewrites it: 4 passes of 628 failures fill 2 chunks and
	// part of a third.
	for range 4 {
		harness(t, path, resultsSQL("live", 2000))
	}
	// Saved, not only indexed: the watermark moves once a pass is saved.
	waitUntil(t, func() bool {
		s.mu.RLock()
		defer s.mu.RUnlock()
		return s.sources[0].lastID == 10+4*2000
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s.mu.RLock()
	want := failuresOf(s, "live")
	s.mu.RUnlock()
	if n := failing(10) + 4*failing(2000); len(want) != n {
		t.Fatalf("got %d failures indexed, want %d", len(want), n)
	}
	s.Close()

	again, err := Open(ctx, Options{StatePath: state, Campaigns: []string{path}})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	got := failuresOf(again, "live")
	if !slices.Equal(got, want) {
		t.Errorf("got %d failures loaded from the state, want the %d indexed, as they were", len(got), len(want))
	}
	var chunks int
	if err := stateDB(t, again).QueryRowContext(ctx, `SELECT count(*) FROM failure_chunks`).Scan(&chunks); err != nil {
		t.Fatal(err)
	}
	if chunks != 3 {
		t.Errorf("got %d saved chunks of failures, want 3", chunks)
	}
}

// failing is how many of the n results of resultsSQL fail.
func failing(n int) int { return n/5 + n/7 - n/35 }

// failuresOf lists the failures of run as the index holds them, each with
// its mode and decider by name: the index's own page of them, which reads
// no campaign file, so that a failure whose row points at another shows.
func failuresOf(s *Store, run string) []state.Failure {
	page, _, err := s.ix.ResultsPage(context.Background(), run, sandtrap.ResultFilter{Limit: 1 << 30})
	if err != nil {
		return []state.Failure{{Test: "the run could not be read back: " + err.Error()}}
	}
	out := make([]state.Failure, 0, len(page.Results))
	for _, r := range page.Results {
		out = append(out, state.Failure{ID: r.ID, Test: r.Test, Err: r.Error, ModeID: r.Mode, By: r.ClassifiedBy, Attempt: int32(r.Attempt)})
	}
	return out
}
