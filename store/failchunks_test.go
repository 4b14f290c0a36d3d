package store

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

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
// its mode and decider by name, and whether its row points at it.
func failuresOf(s *Store, run string) []state.Failure {
	var out []state.Failure
	err := s.withRun(context.Background(), run, func(_ *runIndex, d *runData) error {
		for _, f := range d.fails {
			out = append(out, state.Failure{ID: f.id, Test: f.test, Err: f.err, ModeID: s.modes[f.mode].ID, By: s.names.value(kindBy, f.by), Attempt: f.attempt})
		}
		for _, r := range d.rows {
			if r.fail >= 0 && d.fails[r.fail].id != r.id {
				out = append(out, state.Failure{Test: "a row pointing at another failure"})
			}
		}
		return nil
	})
	if err != nil {
		out = append(out, state.Failure{Test: "the run could not be read back: " + err.Error()})
	}
	return out
}
