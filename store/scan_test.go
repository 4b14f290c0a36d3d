package store

import (
	"context"
	"errors"
	"testing"
	"time"

	"sandtrap/store/campaign"
)

// scanIDs runs scanBatches over path from after to upto and returns the ids
// flush was given, in the order it was given them, and the largest batch.
func scanIDs(t *testing.T, path string, after, upto int64, flush func([]campaign.ResultRow) error) (ids []int64, biggest int, err error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	f, oerr := campaign.Open(ctx, path, time.Second)
	if oerr != nil {
		t.Fatal(oerr)
	}
	defer f.Close()
	s := &Store{}
	err = s.scanBatches(ctx, &source{file: f, lastID: after}, upto, func(rows []campaign.ResultRow) error {
		for _, r := range rows {
			ids = append(ids, r.ID)
		}
		biggest = max(biggest, len(rows))
		if flush != nil {
			return flush(rows)
		}
		return nil
	})
	return ids, biggest, err
}

func TestScanBatchesHandsOverEveryResultOnceInIDOrder(t *testing.T) {
	path := newCampaign(t, "campaign.db")
	// 30,000 dense ids are four ranges of a batch each; then ids far apart,
	// which would be a million empty ranges of a batch's width.
	addRun(t, path, "r1", true, resultsSQL("r1", 30_000)+
		`WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < 50)
		INSERT INTO results (id, run_id, test, target, domain, status, error)
		SELECT 1000000000000 + i * 10000000, 'r1', 'sparse/t-' || i, 'browser', 'browsing', 'failed', 'Target crashed' FROM seq;`)
	const last = 1000000000000 + 50*10000000

	tests := []struct {
		name        string
		after, upto int64
		want        int
		first, end  int64
	}{
		{"a first read takes every result", 0, last, 30_050, 1, last},
		{"a pass from a watermark starts after it", 12_345, last, 30_050 - 12_345, 12_346, last},
		{"a pass stops at the last id it was given", 0, 20_000, 20_000, 1, 20_000},
		{"a live pass of a few rows is one small batch", 29_990, 30_000, 10, 29_991, 30_000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ids, biggest, err := scanIDs(t, path, tt.after, tt.upto, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := len(ids); got != tt.want {
				t.Fatalf("got %d results, want %d", got, tt.want)
			}
			if ids[0] != tt.first || ids[len(ids)-1] != tt.end {
				t.Errorf("got ids %d to %d, want %d to %d", ids[0], ids[len(ids)-1], tt.first, tt.end)
			}
			for i := 1; i < len(ids); i++ {
				if ids[i] <= ids[i-1] {
					t.Fatalf("got id %d after %d, want ids in increasing order", ids[i], ids[i-1])
				}
			}
			if biggest > scanBatch {
				t.Errorf("got a batch of %d results, want at most %d", biggest, scanBatch)
			}
		})
	}
}

func TestScanBatchesStopsAtTheFirstFailedFlush(t *testing.T) {
	path := newCampaign(t, "campaign.db")
	addRun(t, path, "r1", true, resultsSQL("r1", 40_000))
	stop := errors.New("the state is full")
	calls := 0
	_, _, err := scanIDs(t, path, 0, 40_000, func([]campaign.ResultRow) error {
		calls++
		if calls == 2 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) {
		t.Errorf("got error %v, want the flush's", err)
	}
	if calls != 2 {
		t.Errorf("got %d flushes, want none after the one that failed", calls)
	}
}
