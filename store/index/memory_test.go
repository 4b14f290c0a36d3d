package index

import (
	"cmp"
	"context"
	"reflect"
	"slices"
	"testing"
	"time"

	"sandtrap"
	"sandtrap/compare"
)

func TestAnEvictedRunAnswersAsOneKeptInMemory(t *testing.T) {
	ctx := context.Background()
	fixtures := map[string]*fixture{"kept": newFixture(t, 0), "evicted": newFixture(t, 1)}
	for _, f := range fixtures {
		f.run("r1", true)
		f.run("r2", true)
		f.add(f.results("r1", 700))
		f.add(f.results("r2", 300))
	}
	for _, run := range []string{"r1", "r2"} {
		if r, _ := fixtures["evicted"].ix.Resident(run); r.Rows {
			t.Fatalf("run %s under a budget of a byte: got its rows kept, want them evicted", run)
		}
	}
	answers := func(f *fixture, run string) []any {
		page, _, err1 := f.ix.ResultsPage(ctx, run, sandtrap.ResultFilter{Status: sandtrap.StatusAll, Offset: 40, Limit: 30})
		modes, facets, err2 := f.ix.RunModes(ctx, run, sandtrap.ResultFilter{Target: "shell"})
		minutes, windows, err3 := f.ix.RunTimeline(ctx, run)
		cl, _, _, err4 := f.ix.Classification(ctx, run, 1)
		for i := range modes {
			modes[i].Mode.FirstSeen = time.Time{} // when each fixture met the mode
		}
		// The order is the index's; callers rank.
		slices.SortFunc(modes, func(a, b sandtrap.ModeStat) int { return cmp.Compare(a.ID, b.ID) })
		return []any{page, modes, facets, minutes, windows, cl, err1, err2, err3, err4}
	}
	for _, run := range []string{"r1", "r2"} {
		got, want := answers(fixtures["evicted"], run), answers(fixtures["kept"], run)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("run %s: got %v\nwant %v", run, got, want)
		}
	}
}

func TestARunKeepsOnlyTheQueuesOfItsCurrentRows(t *testing.T) {
	f := newFixture(t, 0)
	f.run("r", false)
	f.add(f.results("r", 100))
	ctx := context.Background()
	filters := []sandtrap.ResultFilter{{}, {Target: "browser"}, {Domain: "file-io"}}
	for range 5 {
		f.add(f.results("r", 10))
		for _, filter := range filters {
			if _, _, err := f.ix.RunModes(ctx, "r", filter); err != nil {
				t.Fatal(err)
			}
		}
	}
	ri := f.ix.runs["r"]
	ri.factsMu.Lock()
	kept := len(ri.queues)
	ri.factsMu.Unlock()
	if kept != len(filters) {
		t.Errorf("got %d queues kept after the run grew 5 times, want one for each of the %d filters in use", kept, len(filters))
	}
}

func TestARunsTestsKeepTheKeysOfFailuresOnly(t *testing.T) {
	f := newFixture(t, 0)
	f.run("r1", true)
	var entries []Entry
	for i, tt := range [][2]string{{"ok", "passed"}, {"bad", "error"}, {"bad", "failed"}, {"skip", "skipped"}} {
		e := Entry{RunID: "r1", ID: int64(i + 1), Test: tt[0], Status: tt[1], Target: "code-interpreter", Domain: "file-io"}
		if tt[1] == "error" || tt[1] == "failed" {
			e.Failure, e.Error, e.ModeID, e.Layer, e.Primitive, e.By = true, "PermissionError", "m-permission", "sandbox", "filesystem", "rule"
		}
		entries = append(entries, e)
	}
	f.add(entries)
	facts, err := f.ix.factsFor(context.Background(), "r1")
	if err != nil {
		t.Fatal(err)
	}
	tests := facts.tests
	want := []struct {
		key      string
		last     compare.Outcome
		attempts int32
	}{{"", compare.Passed, 1}, {"bad", compare.Failed, 2}, {"", compare.Skipped, 0}}
	if tests.Len() != len(want) {
		t.Fatalf("got %d tests, want %d", tests.Len(), len(want))
	}
	for i, w := range want {
		got := tests.At(i)
		if got.Key != w.key || got.Last != w.last || got.Passes+got.Fails != w.attempts {
			t.Errorf("test %d: got key %q last %v with %d attempts, want %q %v %d", i, got.Key, got.Last, got.Passes+got.Fails, w.key, w.last, w.attempts)
		}
	}
}

func TestHeldCountsTheRowsOfEveryRunUntilTheyAreEvicted(t *testing.T) {
	tests := []struct {
		name     string
		budget   int64
		finished bool
		wantMin  int64
		wantMax  int64
	}{
		{"a live run's rows are held whatever the budget", 1, false, 1000 * rowBytes, 1 << 20},
		{"a finished run kept under the budget is held", 0, true, 1000 * rowBytes, 1 << 20},
		{"a finished run evicted by a budget of a byte is not", 1, true, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, tt.budget)
			f.run("r1", tt.finished)
			f.add(f.results("r1", 1000))
			if got := f.ix.Held(); got < tt.wantMin || got > tt.wantMax {
				t.Errorf("got %d bytes held, want %d to %d", got, tt.wantMin, tt.wantMax)
			}
		})
	}
}
