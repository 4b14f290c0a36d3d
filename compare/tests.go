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

// Tests are a run's tests, kept compactly in the order of their hashes so
// that two runs of a million tests join in one sequential pass and take
// about 40 bytes a test; At gives them in the order they first ran.
type Tests struct {
	byHash []packed
	order  []int32  // into byHash, in the order the tests first ran
	keys   []string // the keys known, indexed by packed.key
}

// packed is a test as Tests keep it: its key, known only for some tests,
// is an index into Tests.keys.
type packed struct {
	hash          uint64
	lastID        int64
	passes, fails int32
	key           int32 // -1 when unknown
	last          Outcome
}

// BuildTests folds a run's n attempts into its tests. attempt(i) gives the
// i-th attempt, in the order they ran, with the key of its test when known
// ("" otherwise): the last attempt of a test decides its outcome, and the
// first key given is its key.
func BuildTests(n int, attempt func(i int) (hash uint64, id int64, o Outcome, key string)) *Tests {
	// The attempts by hash, each test's in the order they ran.
	type ranAt struct {
		hash uint64
		i    int32
	}
	at := make([]ranAt, n)
	for i := range n {
		at[i].hash, _, _, _ = attempt(i)
		at[i].i = int32(i)
	}
	slices.SortFunc(at, func(a, b ranAt) int { return cmp.Or(cmp.Compare(a.hash, b.hash), cmp.Compare(a.i, b.i)) })
	tests := 0
	for k := range n {
		if k == 0 || at[k].hash != at[k-1].hash {
			tests++
		}
	}
	t := &Tests{byHash: make([]packed, 0, tests)}
	first := make([]int32, 0, tests) // the first attempt of each test
	for k := 0; k < n; {
		x := packed{hash: at[k].hash, key: -1}
		first = append(first, at[k].i)
		for ; k < n && at[k].hash == x.hash; k++ {
			_, id, o, key := attempt(int(at[k].i))
			x.lastID, x.last = id, o
			switch o {
			case Passed:
				x.passes++
			case Failed:
				x.fails++
			}
			if x.key < 0 && key != "" {
				x.key = int32(len(t.keys))
				t.keys = append(t.keys, key)
			}
		}
		t.byHash = append(t.byHash, x)
	}
	t.order = make([]int32, len(t.byHash))
	for i := range t.order {
		t.order[i] = int32(i)
	}
	slices.SortFunc(t.order, func(a, b int32) int { return cmp.Compare(first[a], first[b]) })
	return t
}

// test materialises the k-th test in hash order.
func (t *Tests) test(k int32) Test {
	x := &t.byHash[k]
	out := Test{Hash: x.hash, LastID: x.lastID, Last: x.last, Passes: x.passes, Fails: x.fails}
	if x.key >= 0 {
		out.Key = t.keys[x.key]
	}
	return out
}

// At returns the i-th test in the order the tests first ran.
func (t *Tests) At(i int) Test { return t.test(t.order[i]) }

// Find returns the test with this hash.
func (t *Tests) Find(hash uint64) (Test, bool) {
	if t == nil {
		return Test{}, false
	}
	k, ok := slices.BinarySearchFunc(t.byHash, hash, func(x packed, target uint64) int { return cmp.Compare(x.hash, target) })
	if !ok {
		return Test{}, false
	}
	return t.test(int32(k)), true
}

// flaky returns the hash positions of the tests that both passed and
// failed, in the order they first ran.
func (t *Tests) flaky() []int32 {
	if t == nil {
		return nil
	}
	var mark []bool
	n := 0
	for k := range t.byHash {
		if x := &t.byHash[k]; x.passes > 0 && x.fails > 0 {
			if mark == nil {
				mark = make([]bool, len(t.byHash))
			}
			mark[k] = true
			n++
		}
	}
	out := make([]int32, 0, n)
	for _, k := range t.order {
		if len(out) == n {
			break
		}
		if mark[k] {
			out = append(out, k)
		}
	}
	return out
}

// Len is how many distinct tests ran.
func (t *Tests) Len() int {
	if t == nil {
		return 0
	}
	return len(t.byHash)
}

// join pairs the tests of two sets by hash in one pass over both, in
// hash order: inA[j] is the hash position in a of b's test at hash
// position j, or -1; inB[i] says whether a's test at hash position i is
// in b.
func join(a, b *Tests) (inA []int32, inB []bool) {
	inA = make([]int32, b.Len())
	inB = make([]bool, a.Len())
	var ah, bh []packed
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
			inA[j] = int32(i)
			inB[i] = true
			i++
			j++
		default:
			inA[j] = -1
			j++
		}
	}
	return inA, inB
}
