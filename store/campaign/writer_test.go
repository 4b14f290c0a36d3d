package campaign

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func openPlain(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestCreateCampaign(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "campaign.db")
	if err := Create(ctx, path); err != nil {
		t.Fatal(err)
	}
	db := openPlain(t, path)

	t.Run("creates the four tables of the contract and no index", func(t *testing.T) {
		rows, err := db.Query(`SELECT type, name FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY name`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var got []string
		for rows.Next() {
			var typ, name string
			if err := rows.Scan(&typ, &name); err != nil {
				t.Fatal(err)
			}
			got = append(got, typ+" "+name)
		}
		want := []string{"table artifacts", "table results", "table runs", "table steps"}
		if strings.Join(got, ", ") != strings.Join(want, ", ") {
			t.Errorf("got %q, want %q", got, want)
		}
	})

	t.Run("uses WAL journal mode", func(t *testing.T) {
		var mode string
		if err := db.QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil {
			t.Fatal(err)
		}
		if mode != "wal" {
			t.Errorf("got journal mode %q, want %q", mode, "wal")
		}
	})

	t.Run("defaults attempt to 1", func(t *testing.T) {
		var dflt sql.NullString
		err := db.QueryRow(`SELECT dflt_value FROM pragma_table_info('results') WHERE name = 'attempt'`).Scan(&dflt)
		if err != nil {
			t.Fatal(err)
		}
		if dflt.String != "1" {
			t.Errorf("got default %q, want %q", dflt.String, "1")
		}
	})
}

func TestCreateCampaignRefusesToOverwrite(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	existing := filepath.Join(dir, "existing.db")
	if err := Create(ctx, existing); err != nil {
		t.Fatal(err)
	}
	notes := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(notes, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty.db")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name    string
		path    string
		wantErr bool
	}{
		{"an existing campaign database is refused", existing, true},
		{"an existing file of another kind is refused", notes, true},
		{"a directory is refused", dir, true},
		{"an existing empty file is filled in", empty, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Create(ctx, tt.path)
			if got := err != nil; got != tt.wantErr {
				t.Fatalf("got error %v, want error: %v", err, tt.wantErr)
			}
			if tt.wantErr && !strings.Contains(err.Error(), tt.path) {
				t.Errorf("got error %q, want it to name %s", err, tt.path)
			}
		})
	}

	t.Run("the refused file keeps its bytes", func(t *testing.T) {
		got, err := os.ReadFile(notes)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != "keep me" {
			t.Errorf("got %q, want %q", got, "keep me")
		}
	})
}

func TestCampaignWriterRoundTrip(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "campaign.db")
	w, err := OpenWriter(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()

	start := time.Date(2026, 6, 30, 22, 0, 0, 0, time.UTC)
	if err := w.InsertRun(ctx, Run{ID: "r1", Name: "Run <1>", StartedAt: start, Planned: new(int64(3))}); err != nil {
		t.Fatal(err)
	}
	hostile := "<script>alert(1)</script>\x00tail"
	log := []byte("line 1\n\x00\xff\xfe\x1b[31mred\x1b[0m\n")
	ids, err := w.InsertResults(ctx, []Result{
		{
			RunID: "r1", Test: "file-io/png-roundtrip-1", Target: "code-interpreter", Domain: "file-io",
			Title: new("Upload a PNG"), Status: "failed", StartedAt: new(start.Add(time.Second)),
			DurationMS: new(int64(1500)), ExitCode: new(int64(1)), Error: &hostile, Log: log,
			Layer: new("interface"), Primitive: new("encoding"), Worker: new("subagent-01"), Attempt: 2,
			Artifacts: []Artifact{{Name: "chart.png", MediaType: new("image/png"), Data: []byte{0x89, 'P', 0}, ExpectedSHA256: new("ab")}},
			Steps: []Step{
				{Seq: 1, Tool: "create_sandbox", Request: []byte(`{"jsonrpc":"2.0"}`), Response: []byte("{\x00")},
				{Seq: 2, Tool: "read_file", Error: new("boom"), DurationMS: new(int64(7))},
			},
		},
		{RunID: "r1", Test: "file-io/csv-append-2", Target: "browser", Domain: "file-io", Status: "passed"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) != 2 || ids[1] != ids[0]+1 {
		t.Fatalf("got ids %v, want two consecutive ids", ids)
	}
	finished := start.Add(7 * time.Hour)
	if err := w.FinishRun(ctx, "r1", finished); err != nil {
		t.Fatal(err)
	}
	if err := w.SetRunNotes(ctx, "r1", "re-run"); err != nil {
		t.Fatal(err)
	}
	db := openPlain(t, path)

	t.Run("the run reads back with its finish time and notes", func(t *testing.T) {
		var name, startedAt, finishedAt, notes string
		var planned int64
		err := db.QueryRow(`SELECT name, started_at, finished_at, planned, notes FROM runs WHERE id = 'r1'`).
			Scan(&name, &startedAt, &finishedAt, &planned, &notes)
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Join([]string{name, startedAt, finishedAt, notes}, "|")
		want := "Run <1>|2026-06-30T22:00:00.000Z|2026-07-01T05:00:00.000Z|re-run"
		if got != want || planned != 3 {
			t.Errorf("got %q and planned %d, want %q and planned 3", got, planned, want)
		}
	})

	t.Run("a full result keeps every byte of its text and log", func(t *testing.T) {
		var errText, title, startedAt, layer, primitive, worker string
		var gotLog []byte
		var duration, exit, attempt int64
		err := db.QueryRow(`SELECT error, log, title, started_at, duration_ms, exit_code, layer, primitive, worker, attempt
			FROM results WHERE id = ?`, ids[0]).
			Scan(&errText, &gotLog, &title, &startedAt, &duration, &exit, &layer, &primitive, &worker, &attempt)
		if err != nil {
			t.Fatal(err)
		}
		if errText != hostile || string(gotLog) != string(log) {
			t.Errorf("got error %q and log %q, want %q and %q", errText, gotLog, hostile, log)
		}
		got := strings.Join([]string{title, startedAt, layer, primitive, worker}, "|")
		want := "Upload a PNG|2026-06-30T22:00:01.000Z|interface|encoding|subagent-01"
		if got != want || duration != 1500 || exit != 1 || attempt != 2 {
			t.Errorf("got %q, %d ms, exit %d, attempt %d; want %q, 1500 ms, exit 1, attempt 2", got, duration, exit, attempt, want)
		}
	})

	t.Run("the log column is a blob", func(t *testing.T) {
		var typ string
		if err := db.QueryRow(`SELECT typeof(log) FROM results WHERE id = ?`, ids[0]).Scan(&typ); err != nil {
			t.Fatal(err)
		}
		if typ != "blob" {
			t.Errorf("got %s, want blob", typ)
		}
	})

	t.Run("unset optional fields are NULL and attempt defaults to 1", func(t *testing.T) {
		var nulls, attempt int
		err := db.QueryRow(`SELECT (title IS NULL) + (started_at IS NULL) + (duration_ms IS NULL) + (exit_code IS NULL)
			+ (error IS NULL) + (log IS NULL) + (layer IS NULL) + (primitive IS NULL) + (worker IS NULL), attempt
			FROM results WHERE id = ?`, ids[1]).Scan(&nulls, &attempt)
		if err != nil {
			t.Fatal(err)
		}
		if nulls != 9 || attempt != 1 {
			t.Errorf("got %d NULL columns and attempt %d, want 9 and 1", nulls, attempt)
		}
	})

	t.Run("artifacts and steps belong to their result, in order", func(t *testing.T) {
		var name, media, expected string
		var data []byte
		err := db.QueryRow(`SELECT name, media_type, data, expected_sha256 FROM artifacts WHERE result_id = ?`, ids[0]).
			Scan(&name, &media, &data, &expected)
		if err != nil {
			t.Fatal(err)
		}
		if name != "chart.png" || media != "image/png" || string(data) != "\x89P\x00" || expected != "ab" {
			t.Errorf("got artifact %q %q %q %q, want chart.png image/png \"\\x89P\\x00\" ab", name, media, data, expected)
		}
		rows, err := db.Query(`SELECT seq, tool, response, coalesce(error, '') FROM steps WHERE result_id = ? ORDER BY seq`, ids[0])
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var got []string
		for rows.Next() {
			var seq int
			var tool, stepErr string
			var response []byte
			if err := rows.Scan(&seq, &tool, &response, &stepErr); err != nil {
				t.Fatal(err)
			}
			got = append(got, strings.Join([]string{tool, string(response), stepErr}, "|"))
		}
		want := []string{"create_sandbox|{\x00|", "read_file||boom"}
		if strings.Join(got, ";") != strings.Join(want, ";") {
			t.Errorf("got steps %q, want %q", got, want)
		}
	})
}

func TestCampaignWriterErrors(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "campaign.db")
	w, err := OpenWriter(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()

	tests := []struct {
		name string
		do   func() error
	}{
		{"finishing an unknown run fails", func() error { return w.FinishRun(ctx, "nope", time.Now()) }},
		{"setting notes of an unknown run fails", func() error { return w.SetRunNotes(ctx, "nope", "x") }},
		{"inserting a run twice fails", func() error {
			run := Run{ID: "twice", Name: "Twice", StartedAt: time.Now()}
			if err := w.InsertRun(ctx, run); err != nil {
				return nil
			}
			return w.InsertRun(ctx, run)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.do()
			if err == nil || !strings.Contains(err.Error(), path) {
				t.Errorf("got error %v, want one naming %s", err, path)
			}
		})
	}

	t.Run("a failed batch writes none of its rows", func(t *testing.T) {
		_, err := w.InsertResults(ctx, []Result{
			{RunID: "twice", Test: "a", Target: "browser", Domain: "file-io", Status: "passed"},
			{RunID: "twice", Test: "b", Target: "browser", Domain: "file-io"},
		})
		var n int
		if qerr := w.db.QueryRow(`SELECT count(*) FROM results`).Scan(&n); qerr != nil {
			t.Fatal(qerr)
		}
		if err == nil || n != 0 {
			t.Errorf("got error %v and %d rows, want an error and 0 rows", err, n)
		}
	})
}

func TestAppendRunIsAllOrNothing(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "campaign.db")
	w, err := OpenWriter(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	finished := time.Date(2026, 6, 30, 23, 0, 0, 0, time.UTC)
	run := Run{ID: "imported", Name: "Imported", StartedAt: finished.Add(-time.Hour), FinishedAt: &finished}
	good := []Result{{RunID: "imported", Test: "a", Target: "browser", Domain: "file-io", Status: "passed"}}
	if _, err := w.AppendRun(ctx, run, good); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name    string
		run     Run
		results []Result
		wantErr error
	}{
		{"a run id the file has is refused", run, good, ErrRunExists},
		{"a bad result leaves out its run too", Run{ID: "other", Name: "Other", StartedAt: finished}, []Result{
			{RunID: "other", Test: "a", Target: "browser", Domain: "file-io", Status: "passed"},
			{RunID: "other", Test: "b", Target: "browser", Domain: "file-io"},
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := w.AppendRun(ctx, tt.run, tt.results)
			if err == nil || !strings.Contains(err.Error(), path) {
				t.Fatalf("got error %v, want one naming %s", err, path)
			}
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Errorf("got error %v, want %v", err, tt.wantErr)
			}
			var runs, results int
			if err := w.db.QueryRow(`SELECT (SELECT count(*) FROM runs), (SELECT count(*) FROM results)`).Scan(&runs, &results); err != nil {
				t.Fatal(err)
			}
			if runs != 1 || results != 1 {
				t.Errorf("got %d runs and %d results, want the first import's 1 and 1", runs, results)
			}
		})
	}
}

func TestCampaignWritersConcurrently(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "campaign.db")
	if err := Create(ctx, path); err != nil {
		t.Fatal(err)
	}
	first, err := OpenWriter(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	if err := first.InsertRun(ctx, Run{ID: "live", Name: "Live", StartedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}

	const writers, perWriter = 4, 50
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for range writers {
		wg.Go(func() {
			w, err := OpenWriter(ctx, path)
			if err != nil {
				errs <- err
				return
			}
			defer w.Close()
			for range perWriter {
				if _, err := w.InsertResults(ctx, []Result{{RunID: "live", Test: "t", Target: "browser", Domain: "file-io", Status: "passed"}}); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("got error %v from a concurrent writer, want none", err)
	}
	var n int
	if err := first.db.QueryRow(`SELECT count(*) FROM results`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != writers*perWriter {
		t.Errorf("got %d results, want %d", n, writers*perWriter)
	}
}

func TestCampaignSchemaIsDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "campaign-db.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "```sql\n"+Schema+"```") {
		t.Errorf("got docs/campaign-db.md without the DDL of Schema, want it verbatim in a sql block")
	}
}
