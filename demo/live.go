package demo

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"time"

	"sandtrap"
	"sandtrap/store/campaign"
)

// LiveOptions shape a live run.
type LiveOptions struct {
	Seed    int64
	RunID   string  // live-YYYY-MM-DD-HHMM (UTC) when empty
	Planned int     // results to write before the run finishes; 1000 when 0
	Rate    float64 // results per second, over all writers; 5 when 0
	Writers int     // concurrent sub-agents, each with its own connection; 4 when 0
	Batch   int     // results per transaction; 1 when 0
}

// newModeShare is how far through the live run its new failure mode starts.
const newModeShare = 0.6

// liveNewModePerThousand is how often the new mode fails once it started.
const liveNewModePerThousand = 30

// Live adds an unfinished run to the campaign database at path and appends
// results to it the way concurrent sub-agents do: each writer has its own
// connection and transactions, and retries when the database stays locked.
// When Planned results are in, Live sets the run's finished_at. When ctx
// ends first, it leaves the run unfinished and returns nil.
func Live(ctx context.Context, path string, opts LiveOptions) error {
	if opts.Planned == 0 {
		opts.Planned = 1000
	}
	if opts.Rate == 0 {
		opts.Rate = 5
	}
	if opts.Writers == 0 {
		opts.Writers = 4
	}
	if opts.Batch == 0 {
		opts.Batch = 1
	}
	if opts.Planned < 0 || opts.Rate < 0 || opts.Writers < 0 || opts.Batch < 0 {
		return fmt.Errorf("demo: live run: planned, rate, writers and batch must not be negative")
	}
	start := time.Now().UTC()
	if opts.RunID == "" {
		opts.RunID = "live-" + start.Format("2006-01-02-1504")
	}

	w, err := campaign.OpenWriter(ctx, path)
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	defer w.Close()
	planned := int64(opts.Planned)
	run := campaign.Run{
		ID: opts.RunID, Name: "Live campaign — " + start.Format("2 January 15:04"), StartedAt: start, Planned: &planned,
		Notes: new("Sub-agents are still appending results (sandtrap demo --live)."),
	}
	if err := w.InsertRun(ctx, run); err != nil {
		return fmt.Errorf("demo: %w", err)
	}

	work, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	due := make(chan int)
	go pace(work, due, opts.Planned, opts.Rate)
	var wg sync.WaitGroup
	for k := range opts.Writers {
		wg.Go(func() {
			if err := liveWriter(work, path, opts, start, fmt.Sprintf("subagent-%02d", k+1), due); err != nil {
				stop(err)
			}
		})
	}
	wg.Wait()
	if ctx.Err() != nil {
		return nil
	}
	if err := context.Cause(work); err != nil {
		return fmt.Errorf("demo: live run %s: %w", opts.RunID, err)
	}
	// The notes said the sub-agents were still at work; a harness says
	// when they are done.
	done := fmt.Sprintf("All %d planned results written by %d sub-agents (sandtrap demo --live).", opts.Planned, opts.Writers)
	if err := w.SetRunNotes(ctx, opts.RunID, done); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	if err := w.FinishRun(ctx, opts.RunID, time.Now().UTC()); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	return nil
}

// pace hands out the indexes of the results to write, rate per second,
// and closes due when all are handed out or ctx ends. A writer that fell
// more than resumeAfter behind (a suspended process, a starved machine)
// goes on at its rate from where it is, as a harness's sub-agents would,
// rather than writing all it missed at once.
func pace(ctx context.Context, due chan<- int, planned int, rate float64) {
	defer close(due)
	start := time.Now()
	for i := range planned {
		at := start.Add(time.Duration(float64(i) / rate * float64(time.Second)))
		wait := time.Until(at)
		if wait < -resumeAfter {
			start = start.Add(-wait)
		}
		if wait > 0 {
			select {
			case <-ctx.Done():
				return
			case <-time.After(wait):
			}
		}
		select {
		case <-ctx.Done():
			return
		case due <- i:
		}
	}
}

// resumeAfter is how far behind its schedule pace may fall before it
// takes up its rate again from where it is.
const resumeAfter = time.Second

// liveWriter is one sub-agent: it opens its own connection and writes the
// results it is handed, Batch to a transaction.
func liveWriter(ctx context.Context, path string, opts LiveOptions, start time.Time, name string, due <-chan int) error {
	w, err := campaign.OpenWriter(ctx, path)
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return err
	}
	defer w.Close()
	for {
		batch, more := gather(ctx, due, opts.Batch)
		if len(batch) > 0 {
			results := make([]campaign.Result, len(batch))
			for j, i := range batch {
				results[j] = liveResult(opts, start, i, name)
			}
			if err := insertRetrying(ctx, w, results); err != nil {
				return err
			}
		}
		if !more {
			return nil
		}
	}
}

// gather takes up to n indexes from due. It reports false once due is
// closed or ctx ends, with whatever it took until then.
func gather(ctx context.Context, due <-chan int, n int) ([]int, bool) {
	batch := make([]int, 0, n)
	for len(batch) < n {
		select {
		case <-ctx.Done():
			return batch, false
		case i, ok := <-due:
			if !ok {
				return batch, false
			}
			batch = append(batch, i)
		}
	}
	return batch, true
}

// insertRetrying commits a batch, backing off while other writers hold the
// lock past the busy timeout. A batch already being written is committed
// even as ctx ends, so no result is half-written; a batch still waiting for
// the lock then is dropped.
func insertRetrying(ctx context.Context, w *campaign.Writer, results []campaign.Result) error {
	backoff := 10 * time.Millisecond
	for {
		_, err := w.InsertResults(context.WithoutCancel(ctx), results)
		if err == nil || !campaign.Busy(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, time.Second)
	}
}

// liveResult renders the i-th result of the live run. Its content depends
// only on the seed and i, whichever writer renders it.
func liveResult(opts LiveOptions, start time.Time, i int, name string) campaign.Result {
	rng := liveRNG(opts.Seed, i)
	s := liveSlot(rng, i, opts.Planned)
	r := s.result(rng, opts.RunID, true, true)
	r.Worker = &name
	begun := time.Now().UTC().Add(-time.Duration(*r.DurationMS) * time.Millisecond)
	if begun.Before(start) {
		begun = start
	}
	r.StartedAt = &begun
	return r
}

// liveRNG is the generator of the live run's i-th result.
func liveRNG(seed int64, i int) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(seed), 0x6c697665_00000000|uint64(i)))
}

// liveSlot draws the i-th result with the mix of the last finished run.
// From newModeShare of the way on, a mode no earlier run had joins in, and
// its first failure is exactly there.
func liveSlot(rng *rand.Rand, i, planned int) slot {
	s := slot{mode: -1, status: sandtrap.StatusPassed, attempt: 1, retryOf: -1}
	newFrom := int(math.Ceil(newModeShare * float64(planned)))
	u := rng.IntN(1000)
	switch {
	case i == newFrom:
		s.mode, s.status = modeIndex(modeProxyTunnel), ""
	case u < skippedPerThousand:
		s.status = sandtrap.StatusSkipped
	case u < skippedPerThousand+1:
		s.mode, s.status = modeIndex(modeCPUTimeout), "timeout"
	default:
		u -= skippedPerThousand + 1
		for m := range modes {
			if u < modes[m].perThousand[runLive] {
				s.mode, s.status = m, ""
				break
			}
			u -= modes[m].perThousand[runLive]
		}
		if s.mode < 0 && i > newFrom && u < liveNewModePerThousand {
			s.mode, s.status = modeIndex(modeProxyTunnel), ""
		}
	}
	if s.mode >= 0 {
		s.wf = modes[s.mode].pickFor(rng)
	} else {
		s.wf = pickWorkflow(rng)
	}
	s.key = fmt.Sprintf("%s/%s-%d", domains[s.wf.domain].key, s.wf.template, i+1)
	return s
}
