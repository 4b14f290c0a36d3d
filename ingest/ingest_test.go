package ingest

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"sandtrap"
	"sandtrap/store/campaign"
)

// open opens an Ingester on a new file in a temporary directory.
func open(t *testing.T) (*Ingester, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "ingest.db")
	in, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close() })
	return in, path
}

// countRows counts the rows a query selects, reading the file as the store
// does: read-only, over a connection of its own.
func countRows(t *testing.T, path, query string, args ...any) int {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(query, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func results(prefix string, n int) []Result {
	rs := make([]Result, n)
	for i := range rs {
		rs[i] = Result{Key: fmt.Sprintf("%s-%d", prefix, i), Test: fmt.Sprintf("t-%d", i), Target: "browser", Domain: "web-browsing", Status: "passed"}
	}
	return rs
}

func start(t *testing.T, in *Ingester, id string) {
	t.Helper()
	if _, _, err := in.StartRun(context.Background(), Run{ID: id, Name: "Run " + id}); err != nil {
		t.Fatal(err)
	}
}

func TestStartRunIsIdempotent(t *testing.T) {
	ctx := context.Background()
	at := time.Date(2026, 7, 3, 22, 0, 0, 0, time.UTC)
	first := Run{ID: "night-1", Name: "Night", StartedAt: &at, Planned: ptr[int64](100)}
	tests := []struct {
		name        string
		run         Run
		wantCreated bool
		wantCode    string
	}{
		{"the same body again is no change", first, false, ""},
		{"the same body without started_at is no change", Run{ID: "night-1", Name: "Night", Planned: ptr[int64](100)}, false, ""},
		{"another name is a conflict", Run{ID: "night-1", Name: "Day", StartedAt: &at, Planned: ptr[int64](100)}, false, sandtrap.ECONFLICT},
		{"another start is a conflict", Run{ID: "night-1", Name: "Night", StartedAt: ptr(at.Add(time.Hour)), Planned: ptr[int64](100)}, false, sandtrap.ECONFLICT},
		{"dropping planned is a conflict", Run{ID: "night-1", Name: "Night"}, false, sandtrap.ECONFLICT},
		{"another id is a new run", Run{ID: "night-2", Name: "Night"}, true, ""},
		{"an id with a colon is refused", Run{ID: "a:b", Name: "Night"}, false, sandtrap.EINVALID},
		{"a run without a name is refused", Run{ID: "night-3"}, false, sandtrap.EINVALID},
	}
	in, _ := open(t)
	stored, created, err := in.StartRun(ctx, first)
	if err != nil || !created {
		t.Fatalf("got created %v, %v for a new run, want created", created, err)
	}
	if !stored.StartedAt.Equal(at) || *stored.Planned != 100 {
		t.Errorf("got %+v, want the run as sent", stored)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, created, err := in.StartRun(ctx, tt.run)
			if code := sandtrap.ErrorCode(err); code != tt.wantCode {
				t.Fatalf("got error %v, want code %q", err, tt.wantCode)
			}
			if created != tt.wantCreated {
				t.Errorf("got created %v, want %v", created, tt.wantCreated)
			}
			if err == nil && got.ID != tt.run.ID {
				t.Errorf("got run %q, want %q", got.ID, tt.run.ID)
			}
		})
	}
}

func TestRecordWritesEachKeyOnce(t *testing.T) {
	ctx := context.Background()
	bad := results("bad", 3)
	bad[2].Status = ""
	tests := []struct {
		name                 string
		run                  string
		batch                []Result
		finish               bool // finish the run before the batch
		accepted, duplicates int
		wantCode             string
		wantRows             int // the run's results afterwards
	}{
		{"a batch sent again is all duplicates", "r", results("a", 5), false, 0, 5, "", 5},
		{"a batch that overlaps writes its new results", "r", append(results("a", 5), results("b", 2)...), false, 2, 5, "", 7},
		{"results without keys are written every time", "r", []Result{{Test: "x", Target: "b", Domain: "d", Status: "passed"}}, false, 1, 0, "", 6},
		{"a mistake in one result writes none of the batch", "r", bad, false, 0, 0, sandtrap.EINVALID, 5},
		{"an unknown run is not found", "nope", results("a", 1), false, 0, 0, sandtrap.ENOTFOUND, 5},
		{"a finished run refuses new results", "r", results("c", 1), true, 0, 0, sandtrap.ECONFLICT, 5},
		{"a finished run answers a retry of a written batch as duplicates", "r", results("a", 5), true, 0, 5, "", 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, path := open(t)
			start(t, in, "r")
			if _, _, err := in.Record(ctx, "r", results("a", 5)); err != nil {
				t.Fatal(err)
			}
			if tt.finish {
				if _, err := in.Finish(ctx, "r", nil); err != nil {
					t.Fatal(err)
				}
			}
			accepted, duplicates, err := in.Record(ctx, tt.run, tt.batch)
			if code := sandtrap.ErrorCode(err); code != tt.wantCode {
				t.Fatalf("got error %v, want code %q", err, tt.wantCode)
			}
			if accepted != tt.accepted || duplicates != tt.duplicates {
				t.Errorf("got %d accepted, %d duplicates, want %d and %d", accepted, duplicates, tt.accepted, tt.duplicates)
			}
			if got := countRows(t, path, `SELECT count(*) FROM results WHERE run_id = 'r'`); got != tt.wantRows {
				t.Errorf("got %d results in the file, want %d", got, tt.wantRows)
			}
		})
	}
}

func TestFinish(t *testing.T) {
	ctx := context.Background()
	started := time.Date(2026, 7, 3, 22, 0, 0, 0, time.UTC)
	end := started.Add(7 * time.Hour)
	tests := []struct {
		name     string
		run      string
		at       *time.Time
		want     time.Time
		wantCode string
	}{
		{"finishing again without a time is no change", "r", nil, end, ""},
		{"finishing again at the same time is no change", "r", &end, end, ""},
		{"finishing again at another time is a conflict", "r", ptr(end.Add(time.Minute)), time.Time{}, sandtrap.ECONFLICT},
		{"an unknown run is not found", "nope", nil, time.Time{}, sandtrap.ENOTFOUND},
		{"a finish before the start is refused", "live", ptr(started.Add(-time.Hour)), time.Time{}, sandtrap.EINVALID},
	}
	in, path := open(t)
	for _, id := range []string{"r", "live"} {
		if _, _, err := in.StartRun(ctx, Run{ID: id, Name: id, StartedAt: &started}); err != nil {
			t.Fatal(err)
		}
	}
	got, err := in.Finish(ctx, "r", &end)
	if err != nil || !got.Equal(end) {
		t.Fatalf("got %v, %v, want %v", got, err, end)
	}
	if n := countRows(t, path, `SELECT count(*) FROM runs WHERE id = 'r' AND finished_at = ?`, end.Format(campaign.TimeFormat)); n != 1 {
		t.Errorf("got %d runs finished at %v in the file, want 1", n, end)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := in.Finish(ctx, tt.run, tt.at)
			if code := sandtrap.ErrorCode(err); code != tt.wantCode {
				t.Fatalf("got error %v, want code %q", err, tt.wantCode)
			}
			if !got.Equal(tt.want) {
				t.Errorf("got finished at %v, want %v", got, tt.want)
			}
		})
	}
}

func TestTheWriterCommitsWhatIsQueuedInOneTransaction(t *testing.T) {
	ctx := context.Background()
	f, err := campaign.OpenIngestFile(ctx, filepath.Join(t.TempDir(), "ingest.db"))
	if err != nil {
		t.Fatal(err)
	}
	// The writer starts only once every op is queued, as when requests
	// arrive while it commits.
	in := &Ingester{file: f, queue: make(chan *op, queueLen), done: make(chan struct{})}
	seen := make([]*campaign.IngestTx, 10)
	ops := make([]*op, len(seen))
	for i := range ops {
		ops[i] = &op{size: 1, done: make(chan struct{}), apply: func(_ context.Context, tx *campaign.IngestTx) error {
			seen[i] = tx
			return nil
		}}
		if err := in.enqueue(ctx, ops[i]); err != nil {
			t.Fatal(err)
		}
	}
	go in.write()
	for i, o := range ops {
		<-o.done
		if o.err != nil {
			t.Errorf("op %d: got %v, want it committed", i, o.err)
		}
		if seen[i] != seen[0] {
			t.Errorf("op %d ran in another transaction than op 0, want one for all", i)
		}
	}
	if err := in.Close(); err != nil {
		t.Error(err)
	}
}

func TestCloseCommitsWhatIsQueuedAndRefusesTheRest(t *testing.T) {
	ctx := context.Background()
	in, path := open(t)
	start(t, in, "r")
	const callers = 32
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		accepted int
		refused  int
	)
	for c := range callers {
		wg.Go(func() {
			for b := 0; ; b++ {
				n, _, err := in.Record(ctx, "r", results(fmt.Sprintf("c%d-b%d", c, b), 50))
				mu.Lock()
				accepted += n
				if err != nil {
					if sandtrap.ErrorCode(err) != sandtrap.EUNAVAILABLE {
						t.Errorf("got %v, want a refusal while closing", err)
					}
					refused++
				}
				mu.Unlock()
				if err != nil {
					return
				}
			}
		})
	}
	time.Sleep(200 * time.Millisecond)
	if err := in.Close(); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if refused != callers {
		t.Errorf("got %d callers refused after Close, want all %d", refused, callers)
	}
	if accepted == 0 {
		t.Fatal("got nothing accepted before Close, want some")
	}
	if got := countRows(t, path, `SELECT count(*) FROM results`); got != accepted {
		t.Errorf("got %d results in the file, want the %d acknowledged", got, accepted)
	}
}
