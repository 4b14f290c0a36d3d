package compare

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"sandtrap"
	"sandtrap/triage"
)

// Side is one run of a comparison, as the store knows it.
type Side struct {
	Run   sandtrap.Run
	Cells []sandtrap.Cell     // the run's breakdown
	Modes []sandtrap.ModeStat // its failure modes, triage applied
	Tests *Tests
}

// Snapshot is one run of the history that flakiness is judged over.
type Snapshot struct {
	RunID string
	Modes map[string]bool // ids of the modes that failed in the run
	Tests *Tests
}

// Input is everything a comparison reads.
type Input struct {
	Base, Head Side
	// History is the runs up to the later of base and head, oldest first,
	// base and head among them.
	History []Snapshot
	// Limit caps each list of tests; 0 keeps every test.
	Limit int
}

// Comparison is head against base.
type Comparison struct {
	Base, Head sandtrap.Run
	Identical  bool // the same run on both sides

	PassRate Delta
	Failures Delta
	Modes    Delta

	ByTarget, ByDomain, ByLayer, ByPrimitive []Change

	// The four groups of failure modes are disjoint: a returned mode is in
	// no other group.
	Returned   []ModeChange // marked fixed in triage, yet failing in head
	New        []ModeChange
	Resolved   []ModeChange
	Persisting []ModeChange

	Fixed, Regressed, StillFailing, Added, Removed TestList
	StillPassing                                   int // passed in both runs
	Skipped                                        int // in both runs but skipped in one of them

	FlakyTests TestList
	FlakyModes []FlakyMode
}

// Delta is a number in base and in head.
type Delta struct {
	Base, Head float64
}

// Change is how much it moved, head minus base.
func (d Delta) Change() float64 { return d.Head - d.Base }

// Change is the results of one value of a facet (a target, a domain, a
// layer or a primitive) in both runs.
type Change struct {
	Key        string // "" for failures that have no value, such as no primitive
	Base, Head sandtrap.Counts
}

// FailuresChange is head's failures minus base's.
func (c Change) FailuresChange() int { return c.Head.Failures() - c.Base.Failures() }

// ModeChange is a failure mode in both runs.
type ModeChange struct {
	sandtrap.Mode
	BaseCount, HeadCount int
}

// CountChange is head's count minus base's.
func (m ModeChange) CountChange() int { return m.HeadCount - m.BaseCount }

// TestList is one group of tests: how many there are and, up to the
// input's limit, which, in the order the run ran them.
type TestList struct {
	Total int
	Tests []TestChange
}

// Truncated reports whether the list names fewer tests than there are.
func (l TestList) Truncated() bool { return len(l.Tests) < l.Total }

func (l *TestList) add(limit int, t TestChange) {
	l.Total++
	if limit <= 0 || len(l.Tests) < limit {
		l.Tests = append(l.Tests, t)
	}
}

// TestChange is one test key in both runs; a side where it did not run has
// the zero Test.
type TestChange struct {
	Key        string // "" until resolved, for a test that never failed
	Hash       uint64
	Base, Head Test
	Why        string // for a flaky test, what it did
}

// FlakyMode is a failure mode that comes and goes.
type FlakyMode struct {
	sandtrap.Mode
	Why string
}

// Compare compares head against base.
func Compare(in Input) Comparison {
	b, h := in.Base, in.Head
	c := Comparison{
		Base: b.Run, Head: h.Run, Identical: b.Run.ID == h.Run.ID,
		PassRate: Delta{b.Run.Counts.PassRate(), h.Run.Counts.PassRate()},
		Failures: Delta{float64(b.Run.Counts.Failures()), float64(h.Run.Counts.Failures())},
		Modes:    Delta{float64(len(b.Modes)), float64(len(h.Modes))},
	}
	c.ByTarget = changes(b.Cells, h.Cells, func(c sandtrap.Cell) (string, bool) { return c.Target, true })
	c.ByDomain = changes(b.Cells, h.Cells, func(c sandtrap.Cell) (string, bool) { return c.Domain, true })
	c.ByLayer = changes(b.Cells, h.Cells, func(c sandtrap.Cell) (string, bool) { return c.Layer, sandtrap.IsFailure(c.Status) })
	c.ByPrimitive = changes(b.Cells, h.Cells, func(c sandtrap.Cell) (string, bool) { return c.Primitive, sandtrap.IsFailure(c.Status) })
	groupModes(&c, b.Modes, h.Modes)
	groupTests(&c, b.Tests, h.Tests, in.Limit)
	c.FlakyTests = flakyTests(b, h, in.History, in.Limit)
	c.FlakyModes = flakyModes(b.Modes, h.Modes, in.History)
	return c
}

// changes counts the results of both runs per key, the biggest change in
// failures first. ok leaves a cell out.
func changes(base, head []sandtrap.Cell, key func(sandtrap.Cell) (string, bool)) []Change {
	by := map[string]*Change{}
	add := func(cells []sandtrap.Cell, side func(*Change) *sandtrap.Counts) {
		for _, cell := range cells {
			k, ok := key(cell)
			if !ok {
				continue
			}
			ch := by[k]
			if ch == nil {
				ch = &Change{Key: k}
				by[k] = ch
			}
			side(ch).Add(cell.Status, cell.N)
		}
	}
	add(base, func(c *Change) *sandtrap.Counts { return &c.Base })
	add(head, func(c *Change) *sandtrap.Counts { return &c.Head })
	out := make([]Change, 0, len(by))
	for _, ch := range by {
		out = append(out, *ch)
	}
	slices.SortFunc(out, func(a, b Change) int {
		return cmp.Or(
			cmp.Compare(abs(b.FailuresChange()), abs(a.FailuresChange())),
			cmp.Compare(b.Head.Failures()+b.Base.Failures(), a.Head.Failures()+a.Base.Failures()),
			strings.Compare(a.Key, b.Key))
	})
	return out
}

func abs(n int) int { return max(n, -n) }

// groupModes sorts the modes of both runs into returned, new, resolved and
// persisting.
func groupModes(c *Comparison, base, head []sandtrap.ModeStat) {
	inBase := make(map[string]sandtrap.ModeStat, len(base))
	for _, m := range base {
		inBase[m.ID] = m
	}
	inHead := make(map[string]bool, len(head))
	for _, m := range head {
		inHead[m.ID] = true
		bm, ok := inBase[m.ID]
		mc := ModeChange{Mode: m.Mode, BaseCount: bm.Count, HeadCount: m.Count}
		switch {
		case m.Status == triage.StatusFixed:
			c.Returned = append(c.Returned, mc)
		case !ok:
			c.New = append(c.New, mc)
		default:
			c.Persisting = append(c.Persisting, mc)
		}
	}
	for _, m := range base {
		if !inHead[m.ID] {
			c.Resolved = append(c.Resolved, ModeChange{Mode: m.Mode, BaseCount: m.Count})
		}
	}
	for _, g := range [][]ModeChange{c.Returned, c.New, c.Resolved, c.Persisting} {
		slices.SortFunc(g, func(a, b ModeChange) int {
			return cmp.Or(
				cmp.Compare(triage.SeverityRank(a.Severity), triage.SeverityRank(b.Severity)),
				cmp.Compare(max(b.BaseCount, b.HeadCount), max(a.BaseCount, a.HeadCount)),
				strings.Compare(a.ID, b.ID))
		})
	}
}

// What became of a test, for groupTests.
const (
	unchanged uint8 = iota // still passing, or skipped in one of the runs
	added
	fixed
	regressed
	stillFailing
)

// groupTests sorts the test keys of both runs by what became of them,
// judging each run by the last attempt of the test. It decides in the
// order of the hashes, where both runs' tests are in sequence, and lists
// in the order head ran them, materialising only the tests it lists.
func groupTests(c *Comparison, base, head *Tests, limit int) {
	inBase, inHead := join(base, head)
	became := make([]uint8, head.Len())
	for k := range became {
		j := inBase[k]
		if j < 0 {
			became[k] = added
			continue
		}
		bt, ht := base.byHash[j].last, head.byHash[k].last
		switch {
		case bt == Skipped || ht == Skipped:
			c.Skipped++
		case bt == Failed && ht == Passed:
			became[k] = fixed
		case bt == Passed && ht == Failed:
			became[k] = regressed
		case bt == Failed:
			became[k] = stillFailing
		default:
			c.StillPassing++
		}
	}
	lists := [...]*TestList{added: &c.Added, fixed: &c.Fixed, regressed: &c.Regressed, stillFailing: &c.StillFailing}
	for _, b := range became {
		if b != unchanged {
			lists[b].Total++
		}
	}
	full := func(l *TestList) bool { return len(l.Tests) == l.Total || limit > 0 && len(l.Tests) >= limit }
	open := 0 // lists that want more tests
	for _, l := range lists[added:] {
		if !full(l) {
			open++
		}
	}
	for i := 0; i < head.Len() && open > 0; i++ {
		k := head.order[i]
		l := lists[became[k]]
		if l == nil || full(l) {
			continue
		}
		ht := head.test(k)
		if j := inBase[k]; j >= 0 {
			bt := base.test(j)
			l.Tests = append(l.Tests, TestChange{Key: cmp.Or(ht.Key, bt.Key), Hash: ht.Hash, Base: bt, Head: ht})
		} else {
			l.Tests = append(l.Tests, TestChange{Key: ht.Key, Hash: ht.Hash, Head: ht})
		}
		if full(l) {
			open--
		}
	}
	for _, found := range inHead {
		if !found {
			c.Removed.Total++
		}
	}
	for i := range base.Len() {
		if full(&c.Removed) {
			break
		}
		if k := base.order[i]; !inHead[k] {
			bt := base.test(k)
			c.Removed.Tests = append(c.Removed.Tests, TestChange{Key: bt.Key, Hash: bt.Hash, Base: bt})
		}
	}
}

// flakyTests finds the tests that both passed and failed: on attempts
// within base or head, or across the history, where a test that went from
// failing to passing and back (or the other way) flipped at least twice. A
// single flip is a fix or a regression, not flakiness.
func flakyTests(base, head Side, history []Snapshot, limit int) TestList {
	var out TestList
	seen := map[uint64]bool{}
	sides := []Side{base}
	if head.Run.ID != base.Run.ID {
		sides = append(sides, head)
	}
	for _, s := range sides {
		for _, k := range s.Tests.flaky() {
			if t := s.Tests.test(k); !seen[t.Hash] {
				seen[t.Hash] = true
				out.add(limit, TestChange{Key: t.Key, Hash: t.Hash, Base: baseOf(base, t.Hash), Head: headOf(head, t.Hash),
					Why: fmt.Sprintf("passed %d and failed %d attempts in %s", t.Passes, t.Fails, s.Run.ID)})
			}
		}
	}
	if len(history) < 3 {
		return out
	}
	type track struct {
		last  Outcome
		flips int
		key   string
		runs  []string
	}
	tracks := map[uint64]*track{}
	var order []uint64
	for _, snap := range history {
		if snap.Tests == nil {
			continue
		}
		for i := range snap.Tests.Len() {
			t := snap.Tests.At(i)
			if t.Last == Skipped {
				continue
			}
			tr := tracks[t.Hash]
			if tr == nil {
				tr = &track{}
				tracks[t.Hash] = tr
				order = append(order, t.Hash)
			}
			if tr.last != 0 && tr.last != t.Last {
				tr.flips++
			}
			tr.last = t.Last
			tr.key = cmp.Or(tr.key, t.Key)
			tr.runs = append(tr.runs, t.Last.String())
		}
	}
	for _, hash := range order {
		tr := tracks[hash]
		if tr.flips < 2 || seen[hash] {
			continue
		}
		out.add(limit, TestChange{Key: tr.key, Hash: hash, Base: baseOf(base, hash), Head: headOf(head, hash),
			Why: strings.Join(tr.runs, ", ") + fmt.Sprintf(" across %d runs", len(tr.runs))})
	}
	return out
}

func baseOf(base Side, hash uint64) Test {
	t, _ := base.Tests.Find(hash)
	return t
}

func headOf(head Side, hash uint64) Test {
	t, _ := head.Tests.Find(hash)
	return t
}

// flakyModes finds the modes that come and go: intermittent within base or
// head (a test of the mode also passed there), or present, absent and
// present again (or the other way) across the history.
func flakyModes(base, head []sandtrap.ModeStat, history []Snapshot) []FlakyMode {
	var out []FlakyMode
	seen := map[string]bool{}
	all := map[string]sandtrap.Mode{}
	for _, m := range slices.Concat(head, base) {
		if _, ok := all[m.ID]; !ok {
			all[m.ID] = m.Mode
		}
		if !m.Deterministic && !seen[m.ID] {
			seen[m.ID] = true
			out = append(out, FlakyMode{Mode: m.Mode, Why: "intermittent: some of its tests also passed in the same run"})
		}
	}
	if len(history) >= 3 {
		for id, mode := range all {
			if seen[id] {
				continue
			}
			flips, pattern := 0, make([]string, 0, len(history))
			for i, snap := range history {
				if i > 0 && snap.Modes[id] != history[i-1].Modes[id] {
					flips++
				}
				pattern = append(pattern, map[bool]string{true: "failing", false: "absent"}[snap.Modes[id]])
			}
			if flips >= 2 {
				out = append(out, FlakyMode{Mode: mode, Why: strings.Join(pattern, ", ") + fmt.Sprintf(" across %d runs", len(history))})
			}
		}
	}
	slices.SortFunc(out, func(a, b FlakyMode) int {
		return cmp.Or(cmp.Compare(triage.SeverityRank(a.Severity), triage.SeverityRank(b.Severity)), strings.Compare(a.ID, b.ID))
	})
	return out
}
