package store

import (
	"encoding/binary"
	"hash/fnv"
	"sync"
	"sync/atomic"
	"time"

	"sandtrap"
)

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
	added  []nameEntry // not yet persisted
}

type nameEntry struct {
	kind  string
	code  uint16
	value string
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
	n.added = append(n.added, nameEntry{kind, uint16(c), value})
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

// load puts a persisted entry back.
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

// mode is a failure mode as the classifier made it; triage decisions are
// applied on top when it is shown.
type mode struct {
	ID        string
	Layer     string
	Primitive string
	Signature string
	FirstSeen time.Time
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

// rowSize is the length of a row in a persisted chunk.
const rowSize = 8 + 4 + 8 + 2 + 2 + 2

// chunkRows is how many rows a persisted chunk holds.
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
	mode    int32 // index into Store.modes
	by      uint16
	attempt int32
}

// cell is one coordinate of a run's breakdown. mode is -1 for results that
// did not fail.
type cell struct {
	target, domain, status uint16
	mode                   int32
}

// runIndex is the precomputed index of one run. Its counts stay in memory;
// its rows and failures may be evicted and read back (see memory.go).
type runIndex struct {
	src   *source
	rawID string
	cube  map[cell]int
	tally modeTally // the cube by mode, for history across runs
	// data is the run's rows and failures, nil while they are evicted.
	// Guarded by the store's mu: read under the read lock, changed under
	// the write lock.
	data *runData
	// n is how many rows the run has, loaded or not; saved how many of
	// them the state holds.
	n, saved int
	// pins counts the passes about to add rows to the run: it is not
	// evicted meanwhile.
	pins int
	// used and factsUsed are when the run's rows and its comparison facts
	// were last looked at, on the store's clock.
	used, factsUsed atomic.Int64

	// The caches below are folded from the rows and dropped with them.
	// Readers share the run under the store's read lock, so the caches
	// have a lock of their own.
	factsMu    sync.Mutex
	facts      *runFacts
	passed     map[uint64]bool // failing tests that also passed, by hash
	passedRows int             // how many rows passed covers
	queues     map[queueKey]queue
	timeline   *timeline
}

// newRunIndex returns the index of a run with no rows yet.
func newRunIndex(src *source, rawID string) *runIndex {
	return &runIndex{src: src, rawID: rawID, cube: map[cell]int{}, data: &runData{}}
}

func hashTest(test string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(test))
	return h.Sum64()
}

// countsOf sums a run's cube into status counts.
func (ri *runIndex) counts(n *names) sandtrap.Counts {
	var c sandtrap.Counts
	for k, v := range ri.cube {
		c.Add(n.value(kindStatus, k.status), v)
	}
	return c
}
