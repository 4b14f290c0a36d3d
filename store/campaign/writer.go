package campaign

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"sandtrap/store/internal/sqlitex"
)

// Schema is the DDL of campaign-database contract v1, as harnesses
// create it. It has no indexes beyond the primary keys: sandtrap must be fast
// on files that have none.
const Schema = `CREATE TABLE runs (
	id          TEXT PRIMARY KEY,
	name        TEXT NOT NULL,
	started_at  TEXT NOT NULL,
	finished_at TEXT,
	planned     INTEGER,
	notes       TEXT
);

CREATE TABLE results (
	id          INTEGER PRIMARY KEY,
	run_id      TEXT NOT NULL REFERENCES runs(id),
	test        TEXT NOT NULL,
	target      TEXT NOT NULL,
	domain      TEXT NOT NULL,
	title       TEXT,
	status      TEXT NOT NULL,
	started_at  TEXT,
	duration_ms INTEGER,
	exit_code   INTEGER,
	error       TEXT,
	log         BLOB,
	layer       TEXT,
	primitive   TEXT,
	worker      TEXT,
	attempt     INTEGER NOT NULL DEFAULT 1
);

CREATE TABLE artifacts (
	id              INTEGER PRIMARY KEY,
	result_id       INTEGER NOT NULL REFERENCES results(id),
	name            TEXT NOT NULL,
	media_type      TEXT,
	data            BLOB,
	expected_sha256 TEXT
);

CREATE TABLE steps (
	id          INTEGER PRIMARY KEY,
	result_id   INTEGER NOT NULL REFERENCES results(id),
	seq         INTEGER NOT NULL,
	tool        TEXT NOT NULL,
	request     BLOB,
	response    BLOB,
	error       TEXT,
	duration_ms INTEGER
);
`

// TimeFormat is how the writer stores timestamps: RFC 3339 with
// milliseconds, so that the text sorts in time order.
const TimeFormat = "2006-01-02T15:04:05.000Z07:00"

// Run is one row of the runs table. A nil pointer is written as NULL;
// a nil FinishedAt marks the run as live.
type Run struct {
	ID         string
	Name       string
	StartedAt  time.Time
	FinishedAt *time.Time
	Planned    *int64
	Notes      *string
}

// Result is one row of the results table with its artifacts and
// steps. Nil pointers and nil slices are written as NULL; an Attempt of 0 is
// written as 1.
type Result struct {
	RunID      string
	Test       string
	Target     string
	Domain     string
	Title      *string
	Status     string
	StartedAt  *time.Time
	DurationMS *int64
	ExitCode   *int64
	Error      *string
	Log        []byte
	Layer      *string
	Primitive  *string
	Worker     *string
	Attempt    int
	Artifacts  []Artifact
	Steps      []Step
}

// Artifact is a file a workflow uploaded or downloaded. A nil
// MediaType or ExpectedSHA256 is written as NULL.
type Artifact struct {
	Name           string
	MediaType      *string
	Data           []byte
	ExpectedSHA256 *string
}

// Step is one MCP tool call of a workflow; Seq orders the calls.
type Step struct {
	Seq        int
	Tool       string
	Request    []byte
	Response   []byte
	Error      *string
	DurationMS *int64
}

// Writer writes a campaign database the way a harness does: over one
// connection, in WAL mode, with immediate transactions so that concurrent
// writers queue on the busy timeout instead of failing to upgrade a lock.
type Writer struct {
	path           string
	db             *sql.DB
	insertResult   *sql.Stmt
	insertArtifact *sql.Stmt
	insertStep     *sql.Stmt
}

// Create writes an empty campaign database at path. It refuses to
// overwrite an existing file that is not empty.
func Create(ctx context.Context, path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	created := err == nil
	switch {
	case errors.Is(err, fs.ErrExist):
		fi, statErr := os.Stat(path)
		if statErr != nil {
			return fmt.Errorf("store: creating campaign database %s: %w", path, statErr)
		}
		if fi.IsDir() {
			return fmt.Errorf("store: creating campaign database %s: is a directory", path)
		}
		if fi.Size() > 0 {
			return fmt.Errorf("store: creating campaign database %s: file exists and is not empty; refusing to overwrite it", path)
		}
	case err != nil:
		return fmt.Errorf("store: creating campaign database %s: %w", path, err)
	default:
		if err := f.Close(); err != nil {
			return fmt.Errorf("store: creating campaign database %s: %w", path, err)
		}
	}
	w, err := OpenWriter(ctx, path)
	if err != nil {
		if created {
			os.Remove(path)
		}
		return err
	}
	return w.Close()
}

// OpenWriter opens the campaign database at path for writing,
// creating the file and its schema if they do not exist yet.
func OpenWriter(ctx context.Context, path string) (*Writer, error) {
	return openWriter(ctx, path, "NORMAL")
}

// openWriter is OpenWriter with the synchronous pragma:
// NORMAL survives a crash of the process, FULL also a crash of the machine.
func openWriter(ctx context.Context, path, synchronous string) (*Writer, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("store: opening campaign database %s: %w", path, err)
	}
	// busy_timeout goes first so that the journal_mode switch already waits
	// for other writers' locks.
	query := "_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(" + synchronous + ")&_txlock=immediate"
	dsn := (&url.URL{Scheme: "file", Path: abs}).String() + "?" + query
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("store: opening campaign database %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	w := &Writer{path: path, db: db}
	if err := w.prepare(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: opening campaign database %s: %w", path, err)
	}
	return w, nil
}

// prepare creates the schema when the runs table is missing and prepares
// the insert statements.
func (w *Writer) prepare(ctx context.Context) error {
	var tables int
	err := w.db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'runs'`).Scan(&tables)
	if err != nil {
		return err
	}
	if tables == 0 {
		if err := w.inTx(ctx, func(tx *sql.Tx) error {
			_, err := tx.ExecContext(ctx, Schema)
			return err
		}); err != nil {
			return fmt.Errorf("creating schema: %w", err)
		}
	}
	if w.insertResult, err = w.db.PrepareContext(ctx, `INSERT INTO results
		(run_id, test, target, domain, title, status, started_at, duration_ms, exit_code, error, log, layer, primitive, worker, attempt)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`); err != nil {
		return err
	}
	if w.insertArtifact, err = w.db.PrepareContext(ctx, `INSERT INTO artifacts
		(result_id, name, media_type, data, expected_sha256) VALUES (?, ?, ?, ?, ?)`); err != nil {
		return err
	}
	w.insertStep, err = w.db.PrepareContext(ctx, `INSERT INTO steps
		(result_id, seq, tool, request, response, error, duration_ms) VALUES (?, ?, ?, ?, ?, ?, ?)`)
	return err
}

// Close closes the database; SQLite checkpoints the WAL as the last
// connection goes.
func (w *Writer) Close() error {
	if err := w.db.Close(); err != nil {
		return fmt.Errorf("store: closing campaign database %s: %w", w.path, err)
	}
	return nil
}

// InsertRun adds a run.
func (w *Writer) InsertRun(ctx context.Context, run Run) error {
	_, err := w.db.ExecContext(ctx, `INSERT INTO runs (id, name, started_at, finished_at, planned, notes) VALUES (?, ?, ?, ?, ?, ?)`,
		run.ID, run.Name, run.StartedAt.Format(TimeFormat), timeText(run.FinishedAt), run.Planned, run.Notes)
	if err != nil {
		return fmt.Errorf("store: inserting run %q into %s: %w", run.ID, w.path, err)
	}
	return nil
}

// FinishRun sets the run's finished_at, which ends it being live.
func (w *Writer) FinishRun(ctx context.Context, runID string, at time.Time) error {
	return w.updateRun(ctx, "finishing", runID, `UPDATE runs SET finished_at = ? WHERE id = ?`, at.Format(TimeFormat))
}

// SetRunNotes replaces the run's notes.
func (w *Writer) SetRunNotes(ctx context.Context, runID, notes string) error {
	return w.updateRun(ctx, "setting notes of", runID, `UPDATE runs SET notes = ? WHERE id = ?`, notes)
}

func (w *Writer) updateRun(ctx context.Context, doing, runID, query string, value any) error {
	res, err := w.db.ExecContext(ctx, query, value, runID)
	if err != nil {
		return fmt.Errorf("store: %s run %q in %s: %w", doing, runID, w.path, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("store: %s run %q in %s: %w", doing, runID, w.path, err)
	} else if n == 0 {
		return fmt.Errorf("store: %s run %q in %s: no such run", doing, runID, w.path)
	}
	return nil
}

// InsertResults adds results with their artifacts and steps in one
// transaction, and returns the ids the results got, in order. Either every
// row is written or none is. A result missing one of the required fields is
// refused.
func (w *Writer) InsertResults(ctx context.Context, results []Result) ([]int64, error) {
	var ids []int64
	err := w.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		ids, err = w.insertResults(ctx, tx, results)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("store: inserting %d results into %s: %w", len(results), w.path, err)
	}
	return ids, nil
}

// ErrRunExists is the error of AppendRun when the file already has a run
// with the id.
var ErrRunExists = errors.New("the campaign already has a run with this id")

// AppendRun adds a run and its results, with their artifacts and steps, in
// one transaction: either all of it is written or none is. A run id the
// file already has is refused with ErrRunExists, and nothing is written.
func (w *Writer) AppendRun(ctx context.Context, run Run, results []Result) ([]int64, error) {
	var ids []int64
	err := w.inTx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM runs WHERE id = ?`, run.ID).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return ErrRunExists
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO runs (id, name, started_at, finished_at, planned, notes) VALUES (?, ?, ?, ?, ?, ?)`,
			run.ID, run.Name, run.StartedAt.Format(TimeFormat), timeText(run.FinishedAt), run.Planned, run.Notes); err != nil {
			return err
		}
		var err error
		ids, err = w.insertResults(ctx, tx, results)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("store: appending run %q with %d results to %s: %w", run.ID, len(results), w.path, err)
	}
	return ids, nil
}

// insertResults writes results with their artifacts and steps in tx and
// returns the ids the results got.
func (w *Writer) insertResults(ctx context.Context, tx *sql.Tx, results []Result) ([]int64, error) {
	ids := make([]int64, 0, len(results))
	insertResult := tx.StmtContext(ctx, w.insertResult)
	insertArtifact := tx.StmtContext(ctx, w.insertArtifact)
	insertStep := tx.StmtContext(ctx, w.insertStep)
	for i := range results {
		r := &results[i]
		if err := r.check(); err != nil {
			return nil, err
		}
		res, err := insertResult.ExecContext(ctx, r.RunID, r.Test, r.Target, r.Domain, r.Title, r.Status,
			timeText(r.StartedAt), r.DurationMS, r.ExitCode, r.Error, r.Log, r.Layer, r.Primitive, r.Worker, max(r.Attempt, 1))
		if err != nil {
			return nil, fmt.Errorf("result %q: %w", r.Test, err)
		}
		id, err := res.LastInsertId()
		if err != nil {
			return nil, fmt.Errorf("result %q: %w", r.Test, err)
		}
		for _, a := range r.Artifacts {
			if _, err := insertArtifact.ExecContext(ctx, id, a.Name, a.MediaType, a.Data, a.ExpectedSHA256); err != nil {
				return nil, fmt.Errorf("artifact %q of result %q: %w", a.Name, r.Test, err)
			}
		}
		for _, s := range r.Steps {
			if _, err := insertStep.ExecContext(ctx, id, s.Seq, s.Tool, s.Request, s.Response, s.Error, s.DurationMS); err != nil {
				return nil, fmt.Errorf("step %d of result %q: %w", s.Seq, r.Test, err)
			}
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// check refuses a result with an empty required field: the contract makes
// them NOT NULL, and an empty one is a harness bug all the same.
func (r *Result) check() error {
	for _, f := range []struct{ column, value string }{
		{"run_id", r.RunID}, {"test", r.Test}, {"target", r.Target}, {"domain", r.Domain}, {"status", r.Status},
	} {
		if f.value == "" {
			return fmt.Errorf("result %q: empty %s", r.Test, f.column)
		}
	}
	return nil
}

func (w *Writer) inTx(ctx context.Context, fn func(*sql.Tx) error) error {
	return sqlitex.InTx(ctx, w.db, fn)
}

// Busy reports whether err means the database stayed locked by
// another writer for longer than the busy timeout, so the write may be
// retried.
func Busy(err error) bool { return sqlitex.Busy(err) }

// QuickCheck checks the structure of every page of the database at path,
// read-only, through a connection of its own.
func QuickCheck(ctx context.Context, path string, busy time.Duration) error {
	db, err := openDB(ctx, path, 1, busy)
	if err != nil {
		return err
	}
	defer db.Close()
	var msg string
	if err := db.QueryRowContext(ctx, `PRAGMA quick_check(1)`).Scan(&msg); err != nil {
		return err
	}
	if msg != "ok" {
		return sqlitex.DamageError(msg)
	}
	return nil
}

// timeText formats an optional timestamp for a TEXT column.
func timeText(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := t.Format(TimeFormat)
	return &s
}
