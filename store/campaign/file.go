// Package campaign is the harness's contract file: it opens a campaign
// database read-only, checks it against contract v1, reads its runs,
// results and evidence incrementally, and stamps the file for watching.
// Writer and IngestFile write such files, for the demo, import and ingest.
package campaign

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"sandtrap"
	"sandtrap/logview"
	"sandtrap/store/internal/sqlitex"
)

// tableContract is one table of contract v1: the columns a file must have,
// and the others, which sandtrap reads as NULL when a file leaves them out.
type tableContract struct {
	table    string
	optional bool // the whole table may be missing
	required []string
	columns  []string
}

// contractV1 lists every table and column sandtrap reads. Extra tables and
// columns are ignored.
var contractV1 = []tableContract{
	{table: "runs", required: []string{"id", "name", "started_at"},
		columns: []string{"finished_at", "planned", "notes"}},
	{table: "results", required: []string{"id", "run_id", "test", "target", "domain", "status"},
		columns: []string{"title", "started_at", "duration_ms", "exit_code", "error", "log", "layer", "primitive", "worker", "attempt"}},
	{table: "artifacts", optional: true, required: []string{"id", "result_id", "name"},
		columns: []string{"media_type", "data", "expected_sha256"}},
	{table: "steps", optional: true, required: []string{"id", "result_id", "seq", "tool"},
		columns: []string{"request", "response", "error", "duration_ms"}},
}

// File is one campaign database opened read-only.
type File struct {
	path  string
	label string
	db    *sql.DB
	// cols holds the columns each table of the contract has, by table; a
	// missing optional table has none.
	cols         map[string]map[string]bool
	hasArtifacts bool
	hasSteps     bool
	// resultSelect is resultColumns for this file's results table.
	resultSelect string
}

// Open opens path read-only and checks it against the contract.
// Its errors name the file and, where some are missing, every table and
// column that is. It never creates the file: a missing or empty one is
// refused before SQLite sees it.
func Open(ctx context.Context, path string, busy time.Duration) (*File, error) {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		msg := fmt.Sprintf("campaign %s is missing: no such file", path)
		if _, werr := os.Stat(path + "-wal"); werr == nil {
			msg += fmt.Sprintf(" (%s-wal is there, but a WAL file holds only recent changes: it is no database without its main file)", filepath.Base(path))
		}
		return nil, sandtrap.Errorf(sandtrap.EINVALID, "%s", msg)
	case err != nil:
		return nil, sandtrap.Errorf(sandtrap.EINVALID, "campaign %s cannot be read: %v", path, pathErrText(err))
	case fi.IsDir():
		return nil, sandtrap.Errorf(sandtrap.EINVALID, "campaign %s is a directory, not a SQLite file", path)
	case fi.Size() == 0:
		// SQLite would take it for an empty database; it is more likely a
		// harness that has created the file and not yet its tables.
		return nil, sandtrap.Errorf(sandtrap.EINVALID, "campaign %s is empty (0 bytes): it has no tables yet; serve it once the harness (or sandtrap init-db) has written its schema", path)
	}
	db, err := openDB(ctx, path, 4, busy)
	if err != nil {
		return nil, sandtrap.Errorf(sandtrap.EINVALID, "campaign %s cannot be opened as SQLite: %v", path, err)
	}
	c := &File{path: path, db: db, label: strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))}
	if err := c.checkSchema(ctx); err != nil {
		db.Close()
		return nil, err
	}
	c.resultSelect = c.resultColumns()
	return c, nil
}

// openDB opens a campaign file read-only. mode=ro, never immutable:
// the harness may still be writing, and immutable would hide its commits.
func openDB(ctx context.Context, path string, conns int, busy time.Duration) (*sql.DB, error) {
	d, err := sqlitex.DSN(path, url.Values{"mode": {"ro"}}, busy, "query_only(1)")
	if err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite", d)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(conns)
	db.SetMaxIdleConns(conns)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

func pathErrText(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// checkSchema records the columns of each table of the contract and refuses
// a file that misses required ones, naming all of them at once.
func (c *File) checkSchema(ctx context.Context) error {
	c.cols = map[string]map[string]bool{}
	var problems []string
	for _, t := range contractV1 {
		cols, err := c.columns(ctx, t.table)
		if err != nil {
			return err
		}
		c.cols[t.table] = cols
		if len(cols) == 0 {
			if !t.optional {
				problems = append(problems, fmt.Sprintf("table %q is missing", t.table))
			}
			continue
		}
		var missing []string
		for _, col := range t.required {
			if !cols[col] {
				missing = append(missing, strconv.Quote(col))
			}
		}
		if len(missing) > 0 {
			problems = append(problems, fmt.Sprintf("table %q has no column %s", t.table, orList(missing)))
		}
	}
	if len(problems) > 0 {
		return sandtrap.Errorf(sandtrap.EINVALID, "campaign %s does not follow the contract: %s", c.path, strings.Join(problems, "; "))
	}
	c.hasArtifacts = len(c.cols["artifacts"]) > 0
	c.hasSteps = len(c.cols["steps"]) > 0
	return nil
}

// orList joins items as `a`, `a or b`, `a, b or c`.
func orList(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}

// col is the column name when table has it, and NULL when the file left
// the optional column out, so that a query reads it as unknown.
func (c *File) col(table, name string) string {
	if c.cols[table][name] {
		return name
	}
	return "NULL"
}

// columns returns the column names of table, or none if it does not exist.
func (c *File) columns(ctx context.Context, table string) (map[string]bool, error) {
	rows, err := c.db.QueryContext(ctx, `SELECT name FROM pragma_table_info(?)`, table)
	if err != nil {
		return nil, sandtrap.Errorf(sandtrap.EINVALID, "campaign %s is not a readable SQLite database: %v", c.path, err)
	}
	defer rows.Close()
	cols := map[string]bool{}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, errorf("reading columns of %s in %s: %w", table, c.path, err)
		}
		cols[strings.ToLower(name)] = true
	}
	if err := rows.Err(); err != nil {
		return nil, sandtrap.Errorf(sandtrap.EINVALID, "campaign %s is not a readable SQLite database: %v", c.path, err)
	}
	return cols, nil
}

// Close closes the file's connections.
func (c *File) Close() error { return c.db.Close() }

// Label is the file's base name without its extension.
func (c *File) Label() string { return c.label }

// Conn returns a connection of its own to the file, for watching it with
// DataVersion.
func (c *File) Conn(ctx context.Context) (*sql.Conn, error) { return c.db.Conn(ctx) }

// MaxResultID returns the highest result id committed to the file, 0 when
// it has none.
func (c *File) MaxResultID(ctx context.Context) (int64, error) {
	var id int64
	if err := c.db.QueryRowContext(ctx, `SELECT coalesce(max(id), 0) FROM results`).Scan(&id); err != nil {
		return 0, errorf("reading %s: %w", c.path, err)
	}
	return id, nil
}

// RunRow is a row of the runs table as the harness wrote it.
type RunRow struct {
	ID         string
	Name       string
	StartedAt  string
	FinishedAt sql.NullString
	Planned    sql.NullInt64
	Notes      sql.NullString
}

// Runs reads the runs table: it is small, and rows change (finished_at,
// notes) while results are appended.
func (c *File) Runs(ctx context.Context) ([]RunRow, error) {
	rows, err := c.db.QueryContext(ctx, `SELECT id, name, started_at, `+c.col("runs", "finished_at")+`, `+
		c.col("runs", "planned")+`, `+c.col("runs", "notes")+` FROM runs ORDER BY started_at, id`)
	if err != nil {
		return nil, errorf("listing runs of %s: %w", c.path, err)
	}
	defer rows.Close()
	var out []RunRow
	for rows.Next() {
		var r RunRow
		var id, name, started sql.NullString
		var planned lenientInt
		if err := rows.Scan(&id, &name, &started, &r.FinishedAt, &planned, &r.Notes); err != nil {
			return nil, errorf("reading runs of %s: %w", c.path, err)
		}
		r.Planned = planned.nullInt()
		r.ID, r.Name, r.StartedAt = id.String, name.String, started.String
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, errorf("reading runs of %s: %w", c.path, err)
	}
	return out, nil
}

// DataVersion reports PRAGMA data_version on conn: it changes whenever
// another connection commits to the file, and costs microseconds.
func DataVersion(ctx context.Context, conn *sql.Conn) (int64, error) {
	var v int64
	err := conn.QueryRowContext(ctx, `PRAGMA data_version`).Scan(&v)
	return v, err
}

// ResultRow is the part of a results row the indexer reads: no log, no title.
type ResultRow struct {
	ID        int64
	RunID     string
	Test      string
	Target    string
	Domain    string
	Status    string
	Error     string
	HasError  bool
	Layer     string
	Primitive string
	ExitCode  sql.NullInt64
	Attempt   int64
	StartedAt string
	// LogTail is the end of a failure's log, nil for other results.
	LogTail []byte
}

// ScanResults calls fn for every result with after < id <= upto, in id
// order. The scan walks the rowid b-tree, so it needs no index the harness
// did not make.
func (c *File) ScanResults(ctx context.Context, after, upto int64, fn func(*ResultRow) error) error {
	col := func(name string) string { return c.col("results", name) }
	rows, err := c.db.QueryContext(ctx, `SELECT id, run_id, test, target, domain, status, CAST(`+col("error")+` AS BLOB), `+
		col("layer")+`, `+col("primitive")+`, `+col("exit_code")+`, `+col("attempt")+`, `+col("started_at")+`,
		CASE WHEN status IN ('passed', 'skipped') THEN NULL ELSE substr(CAST(`+col("log")+` AS BLOB), -?) END
		FROM results WHERE id > ? AND id <= ? ORDER BY id`, ClassifyTail, after, upto)
	if err != nil {
		return errorf("reading results of %s: %w", c.path, err)
	}
	defer rows.Close()
	var (
		r                     ResultRow
		errText, layer, prim  sql.NullString
		runID, test, tgt, dom sql.NullString
		status, started       sql.NullString
		exit, attempt         lenientInt
	)
	for rows.Next() {
		r.LogTail = nil
		if err := rows.Scan(&r.ID, &runID, &test, &tgt, &dom, &status, &errText, &layer, &prim, &exit, &attempt, &started, &r.LogTail); err != nil {
			return errorf("reading results of %s after id %d: %w", c.path, r.ID, err)
		}
		r.RunID, r.Test, r.Target, r.Domain, r.Status = runID.String, test.String, tgt.String, dom.String, status.String
		r.Error, r.HasError = errText.String, errText.Valid
		r.Layer, r.Primitive = layer.String, prim.String
		r.StartedAt = started.String
		r.ExitCode = exit.nullInt()
		// As scanResult reads it for the pages: unknown or below 1 is 1.
		r.Attempt = attempt.Int64
		if !attempt.Valid || r.Attempt < 1 {
			r.Attempt = 1
		}
		if err := fn(&r); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return errorf("reading results of %s: %w", c.path, err)
	}
	return nil
}

// resultColumns are the columns of a results row that pages show: all of
// them but the log, whose size comes last. scanResult reads them.
func (c *File) resultColumns() string {
	col := func(name string) string { return c.col("results", name) }
	return `id, run_id, test, target, domain, ` + col("title") + `, status, ` + col("started_at") + `, ` +
		col("duration_ms") + `, ` + col("exit_code") + `, CAST(` + col("error") + ` AS BLOB), ` + col("layer") + `, ` +
		col("primitive") + `, ` + col("worker") + `, ` + col("attempt") + `, coalesce(length(CAST(` + col("log") + ` AS BLOB)), 0)`
}

// scanResult reads one row of resultColumns. Numbers the harness filled with
// something else read as unknown and are named in Problems.
func scanResult(row interface{ Scan(...any) error }) (sandtrap.Result, string, error) {
	var (
		r                                     sandtrap.Result
		runID, test, tgt, dom, title, status  sql.NullString
		started, errText, layer, prim, worker sql.NullString
		dur, exit, attempt                    lenientInt
	)
	if err := row.Scan(&r.ID, &runID, &test, &tgt, &dom, &title, &status, &started, &dur,
		&exit, &errText, &layer, &prim, &worker, &attempt, &r.LogSize); err != nil {
		return r, "", err
	}
	r.Test, r.Target, r.Domain, r.Title, r.Status = test.String, tgt.String, dom.String, title.String, status.String
	r.StartedAt, r.Error, r.HasError = started.String, errText.String, errText.Valid
	r.Layer, r.Primitive, r.Worker = layer.String, prim.String, worker.String
	r.DurationMS = -1
	if dur.Valid {
		r.DurationMS = dur.Int64
	}
	if exit.Valid {
		v := exit.Int64
		r.ExitCode = &v
	}
	r.Attempt = int(attempt.Int64)
	if !attempt.Valid || r.Attempt < 1 {
		r.Attempt = 1
	}
	for _, f := range []struct {
		column string
		v      lenientInt
	}{{"duration_ms", dur}, {"exit_code", exit}, {"attempt", attempt}} {
		if f.v.Raw != "" {
			r.Problems = append(r.Problems, fmt.Sprintf("%s holds %q, which is not a number sandtrap can read; it is shown as unknown", f.column, f.v.Raw))
		}
	}
	return r, runID.String, nil
}

// Result reads one results row, its log's size but not the log.
func (c *File) Result(ctx context.Context, id int64) (sandtrap.Result, string, error) {
	r, runID, err := scanResult(c.db.QueryRowContext(ctx, `SELECT `+c.resultSelect+` FROM results WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return r, "", sandtrap.Errorf(sandtrap.ENOTFOUND, "result %d not found", id)
	} else if err != nil {
		return r, "", c.readErr(fmt.Sprintf("reading result %d", id), err)
	}
	return r, runID, nil
}

// RunOf returns the harness's run id of result id. It reads that column
// alone: the full row would measure the log.
func (c *File) RunOf(ctx context.Context, id int64) (string, error) {
	var runID sql.NullString
	err := c.db.QueryRowContext(ctx, `SELECT run_id FROM results WHERE id = ?`, id).Scan(&runID)
	if errors.Is(err, sql.ErrNoRows) {
		return "", sandtrap.Errorf(sandtrap.ENOTFOUND, "result %d not found", id)
	} else if err != nil {
		return "", c.readErr(fmt.Sprintf("reading result %d", id), err)
	}
	return runID.String, nil
}

// ResultKeyOf returns the key of result id (see ResultKey), and whether
// the file has that result.
func (c *File) ResultKeyOf(ctx context.Context, id int64) (string, bool, error) {
	var runID, test sql.NullString
	err := c.db.QueryRowContext(ctx, `SELECT run_id, test FROM results WHERE id = ?`, id).Scan(&runID, &test)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	} else if err != nil {
		return "", false, c.readErr("checking it against its index", err)
	}
	return ResultKey(runID.String, test.String), true, nil
}

// ResultsByID reads the listed results, keyed by id; ids that are gone are
// left out.
func (c *File) ResultsByID(ctx context.Context, ids []int64) (map[int64]sandtrap.Result, error) {
	out := make(map[int64]sandtrap.Result, len(ids))
	// SQLite caps the parameters of one statement: ask in slices.
	for len(ids) > 0 {
		n := min(len(ids), idsPerQuery)
		if err := c.resultsByIDInto(ctx, ids[:n], out); err != nil {
			return nil, err
		}
		ids = ids[n:]
	}
	return out, nil
}

// idsPerQuery is how many ids one query of ResultsByID names.
const idsPerQuery = 500

func (c *File) resultsByIDInto(ctx context.Context, ids []int64, out map[int64]sandtrap.Result) error {
	args := make([]any, len(ids))
	marks := make([]string, len(ids))
	for i, id := range ids {
		args[i], marks[i] = id, "?"
	}
	rows, err := c.db.QueryContext(ctx, `SELECT `+c.resultSelect+` FROM results WHERE id IN (`+strings.Join(marks, ",")+`)`, args...)
	if err != nil {
		return errorf("reading results of %s: %w", c.path, err)
	}
	defer rows.Close()
	for rows.Next() {
		r, _, err := scanResult(rows)
		if err != nil {
			return errorf("reading results of %s: %w", c.path, err)
		}
		out[r.ID] = r
	}
	if err := rows.Err(); err != nil {
		return c.readErr("reading results", err)
	}
	return nil
}

// ResultLogTail returns the last n bytes of a result's log.
func (c *File) ResultLogTail(ctx context.Context, id int64, n int64) ([]byte, error) {
	var b []byte
	err := c.db.QueryRowContext(ctx, `SELECT substr(CAST(`+c.col("results", "log")+` AS BLOB), -?) FROM results WHERE id = ?`, n, id).Scan(&b)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, sandtrap.Errorf(sandtrap.ENOTFOUND, "result %d not found", id)
	} else if err != nil {
		return nil, c.readErr(fmt.Sprintf("reading the end of the log of result %d", id), err)
	}
	return b, nil
}

// ResultLog returns up to limit bytes of a result's log and its full size.
func (c *File) ResultLog(ctx context.Context, id int64, limit int64) ([]byte, int64, error) {
	var (
		b    []byte
		size int64
	)
	err := c.db.QueryRowContext(ctx, `SELECT substr(CAST(`+c.col("results", "log")+` AS BLOB), 1, ?), coalesce(length(CAST(`+
		c.col("results", "log")+` AS BLOB)), 0) FROM results WHERE id = ?`,
		limit, id).Scan(&b, &size)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, 0, sandtrap.Errorf(sandtrap.ENOTFOUND, "result %d not found", id)
	} else if err != nil {
		return nil, 0, c.readErr(fmt.Sprintf("reading the log of result %d", id), err)
	}
	return b, size, nil
}

// Artifacts lists a result's artifacts, without their bytes.
func (c *File) Artifacts(ctx context.Context, resultID int64) ([]sandtrap.Artifact, error) {
	if !c.hasArtifacts {
		return nil, nil
	}
	col := func(name string) string { return c.col("artifacts", name) }
	rows, err := c.db.QueryContext(ctx, `SELECT id, result_id, name, `+col("media_type")+`, coalesce(length(CAST(`+col("data")+` AS BLOB)), 0),
		coalesce(`+col("expected_sha256")+`, ''), `+col("data")+` FROM artifacts WHERE result_id = ? ORDER BY id`, resultID)
	if err != nil {
		return nil, c.readErr(fmt.Sprintf("reading artifacts of result %d", resultID), err)
	}
	defer rows.Close()
	var out []sandtrap.Artifact
	for rows.Next() {
		var (
			a        sandtrap.Artifact
			name, mt sql.NullString
			data     []byte
		)
		if err := rows.Scan(&a.ID, &a.ResultID, &name, &mt, &a.Size, &a.ExpectedSHA256, &data); err != nil {
			return nil, errorf("reading artifacts of result %d in %s: %w", resultID, c.path, err)
		}
		a.Name, a.MediaType = name.String, mt.String
		a.SHA256 = logview.SHA256Hex(data)
		a.ExpectedSHA256 = strings.ToLower(strings.TrimSpace(a.ExpectedSHA256))
		out = append(out, a)
	}
	if err := rows.Err(); err != nil {
		return nil, c.readErr(fmt.Sprintf("reading artifacts of result %d", resultID), err)
	}
	return out, nil
}

// ArtifactData returns an artifact's bytes, checking it belongs to resultID.
func (c *File) ArtifactData(ctx context.Context, resultID, artifactID int64) (sandtrap.Artifact, []byte, error) {
	var (
		a        sandtrap.Artifact
		name, mt sql.NullString
		exp      sql.NullString
		data     []byte
	)
	if !c.hasArtifacts {
		return a, nil, sandtrap.Errorf(sandtrap.ENOTFOUND, "artifact %d not found: the campaign has no artifacts table", artifactID)
	}
	err := c.db.QueryRowContext(ctx, `SELECT id, result_id, name, `+c.col("artifacts", "media_type")+`, `+
		c.col("artifacts", "expected_sha256")+`, `+c.col("artifacts", "data")+` FROM artifacts WHERE id = ? AND result_id = ?`,
		artifactID, resultID).Scan(&a.ID, &a.ResultID, &name, &mt, &exp, &data)
	if errors.Is(err, sql.ErrNoRows) {
		return a, nil, sandtrap.Errorf(sandtrap.ENOTFOUND, "artifact %d of result %d not found", artifactID, resultID)
	} else if err != nil {
		return a, nil, c.readErr(fmt.Sprintf("reading artifact %d", artifactID), err)
	}
	a.Name, a.MediaType, a.ExpectedSHA256 = name.String, mt.String, strings.ToLower(exp.String)
	a.Size = int64(len(data))
	a.SHA256 = logview.SHA256Hex(data)
	return a, data, nil
}

// Steps lists a result's MCP tool calls, in order.
func (c *File) Steps(ctx context.Context, resultID int64) ([]sandtrap.Step, error) {
	if !c.hasSteps {
		return nil, nil
	}
	col := func(name string) string { return c.col("steps", name) }
	rows, err := c.db.QueryContext(ctx, `SELECT id, result_id, seq, tool, `+col("request")+`, `+col("response")+`, `+
		col("error")+`, `+col("duration_ms")+` FROM steps WHERE result_id = ? ORDER BY seq, id`, resultID)
	if err != nil {
		return nil, c.readErr(fmt.Sprintf("reading steps of result %d", resultID), err)
	}
	defer rows.Close()
	var out []sandtrap.Step
	for rows.Next() {
		var (
			s          sandtrap.Step
			seq, dur   lenientInt
			tool, errT sql.NullString
		)
		if err := rows.Scan(&s.ID, &s.ResultID, &seq, &tool, &s.Request, &s.Response, &errT, &dur); err != nil {
			return nil, errorf("reading steps of result %d in %s: %w", resultID, c.path, err)
		}
		s.Seq, s.Tool, s.Error = int(seq.Int64), tool.String, errT.String
		s.DurationMS = -1
		if dur.Valid {
			s.DurationMS = dur.Int64
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		return nil, c.readErr(fmt.Sprintf("reading steps of result %d", resultID), err)
	}
	return out, nil
}

func (c *File) String() string { return fmt.Sprintf("campaign %s", c.path) }

// lenientInt reads an INTEGER column the harness may have filled with
// anything: a number, numeric text, or junk. Junk reads as missing and is
// kept in Raw, so that one bad value never stops a whole file from being read.
type lenientInt struct {
	Int64 int64
	Valid bool
	Raw   string // the value as written, when it was not a number
}

// Scan implements sql.Scanner.
func (n *lenientInt) Scan(v any) error {
	*n = lenientInt{}
	switch x := v.(type) {
	case nil:
	case int64:
		n.Int64, n.Valid = x, true
	case float64:
		n.float(x, strconv.FormatFloat(x, 'g', -1, 64))
	case []byte:
		n.parse(string(x))
	case string:
		n.parse(x)
	default:
		n.Raw = fmt.Sprint(x)
	}
	return nil
}

func (n *lenientInt) parse(s string) {
	if i, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64); err == nil {
		n.Int64, n.Valid = i, true
		return
	}
	if f, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err == nil {
		n.float(f, s)
		return
	}
	n.Raw = s
}

// float reads a real number as its integer part. NaN, the infinities and
// numbers beyond int64 have none: they are junk, kept in Raw as written.
func (n *lenientInt) float(f float64, raw string) {
	if math.IsNaN(f) || f < math.MinInt64 || f >= math.MaxInt64 {
		n.Raw = raw
		return
	}
	n.Int64, n.Valid = int64(f), true
}

// nullInt turns a lenient value into the NullInt64 the rest of the store uses.
func (n lenientInt) nullInt() sql.NullInt64 { return sql.NullInt64{Int64: n.Int64, Valid: n.Valid} }

// errorf wraps err as a store error with context.
func errorf(format string, args ...any) error {
	return fmt.Errorf("store: "+format, args...)
}

// ResultKey identifies a results row beyond its id, so that a watermark
// pointing into a different file is noticed.
func ResultKey(runID, test string) string { return runID + "\x00" + test }

// Stamp is what a stat tells of a file: which file it is, and when its
// bytes last changed.
type Stamp struct {
	Device, Inode uint64
	Size          int64
	Modified      time.Time
}

// StampOf stats the file at path.
func StampOf(path string) (Stamp, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return Stamp{}, err
	}
	st := Stamp{Size: fi.Size(), Modified: fi.ModTime()}
	if sys, ok := fi.Sys().(*syscall.Stat_t); ok {
		st.Device, st.Inode = uint64(sys.Dev), sys.Ino
	}
	return st, nil
}

// SameFile reports whether two stamps are of the same file.
func (st Stamp) SameFile(other Stamp) bool {
	return st.Device == other.Device && st.Inode == other.Inode
}

// Clip cuts s to at most n bytes without splitting a UTF-8 sequence.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// readErr wraps an error reading the campaign. A file the harness keeps
// locked past the busy timeout is said to be busy, for a moment, not broken;
// a damaged one is unavailable until it is whole, not an internal error.
func (c *File) readErr(doing string, err error) error {
	if Busy(err) {
		return sandtrap.Errorf(sandtrap.EUNAVAILABLE, "the campaign file %s is busy: the harness holds it locked; try again in a moment", c.path)
	}
	if sqlitex.Damaged(err) {
		return sandtrap.Errorf(sandtrap.EUNAVAILABLE, "the campaign file %s is damaged (%v): this cannot be read from it until it is whole again; what sandtrap indexed before is still shown", c.path, err)
	}
	return errorf("%s in %s: %w", doing, c.path, err)
}

// qualified is col for a column named through its table's alias in a join.
func (c *File) qualified(table, alias, name string) string {
	if c.cols[table][name] {
		return alias + "." + name
	}
	return "NULL"
}
