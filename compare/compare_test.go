package compare

import (
	"hash/fnv"
	"slices"
	"testing"

	"sandtrap"
)

func hashOf(key string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(key))
	return h.Sum64()
}

// attempt is one result of a test: its key and how it ended.
type attempt struct {
	key string
	o   Outcome
}

// testsOf records attempts as the store would, keys known only for failures.
func testsOf(attempts ...attempt) *Tests {
	return BuildTests(len(attempts), func(i int) (uint64, int64, Outcome, string) {
		a := attempts[i]
		key := ""
		if a.o == Failed {
			key = a.key
		}
		return hashOf(a.key), int64(i + 1), a.o, key
	})
}

func mode(id, severity, status string, count int, deterministic bool) sandtrap.ModeStat {
	return sandtrap.ModeStat{Mode: sandtrap.Mode{ID: id, Title: "mode " + id, Severity: severity, Status: status},
		Count: count, Deterministic: deterministic}
}

func run(id string) sandtrap.Run { return sandtrap.Run{ID: id, Name: id} }

func ids(ms []ModeChange) []string {
	out := []string{}
	for _, m := range ms {
		out = append(out, m.ID)
	}
	return out
}

func keys(l TestList) []string {
	out := []string{}
	for _, t := range l.Tests {
		out = append(out, t.Key)
	}
	return out
}

func TestCompareGroupsModes(t *testing.T) {
	base := []sandtrap.ModeStat{
		mode("m-gone", "high", "new", 3, true),
		mode("m-kept", "medium", "triaged", 5, true),
		mode("m-fixed-but-kept", "critical", "fixed", 2, true),
		mode("m-fixed-and-gone", "critical", "fixed", 4, true),
	}
	head := []sandtrap.ModeStat{
		mode("m-kept", "medium", "triaged", 9, true),
		mode("m-fixed-but-kept", "critical", "fixed", 1, true),
		mode("m-back", "high", "fixed", 2, true),
		mode("m-fresh-low", "low", "new", 8, true),
		mode("m-fresh-critical", "critical", "new", 1, true),
	}
	c := Compare(Input{Base: Side{Run: run("a"), Modes: base}, Head: Side{Run: run("b"), Modes: head}})
	tests := []struct {
		name string
		got  []string
		want []string
	}{
		{"a mode marked fixed that fails in head has returned, whether or not base had it", ids(c.Returned), []string{"m-fixed-but-kept", "m-back"}},
		{"a mode only in head is new, worst severity first", ids(c.New), []string{"m-fresh-critical", "m-fresh-low"}},
		{"a mode only in base is resolved, a fixed one included", ids(c.Resolved), []string{"m-fixed-and-gone", "m-gone"}},
		{"a mode in both that is not marked fixed persists", ids(c.Persisting), []string{"m-kept"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !slices.Equal(tt.got, tt.want) {
				t.Errorf("got %v, want %v", tt.got, tt.want)
			}
		})
	}
	t.Run("a persisting mode carries both counts", func(t *testing.T) {
		if got := c.Persisting[0]; got.BaseCount != 5 || got.HeadCount != 9 || got.CountChange() != 4 {
			t.Errorf("got %d → %d (%+d), want 5 → 9 (+4)", got.BaseCount, got.HeadCount, got.CountChange())
		}
	})
	t.Run("the headline counts the modes of each run", func(t *testing.T) {
		if c.Modes.Base != 4 || c.Modes.Head != 5 {
			t.Errorf("got %v → %v modes, want 4 → 5", c.Modes.Base, c.Modes.Head)
		}
	})
}

func TestCompareSortsTestsByWhatBecameOfThem(t *testing.T) {
	base := testsOf(
		attempt{"fixed", Failed}, attempt{"regressed", Passed}, attempt{"still-failing", Failed},
		attempt{"still-passing", Passed}, attempt{"removed", Passed}, attempt{"skipped", Skipped},
		attempt{"fixed-on-retry", Failed}, attempt{"fixed-on-retry", Failed},
	)
	head := testsOf(
		attempt{"added", Passed}, attempt{"still-passing", Passed}, attempt{"regressed", Failed},
		attempt{"fixed", Passed}, attempt{"still-failing", Failed}, attempt{"skipped", Failed},
		attempt{"added-failing", Failed}, attempt{"fixed-on-retry", Failed}, attempt{"fixed-on-retry", Passed},
	)
	c := Compare(Input{Base: Side{Run: run("a"), Tests: base}, Head: Side{Run: run("b"), Tests: head}})
	tests := []struct {
		name string
		got  []string
		want []string
	}{
		{"failed in base and passed on head's last attempt is fixed", keys(c.Fixed), []string{"fixed", "fixed-on-retry"}},
		{"passed in base and failed in head is regressed", keys(c.Regressed), []string{"regressed"}},
		{"failed in both is still failing", keys(c.StillFailing), []string{"still-failing"}},
		{"only in head is added, in the order head ran it, its key known once it failed", keys(c.Added), []string{"", "added-failing"}},
		{"only in base is removed", keys(c.Removed), []string{""}},
		{"passed and failed on attempts within head is flaky", keys(c.FlakyTests), []string{"fixed-on-retry"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !slices.Equal(tt.got, tt.want) {
				t.Errorf("got %q, want %q", tt.got, tt.want)
			}
		})
	}
	t.Run("a test that passed in both is counted, not listed", func(t *testing.T) {
		if c.StillPassing != 1 || c.Skipped != 1 {
			t.Errorf("got %d still passing and %d skipped, want 1 and 1", c.StillPassing, c.Skipped)
		}
	})
	t.Run("an added test that never failed keeps its result id, so its key can be read", func(t *testing.T) {
		if got := c.Added.Tests[0]; got.Head.LastID != 1 || got.Hash != hashOf("added") {
			t.Errorf("got result %d hash %x, want result 1 and the hash of %q", got.Head.LastID, got.Hash, "added")
		}
	})
}

func TestCompareCapsTheListsButCountsEveryTest(t *testing.T) {
	var head []attempt
	for _, k := range []string{"a", "b", "c", "d", "e"} {
		head = append(head, attempt{k, Failed})
	}
	c := Compare(Input{Base: Side{Run: run("a"), Tests: testsOf()}, Head: Side{Run: run("b"), Tests: testsOf(head...)}, Limit: 2})
	if got := keys(c.Added); c.Added.Total != 5 || !slices.Equal(got, []string{"a", "b"}) || !c.Added.Truncated() {
		t.Errorf("got %d added listing %q, want 5 listing the first two and truncated", c.Added.Total, got)
	}
}

func TestCompareFindsFlakinessAcrossRuns(t *testing.T) {
	r1 := testsOf(attempt{"flips", Failed}, attempt{"fixed-once", Failed}, attempt{"steady", Passed})
	r2 := testsOf(attempt{"flips", Passed}, attempt{"fixed-once", Passed}, attempt{"steady", Passed})
	r3 := testsOf(attempt{"flips", Failed}, attempt{"fixed-once", Passed}, attempt{"steady", Passed})
	history := []Snapshot{
		{RunID: "r1", Tests: r1, Modes: map[string]bool{"m-comes-and-goes": true, "m-fixed": true}},
		{RunID: "r2", Tests: r2, Modes: map[string]bool{}},
		{RunID: "r3", Tests: r3, Modes: map[string]bool{"m-comes-and-goes": true}},
	}
	head := []sandtrap.ModeStat{mode("m-comes-and-goes", "high", "new", 1, true), mode("m-intermittent", "low", "new", 2, false)}
	c := Compare(Input{Base: Side{Run: run("r2"), Tests: r2}, Head: Side{Run: run("r3"), Tests: r3, Modes: head}, History: history})

	t.Run("a test that failed, passed and failed again is flaky; one fixed once is not", func(t *testing.T) {
		if got := keys(c.FlakyTests); !slices.Equal(got, []string{"flips"}) {
			t.Errorf("got %q, want [flips]", got)
		}
		if got := c.FlakyTests.Tests[0].Why; got != "failed, passed, failed across 3 runs" {
			t.Errorf("got why %q, want the outcomes in order", got)
		}
	})
	t.Run("a mode that fails, goes and comes back is flaky, as is one intermittent within a run", func(t *testing.T) {
		var got []string
		for _, m := range c.FlakyModes {
			got = append(got, m.ID)
		}
		if !slices.Equal(got, []string{"m-comes-and-goes", "m-intermittent"}) {
			t.Errorf("got %v, want [m-comes-and-goes m-intermittent]", got)
		}
	})
}

func TestCompareARunWithItselfIsIdentical(t *testing.T) {
	tests := testsOf(attempt{"a", Failed}, attempt{"a", Passed}, attempt{"b", Passed})
	modes := []sandtrap.ModeStat{mode("m-1", "high", "new", 1, false)}
	side := Side{Run: run("r"), Tests: tests, Modes: modes}
	c := Compare(Input{Base: side, Head: side, History: []Snapshot{{RunID: "r", Tests: tests}}})
	if !c.Identical || len(c.New)+len(c.Resolved)+c.Fixed.Total+c.Regressed.Total+c.Added.Total+c.Removed.Total != 0 {
		t.Errorf("got identical %v with %d new, %d resolved, %d fixed, %d regressed, %d added, %d removed; want identical and no change",
			c.Identical, len(c.New), len(c.Resolved), c.Fixed.Total, c.Regressed.Total, c.Added.Total, c.Removed.Total)
	}
	if c.FlakyTests.Total != 1 {
		t.Errorf("got %d flaky tests, want the one that passed on retry, counted once", c.FlakyTests.Total)
	}
}

func TestCompareDeltasPerFacet(t *testing.T) {
	base := []sandtrap.Cell{
		{Target: "browser", Domain: "web", Status: "failed", Layer: "sandbox", Primitive: "memory", Mode: "m-1", N: 4},
		{Target: "browser", Domain: "web", Status: "passed", N: 6},
		{Target: "code", Domain: "files", Status: "passed", N: 10},
	}
	head := []sandtrap.Cell{
		{Target: "browser", Domain: "web", Status: "failed", Layer: "sandbox", Primitive: "memory", Mode: "m-1", N: 1},
		{Target: "browser", Domain: "web", Status: "passed", N: 9},
		{Target: "code", Domain: "files", Status: "error", Layer: "interface", Primitive: "encoding", Mode: "m-2", N: 2},
		{Target: "code", Domain: "files", Status: "passed", N: 8},
	}
	c := Compare(Input{Base: Side{Run: run("a"), Cells: base}, Head: Side{Run: run("b"), Cells: head}})
	tests := []struct {
		name    string
		changes []Change
		want    map[string]int
	}{
		{"targets, biggest change first", c.ByTarget, map[string]int{"browser": -3, "code": 2}},
		{"layers count failures only", c.ByLayer, map[string]int{"sandbox": -3, "interface": 2}},
		{"primitives count failures only", c.ByPrimitive, map[string]int{"memory": -3, "encoding": 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := map[string]int{}
			for _, ch := range tt.changes {
				got[ch.Key] = ch.FailuresChange()
			}
			if len(got) != len(tt.want) || tt.changes[0].FailuresChange() != -3 {
				t.Fatalf("got %v, want %v with the change of 3 first", got, tt.want)
			}
			for k, v := range tt.want {
				if got[k] != v {
					t.Errorf("%s: got %+d, want %+d", k, got[k], v)
				}
			}
		})
	}
}

func TestCompareTargets(t *testing.T) {
	cells := []sandtrap.Cell{
		{Target: "browser", Domain: "web", Status: "failed", Layer: "sandbox", Primitive: "memory", Mode: "m-oom", N: 10},
		{Target: "browser", Domain: "web", Status: "passed", N: 90},
		{Target: "code", Domain: "files", Status: "failed", Layer: "sandbox", Primitive: "memory", Mode: "m-oom", N: 3},
		{Target: "code", Domain: "files", Status: "failed", Layer: "sandbox", Primitive: "filesystem-permissions", Mode: "m-perm", N: 20},
		{Target: "code", Domain: "files", Status: "passed", N: 177},
		{Target: "code", Domain: "files", Status: "skipped", N: 50},
	}
	tg := CompareTargets(cells)
	if !slices.Equal(tg.Names, []string{"browser", "code"}) {
		t.Fatalf("got targets %v, want [browser code]", tg.Names)
	}
	row := func(rows []Row, key string) Row {
		for _, r := range rows {
			if r.Key == key {
				return r
			}
		}
		t.Fatalf("no row %q in %v", key, rows)
		return Row{}
	}
	tests := []struct {
		name     string
		row      Row
		failures []int
		agree    bool
		only     int
	}{
		{"a primitive on one target only differs", row(tg.ByPrimitive, "filesystem-permissions"), []int{0, 20}, false, 1},
		{"rates of 10% and 1.5% differ though both fail", row(tg.ByPrimitive, "memory"), []int{10, 3}, false, -1},
		{"a layer at 10% and 11.5% (skips left out) agrees", row(tg.ByLayer, "sandbox"), []int{10, 23}, true, -1},
		{"a mode on both targets is shared", row(tg.Modes, "m-oom"), []int{10, 3}, false, -1},
		{"a mode on one target belongs to it alone", row(tg.Modes, "m-perm"), []int{0, 20}, false, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !slices.Equal(tt.row.Failures, tt.failures) || tt.row.Agree != tt.agree || tt.row.Only() != tt.only {
				t.Errorf("got %v agree %v only %d, want %v agree %v only %d", tt.row.Failures, tt.row.Agree, tt.row.Only(), tt.failures, tt.agree, tt.only)
			}
		})
	}
}
