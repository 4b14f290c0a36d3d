package store

import (
	"context"
	"path/filepath"
	"testing"
)

func TestARunIsNeverShownFinishedWithoutTheResultsCommittedBeforeItsEnd(t *testing.T) {
	path := newCampaign(t, "c.db")
	addRun(t, path, "r", false, resultsSQL("r", 10))
	s := openStore(t, filepath.Join(t.TempDir(), "state.db"), path)
	ctx := context.Background()
	const final = 10 + 20000
	stop, stopped := make(chan struct{}), make(chan int)
	go func() {
		early := -1
		for {
			select {
			case <-stop:
				stopped <- early
				return
			default:
			}
			if run, err := s.FindRun(ctx, "r"); err == nil && !run.Live() && run.Counts.Total != final && early < 0 {
				early = run.Counts.Total
			}
		}
	}()
	// The last results and the run's end in one commit: a pass reads the
	// runs and then, for a while, the results.
	harness(t, path, resultsSQL("r", 20000)+`UPDATE runs SET finished_at = '2026-06-30T23:00:00Z' WHERE id = 'r';`)
	waitUntil(t, func() bool { run, _ := s.FindRun(ctx, "r"); return !run.Live() && run.Counts.Total == final })
	close(stop)
	if early := <-stopped; early >= 0 {
		t.Errorf("got the run shown finished with %d results, want it finished only with all %d", early, final)
	}
}
