package campaign

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// ingestKeysSchema keeps the idempotency key of every result sandtrap's
// ingest wrote. The contract allows extra tables, and readers ignore it.
const ingestKeysSchema = `CREATE TABLE IF NOT EXISTS ingest_keys (
	run_id    TEXT NOT NULL,
	key       TEXT NOT NULL,
	result_id INTEGER NOT NULL,
	PRIMARY KEY (run_id, key)
) WITHOUT ROWID`

// IngestFile is the campaign file that sandtrap itself writes for harnesses
// that send their results over HTTP. Only one IngestFile may be open on a
// file: it is the file's one writer.
type IngestFile struct {
	w *Writer
}

// KeyedResult is a result with the idempotency key it was sent with. An
// empty Key is never a duplicate.
type KeyedResult struct {
	Key    string
	Result Result
}

// IngestTx is one write transaction of an IngestFile.
type IngestTx struct {
	f  *IngestFile
	tx *sql.Tx
}

// OpenIngestFile opens the campaign file at path for ingest, creating it
// with the contract's schema and the ingest_keys table when missing. Every
// commit is synced to disk before it returns: a harness is told its results
// are written only once they would survive a power loss, and group commit
// makes that one sync for many requests.
func OpenIngestFile(ctx context.Context, path string) (*IngestFile, error) {
	w, err := openWriter(ctx, path, "FULL")
	if err != nil {
		return nil, err
	}
	if _, err := w.db.ExecContext(ctx, ingestKeysSchema); err != nil {
		w.Close()
		return nil, fmt.Errorf("store: opening ingest file %s: %w", path, err)
	}
	return &IngestFile{w: w}, nil
}

// Close closes the file.
func (f *IngestFile) Close() error { return f.w.Close() }

// Write runs fn in one transaction and commits it when fn returns nil.
func (f *IngestFile) Write(ctx context.Context, fn func(*IngestTx) error) error {
	err := f.w.inTx(ctx, func(tx *sql.Tx) error { return fn(&IngestTx{f: f, tx: tx}) })
	if err != nil {
		return fmt.Errorf("store: writing to ingest file %s: %w", f.w.path, err)
	}
	return nil
}

// FindRun returns the run with the id and whether there is one.
func (t *IngestTx) FindRun(ctx context.Context, id string) (Run, bool, error) {
	run := Run{ID: id}
	var started string
	var finished sql.NullString
	err := t.tx.QueryRowContext(ctx, `SELECT name, started_at, finished_at, planned, notes FROM runs WHERE id = ?`, id).
		Scan(&run.Name, &started, &finished, &run.Planned, &run.Notes)
	if errors.Is(err, sql.ErrNoRows) {
		return run, false, nil
	}
	if err != nil {
		return run, false, fmt.Errorf("store: reading run %q: %w", id, err)
	}
	if run.StartedAt, err = time.Parse(time.RFC3339Nano, started); err != nil {
		return run, false, fmt.Errorf("store: reading run %q: started_at: %w", id, err)
	}
	if finished.Valid {
		at, err := time.Parse(time.RFC3339Nano, finished.String)
		if err != nil {
			return run, false, fmt.Errorf("store: reading run %q: finished_at: %w", id, err)
		}
		run.FinishedAt = &at
	}
	return run, true, nil
}

// InsertRun adds a run.
func (t *IngestTx) InsertRun(ctx context.Context, run Run) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO runs (id, name, started_at, finished_at, planned, notes) VALUES (?, ?, ?, ?, ?, ?)`,
		run.ID, run.Name, run.StartedAt.Format(TimeFormat), timeText(run.FinishedAt), run.Planned, run.Notes)
	if err != nil {
		return fmt.Errorf("store: inserting run %q: %w", run.ID, err)
	}
	return nil
}

// FinishRun sets the run's finished_at.
func (t *IngestTx) FinishRun(ctx context.Context, id string, at time.Time) error {
	if _, err := t.tx.ExecContext(ctx, `UPDATE runs SET finished_at = ? WHERE id = ?`, at.Format(TimeFormat), id); err != nil {
		return fmt.Errorf("store: finishing run %q: %w", id, err)
	}
	return nil
}

// KnownKeys returns which of keys the run's results were written with.
func (t *IngestTx) KnownKeys(ctx context.Context, runID string, keys []string) (map[string]bool, error) {
	known := map[string]bool{}
	if len(keys) == 0 {
		return known, nil
	}
	list, err := json.Marshal(keys)
	if err != nil {
		return nil, fmt.Errorf("store: looking up keys of run %q: %w", runID, err)
	}
	// One query for the whole batch: json_each unpacks the list.
	rows, err := t.tx.QueryContext(ctx, `SELECT key FROM ingest_keys WHERE run_id = ? AND key IN (SELECT value FROM json_each(?))`, runID, list)
	if err != nil {
		return nil, fmt.Errorf("store: looking up keys of run %q: %w", runID, err)
	}
	defer rows.Close()
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			return nil, fmt.Errorf("store: looking up keys of run %q: %w", runID, err)
		}
		known[k] = true
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: looking up keys of run %q: %w", runID, err)
	}
	return known, nil
}

// AppendResults writes the results, with their artifacts and steps, to the
// run, skipping every result whose key the run already has. Keys must be
// unique within results. It returns how many were written and skipped.
func (t *IngestTx) AppendResults(ctx context.Context, runID string, results []KeyedResult) (accepted, duplicates int, err error) {
	keys := make([]string, 0, len(results))
	for _, r := range results {
		if r.Key != "" {
			keys = append(keys, r.Key)
		}
	}
	known, err := t.KnownKeys(ctx, runID, keys)
	if err != nil {
		return 0, 0, err
	}
	fresh := make([]Result, 0, len(results))
	freshKeys := make([]string, 0, len(results))
	for _, r := range results {
		if known[r.Key] {
			continue
		}
		r.Result.RunID = runID
		fresh = append(fresh, r.Result)
		freshKeys = append(freshKeys, r.Key)
	}
	ids, err := t.f.w.insertResults(ctx, t.tx, fresh)
	if err != nil {
		return 0, 0, fmt.Errorf("store: appending results to run %q: %w", runID, err)
	}
	pairs := make([][2]any, 0, len(ids))
	for i, id := range ids {
		if freshKeys[i] != "" {
			pairs = append(pairs, [2]any{freshKeys[i], id})
		}
	}
	if len(pairs) > 0 {
		list, err := json.Marshal(pairs)
		if err != nil {
			return 0, 0, fmt.Errorf("store: keeping keys of run %q: %w", runID, err)
		}
		if _, err := t.tx.ExecContext(ctx, `INSERT INTO ingest_keys (run_id, key, result_id)
			SELECT ?, value ->> 0, value ->> 1 FROM json_each(?)`, runID, list); err != nil {
			return 0, 0, fmt.Errorf("store: keeping keys of run %q: %w", runID, err)
		}
	}
	return len(fresh), len(results) - len(fresh), nil
}
