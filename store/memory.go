package store

import (
	"cmp"
	"context"
	"slices"
	"unsafe"

	"sandtrap"
	"sandtrap/store/campaign"
	"sandtrap/triage"
)

// The index keeps every run's counts in memory, but the rows and failures
// only of the runs that are live or were looked at lately, and the
// comparison facts only of the runs compared lately, within
// Options.IndexMemory bytes. The others are evicted: their rows are read
// back from the state, which holds every row a pass saved, when a page
// needs them. Pages reach the rows only through withRun, which pages them
// in without holding the store's lock across SQLite I/O.

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
	// factBytes is a test in a run's comparison facts.
	factBytes = 40
	// passedBytes is an entry of the map of failing tests that passed.
	passedBytes = 24
	// modeStatBytes is a mode of a kept queue, with its small maps of
	// domains, targets and statuses; facetBytes a value of its facets.
	modeStatBytes = 1024
	facetBytes    = 64
	// minuteBytes is a minute of a kept timeline, windowBytes a window.
	minuteBytes = int64(unsafe.Sizeof(triage.Minute{}))
	windowBytes = int64(unsafe.Sizeof(triage.Window{}))
)

// rowsBytes estimates what the run's rows, failures and the caches folded
// from them for its pages (queues, timeline, tests that also passed) hold;
// 0 when they are evicted. Callers hold mu.
func (ri *runIndex) rowsBytes() int64 {
	d := ri.data
	if d == nil {
		return 0
	}
	n := int64(cap(d.rows))*rowBytes + int64(cap(d.fails))*failureBytes + int64(d.text)
	ri.factsMu.Lock()
	n += int64(len(ri.passed)) * passedBytes
	for _, q := range ri.queues {
		n += int64(len(q.modes)) * modeStatBytes
		for _, values := range q.facets {
			n += int64(len(values)) * facetBytes
		}
	}
	if tl := ri.timeline; tl != nil {
		n += int64(len(tl.minutes))*minuteBytes + int64(len(tl.windows))*windowBytes
	}
	ri.factsMu.Unlock()
	return n
}

// factsBytes estimates what the run's comparison facts hold; 0 when there
// are none. Callers hold mu.
func (ri *runIndex) factsBytes() int64 {
	ri.factsMu.Lock()
	defer ri.factsMu.Unlock()
	if ri.facts == nil {
		return 0
	}
	return int64(ri.facts.tests.Len()) * factBytes
}

// bytes estimates what the run holds beside its counts. Callers hold mu.
func (ri *runIndex) bytes() int64 { return ri.rowsBytes() + ri.factsBytes() }

// keeps reports whether caches folded from rows d for the run's pages may
// be kept: not when d was paged in for one call and evicted again, as they
// go with the rows. Callers hold mu.
func (ri *runIndex) keeps(d *runData) bool { return ri.data == d }

// touch marks the run's rows as just looked at.
func (s *Store) touch(ri *runIndex) { ri.used.Store(s.clock.Add(1)) }

// evictable reports whether the run's rows may leave memory: it is
// finished, the state holds every row it has, and no pass is about to add
// to it. Callers hold mu.
func (ri *runIndex) evictable() bool {
	return ri.data != nil && ri.saved == ri.n && ri.pins == 0 && ri.src.meta[ri.rawID].FinishedAt.Valid
}

// evictRows drops the run's rows, failures and the caches of its pages;
// its counts and comparison facts stay. Callers hold mu for writing.
func (ri *runIndex) evictRows() {
	ri.data = nil
	ri.factsMu.Lock()
	ri.passed, ri.passedRows, ri.queues, ri.timeline = nil, 0, nil, nil
	ri.factsMu.Unlock()
}

// evictFacts drops the run's comparison facts, which its rows make again.
// Callers hold mu for writing.
func (ri *runIndex) evictFacts() {
	ri.factsMu.Lock()
	ri.facts = nil
	ri.factsMu.Unlock()
}

// shrink evicts what was looked at least lately, rows or comparison facts
// of a finished run, until what they hold fits the budget: a comparison
// needs only the facts of its runs, a run's pages only its rows. Callers
// hold mu for writing.
func (s *Store) shrink() {
	budget := s.opts.IndexMemory
	if budget <= 0 {
		return
	}
	type held struct {
		ri    *runIndex
		facts bool
		bytes int64
		used  int64
	}
	var (
		total int64
		cands []held
	)
	for _, src := range s.sources {
		for _, ri := range src.runs {
			// Rows that may not leave (a live run's) are outside the budget.
			if n := ri.rowsBytes(); n > 0 && ri.evictable() {
				total += n
				cands = append(cands, held{ri, false, n, ri.used.Load()})
			}
			if n := ri.factsBytes(); n > 0 {
				total += n
				cands = append(cands, held{ri, true, n, ri.factsUsed.Load()})
			}
		}
	}
	if total <= budget {
		return
	}
	slices.SortFunc(cands, func(a, b held) int { return cmp.Compare(a.used, b.used) })
	for _, c := range cands {
		if total <= budget {
			break
		}
		if c.facts {
			c.ri.evictFacts()
		} else {
			c.ri.evictRows()
		}
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

// budgeted estimates what counts against the budget: the rows that may be
// evicted and every run's comparison facts. Callers hold mu.
func (s *Store) budgeted() int64 {
	var total int64
	for _, src := range s.sources {
		for _, ri := range src.runs {
			total += ri.factsBytes()
			if ri.evictable() {
				total += ri.rowsBytes()
			}
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
	return s.readRun(ctx, id, true, fn)
}

// readRun is withRun; look says the rows are looked at, which keeps them
// in memory longer. Rows read only to fold facts kept apart are not: they
// serve the one call and are not put back in memory.
func (s *Store) readRun(ctx context.Context, id string, look bool, fn func(ri *runIndex, d *runData) error) error {
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
			if look {
				s.touch(ri)
			}
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
		if paged, err = s.pageIn(ctx, src, rawID, n, look); err != nil {
			return err
		}
	}
}

// pageIn reads a run's rows back from the state, without holding mu while
// it reads. Rows that are looked at (look) go back in memory unless the
// run changed meanwhile; others only serve the call that read them, as
// putting them back would evict rows that are looked at, and the shrink
// that follows walks every run. n is how many rows it has.
func (s *Store) pageIn(ctx context.Context, src *source, rawID string, n int, look bool) (*runData, error) {
	d, err := s.loadRun(ctx, src, rawID, n)
	if err != nil || !look {
		return d, err
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
func (s *Store) pinForAppend(ctx context.Context, src *source, rows []campaign.ResultRow) ([]*runIndex, error) {
	s.mu.Lock()
	var pinned, evicted []*runIndex
	counted := map[*runIndex]int{} // how many rows each evicted run has
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
				counted[ri] = ri.n
			}
		}
	}
	s.mu.Unlock()
	for _, ri := range evicted {
		d, err := s.loadRun(ctx, src, ri.rawID, counted[ri])
		if err == nil && len(d.rows) != counted[ri] {
			err = errorf("the index of %s is inconsistent: run %q has %d rows saved, %d counted", src.path, ri.rawID, len(d.rows), counted[ri])
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

// factsFor returns a run's comparison facts: those kept while the run has
// not grown, else folded from its rows, paged in when evicted.
func (s *Store) factsFor(ctx context.Context, id string) (*runFacts, error) {
	s.mu.RLock()
	if ri, ok := s.runs[id]; ok {
		ri.factsMu.Lock()
		f := ri.facts
		ri.factsMu.Unlock()
		if f != nil && f.rows == ri.n {
			ri.factsUsed.Store(s.clock.Add(1))
			s.mu.RUnlock()
			return f, nil
		}
	}
	s.mu.RUnlock()
	var f *runFacts
	err := s.readRun(ctx, id, false, func(ri *runIndex, d *runData) error {
		f = s.factsOf(ri, d)
		return nil
	})
	return f, err
}
