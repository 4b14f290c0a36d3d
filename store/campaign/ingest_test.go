package campaign

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"
)

// openIngest opens a new ingest file with one live run, "r".
func openIngest(t *testing.T) (*IngestFile, string) {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "ingest.db")
	f, err := OpenIngestFile(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	err = f.Write(ctx, func(tx *IngestTx) error {
		return tx.InsertRun(ctx, Run{ID: "r", Name: "R", StartedAt: time.Date(2026, 7, 3, 22, 0, 0, 0, time.UTC)})
	})
	if err != nil {
		t.Fatal(err)
	}
	return f, path
}

func keyed(key, test string) KeyedResult {
	return KeyedResult{Key: key, Result: Result{Test: test, Target: "browser", Domain: "web-browsing", Status: "passed"}}
}

func count(t *testing.T, path, query string) int {
	t.Helper()
	var n int
	if err := openPlain(t, path).QueryRow(query).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestIngestFileWritesEachKeyOnce(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name                 string
		batches              [][]KeyedResult
		accepted, duplicates int    // of the last batch
		results, keys        int    // in the file at the end
		firstTest            string // of the first result in the file
	}{
		{"a new batch is written whole",
			[][]KeyedResult{{keyed("a", "t1"), keyed("b", "t2")}}, 2, 0, 2, 2, "t1"},
		{"a batch sent again is all duplicates",
			[][]KeyedResult{{keyed("a", "t1"), keyed("b", "t2")}, {keyed("a", "t1"), keyed("b", "t2")}}, 0, 2, 2, 2, "t1"},
		{"a batch that overlaps another writes only its new keys",
			[][]KeyedResult{{keyed("a", "t1")}, {keyed("a", "t1 again"), keyed("c", "t3")}}, 1, 1, 2, 2, "t1"},
		{"results without a key are always written",
			[][]KeyedResult{{keyed("", "t1")}, {keyed("", "t1")}}, 1, 0, 2, 0, "t1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, path := openIngest(t)
			var accepted, duplicates int
			for _, b := range tt.batches {
				err := f.Write(ctx, func(tx *IngestTx) error {
					var err error
					accepted, duplicates, err = tx.AppendResults(ctx, "r", b)
					return err
				})
				if err != nil {
					t.Fatal(err)
				}
			}
			if accepted != tt.accepted || duplicates != tt.duplicates {
				t.Errorf("got %d accepted and %d duplicates, want %d and %d", accepted, duplicates, tt.accepted, tt.duplicates)
			}
			if got := count(t, path, `SELECT count(*) FROM results WHERE run_id = 'r'`); got != tt.results {
				t.Errorf("got %d results in the file, want %d", got, tt.results)
			}
			var first string
			if err := openPlain(t, path).QueryRow(`SELECT test FROM results ORDER BY id LIMIT 1`).Scan(&first); err != nil {
				t.Fatal(err)
			}
			if first != tt.firstTest {
				t.Errorf("got first result %q, want %q", first, tt.firstTest)
			}
			if got := count(t, path, `SELECT count(*) FROM ingest_keys k JOIN results r ON r.id = k.result_id AND r.run_id = k.run_id`); got != tt.keys {
				t.Errorf("got %d keys that point at their result, want %d", got, tt.keys)
			}
		})
	}
}

func TestIngestFileWritesNothingOfARolledBackTransaction(t *testing.T) {
	ctx := context.Background()
	f, path := openIngest(t)
	boom := errors.New("boom")
	err := f.Write(ctx, func(tx *IngestTx) error {
		if _, _, err := tx.AppendResults(ctx, "r", []KeyedResult{keyed("a", "t1")}); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("got %v, want the error fn returned", err)
	}
	for _, q := range []string{`SELECT count(*) FROM results`, `SELECT count(*) FROM ingest_keys`} {
		if got := count(t, path, q); got != 0 {
			t.Errorf("%s: got %d, want 0", q, got)
		}
	}
}

func TestIngestFileFindsAndFinishesRuns(t *testing.T) {
	ctx := context.Background()
	f, _ := openIngest(t)
	end := time.Date(2026, 7, 4, 5, 0, 0, 0, time.UTC)
	var before, after Run
	var missing bool
	err := f.Write(ctx, func(tx *IngestTx) error {
		var err error
		if before, _, err = tx.FindRun(ctx, "r"); err != nil {
			return err
		}
		if err := tx.FinishRun(ctx, "r", end); err != nil {
			return err
		}
		if after, _, err = tx.FindRun(ctx, "r"); err != nil {
			return err
		}
		_, found, err := tx.FindRun(ctx, "nope")
		missing = !found
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Run("a live run has no finished_at", func(t *testing.T) {
		if before.FinishedAt != nil || before.Name != "R" || !before.StartedAt.Equal(time.Date(2026, 7, 3, 22, 0, 0, 0, time.UTC)) {
			t.Errorf("got %+v, want run R started at 22:00 and live", before)
		}
	})
	t.Run("a finished run has its finished_at", func(t *testing.T) {
		if after.FinishedAt == nil || !after.FinishedAt.Equal(end) {
			t.Errorf("got finished_at %v, want %v", after.FinishedAt, end)
		}
	})
	t.Run("an unknown run is not found", func(t *testing.T) {
		if !missing {
			t.Error("got a run for an unknown id, want none")
		}
	})
}

func TestIngestFileSyncsEveryCommit(t *testing.T) {
	f, _ := openIngest(t)
	var mode int
	if err := f.w.db.QueryRow(`PRAGMA synchronous`).Scan(&mode); err != nil {
		t.Fatal(err)
	}
	if mode != 2 {
		t.Errorf("got synchronous %d, want 2 (FULL)", mode)
	}
}

func TestOpenIngestFileKeepsAnExistingCampaign(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "harness.db")
	w, err := OpenWriter(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	end := time.Now()
	if _, err := w.AppendRun(ctx, Run{ID: "old", Name: "old", StartedAt: end.Add(-time.Minute), FinishedAt: &end}, []Result{
		{RunID: "old", Test: "a", Target: "sandbox", Domain: "file-io", Status: "passed"},
		{RunID: "old", Test: "b", Target: "sandbox", Domain: "file-io", Status: "failed"},
		{RunID: "old", Test: "c", Target: "sandbox", Domain: "file-io", Status: "passed"},
	}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	f, err := OpenIngestFile(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if got := count(t, path, `SELECT count(*) FROM results`); got != 3 {
		t.Errorf("got %d results, want the 3 that were there", got)
	}
	if got := count(t, path, `SELECT count(*) FROM sqlite_schema WHERE name = 'ingest_keys'`); got != 1 {
		t.Errorf("got %d ingest_keys tables, want 1", got)
	}
}
