package index

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"sync"
	"sync/atomic"
	"time"

	"sandtrap"
	"sandtrap/triage"
)

// Index is the in-memory index of every run of the served campaign files.
// See the package doc for its concurrency rule.
type Index struct {
	pager RowPager
	// budget is about how many bytes the rows and failures of finished
	// runs may hold; 0 keeps every run in memory.
	budget int64

	mu      sync.RWMutex
	sources []*Source
	names   *names
	modes   []Mode
	modeIdx map[string]int32
	eff     []effMode // modes[i] with the decisions applied
	// unsavedModes are modes found since the last Pack.
	unsavedModes []Mode
	decisions    map[string]triage.Decision
	// aliases maps the id of a template that another absorbed, or of a
	// mode an upgrade carried over, to the mode it resolves to.
	aliases map[string]string
	// decisionsVersion counts the changes to eff, so that what was
	// computed under older decisions is not served.
	decisionsVersion int
	// cells counts the breakdown cells ever opened in any run: a mode's
	// first and last seen change only when it grows, so caches keyed on
	// it and on their own run's rows stay right while other runs grow.
	cells int
	runs  map[string]*run // by public id
	order []string        // public ids, oldest run first
	// runsVersion counts the changes to runs and order.
	runsVersion int
	// seen is where each mode was seen across the runs, kept while cells
	// and runsVersion stay; seenMu guards it, as readers fill it in.
	seenMu sync.Mutex
	seen   *seen
	// clock orders the looks at runs, for eviction.
	clock atomic.Int64
}

// New returns an empty index that pages evicted rows back through pager
// and keeps the rows of finished runs within about budget bytes (0 keeps
// every run in memory).
func New(pager RowPager, budget int64) *Index {
	return &Index{pager: pager, budget: budget, names: newNames(), modeIdx: map[string]int32{}, runs: map[string]*run{},
		decisions: map[string]triage.Decision{}, aliases: map[string]string{}}
}

// Source is one campaign file's part of the index: its runs, by the
// harness's ids, and their rows of the runs table. Its fields are guarded
// by the index's lock.
type Source struct {
	label string
	runs  map[string]*run
	meta  map[string]RunMeta
}

// Label is the name the source's runs are shown under.
func (src *Source) Label() string { return src.label }

// RunMeta is a run's row of a campaign file's runs table, as the index
// shows and orders it.
type RunMeta struct {
	ID   string
	Name string
	// StartedAt is the start as the file has it, which orders the runs;
	// Started is it parsed, zero when it does not parse.
	StartedAt string
	Started   time.Time
	// Finished says the run has ended, at FinishedAt.
	Finished   bool
	FinishedAt time.Time
	Planned    int64 // how many results the harness planned; 0 when it did not say
	Notes      string
}

// Name kinds interned into small codes.
const (
	kindTarget = "target"
	kindDomain = "domain"
	kindStatus = "status"
	kindBy     = "by"
)

// maxCode is the last code a kind can hand out; values past it share it, so
// a harness that invents 70,000 domains degrades instead of failing.
const maxCode = 1<<16 - 1

// names interns strings per kind.
type names struct {
	values map[string][]string
	codes  map[string]map[string]uint16
	added  []Name // not packed yet
}

func newNames() *names {
	return &names{values: map[string][]string{}, codes: map[string]map[string]uint16{}}
}

// code returns value's code in kind, assigning the next one if it is new.
func (n *names) code(kind, value string) uint16 {
	m := n.codes[kind]
	if m == nil {
		m = map[string]uint16{}
		n.codes[kind] = m
	}
	if c, ok := m[value]; ok {
		return c
	}
	c := len(n.values[kind])
	if c >= maxCode {
		return maxCode
	}
	n.values[kind] = append(n.values[kind], value)
	m[value] = uint16(c)
	n.added = append(n.added, Name{kind, uint16(c), value})
	return uint16(c)
}

// lookup returns value's code in kind without assigning one.
func (n *names) lookup(kind, value string) (uint16, bool) {
	c, ok := n.codes[kind][value]
	return c, ok
}

func (n *names) value(kind string, code uint16) string {
	v := n.values[kind]
	if int(code) < len(v) {
		return v[code]
	}
	return "(too many values)"
}

// load puts a saved entry back.
func (n *names) load(kind string, code uint16, value string) {
	v := n.values[kind]
	for len(v) <= int(code) {
		v = append(v, "")
	}
	v[code] = value
	n.values[kind] = v
	if n.codes[kind] == nil {
		n.codes[kind] = map[string]uint16{}
	}
	n.codes[kind][value] = code
}

// row is one result of a run, packed: every result has one, passed or not.
// The fields are ordered so that a row takes 32 bytes, without padding.
type row struct {
	id       int64
	testHash uint64
	at       uint32 // started_at in Unix seconds, 0 when unknown; 4 bytes, not 8, as there are millions of rows
	fail     int32  // index into runData.fails, -1 when the result did not fail
	status   uint16
	target   uint16
	domain   uint16
}

// rowSize is the length of a row in a packed chunk.
const rowSize = 8 + 4 + 8 + 2 + 2 + 2

// chunkRows is how many rows a packed chunk holds.
const chunkRows = 4096

// startedMS is the row's start time in Unix milliseconds, 0 when unknown.
func (r *row) startedMS() int64 { return int64(r.at) * 1000 }

func appendRow(b []byte, r row) []byte {
	b = binary.LittleEndian.AppendUint64(b, uint64(r.id))
	b = binary.LittleEndian.AppendUint32(b, r.at)
	b = binary.LittleEndian.AppendUint64(b, r.testHash)
	b = binary.LittleEndian.AppendUint16(b, r.status)
	b = binary.LittleEndian.AppendUint16(b, r.target)
	return binary.LittleEndian.AppendUint16(b, r.domain)
}

func decodeRow(b []byte) row {
	return row{
		id:       int64(binary.LittleEndian.Uint64(b)),
		at:       binary.LittleEndian.Uint32(b[8:]),
		testHash: binary.LittleEndian.Uint64(b[12:]),
		status:   binary.LittleEndian.Uint16(b[20:]),
		target:   binary.LittleEndian.Uint16(b[22:]),
		domain:   binary.LittleEndian.Uint16(b[24:]),
		fail:     -1,
	}
}

// failure is what the index keeps of a failed result.
type failure struct {
	id      int64
	test    string
	err     string
	mode    int32 // index into Index.modes
	by      uint16
	attempt int32
}

// cell is one coordinate of a run's breakdown. mode is -1 for results that
// did not fail.
type cell struct {
	target, domain, status uint16
	mode                   int32
}

// run is the index of one run. Its counts stay in memory; its rows and
// failures may be evicted and read back (see memory.go).
type run struct {
	src   *Source
	rawID string
	cube  map[cell]int
	tally modeTally // the cube by mode, for history across runs
	// data is the run's rows and failures, nil while they are evicted.
	// Guarded by the index's mu: read under the read lock, changed under
	// the write lock.
	data *runData
	// n is how many rows the run has, loaded or not; saved how many of
	// them the store has saved.
	n, saved int
	// pins counts the passes about to add rows to the run: it is not
	// evicted meanwhile.
	pins int
	// used and factsUsed are when the run's rows and its comparison facts
	// were last looked at, on the index's clock.
	used, factsUsed atomic.Int64

	// The caches below are folded from the rows and dropped with them.
	// Readers share the run under the index's read lock, so the caches
	// have a lock of their own.
	factsMu    sync.Mutex
	facts      *runFacts
	passed     map[uint64]bool // failing tests that also passed, by hash
	passedRows int             // how many rows passed covers
	queues     map[queueKey]queue
	timeline   *timeline
}

// newRun returns the index of a run with no rows yet.
func newRun(src *Source, rawID string) *run {
	return &run{src: src, rawID: rawID, cube: map[cell]int{}, data: &runData{}}
}

func hashTest(test string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(test))
	return h.Sum64()
}

// counts sums a run's cube into status counts.
func (ri *run) counts(n *names) sandtrap.Counts {
	var c sandtrap.Counts
	for k, v := range ri.cube {
		c.Add(n.value(kindStatus, k.status), v)
	}
	return c
}

// errorf wraps err as an index error with context.
func errorf(format string, args ...any) error {
	return fmt.Errorf("index: "+format, args...)
}

// runNotFound is the error of a run the index does not serve.
func runNotFound(id string) error {
	return sandtrap.Errorf(sandtrap.ENOTFOUND, "run %q not found", id)
}
