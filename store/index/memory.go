package index

import (
	"cmp"
	"context"
	"slices"
	"unsafe"

	"sandtrap/triage"
)

// The index keeps every run's counts in memory, but the rows and failures
// only of the runs that are live or were looked at lately, and the
// comparison facts only of the runs compared lately, within its budget.
// The others are evicted: their rows are read back through the RowPager,
// from what the store saved, when a page needs them. Queries reach the
// rows only through withRun, which pages them in without holding the
// index's lock across the pager's I/O.

// RowPager reads back what the store saved of a run: its packed rows, in
// the chunks Pack made, and its failures, in id order. The index calls it
// with none of its locks held, from readers and from Pin; it must not call
// the index's writers.
type RowPager interface {
	// RunRows calls each with every saved chunk of the rows of run rawID
	// of the source labelled source, in order.
	RunRows(ctx context.Context, source, rawID string, each func(chunk []byte)) error
	// RunFailures returns the saved failures of that run, in id order.
	RunFailures(ctx context.Context, source, rawID string) ([]Failure, error)
}

// runData is a run's packed rows and failures: what eviction drops.
// Rows are only appended, under the index's write lock.
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
func (ri *run) rowsBytes() int64 {
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
func (ri *run) factsBytes() int64 {
	ri.factsMu.Lock()
	defer ri.factsMu.Unlock()
	if ri.facts == nil {
		return 0
	}
	return int64(ri.facts.tests.Len()) * factBytes
}

// bytes estimates what the run holds beside its counts. Callers hold mu.
func (ri *run) bytes() int64 { return ri.rowsBytes() + ri.factsBytes() }

// keeps reports whether caches folded from rows d for the run's pages may
// be kept: not when d was paged in for one call and evicted again, as they
// go with the rows. Callers hold mu.
func (ri *run) keeps(d *runData) bool { return ri.data == d }

// touch marks the run's rows as just looked at.
func (ix *Index) touch(ri *run) { ri.used.Store(ix.clock.Add(1)) }

// evictable reports whether the run's rows may leave memory: it is
// finished, the store saved every row it has, and no pass is about to add
// to it. Callers hold mu.
func (ri *run) evictable() bool {
	return ri.data != nil && ri.saved == ri.n && ri.pins == 0 && ri.src.meta[ri.rawID].Finished
}

// evictRows drops the run's rows, failures and the caches of its pages;
// its counts and comparison facts stay. Callers hold mu for writing.
func (ri *run) evictRows() {
	ri.data = nil
	ri.factsMu.Lock()
	ri.passed, ri.passedRows, ri.queues, ri.timeline = nil, 0, nil, nil
	ri.factsMu.Unlock()
}

// evictFacts drops the run's comparison facts, which its rows make again.
// Callers hold mu for writing.
func (ri *run) evictFacts() {
	ri.factsMu.Lock()
	ri.facts = nil
	ri.factsMu.Unlock()
}

// shrink evicts what was looked at least lately, rows or comparison facts
// of a finished run, until what they hold fits the budget: a comparison
// needs only the facts of its runs, a run's pages only its rows. Callers
// hold mu for writing.
func (ix *Index) shrink() {
	budget := ix.budget
	if budget <= 0 {
		return
	}
	type held struct {
		ri    *run
		facts bool
		bytes int64
		used  int64
	}
	var (
		total int64
		cands []held
	)
	for _, src := range ix.sources {
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
func (ix *Index) shrinkNow() {
	if ix.budget <= 0 {
		return
	}
	ix.mu.Lock()
	ix.shrink()
	ix.mu.Unlock()
}

// budgeted estimates what counts against the budget: the rows that may be
// evicted and every run's comparison facts. Callers hold mu.
func (ix *Index) budgeted() int64 {
	var total int64
	for _, src := range ix.sources {
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
// lock, reading the rows back through the pager first when they were evicted.
func (ix *Index) withRun(ctx context.Context, id string, fn func(ri *run, d *runData) error) error {
	return ix.readRun(ctx, id, true, fn)
}

// readRun is withRun; look says the rows are looked at, which keeps them
// in memory longer. Rows read only to fold facts kept apart are not: they
// serve the one call and are not put back in memory.
func (ix *Index) readRun(ctx context.Context, id string, look bool, fn func(ri *run, d *runData) error) error {
	// paged is what this call read back: a budget smaller than the run
	// may evict it again at once, and it still serves this call.
	var paged *runData
	for try := 0; ; try++ {
		ix.mu.RLock()
		ri, ok := ix.runs[id]
		if !ok {
			ix.mu.RUnlock()
			return runNotFound(id)
		}
		d := ri.data
		if d == nil && paged != nil && len(paged.rows) == ri.n {
			d = paged
		}
		if d != nil {
			if look {
				ix.touch(ri)
			}
			err := fn(ri, d)
			ix.mu.RUnlock()
			return err
		}
		src, rawID, n := ri.src, ri.rawID, ri.n
		ix.mu.RUnlock()
		if try == pageInTries {
			return inconsistent(src, rawID, len(paged.rows), n)
		}
		var err error
		if paged, err = ix.pageIn(ctx, src, rawID, n, look); err != nil {
			return err
		}
	}
}

// pageIn reads a run's rows back through the pager, without holding mu while
// it reads. Rows that are looked at (look) go back in memory unless the
// run changed meanwhile; others only serve the call that read them, as
// putting them back would evict rows that are looked at, and the shrink
// that follows walks every run. n is how many rows it has.
func (ix *Index) pageIn(ctx context.Context, src *Source, rawID string, n int, look bool) (*runData, error) {
	d, err := ix.loadRun(ctx, src, rawID, n)
	if err != nil || !look {
		return d, err
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ri := src.runs[rawID]; ri != nil && ri.data == nil && len(d.rows) == ri.n {
		ri.data = d
		ix.touch(ri)
		ix.shrink()
	}
	return d, nil
}

// factsFor returns a run's comparison facts: those kept while the run has
// not grown, else folded from its rows, paged in when evicted.
func (ix *Index) factsFor(ctx context.Context, id string) (*runFacts, error) {
	ix.mu.RLock()
	if ri, ok := ix.runs[id]; ok {
		ri.factsMu.Lock()
		f := ri.facts
		ri.factsMu.Unlock()
		if f != nil && f.rows == ri.n {
			ri.factsUsed.Store(ix.clock.Add(1))
			ix.mu.RUnlock()
			return f, nil
		}
	}
	ix.mu.RUnlock()
	var f *runFacts
	err := ix.readRun(ctx, id, false, func(ri *run, d *runData) error {
		f = ix.factsOf(ri, d)
		return nil
	})
	return f, err
}

// loadRun reads one run's rows and failures back through the pager,
// without holding mu while it reads: every row and failure a pass saved,
// each failed row linked to its failure. n is how many rows the run has,
// so that they take no more memory than they need.
func (ix *Index) loadRun(ctx context.Context, src *Source, rawID string, n int) (*runData, error) {
	d := &runData{rows: make([]row, 0, n)}
	err := ix.pager.RunRows(ctx, src.label, rawID, func(data []byte) {
		for off := 0; off+rowSize <= len(data); off += rowSize {
			d.rows = append(d.rows, decodeRow(data[off:]))
		}
	})
	if err != nil {
		return nil, errorf("loading the rows of run %q of %s: %w", rawID, src.label, err)
	}
	list, err := ix.pager.RunFailures(ctx, src.label, rawID)
	if err != nil {
		return nil, errorf("loading the failures of run %q of %s: %w", rawID, src.label, err)
	}
	d.fails = make([]failure, 0, len(list))
	ix.mu.RLock()
	for _, sf := range list {
		m, ok := ix.modeIdx[sf.ModeID]
		if !ok {
			ix.mu.RUnlock()
			return nil, errorf("the saved index of %s is inconsistent: unknown mode %q", src.label, sf.ModeID)
		}
		by, ok := ix.names.lookup(kindBy, sf.By)
		if !ok {
			ix.mu.RUnlock()
			return nil, errorf("the saved index of %s is inconsistent: unknown classifier %q", src.label, sf.By)
		}
		d.addFailure(failure{id: sf.ID, test: sf.Test, err: sf.Err, mode: m, by: by, attempt: sf.Attempt})
	}
	ix.mu.RUnlock()
	// Rows and failures are both in id order.
	j := 0
	for i := range d.rows {
		for j < len(d.fails) && d.fails[j].id < d.rows[i].id {
			j++
		}
		if j < len(d.fails) && d.fails[j].id == d.rows[i].id {
			d.rows[i].fail = int32(j)
		}
	}
	return d, nil
}

// Residence is what the index holds in memory of one run beside its
// counts: what the budget evicts.
type Residence struct {
	Rows      bool  // its rows and failures are loaded
	RowBytes  int64 // about what they, and the caches folded from them, hold
	Facts     bool  // its comparison facts are kept
	FactBytes int64 // about what they hold
}

// Resident reports what the index holds in memory of run id, so that the
// store's tests can tell an evicted run from one kept.
func (ix *Index) Resident(id string) (Residence, error) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	ri, err := ix.runOfID(id)
	if err != nil {
		return Residence{}, err
	}
	r := Residence{Rows: ri.data != nil, RowBytes: ri.rowsBytes(), FactBytes: ri.factsBytes()}
	ri.factsMu.Lock()
	r.Facts = ri.facts != nil
	ri.factsMu.Unlock()
	return r, nil
}

// Held estimates what every run's rows, failures, page caches and
// comparison facts hold, live runs and runs beyond the budget included:
// what the server's soft memory limit leaves room for (see web).
func (ix *Index) Held() int64 {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	var total int64
	for _, src := range ix.sources {
		for _, ri := range src.runs {
			total += ri.bytes()
		}
	}
	return total
}
