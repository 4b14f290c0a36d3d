package state

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"sandtrap/store/index"
	"sandtrap/store/internal/sqlitex"
	"sandtrap/triage"
)

// Chunks is the saved index of the campaign files: each file's watermark,
// the interned names, the failure modes, and per run its packed rows, its
// failures and its counts. A pass of the indexer saves what it read with
// one Save; a page reads a run's rows back with RunRows and RunFailures.
// The read methods return their errors unnamed: the caller names the file.
type Chunks struct{ db *DB }

// Chunks returns the saved index of db.
func (db *DB) Chunks() Chunks { return Chunks{db} }

// The saved index holds what store/index packs, in its own types: a name,
// a mode as the classifier made it, a count of a breakdown cell, a chunk
// of packed rows, and the failures of a run a save rewrites.
type (
	Name          = index.Name
	Mode          = index.Mode
	Count         = index.Count
	RowChunk      = index.RowChunk
	FailureChunks = index.FailureChunks
)

// Source is what the state holds of one campaign file: the file it read
// (device and inode) and how far (the id and key of the last result).
type Source struct {
	ID      int64
	Device  uint64
	Inode   uint64
	LastID  int64
	LastKey string
}

// Names returns every interned name.
func (c Chunks) Names(ctx context.Context) ([]Name, error) {
	rows, err := c.db.reader.QueryContext(ctx, `SELECT kind, code, value FROM names`)
	if err != nil {
		return nil, errorf("loading names: %w", err)
	}
	defer rows.Close()
	var out []Name
	for rows.Next() {
		var (
			n    Name
			code int
		)
		if err := rows.Scan(&n.Kind, &code, &n.Value); err != nil {
			return nil, errorf("loading names: %w", err)
		}
		n.Code = uint16(code)
		out = append(out, n)
	}
	if err := rows.Err(); err != nil {
		return nil, errorf("loading names: %w", err)
	}
	return out, nil
}

// Modes returns every failure mode, in the order they were found.
func (c Chunks) Modes(ctx context.Context) ([]Mode, error) {
	rows, err := c.db.reader.QueryContext(ctx, `SELECT id, layer, primitive, signature, first_seen FROM modes ORDER BY rowid`)
	if err != nil {
		return nil, errorf("loading modes: %w", err)
	}
	defer rows.Close()
	var out []Mode
	for rows.Next() {
		var (
			m     Mode
			first string
		)
		if err := rows.Scan(&m.ID, &m.Layer, &m.Primitive, &m.Signature, &first); err != nil {
			return nil, errorf("loading modes: %w", err)
		}
		m.FirstSeen = sqlitex.ParseTime(first)
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		return nil, errorf("loading modes: %w", err)
	}
	return out, nil
}

// Source returns what the state holds of the campaign file at path, and
// registers a file it never saw, which known then says.
func (c Chunks) Source(ctx context.Context, path string) (src Source, known bool, err error) {
	err = c.db.reader.QueryRowContext(ctx, `SELECT id, device, inode, last_result_id, last_result_key FROM sources WHERE path = ?`,
		path).Scan(&src.ID, &src.Device, &src.Inode, &src.LastID, &src.LastKey)
	if errors.Is(err, sql.ErrNoRows) {
		res, err := c.db.writer.ExecContext(ctx, `INSERT INTO sources (path) VALUES (?)`, path)
		if err != nil {
			return src, false, errorf("registering %s: %w", path, err)
		}
		if src.ID, err = res.LastInsertId(); err != nil {
			return src, false, errorf("registering %s: %w", path, err)
		}
		return src, false, nil
	} else if err != nil {
		return src, false, errorf("loading source %s: %w", path, err)
	}
	return src, true, nil
}

// Watermark returns how far the saved index of a source goes.
func (c Chunks) Watermark(ctx context.Context, sourceID int64) (lastID int64, lastKey string, err error) {
	err = c.db.reader.QueryRowContext(ctx, `SELECT last_result_id, last_result_key FROM sources WHERE id = ?`, sourceID).Scan(&lastID, &lastKey)
	return lastID, lastKey, err
}

// Clear deletes the saved index of one source and moves its watermark
// back to the first row, in one transaction.
func (c Chunks) Clear(ctx context.Context, sourceID int64) error {
	return sqlitex.InTx(ctx, c.db.writer, func(tx *sql.Tx) error { return clearSource(ctx, tx, sourceID) })
}

// clearSource deletes the saved index of one source and moves its watermark
// back to the first row.
func clearSource(ctx context.Context, tx *sql.Tx, sourceID int64) error {
	for _, q := range []string{
		`DELETE FROM row_chunks WHERE source_id = ?`,
		`DELETE FROM failure_chunks WHERE source_id = ?`,
		`DELETE FROM counts WHERE source_id = ?`,
		`UPDATE sources SET last_result_id = 0, last_result_key = '', device = 0, inode = 0 WHERE id = ?`,
	} {
		if _, err := tx.ExecContext(ctx, q, sourceID); err != nil {
			return err
		}
	}
	return nil
}

// sourceIDs returns the id of every source the state knows.
func sourceIDs(ctx context.Context, tx *sql.Tx) ([]int64, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id FROM sources`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// MatchClassifier makes sure the saved index was built by the classifier
// whose fingerprint is want. When the rules or the way signatures are made
// have changed, the index of every source is cleared, so that each
// campaign file is read again: its failures would otherwise keep modes the
// classifier no longer makes beside the new ones. Known modes and triage
// decisions stay, and the old mode of every failure is kept so that
// people's decisions can follow (see Templates.CarryOver). reread is how
// many sources had an index that must be read again.
func (c Chunks) MatchClassifier(ctx context.Context, want string) (reread int, err error) {
	err = sqlitex.InTx(ctx, c.db.writer, func(tx *sql.Tx) error {
		var have string
		err := tx.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'classifier'`).Scan(&have)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return errorf("reading the classifier of the index: %w", err)
		}
		if have == want {
			return nil
		}
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM sources WHERE last_result_id > 0`).Scan(&reread); err != nil {
			return errorf("reading the classifier of the index: %w", err)
		}
		if err := captureCarry(ctx, tx); err != nil {
			return err
		}
		ids, err := sourceIDs(ctx, tx)
		if err != nil {
			return errorf("resetting the index for new classification rules: %w", err)
		}
		for _, id := range ids {
			if err := clearSource(ctx, tx, id); err != nil {
				return errorf("resetting the index for new classification rules: %w", err)
			}
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES ('classifier', ?)
			ON CONFLICT (key) DO UPDATE SET value = excluded.value`, want)
		if err != nil {
			return errorf("saving the classifier of the index: %w", err)
		}
		return nil
	})
	return reread, err
}

// The queries that read one run back: each a search by run. The index is
// named, as without statistics SQLite would rather walk the primary key,
// in result_id order, through every failure of the file.
const (
	runRowsQuery     = `SELECT data FROM row_chunks WHERE source_id = ? AND run_id = ? ORDER BY chunk`
	runFailuresQuery = `SELECT source_id, run_id, data FROM failure_chunks WHERE source_id = ? AND run_id = ? ORDER BY chunk`
)

// RunRows calls fn with each saved chunk of a run's packed rows, in order.
func (c Chunks) RunRows(ctx context.Context, sourceID int64, runID string, fn func(data []byte)) error {
	rows, err := c.db.reader.QueryContext(ctx, runRowsQuery, sourceID, runID)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var data []byte
		if err := rows.Scan(&data); err != nil {
			return err
		}
		fn(data)
	}
	return rows.Err()
}

// RunFailures returns a run's saved failures, in id order.
func (c Chunks) RunFailures(ctx context.Context, sourceID int64, runID string) ([]Failure, error) {
	var list []Failure
	err := eachSavedFailure(ctx, c.db.reader, runFailuresQuery, []any{sourceID, runID}, func(_ int64, _ string, f Failure) error {
		list = append(list, f)
		return nil
	})
	return list, err
}

// Counts calls fn with every saved count of a source.
func (c Chunks) Counts(ctx context.Context, sourceID int64, fn func(Count)) error {
	rows, err := c.db.reader.QueryContext(ctx, `SELECT run_id, target, domain, status, mode_id, n FROM counts WHERE source_id = ?`, sourceID)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var n Count
		if err := rows.Scan(&n.RunID, &n.Target, &n.Domain, &n.Status, &n.ModeID, &n.N); err != nil {
			return err
		}
		fn(n)
	}
	return rows.Err()
}

// Save is what one pass of the indexer adds to a source's saved index.
type Save struct {
	SourceID int64
	Path     string // the campaign file, for messages
	// From is the watermark the pass read from; LastID and LastKey are
	// the new one, and Device and Inode the file it was read from.
	From          int64
	LastID        int64
	LastKey       string
	Device, Inode uint64

	Names     []Name
	Modes     []Mode
	Templates map[string]triage.SavedTemplate
	Aliases   map[string]string
	Rows      []RowChunk
	Failures  []FailureChunks
	Counts    []Count // added to the saved counts
}

// Save writes what a pass read in one transaction: the rows, the
// failures, the counts and the watermark move together or not at all,
// with the names, modes and templates found meanwhile. The watermark moves
// only from where the pass began, so a second sandtrap writing the same
// state file is noticed instead of counted twice.
func (c Chunks) Save(ctx context.Context, sv Save) (err error) {
	defer func() { err = c.db.fullDisk(err, "The index of the new results of "+sv.Path) }()
	tx, err := c.db.writer.BeginTx(ctx, nil)
	if err != nil {
		return errorf("saving the index of %s: %w", sv.Path, err)
	}
	defer tx.Rollback()
	for _, e := range sv.Names {
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO names (kind, code, value) VALUES (?, ?, ?)`, e.Kind, int(e.Code), e.Value); err != nil {
			return errorf("saving names: %w", err)
		}
	}
	for _, m := range sv.Modes {
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO modes (id, layer, primitive, signature, first_seen) VALUES (?, ?, ?, ?, ?)`,
			m.ID, m.Layer, m.Primitive, m.Signature, m.FirstSeen.UTC().Format(time.RFC3339)); err != nil {
			return errorf("saving modes: %w", err)
		}
	}
	if err := persistTemplates(ctx, tx, sv.Templates, sv.Aliases); err != nil {
		return err
	}
	if err := persistRows(ctx, tx, sv.SourceID, sv.Rows); err != nil {
		return err
	}
	if err := persistFailures(ctx, tx, sv.SourceID, sv.Failures); err != nil {
		return err
	}
	if err := persistCounts(ctx, tx, sv.SourceID, sv.Counts); err != nil {
		return err
	}
	res, err := tx.ExecContext(ctx, `UPDATE sources SET last_result_id = ?, last_result_key = ?, device = ?, inode = ?, indexed_at = ?
		WHERE id = ? AND last_result_id = ?`,
		sv.LastID, sv.LastKey, int64(sv.Device), int64(sv.Inode), time.Now().UTC().Format(time.RFC3339), sv.SourceID, sv.From)
	if err != nil {
		return errorf("saving the watermark of %s: %w", sv.Path, err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return errorf("saving the index of %s: another sandtrap is writing the state file %s; give each its own --state", sv.Path, c.db.path)
	}
	if err := tx.Commit(); err != nil {
		return errorf("saving the index of %s: %w", sv.Path, err)
	}
	return nil
}

func persistFailures(ctx context.Context, tx *sql.Tx, sourceID int64, runs []FailureChunks) error {
	if len(runs) == 0 {
		return nil
	}
	stmt, err := tx.PrepareContext(ctx, `INSERT OR REPLACE INTO failure_chunks (source_id, run_id, chunk, data) VALUES (?, ?, ?, ?)`)
	if err != nil {
		return errorf("saving failures: %w", err)
	}
	defer stmt.Close()
	for _, rc := range runs {
		for i, list := range rc.Chunks {
			if _, err := stmt.ExecContext(ctx, sourceID, rc.RunID, rc.First+i, encodeFailures(list)); err != nil {
				return errorf("saving failures of %s: %w", rc.RunID, err)
			}
		}
	}
	return nil
}

// persistRows saves chunks of rows through one statement: a first read
// saves thousands.
func persistRows(ctx context.Context, tx *sql.Tx, sourceID int64, rows []RowChunk) error {
	if len(rows) == 0 {
		return nil
	}
	stmt, err := tx.PrepareContext(ctx, `INSERT OR REPLACE INTO row_chunks (source_id, run_id, chunk, data) VALUES (?, ?, ?, ?)`)
	if err != nil {
		return errorf("saving rows: %w", err)
	}
	defer stmt.Close()
	for _, rc := range rows {
		if _, err := stmt.ExecContext(ctx, sourceID, rc.RunID, rc.Chunk, rc.Data); err != nil {
			return errorf("saving rows of %s: %w", rc.RunID, err)
		}
	}
	return nil
}

// countsPerInsert is how many counts one INSERT of persistCounts saves:
// the driver's cost per statement is most of the cost of a count, and a
// first read of thousands of runs saves a hundred thousand.
const countsPerInsert = 64

// persistCounts adds counts to those saved, many to a statement.
func persistCounts(ctx context.Context, tx *sql.Tx, sourceID int64, counts []Count) error {
	const upsert = ` ON CONFLICT (source_id, run_id, target, domain, status, mode_id) DO UPDATE SET n = n + excluded.n`
	values := func(n int) string {
		return `INSERT INTO counts (source_id, run_id, target, domain, status, mode_id, n) VALUES ` +
			strings.Repeat(", (?, ?, ?, ?, ?, ?, ?)", n)[2:] + upsert
	}
	var full *sql.Stmt
	if len(counts) >= countsPerInsert {
		var err error
		if full, err = tx.PrepareContext(ctx, values(countsPerInsert)); err != nil {
			return errorf("saving counts: %w", err)
		}
		defer full.Close()
	}
	args := make([]any, 0, 7*countsPerInsert)
	for len(counts) > 0 {
		part := counts[:min(countsPerInsert, len(counts))]
		counts = counts[len(part):]
		args = args[:0]
		for _, n := range part {
			args = append(args, sourceID, n.RunID, n.Target, n.Domain, n.Status, n.ModeID, n.N)
		}
		var err error
		if len(part) == countsPerInsert {
			_, err = full.ExecContext(ctx, args...)
		} else {
			_, err = tx.ExecContext(ctx, values(len(part)), args...)
		}
		if err != nil {
			return errorf("saving counts of %s: %w", part[0].RunID, err)
		}
	}
	return nil
}
