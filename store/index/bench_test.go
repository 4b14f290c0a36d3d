package index

import (
	"context"
	"testing"

	"sandtrap"
)

// million is the size of the run the benchmarks index: the goals speak of
// one run of a million results.
const million = 1_000_000

// BenchmarkAppend indexes a run of a million results in the indexer's
// batches, packing each as the store does before it saves: the index's
// share of a first read, without SQLite.
func BenchmarkAppend(b *testing.B) {
	f := newFixture(b, 0)
	f.run("r", true)
	entries := f.results("r", million)
	b.ResetTimer()
	for range b.N {
		ix := New(newMemPager(), 0)
		src := ix.AddSource("c")
		ix.SetRuns(src, f.runs)
		for lo := 0; lo < len(entries); lo += 8192 {
			batch := entries[lo:min(lo+8192, len(entries))]
			bt := NewBatch()
			ix.Append(src, batch, Mined{}, million, bt, map[string]bool{})
			ix.Saved(ix.Pack(bt, failChunk))
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*million), "ns/result")
}

// BenchmarkResultsPage asks a run of a million results for pages as the
// failures list does: the index's share of a page, without the campaign
// file's details.
func BenchmarkResultsPage(b *testing.B) {
	f := newFixture(b, 0)
	f.run("r", true)
	entries := f.results("r", million)
	for lo := 0; lo < len(entries); lo += 8192 {
		bt := NewBatch()
		f.ix.Append(f.src, entries[lo:min(lo+8192, len(entries))], Mined{}, million, bt, map[string]bool{})
	}
	ctx := context.Background()
	for _, bc := range []struct {
		name   string
		filter sandtrap.ResultFilter
	}{
		{"failures-first-page", sandtrap.ResultFilter{}},
		{"all-deep-offset", sandtrap.ResultFilter{Status: sandtrap.StatusAll, Offset: 500_000}},
		{"target-and-domain", sandtrap.ResultFilter{Target: "shell", Domain: "file-io"}},
		{"search", sandtrap.ResultFilter{Q: "target crashed"}},
		{"search-no-match", sandtrap.ResultFilter{Q: "no such text"}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for range b.N {
				if _, _, err := f.ix.ResultsPage(ctx, "r", bc.filter); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
