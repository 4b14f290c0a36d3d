package index

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"
)

// The index's tests build it in memory, as the store's indexer does: runs
// from a runs table, classified entries appended and packed, and what is
// packed kept by memPager in place of the state.

// failChunk is how many failures a packed chunk holds in these tests.
const failChunk = 16

// memPager keeps what Pack hands out, as the store saves it, and serves it
// back. With gate set, each read waits for gate to close, after saying so
// on entered.
type memPager struct {
	mu      sync.Mutex
	rows    map[string][][]byte
	fails   map[string][]Failure
	gate    chan struct{}
	entered chan string
}

func newMemPager() *memPager {
	return &memPager{rows: map[string][][]byte{}, fails: map[string][]Failure{}}
}

func (p *memPager) wait(ctx context.Context, key string) error {
	p.mu.Lock()
	gate, entered := p.gate, p.entered
	p.mu.Unlock()
	if gate == nil {
		return nil
	}
	entered <- key
	select {
	case <-gate:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (p *memPager) RunRows(ctx context.Context, source, rawID string, each func([]byte)) error {
	if err := p.wait(ctx, source+"/"+rawID); err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.rows[source+"/"+rawID] {
		each(c)
	}
	return nil
}

func (p *memPager) RunFailures(ctx context.Context, source, rawID string) ([]Failure, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Failure(nil), p.fails[source+"/"+rawID]...), nil
}

// save keeps what p packed of src's runs, as state.Chunks.Save does.
func (p *memPager) save(src *Source, pk *Packed) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range pk.Rows {
		key := src.label + "/" + c.RunID
		for len(p.rows[key]) <= c.Chunk {
			p.rows[key] = append(p.rows[key], nil)
		}
		p.rows[key][c.Chunk] = c.Data
	}
	for _, fc := range pk.Failures {
		key := src.label + "/" + fc.RunID
		kept := p.fails[key][:fc.First*failChunk]
		for _, chunk := range fc.Chunks {
			kept = append(kept, chunk...)
		}
		p.fails[key] = kept
	}
}

// fixture is an index over one source, fed as the store feeds it.
type fixture struct {
	t     testing.TB
	ix    *Index
	pager *memPager
	src   *Source
	runs  []RunMeta
	next  int64 // the id of the next result
}

func newFixture(t testing.TB, budget int64) *fixture {
	p := newMemPager()
	ix := New(p, budget)
	return &fixture{t: t, ix: ix, pager: p, src: ix.AddSource("c"), next: 1}
}

// run adds a run to the runs table, started at minute i of the night.
func (f *fixture) run(id string, finished bool) {
	start := time.Date(2026, 6, 30, 22, len(f.runs), 0, 0, time.UTC)
	m := RunMeta{ID: id, Name: id, StartedAt: start.Format(time.RFC3339), Started: start, Finished: finished}
	if finished {
		m.FinishedAt = start.Add(time.Hour)
	}
	f.runs = append(f.runs, m)
	f.ix.SetRuns(f.src, f.runs)
}

// add appends entries as one pass of the indexer: pinned, appended,
// packed and saved.
func (f *fixture) add(entries []Entry) {
	f.t.Helper()
	ctx := context.Background()
	pinned, err := f.ix.Pin(ctx, f.src, entries)
	if err != nil {
		f.t.Fatal(err)
	}
	b := NewBatch()
	f.ix.Append(f.src, entries, Mined{}, entries[len(entries)-1].ID, b, map[string]bool{})
	f.ix.Unpin(pinned)
	p := f.ix.Pack(b, failChunk)
	f.pager.save(f.src, p)
	f.ix.Saved(p)
}

// results returns n results of run, one a second from the run's start:
// tests recur within the run, one in five fails with a permission error
// and one in seven with a crash, the rest pass.
func (f *fixture) results(run string, n int) []Entry {
	var start time.Time
	for _, m := range f.runs {
		if m.ID == run {
			start = m.Started
		}
	}
	out := make([]Entry, n)
	for i := range out {
		e := Entry{RunID: run, ID: f.next, Test: fmt.Sprintf("suite/t-%d", i%150), Status: "passed",
			Target: []string{"browser", "code-interpreter", "shell"}[i%3], Domain: []string{"file-io", "web-browsing"}[i%2],
			At: uint32(start.Unix()) + uint32(i), Attempt: 1}
		switch {
		case i%5 == 0:
			e.Failure, e.Status, e.Error, e.ModeID = true, "failed", fmt.Sprintf("PermissionError: [Errno 13] /x%d", i), "m-permission"
			e.Layer, e.Primitive, e.Signature, e.By = "sandbox", "filesystem", "PermissionError: [Errno <n>] <path>", "rule"
		case i%7 == 0:
			e.Failure, e.Status, e.Error, e.ModeID = true, "error", "page.goto: Target crashed", "m-crash"
			e.Layer, e.Primitive, e.Signature, e.By = "sandbox", "browser", "page.goto: Target crashed", "rule"
		}
		out[i] = e
		f.next++
	}
	return out
}
