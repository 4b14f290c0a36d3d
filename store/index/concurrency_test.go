package index

import (
	"context"
	"testing"
	"time"

	"sandtrap"
	"sandtrap/triage"
)

func TestReadersDoNotWaitForARunBeingPagedIn(t *testing.T) {
	// With a budget of a byte, the finished run's rows are evicted once
	// saved; the live run's stay.
	f := newFixture(t, 1)
	f.run("old", true)
	f.run("live", false)
	f.add(f.results("old", 500))
	f.add(f.results("live", 300))
	if r, err := f.ix.Resident("old"); err != nil || r.Rows {
		t.Fatalf("run old before the test: got %+v, %v, want its rows evicted", r, err)
	}

	f.pager.mu.Lock()
	f.pager.gate, f.pager.entered = make(chan struct{}), make(chan string, 1)
	gate := f.pager.gate
	f.pager.mu.Unlock()
	type answer struct {
		page sandtrap.ResultPage
		err  error
	}
	paged := make(chan answer, 1)
	go func() {
		page, _, err := f.ix.ResultsPage(context.Background(), "old", sandtrap.ResultFilter{Status: sandtrap.StatusAll})
		paged <- answer{page, err}
	}()
	select {
	case key := <-f.pager.entered:
		if key != "c/old" {
			t.Fatalf("got the pager reading %s, want c/old", key)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the page of run old never asked the pager for its rows")
	}

	// While the pager holds run old's rows back, every other reader and
	// the writer go on.
	ctx := context.Background()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, q := range []struct {
			name string
			ask  func() error
		}{
			{"a page of the live run", func() error {
				_, _, err := f.ix.ResultsPage(ctx, "live", sandtrap.ResultFilter{Status: sandtrap.StatusAll})
				return err
			}},
			{"the live run's modes", func() error { _, _, err := f.ix.RunModes(ctx, "live", sandtrap.ResultFilter{}); return err }},
			{"the runs list", func() error { _, err := f.ix.ListRuns(ctx); return err }},
			{"run old's breakdown", func() error { _, err := f.ix.Breakdown(ctx, "old"); return err }},
			{"the history", func() error { _, err := f.ix.History(ctx, 10); return err }},
			{"a mode", func() error { _, err := f.ix.FindMode(ctx, "m-crash"); return err }},
			{"new results of the live run", func() error { f.add(f.results("live", 100)); return nil }},
			{"new decisions", func() error {
				f.ix.SetDecisions(map[string]triage.Decision{"m-crash": {Title: "the browser crashes"}})
				return nil
			}},
		} {
			if err := q.ask(); err != nil {
				t.Errorf("%s: got %v, want an answer", q.name, err)
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the other readers and the writer waited for the pager")
	}
	select {
	case a := <-paged:
		t.Fatalf("got run old's page (%v) before its rows were read back", a.err)
	default:
	}
	if run, err := f.ix.FindRun(ctx, "live"); err != nil || run.Counts.Total != 400 {
		t.Errorf("live run while old is paged in: got %d results, %v, want 400", run.Counts.Total, err)
	}

	close(gate)
	select {
	case a := <-paged:
		if a.err != nil || a.page.Total != 500 {
			t.Errorf("run old once read back: got %d results, %v, want 500", a.page.Total, a.err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("run old's page never came back")
	}
}
