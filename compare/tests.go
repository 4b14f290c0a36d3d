// Package compare compares runs of a campaign: run against run by failure
// mode (new, resolved, persisting, returned) and by test key where keys
// recur (fixed, regressed, still failing, added, removed), flaky tests and
// modes, the deltas per target, domain, layer and primitive, and the
// targets of one run side by side.
//
// It is plain logic over plain inputs: the store fills them, and tests call
// it directly.
package compare

import (
	"cmp"
	"slices"
)

// Outcome is how one attempt of a test ended.
type Outcome uint8

// Outcomes; the zero Outcome means the test did not run.
const (
	Passed Outcome = iota + 1
	Failed         // failed, error, or any status that is not passed or skipped
	Skipped
)

func (o Outcome) String() string {
	switch o {
	case Passed:
		return "passed"
	case Failed:
		return "failed"
	case Skipped:
		return "skipped"
	}
	return "absent"
}

// Test is one test key in one run, over all of its attempts.
type Test struct {
	Hash   uint64 // of the key: the index keeps only this for a test that never failed
	Key    string // "" while unknown, that is when no attempt failed
	LastID int64  // result id of the last attempt
	Last   Outcome
	Passes int32
	Fails  int32
}

// Flaky reports whether the test both passed and failed within its run.
func (t Test) Flaky() bool { return t.Passes > 0 && t.Fails > 0 }

// Tests are a run's tests in the order they first ran. Record them one
// attempt at a time, then call Done, which indexes them by hash so that two
// runs of a million tests join in one sequential pass.
type Tests struct {
	List   []Test
	index  map[uint64]int32 // while recording
	byHash []hashed         // once done
}

// hashed is a test in the hash order, with what joining needs inline so
// that the join reads memory in sequence.
type hashed struct {
	hash uint64
	i    int32 // into List
	last Outcome
}

// NewTests returns an empty set with room for about n results.
func NewTests(n int) *Tests {
	return &Tests{List: make([]Test, 0, n), index: make(map[uint64]int32, n)}
}

// Record adds one attempt of the test with this hash; attempts arrive in
// the order they ran, so the last one recorded decides the test's outcome.
// key is the test's key when known.
func (t *Tests) Record(hash uint64, id int64, o Outcome, key string) {
	i, ok := t.index[hash]
	if !ok {
		i = int32(len(t.List))
		t.index[hash] = i
		t.List = append(t.List, Test{Hash: hash})
	}
	x := &t.List[i]
	x.LastID, x.Last = id, o
	switch o {
	case Passed:
		x.Passes++
	case Failed:
		x.Fails++
	}
	if x.Key == "" {
		x.Key = key
	}
}

// Done ends the recording and indexes the tests by hash.
func (t *Tests) Done() *Tests {
	t.index = nil
	t.byHash = make([]hashed, len(t.List))
	for i, x := range t.List {
		t.byHash[i] = hashed{hash: x.Hash, i: int32(i), last: x.Last}
	}
	slices.SortFunc(t.byHash, func(a, b hashed) int { return cmp.Compare(a.hash, b.hash) })
	return t
}

// Find returns the test with this hash; t must be done.
func (t *Tests) Find(hash uint64) (Test, bool) {
	if t == nil {
		return Test{}, false
	}
	k, ok := slices.BinarySearchFunc(t.byHash, hash, func(h hashed, target uint64) int { return cmp.Compare(h.hash, target) })
	if !ok {
		return Test{}, false
	}
	return t.List[t.byHash[k].i], true
}

// Len is how many distinct tests ran.
func (t *Tests) Len() int {
	if t == nil {
		return 0
	}
	return len(t.List)
}

// join pairs the tests of two done sets by hash in one pass over both
// indexes: inA[j] is the index in a of b's test j, or -1; inB[i] says
// whether a's test i is in b.
func join(a, b *Tests) (inA []int32, inB []bool) {
	inA = make([]int32, b.Len())
	inB = make([]bool, a.Len())
	var ah, bh []hashed
	if a != nil {
		ah = a.byHash
	}
	if b != nil {
		bh = b.byHash
	}
	i, j := 0, 0
	for j < len(bh) {
		switch {
		case i < len(ah) && ah[i].hash < bh[j].hash:
			i++
		case i < len(ah) && ah[i].hash == bh[j].hash:
			inA[bh[j].i] = ah[i].i
			inB[ah[i].i] = true
			i++
			j++
		default:
			inA[bh[j].i] = -1
			j++
		}
	}
	return inA, inB
}
