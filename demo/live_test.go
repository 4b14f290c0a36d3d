package demo

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

type liveState struct {
	results, workers int
	finished         bool
	newMode          int
	earliest         string
	runStart         string
	notes            string
}

func readLive(t *testing.T, path, runID string) liveState {
	t.Helper()
	db := openRO(t, path)
	var s liveState
	var finished sql.NullString
	if err := db.QueryRow(`SELECT finished_at, started_at, coalesce(notes, '') FROM runs WHERE id = ?`, runID).Scan(&finished, &s.runStart, &s.notes); err != nil {
		t.Fatal(err)
	}
	s.finished = finished.Valid
	err := db.QueryRow(`SELECT count(*), count(DISTINCT worker), coalesce(min(started_at), ''),
		count(CASE WHEN error LIKE '%ERR_TUNNEL_CONNECTION_FAILED%' THEN 1 END)
		FROM results WHERE run_id = ?`, runID).Scan(&s.results, &s.workers, &s.earliest, &s.newMode)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestLive(t *testing.T) {
	tests := []struct {
		name string
		opts LiveOptions
	}{
		{"one result per transaction", LiveOptions{Seed: 1, RunID: "live-a", Planned: 60, Rate: 3000, Writers: 4}},
		{"batches of several results", LiveOptions{Seed: 2, RunID: "live-b", Planned: 61, Rate: 3000, Writers: 3, Batch: 4}},
	}
	for _, tt := range tests {
		t.Run("appends from several writers and finishes with "+tt.name, func(t *testing.T) {
			path, _ := writeDemo(t, Options{Results: 100})
			if err := Live(context.Background(), path, tt.opts); err != nil {
				t.Fatal(err)
			}
			got := readLive(t, path, tt.opts.RunID)
			if got.results != tt.opts.Planned || !got.finished {
				t.Errorf("got %d results and finished %v, want %d and true", got.results, got.finished, tt.opts.Planned)
			}
			if !strings.HasPrefix(got.notes, "All ") {
				t.Errorf("got notes %q on the finished run, want them to say all results are written", got.notes)
			}
			if got.workers < 2 {
				t.Errorf("got results from %d writers, want several", got.workers)
			}
			if got.newMode == 0 {
				t.Errorf("got no failure of the live run's new mode, want some")
			}
			if got.earliest < got.runStart {
				t.Errorf("got a result started at %s, before the run at %s", got.earliest, got.runStart)
			}
		})
	}
}

func TestLiveStopsWhenTheContextEnds(t *testing.T) {
	path := filepath.Join(t.TempDir(), "live.db")
	// The context ends once another reader sees the run's first results,
	// however slowly a loaded machine opened the file, and at the latest
	// after 90 s, so that a writer that never commits fails the test
	// instead of writing for minutes.
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	opts := LiveOptions{Seed: 1, RunID: "live-stopped", Planned: 100_000, Rate: 200, Writers: 4, Batch: 2}
	var ended atomic.Int64
	watched := make(chan struct{})
	defer func() { cancel(); <-watched }()
	go func() {
		defer close(watched)
		defer cancel()
		for ctx.Err() == nil {
			if db, err := sql.Open("sqlite", "file:"+path+"?mode=ro"); err == nil {
				var n int
				err := db.QueryRow(`SELECT count(*) FROM results WHERE run_id = ?`, opts.RunID).Scan(&n)
				db.Close()
				if err == nil && n > 0 {
					ended.Store(time.Now().UnixNano())
					return
				}
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	if err := Live(ctx, path, opts); err != nil {
		t.Fatalf("got error %v, want nil", err)
	}
	if e := ended.Load(); e == 0 {
		t.Fatal("got Live returning before another reader saw a result, want it to write until its context ends")
	} else if took := time.Since(time.Unix(0, e)); took > 5*time.Second {
		t.Errorf("got Live returning %s after the context ended, want soon after", took)
	}
	got := readLive(t, path, opts.RunID)
	if got.finished || got.results == 0 || got.results >= opts.Planned {
		t.Errorf("got %d results and finished %v, want some results and an unfinished run", got.results, got.finished)
	}
}

func TestLiveRefusesADuplicateRunID(t *testing.T) {
	path, _ := writeDemo(t, Options{Results: 100})
	err := Live(context.Background(), path, LiveOptions{RunID: "2026-06-30-overnight", Planned: 1})
	if err == nil || !strings.Contains(err.Error(), "2026-06-30-overnight") {
		t.Errorf("got error %v, want one naming the run", err)
	}
}

func TestLiveRejectsNegativeOptions(t *testing.T) {
	path := filepath.Join(t.TempDir(), "live.db")
	tests := []struct {
		name string
		opts LiveOptions
	}{
		{"a negative rate", LiveOptions{Rate: -1}},
		{"a negative number of writers", LiveOptions{Writers: -2}},
		{"a negative batch", LiveOptions{Batch: -1}},
	}
	for _, tt := range tests {
		t.Run(tt.name+" is an error", func(t *testing.T) {
			if err := Live(context.Background(), path, tt.opts); err == nil {
				t.Errorf("got no error, want one")
			}
		})
	}
}

func TestPaceGoesOnAtItsRateAfterAPauseInsteadOfCatchingUp(t *testing.T) {
	const rate = 100 // a result every 10 ms
	due := make(chan int)
	go pace(t.Context(), due, 60, rate)
	for range 10 {
		<-due
	}
	// The writer is held, as a suspended process would be, well past
	// resumeAfter: 150 results' worth of its schedule.
	time.Sleep(resumeAfter + 500*time.Millisecond)
	<-due
	start := time.Now()
	for range 20 {
		<-due
	}
	// Caught up at once, the 20 would come in microseconds; at the rate,
	// in about 200 ms. A busy machine only makes them slower.
	if got, want := time.Since(start), 150*time.Millisecond; got < want {
		t.Errorf("got the next 20 results in %s after the pause, want at least %s: the writer wrote what it missed at once", got, want)
	}
}
