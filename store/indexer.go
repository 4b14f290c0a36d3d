package store

import (
	"context"
	"errors"
	"maps"
	"runtime"
	"slices"
	"sync"
	"time"

	"sandtrap"
	"sandtrap/store/campaign"
	"sandtrap/store/index"
	"sandtrap/store/internal/sqlitex"
	"sandtrap/triage"
)

// scanBatch is how many results are classified and applied at once, when
// one connection reads the file; the scanners of a pass share it.
const scanBatch = 8192

// persistEvery is how many results a first read indexes between two saves
// of its progress to the state.
const persistEvery = 200_000

// watchedPass is how many new results make a pass of a file that was read
// before show its progress.
const watchedPass = 10_000

// showsProgress reports whether pages show the progress of a pass over
// pass new results: the first read of a file, and a pass big enough to be
// watched, but not the few rows a live harness just added.
func showsProgress(readBefore bool, pass int64) bool {
	return !readBefore || pass >= watchedPass
}

// maxErrorBytes caps the error text kept in the index; the result page
// reads the whole text from the campaign file.
const maxErrorBytes = 2048

// catchUp reads every result of src past its watermark, classifies the
// failures on every core, and applies and persists them in batches.
func (s *Store) catchUp(ctx context.Context, src *source) (Change, error) {
	change := Change{Source: src.label}
	maxID, err := src.file.MaxResultID(ctx)
	if err != nil {
		return change, err
	}
	if maxID <= src.lastID {
		s.markCaughtUp(src)
		return change, nil
	}
	ev, err := src.file.ReadEvidence(ctx, src.lastID, &src.cursors)
	if err != nil {
		return change, err
	}
	for id, e := range src.pending {
		ev[id] = e.Merge(ev[id])
	}
	src.pending = nil
	defer func() {
		// Steps of results committed after maxID was read wait for them.
		for id, e := range ev {
			if id > maxID {
				if src.pending == nil {
					src.pending = map[int64]*campaign.Evidence{}
				}
				src.pending[id] = e
			}
		}
	}()
	s.mu.Lock()
	src.progress = sandtrap.Progress{Reading: showsProgress(src.ready, maxID-src.lastID), Total: maxID - src.lastID, Started: time.Now()}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		src.progress.Reading = false
		s.mu.Unlock()
	}()

	changed := map[string]bool{} // by the harness's run id
	b := newBatch()
	sinceSave := 0
	lastLog := time.Now()
	// out is reused from batch to batch: a batch's classified rows are a
	// few megabytes, and allocating them afresh made the collector run
	// far more often over a long first read.
	var out []index.Entry
	// A save runs beside the read: the batches after it are classified
	// and applied while the state writes it, packed from the index first.
	// One save at a time, in order; each waits for the one before.
	var saving chan error
	saved := func() error {
		if saving == nil {
			return nil
		}
		err := <-saving
		saving = nil
		return err
	}
	flush := func(pending []campaign.ResultRow) error {
		out = s.classify(out, pending, ev)
		pinned, err := s.ix.Pin(ctx, src.ix, out)
		if err != nil {
			return err
		}
		s.groupMu.Lock()
		mined := s.assignModes(out)
		added := s.ix.Append(src.ix, out, mined, maxID, b.ix, changed)
		s.groupMu.Unlock()
		s.ix.Unpin(pinned)
		change.NewResults += added.Results
		change.NewModes = append(change.NewModes, added.NewModes...)
		if n := len(out); n > 0 {
			b.lastID, b.lastKey = out[n-1].ID, campaign.ResultKey(out[n-1].RunID, out[n-1].Test)
		}
		clear(out)
		sinceSave += len(pending)
		s.mu.Lock()
		src.progress.Read = b.lastID - (maxID - src.progress.Total)
		read, total := src.progress.Read, src.progress.Total
		s.mu.Unlock()
		if time.Since(lastLog) > time.Second {
			// A long first read reports its progress, in the terminal and
			// to the pages watching it.
			if s.opts.Logf != nil {
				s.opts.Logf("indexing %s: %d of about %d results (%.0f%%)", src.label, read, total, 100*float64(read)/float64(max(total, 1)))
			}
			if s.opts.OnChange != nil {
				s.opts.OnChange(Change{Source: src.label, Runs: s.ix.PublicIDs(src.ix, slices.Collect(maps.Keys(changed)))})
			}
			lastLog = time.Now()
		}
		if sinceSave >= persistEvery {
			if err := saved(); err != nil {
				return err
			}
			p := s.pack(src, b)
			saving = make(chan error, 1)
			go func() { saving <- s.save(ctx, src, p) }()
			b = newBatch()
			sinceSave = 0
		}
		return nil
	}
	// Only up to maxID: the evidence was read for results committed by
	// then, and later ones wait for the next pass with theirs.
	err = s.scanBatches(ctx, src, maxID, flush)
	if serr := saved(); err == nil {
		err = serr
	}
	if err == nil && b.lastID > 0 {
		err = s.commit(ctx, src, b)
	}
	if err != nil {
		// What was read since the last save is in memory but not in the
		// state: drop it, so that reading again from the saved watermark
		// counts nothing twice.
		if rerr := s.reloadSource(ctx, src); rerr != nil {
			err = errors.Join(err, rerr)
		}
		// The evidence read for those rows is gone with them: read the
		// steps and artifacts again from the start, next time.
		src.cursors, src.pending = campaign.EvidenceCursors{}, nil
		change.NewResults = 0
	}
	change.Runs = s.ix.PublicIDs(src.ix, slices.Collect(maps.Keys(changed)))
	if err == nil {
		s.markCaughtUp(src)
	}
	return change, err
}

// scanBatches reads the results of src past its watermark up to upto and
// calls flush with each batch of them, in id order. The ids are cut into
// ranges that scanners, each on a connection of its own, read in turn
// (range k by scanner k mod the number of scanners), a batch or two ahead:
// reading the file is most of a first read, and two connections read it in
// about half the time. flush takes the batches in order, range by range,
// while the scanners read on.
func (s *Store) scanBatches(ctx context.Context, src *source, upto int64, flush func([]campaign.ResultRow) error) error {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	// Scanners blocked on a batch that will not be taken stop once cancelled.
	defer func() { cancel(); wg.Wait() }()
	// A save moves the watermark while the scan goes on: read it once.
	s.mu.Lock()
	after := src.lastID
	s.mu.Unlock()
	width := scanRangeWidth(upto - after)
	ranges := (upto - after + width - 1) / width
	n := int(min(int64(scanners()), ranges))
	// The scanners share scanBatch's rows between their batches, so that
	// reading on two connections holds no more in memory than on one. A
	// live run's pass reads a few rows: its batches are no bigger.
	size := int(min(scanBatch/int64(n), upto-after))
	type scanned struct {
		rows []campaign.ResultRow
		end  bool // the last batch of its range
		err  error
	}
	full := make([]chan scanned, n)
	free := make([]chan []campaign.ResultRow, n)
	for w := range n {
		full[w] = make(chan scanned, 2)
		// Two batches per scanner go back and forth: one filled while
		// the other is classified.
		free[w] = make(chan []campaign.ResultRow, 2)
		free[w] <- make([]campaign.ResultRow, 0, size)
		free[w] <- make([]campaign.ResultRow, 0, size)
		wg.Add(1)
		go func() {
			defer wg.Done()
			send := func(b scanned) bool {
				select {
				case full[w] <- b:
					return true
				case <-ctx.Done():
					return false
				}
			}
			take := func() ([]campaign.ResultRow, bool) {
				select {
				case rows := <-free[w]:
					return rows, true
				case <-ctx.Done():
					return nil, false
				}
			}
			for k := int64(w); k < ranges; k += int64(n) {
				pending, ok := take()
				if !ok {
					return
				}
				lo := after + k*width
				err := src.file.ScanResults(ctx, lo, min(lo+width, upto), func(r *campaign.ResultRow) error {
					pending = append(pending, *r)
					if len(pending) == size {
						if !send(scanned{rows: pending}) {
							return ctx.Err()
						}
						if pending, ok = take(); !ok {
							return ctx.Err()
						}
					}
					return nil
				})
				if !send(scanned{rows: pending, end: true, err: err}) || err != nil {
					return
				}
			}
		}()
	}
	for k := int64(0); k < ranges; k++ {
		w := int(k % int64(n))
		for {
			var b scanned
			select {
			case b = <-full[w]:
			case <-ctx.Done():
				return ctx.Err()
			}
			if b.err != nil {
				return b.err
			}
			if len(b.rows) > 0 {
				if err := flush(b.rows); err != nil {
					return err
				}
				clear(b.rows)
			}
			free[w] <- b.rows[:0]
			if b.end {
				break
			}
		}
	}
	return nil
}

// scanRangeWidth is how many ids one scanner's range spans, out of span:
// a batch's worth, or wider where the ids are many, so that a file whose
// ids are sparse costs at most maxScanRanges queries.
func scanRangeWidth(span int64) int64 {
	return max(scanBatch, (span+maxScanRanges-1)/maxScanRanges)
}

// maxScanRanges bounds the ranges one pass cuts its ids into.
const maxScanRanges = 4096

// scanners is how many connections read a campaign file at once: two where
// two cores can, which leaves the file's other connections to the pages.
// More would wait on the mining, which takes the batches one at a time.
func scanners() int { return min(runtime.GOMAXPROCS(0), 2) }

func (s *Store) markCaughtUp(src *source) {
	s.mu.Lock()
	src.caughtUp = true
	s.mu.Unlock()
}

// batch is what one indexing pass adds between two saves, to be saved in
// one transaction, and how far into the file it read.
type batch struct {
	ix      *index.Batch
	lastID  int64
	lastKey string
}

func newBatch() *batch { return &batch{ix: index.NewBatch()} }

// commit persists b and moves src's watermark past it; the finished runs
// it saved may then be evicted.
func (s *Store) commit(ctx context.Context, src *source, b *batch) error {
	return s.save(ctx, src, s.pack(src, b))
}

// save persists p, packed from the index before, and moves src's
// watermark past it; the finished runs it saved may then be evicted. A
// read-only store keeps its index in memory: it never writes the state.
func (s *Store) save(ctx context.Context, src *source, p *packed) error {
	if !s.opts.ReadOnly {
		if err := s.persist(ctx, src, p); err != nil {
			return err
		}
	}
	s.mu.Lock()
	src.lastID, src.lastKey = p.save.LastID, p.save.LastKey
	s.mu.Unlock()
	if !s.opts.ReadOnly {
		// Only this pass adds rows to src's runs, so the state now holds
		// every row they had when the batch was packed; rows added since
		// wait for the next save.
		s.ix.Saved(p.ix)
	}
	return nil
}

// classify decides the layer, primitive and signature of every failure in
// rows, using every core, into buf's memory when it is big enough.
func (s *Store) classify(buf []index.Entry, rows []campaign.ResultRow, ev map[int64]*campaign.Evidence) []index.Entry {
	out := slices.Grow(buf[:0], len(rows))[:len(rows)]
	workers := runtime.NumCPU()
	var wg sync.WaitGroup
	per := (len(rows) + workers - 1) / workers
	for w := 0; w < workers; w++ {
		lo, hi := w*per, min((w+1)*per, len(rows))
		if lo >= hi {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := lo; i < hi; i++ {
				out[i] = s.classifyOne(rows[i], ev[rows[i].ID])
			}
		}()
	}
	wg.Wait()
	return out
}

func (s *Store) classifyOne(r campaign.ResultRow, e *campaign.Evidence) index.Entry {
	c := index.Entry{RunID: r.RunID, ID: r.ID, Test: r.Test, Status: r.Status, Target: r.Target, Domain: r.Domain, Attempt: int32(r.Attempt)}
	if t := sqlitex.ParseTime(r.StartedAt); !t.IsZero() {
		if sec := t.Unix(); sec > 0 && sec < 1<<32 {
			c.At = uint32(sec)
		}
	}
	if !sandtrap.IsFailure(r.Status) {
		return c
	}
	c.Failure, c.Error = true, campaign.Clip(r.Error, maxErrorBytes)
	f := triage.Failure{
		Target: r.Target, Domain: r.Domain, Status: r.Status, Test: r.Test, Error: r.Error,
		HarnessLayer: r.Layer, HarnessPrimitive: r.Primitive, LogTail: r.LogTail,
	}
	if e != nil {
		f.Tools, f.StepError, f.CorruptedArtifact, f.ArtifactDamage = e.Tools, e.StepError, e.CorruptedName, e.Damage
	}
	if r.ExitCode.Valid {
		v := r.ExitCode.Int64
		f.ExitCode = &v
	}
	cl := s.opts.Classifier.Classify(f)
	c.Layer, c.Primitive, c.By, c.Context, c.Log = cl.Layer, cl.Primitive, cl.By, cl.Context, r.LogTail
	c.Signature = cl.ModeSignature()
	return c
}
