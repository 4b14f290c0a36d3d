package store

import (
	"context"
	"sort"
	"unsafe"

	"sandtrap"
)

// The index keeps every run's counts in memory, but the rows and failures
// only of the runs that are live or were looked at lately, within
// Options.IndexMemory bytes. The others are evicted: their rows are read
// back from the state, which holds every row a pass saved, when a page
// needs them. Readers reach the rows only through withRun, which pages
// them in without holding the store's lock across SQLite I/O.

// runData is a run's packed rows and failures: what eviction drops.
// Rows are only appended, under the store's write lock.
type runData struct {
	rows  []row
	fails []failure
	// text is the length of the failures' tests and errors, for the
	// estimate of what the run holds.
	text int
}

// addFailure appends f and returns its index.
func (d *runData) addFailure(f failure) int32 {
	d.fails = append(d.fails, f)
	d.text += len(f.test) + len(f.err)
	return int32(len(d.fails) - 1)
}

// Sizes, in bytes, that estimate what a loaded run holds.
const (
	rowBytes     = int64(unsafe.Sizeof(row{}))
	failureBytes = int64(unsafe.Sizeof(failure{}))
	// factBytes is a test in a run's comparison facts: its entry in the
	// list and in the index by hash.
	factBytes = 64
	// passedBytes is an entry of the map of failing tests that passed.
	passedBytes = 24
)

// bytes estimates what the run's rows, failures and the caches folded from
// them hold in memory; 0 when they are evicted. Callers hold mu.
func (ri *runIndex) bytes() int64 {
	d := ri.data
	if d == nil {
		return 0
	}
	n := int64(cap(d.rows))*rowBytes + int64(cap(d.fails))*failureBytes + int64(d.text)
	ri.factsMu.Lock()
	if ri.facts != nil {
		n += int64(ri.facts.tests.Len()) * factBytes
	}
	n += int64(len(ri.passed)) * passedBytes
	ri.factsMu.Unlock()
	return n
}

// keeps reports whether caches folded from rows d may be kept: not when
// d was paged in for one call and evicted again, as eviction would not
// see them. Callers hold mu.
func (ri *runIndex) keeps(d *runData) bool { return ri.data == d }

// touch marks the run as just looked at.
func (s *Store) touch(ri *runIndex) { ri.used.Store(s.clock.Add(1)) }

// evictable reports whether the run's rows may leave memory: it is
// finished, the state holds every row it has, and no pass is about to add
// to it. Callers hold mu.
func (ri *runIndex) evictable() bool {
	return ri.data != nil && ri.saved == ri.n && ri.pins == 0 && ri.src.meta[ri.rawID].FinishedAt.Valid
}

// evict drops the run's rows, failures and caches; its counts stay.
// Callers hold mu for writing.
func (ri *runIndex) evict() {
	ri.data = nil
	ri.factsMu.Lock()
	ri.facts, ri.passed, ri.passedRows, ri.queues, ri.timeline = nil, nil, 0, nil, nil
	ri.factsMu.Unlock()
}

// shrink evicts the least recently used runs that may be evicted until
// what the loaded runs hold fits the budget. Callers hold mu for writing.
func (s *Store) shrink() {
	budget := s.opts.IndexMemory
	if budget <= 0 {
		return
	}
	type loaded struct {
		ri    *runIndex
		bytes int64
		used  int64
	}
	var (
		total int64
		cands []loaded
	)
	for _, src := range s.sources {
		for _, ri := range src.runs {
			n := ri.bytes()
			total += n
			if n > 0 && ri.evictable() {
				cands = append(cands, loaded{ri, n, ri.used.Load()})
			}
		}
	}
	if total <= budget {
		return
	}
	sort.Slice(cands, func(i, j int) bool { return cands[i].used < cands[j].used })
	for _, c := range cands {
		if total <= budget {
			break
		}
		c.ri.evict()
		total -= c.bytes
	}
}

// shrinkNow takes the write lock and shrinks.
func (s *Store) shrinkNow() {
	if s.opts.IndexMemory <= 0 {
		return
	}
	s.mu.Lock()
	s.shrink()
	s.mu.Unlock()
}

// loadedBytes estimates what the loaded runs hold. Callers hold mu.
func (s *Store) loadedBytes() int64 {
	var total int64
	for _, src := range s.sources {
		for _, ri := range src.runs {
			total += ri.bytes()
		}
	}
	return total
}

// pageInTries bounds how often withRun reads a run back that a pass
// changes meanwhile.
const pageInTries = 3

// withRun calls fn with the index of run id and its rows under the read
// lock, reading the rows back from the state first when they were evicted.
func (s *Store) withRun(ctx context.Context, id string, fn func(ri *runIndex, d *runData) error) error {
	// paged is what this call read back: a budget smaller than the run
	// may evict it again at once, and it still serves this call.
	var paged *runData
	for try := 0; ; try++ {
		s.mu.RLock()
		ri, ok := s.runs[id]
		if !ok {
			s.mu.RUnlock()
			return sandtrap.Errorf(sandtrap.ENOTFOUND, "run %q not found", id)
		}
		d := ri.data
		if d == nil && paged != nil && len(paged.rows) == ri.n {
			d = paged
		}
		if d != nil {
			s.touch(ri)
			err := fn(ri, d)
			s.mu.RUnlock()
			return err
		}
		src, rawID, n := ri.src, ri.rawID, ri.n
		s.mu.RUnlock()
		if try == pageInTries {
			return errorf("the index of %s is inconsistent: run %q has %d rows saved, %d counted", src.path, rawID, len(paged.rows), n)
		}
		var err error
		if paged, err = s.pageIn(ctx, src, rawID); err != nil {
			return err
		}
	}
}

// pageIn reads a run's rows back from the state, without holding mu while
// it reads, and puts them in memory unless the run changed meanwhile.
func (s *Store) pageIn(ctx context.Context, src *source, rawID string) (*runData, error) {
	d, err := s.loadRun(ctx, src, rawID)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if ri := src.runs[rawID]; ri != nil && ri.data == nil && len(d.rows) == ri.n {
		ri.data = d
		s.touch(ri)
		s.shrink()
	}
	return d, nil
}

// pinForAppend pages in the evicted runs that rows add to and pins them,
// so that none is evicted before apply has added the rows; unpin releases
// them.
func (s *Store) pinForAppend(ctx context.Context, src *source, rows []resultRow) ([]*runIndex, error) {
	s.mu.Lock()
	var pinned, evicted []*runIndex
	seen := map[string]bool{}
	for i := range rows {
		id := rows[i].RunID
		if seen[id] {
			continue
		}
		seen[id] = true
		if ri := src.runs[id]; ri != nil {
			ri.pins++
			pinned = append(pinned, ri)
			if ri.data == nil {
				evicted = append(evicted, ri)
			}
		}
	}
	s.mu.Unlock()
	for _, ri := range evicted {
		d, err := s.loadRun(ctx, src, ri.rawID)
		if err == nil && len(d.rows) != ri.n {
			err = errorf("the index of %s is inconsistent: run %q has %d rows saved, %d counted", src.path, ri.rawID, len(d.rows), ri.n)
		}
		if err != nil {
			s.unpin(pinned)
			return nil, err
		}
		s.mu.Lock()
		if ri.data == nil {
			ri.data = d
		}
		s.mu.Unlock()
	}
	return pinned, nil
}

// unpin releases runs pinForAppend pinned.
func (s *Store) unpin(pinned []*runIndex) {
	s.mu.Lock()
	for _, ri := range pinned {
		ri.pins--
	}
	s.mu.Unlock()
}

// factsFor returns a run's comparison facts, folding its rows (paged in
// when evicted) if they are not cached.
func (s *Store) factsFor(ctx context.Context, id string) (*runFacts, error) {
	var f *runFacts
	err := s.withRun(ctx, id, func(ri *runIndex, d *runData) error {
		f = s.factsOf(ri, d)
		return nil
	})
	return f, err
}
