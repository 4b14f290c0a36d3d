package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"
	"time"

	"sandtrap/triage"
)

// fileIdentity returns the device and inode of path, to notice a file that
// was replaced by another.
func fileIdentity(path string) (device, inode uint64, err error) {
	st, err := stampOf(path)
	return st.device, st.inode, err
}

// fileStamp is what a stat tells of a file: which file it is, and when its
// bytes last changed.
type fileStamp struct {
	device, inode uint64
	size          int64
	modified      time.Time
}

func stampOf(path string) (fileStamp, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return fileStamp{}, err
	}
	st := fileStamp{size: fi.Size(), modified: fi.ModTime()}
	if sys, ok := fi.Sys().(*syscall.Stat_t); ok {
		st.device, st.inode = uint64(sys.Dev), sys.Ino
	}
	return st, nil
}

// resultKey identifies a results row beyond its id, so that a watermark
// pointing into a different file is noticed.
func resultKey(runID, test string) string { return runID + "\x00" + test }

// loadState reads the names, the modes and, for each source whose file is
// still the one indexed before, its runs' counts. Their rows stay in the
// state until a page needs them.
func (s *Store) loadState(ctx context.Context) error {
	if err := s.loadNames(ctx); err != nil {
		return err
	}
	if err := s.loadModes(ctx); err != nil {
		return err
	}
	for _, src := range s.sources {
		if err := s.loadSource(ctx, src); err != nil {
			return err
		}
	}
	return nil
}

func (s *Store) loadNames(ctx context.Context) error {
	rows, err := s.reader.QueryContext(ctx, `SELECT kind, code, value FROM names`)
	if err != nil {
		return errorf("loading names: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			kind, value string
			code        int
		)
		if err := rows.Scan(&kind, &code, &value); err != nil {
			return errorf("loading names: %w", err)
		}
		s.names.load(kind, uint16(code), value)
	}
	if err := rows.Err(); err != nil {
		return errorf("loading names: %w", err)
	}
	return nil
}

func (s *Store) loadModes(ctx context.Context) error {
	rows, err := s.reader.QueryContext(ctx, `SELECT id, layer, primitive, signature, first_seen FROM modes ORDER BY rowid`)
	if err != nil {
		return errorf("loading modes: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			m     mode
			first string
		)
		if err := rows.Scan(&m.ID, &m.Layer, &m.Primitive, &m.Signature, &first); err != nil {
			return errorf("loading modes: %w", err)
		}
		m.FirstSeen = parseTime(first)
		s.modeIdx[m.ID] = int32(len(s.modes))
		s.modes = append(s.modes, m)
	}
	if err := rows.Err(); err != nil {
		return errorf("loading modes: %w", err)
	}
	return nil
}

// loadSource restores src's index from the state, or clears it when the
// file is no longer the one that was indexed (replaced or shrunk).
func (s *Store) loadSource(ctx context.Context, src *source) error {
	var dev, ino uint64
	err := s.reader.QueryRowContext(ctx, `SELECT id, device, inode, last_result_id, last_result_key FROM sources WHERE path = ?`,
		src.path).Scan(&src.id, &dev, &ino, &src.lastID, &src.lastKey)
	if errors.Is(err, sql.ErrNoRows) {
		res, err := s.writer.ExecContext(ctx, `INSERT INTO sources (path) VALUES (?)`, src.path)
		if err != nil {
			return errorf("registering %s: %w", src.path, err)
		}
		if src.id, err = res.LastInsertId(); err != nil {
			return errorf("registering %s: %w", src.path, err)
		}
		return nil
	} else if err != nil {
		return errorf("loading source %s: %w", src.path, err)
	}
	src.device, src.inode = dev, ino
	same, err := s.sameFile(ctx, src)
	if err != nil {
		return err
	}
	if !same {
		return s.resetSource(ctx, src)
	}
	return s.loadCounts(ctx, src)
}

// sameFile reports whether src's file is still the one its watermark points
// into: same identity, and the row at the watermark is still the same row.
func (s *Store) sameFile(ctx context.Context, src *source) (bool, error) {
	dev, ino, err := fileIdentity(src.path)
	if err != nil {
		return false, nil
	}
	if src.lastID == 0 {
		return true, nil
	}
	if src.device != 0 && (dev != src.device || ino != src.inode) {
		return false, nil
	}
	var runID, test sql.NullString
	err = src.file.db.QueryRowContext(ctx, `SELECT run_id, test FROM results WHERE id = ?`, src.lastID).Scan(&runID, &test)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	} else if err != nil {
		return false, src.file.readErr("checking it against its index", err)
	}
	return resultKey(runID.String, test.String) == src.lastKey, nil
}

// matchClassifier makes sure the saved index was built by the classifier
// the store has now. When the rules or the way signatures are made have
// changed, every campaign file is read again: its failures would otherwise
// keep modes the classifier no longer makes beside the new ones. Known
// modes and triage decisions stay.
func (s *Store) matchClassifier(ctx context.Context) error {
	want := s.opts.Classifier.Fingerprint()
	return inTx(ctx, s.writer, func(tx *sql.Tx) error {
		var have string
		err := tx.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'classifier'`).Scan(&have)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return errorf("reading the classifier of the index: %w", err)
		}
		if have == want {
			return nil
		}
		var indexed int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM sources WHERE last_result_id > 0`).Scan(&indexed); err != nil {
			return errorf("reading the classifier of the index: %w", err)
		}
		if indexed > 0 && s.opts.Logf != nil {
			s.opts.Logf("the classification rules changed since the index was built: reading %d campaign file(s) again", indexed)
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

// resetSource forgets everything indexed from src, in memory and in state,
// so that it is read again from its first row.
func (s *Store) resetSource(ctx context.Context, src *source) error {
	tx, err := s.writer.BeginTx(ctx, nil)
	if err != nil {
		return errorf("resetting %s: %w", src.path, err)
	}
	defer tx.Rollback()
	if err := clearSource(ctx, tx, src.id); err != nil {
		return errorf("resetting %s: %w", src.path, err)
	}
	if err := tx.Commit(); err != nil {
		return errorf("resetting %s: %w", src.path, err)
	}
	s.mu.Lock()
	src.lastID, src.lastKey, src.device, src.inode = 0, "", 0, 0
	src.cursors, src.pending, src.caughtUp = evidenceCursors{}, nil, false
	src.runs = map[string]*runIndex{}
	s.publicIDs()
	s.mu.Unlock()
	return nil
}

// reloadSource replaces src's index in memory with what the state holds,
// after a read that could not be saved.
func (s *Store) reloadSource(ctx context.Context, src *source) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	src.runs = map[string]*runIndex{}
	err := s.reader.QueryRowContext(ctx, `SELECT last_result_id, last_result_key FROM sources WHERE id = ?`, src.id).Scan(&src.lastID, &src.lastKey)
	if err == nil {
		err = s.loadCounts(ctx, src)
	}
	for id := range src.meta {
		if src.runs[id] == nil {
			src.runs[id] = newRunIndex(src, id)
		}
	}
	s.publicIDs()
	if err != nil {
		return errorf("reloading the index of %s: %w", src.path, err)
	}
	return nil
}

// The queries that read one run back: each a search by run. The index is
// named, as without statistics SQLite would rather walk the primary key,
// in result_id order, through every failure of the file.
const (
	runRowsQuery     = `SELECT data FROM row_chunks WHERE source_id = ? AND run_id = ? ORDER BY chunk`
	runFailuresQuery = `SELECT source_id, run_id, data FROM failure_chunks WHERE source_id = ? AND run_id = ? ORDER BY chunk`
)

// loadRun reads one run's rows and failures back from the state, without
// holding mu while it reads: every row and failure a pass saved, each
// failed row linked to its failure. n is how many rows the run has, so
// that they take no more memory than they need.
func (s *Store) loadRun(ctx context.Context, src *source, rawID string, n int) (*runData, error) {
	d := &runData{rows: make([]row, 0, n)}
	rows, err := s.reader.QueryContext(ctx, runRowsQuery, src.id, rawID)
	if err != nil {
		return nil, errorf("loading the rows of run %q of %s: %w", rawID, src.path, err)
	}
	defer rows.Close()
	for rows.Next() {
		var data []byte
		if err := rows.Scan(&data); err != nil {
			return nil, errorf("loading the rows of run %q of %s: %w", rawID, src.path, err)
		}
		for off := 0; off+rowSize <= len(data); off += rowSize {
			d.rows = append(d.rows, decodeRow(data[off:]))
		}
	}
	if err := rows.Err(); err != nil {
		return nil, errorf("loading the rows of run %q of %s: %w", rawID, src.path, err)
	}
	rows.Close()
	if err := s.loadFailures(ctx, src, rawID, d); err != nil {
		return nil, err
	}
	return d, nil
}

// loadFailures reads a run's failures into d and links each failed row to
// its failure; both are in id order.
func (s *Store) loadFailures(ctx context.Context, src *source, rawID string, d *runData) error {
	var list []savedFailure
	err := eachSavedFailure(ctx, s.reader, runFailuresQuery, []any{src.id, rawID}, func(_ int64, _ string, sf savedFailure) error {
		list = append(list, sf)
		return nil
	})
	if err != nil {
		return errorf("loading failures of run %q of %s: %w", rawID, src.path, err)
	}
	d.fails = make([]failure, 0, len(list))
	s.mu.RLock()
	for _, sf := range list {
		m, ok := s.modeIdx[sf.modeID]
		if !ok {
			s.mu.RUnlock()
			return errorf("the index of %s is inconsistent: unknown mode %q", src.path, sf.modeID)
		}
		by, ok := s.names.lookup(kindBy, sf.by)
		if !ok {
			s.mu.RUnlock()
			return errorf("the index of %s is inconsistent: unknown classifier %q", src.path, sf.by)
		}
		d.addFailure(failure{id: sf.id, test: sf.test, err: sf.err, mode: m, by: by, attempt: sf.attempt})
	}
	s.mu.RUnlock()
	j := 0
	for i := range d.rows {
		for j < len(d.fails) && d.fails[j].id < d.rows[i].id {
			j++
		}
		if j < len(d.fails) && d.fails[j].id == d.rows[i].id {
			d.rows[i].fail = int32(j)
		}
	}
	return nil
}

func (s *Store) loadCounts(ctx context.Context, src *source) error {
	rows, err := s.reader.QueryContext(ctx, `SELECT run_id, target, domain, status, mode_id, n FROM counts WHERE source_id = ?`, src.id)
	if err != nil {
		return errorf("loading counts of %s: %w", src.path, err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			runID, target, domain, status, modeID string
			n                                     int
		)
		if err := rows.Scan(&runID, &target, &domain, &status, &modeID, &n); err != nil {
			return errorf("loading counts of %s: %w", src.path, err)
		}
		ri := src.runs[runID]
		if ri == nil {
			// Its rows stay in the state until a page needs them.
			ri = newRunIndex(src, runID)
			ri.data = nil
			src.runs[runID] = ri
		}
		ri.n += n
		ri.saved = ri.n
		c := cell{target: s.names.code(kindTarget, target), domain: s.names.code(kindDomain, domain),
			status: s.names.code(kindStatus, status), mode: -1}
		if modeID != "" {
			c.mode = s.modeIdx[modeID]
		}
		ri.cube[c] += n
		ri.tally.add(c, n)
	}
	if err := rows.Err(); err != nil {
		return errorf("loading counts of %s: %w", src.path, err)
	}
	return nil
}

// batch is what one indexing pass adds, to be persisted in one transaction.
type batch struct {
	rows    map[*runIndex]int // per run, how many rows it had before the batch
	fails   map[*runIndex]int // per run with new failures, how many it had before
	cube    map[*runIndex]map[cell]int
	lastID  int64
	lastKey string
}

// packed is a batch made ready for the state under the store's lock: the
// rows and failures it saves, packed, and the names, modes and templates
// not saved yet, so that a pass may go on adding rows while it is written.
type packed struct {
	b          *batch
	from       int64 // the watermark the save moves from
	added      []nameEntry
	modes      []mode
	templates  map[string]triage.SavedTemplate
	aliases    map[string]string
	chunks     map[*runIndex][][]byte
	firstChunk map[*runIndex]int
	failChunks []runFailChunks
	// rows is how many rows each run of the batch has once it is saved.
	rows map[*runIndex]int
}

// pack takes what b saves from the index; a read-only store saves nothing.
// Callers hold mu for writing.
func (s *Store) pack(src *source, b *batch) *packed {
	p := &packed{b: b}
	if s.opts.ReadOnly {
		return p
	}
	p.added, p.modes = s.names.added, s.unsavedModes
	s.names.added, s.unsavedModes = nil, nil
	p.templates, p.aliases = s.unsavedTemplates, s.unsavedAliases
	s.unsavedTemplates, s.unsavedAliases = map[string]triage.SavedTemplate{}, map[string]string{}
	p.from = src.lastID
	p.chunks, p.firstChunk, p.rows = map[*runIndex][][]byte{}, map[*runIndex]int{}, map[*runIndex]int{}
	for ri, before := range b.rows {
		first := before / chunkRows
		p.firstChunk[ri] = first
		rows := ri.data.rows // not evicted: the state lacks some of them
		p.rows[ri] = len(rows)
		for c := first; c*chunkRows < len(rows); c++ {
			end := min((c+1)*chunkRows, len(rows))
			buf := make([]byte, 0, (end-c*chunkRows)*rowSize)
			for _, r := range rows[c*chunkRows : end] {
				buf = appendRow(buf, r)
			}
			p.chunks[ri] = append(p.chunks[ri], buf)
		}
	}
	p.failChunks = s.failChunks(b.fails)
	return p
}

// persist writes a packed batch to the state in one transaction: the rows,
// the failures, the counts and the watermark move together or not at all.
// The names and modes not saved yet go with it, and are unsaved again if
// it fails. The watermark moves only from where this store left it, so a
// second sandtrap writing the same state file is noticed instead of
// counted twice.
func (s *Store) persist(ctx context.Context, src *source, p *packed) (err error) {
	defer func() { err = s.fullDisk(err, "The index of the new results of "+src.path) }()
	b, added, modes, templates, aliases := p.b, p.added, p.modes, p.templates, p.aliases
	defer func() {
		if err != nil {
			s.mu.Lock()
			s.names.added = append(added, s.names.added...)
			s.unsavedModes = append(modes, s.unsavedModes...)
			for id, t := range templates {
				if _, newer := s.unsavedTemplates[id]; !newer {
					s.unsavedTemplates[id] = t
				}
			}
			for a, t := range aliases {
				if _, newer := s.unsavedAliases[a]; !newer {
					s.unsavedAliases[a] = t
				}
			}
			s.mu.Unlock()
		}
	}()
	tx, err := s.writer.BeginTx(ctx, nil)
	if err != nil {
		return errorf("saving the index of %s: %w", src.path, err)
	}
	defer tx.Rollback()

	for _, e := range added {
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO names (kind, code, value) VALUES (?, ?, ?)`, e.kind, int(e.code), e.value); err != nil {
			return errorf("saving names: %w", err)
		}
	}
	for _, m := range modes {
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO modes (id, layer, primitive, signature, first_seen) VALUES (?, ?, ?, ?, ?)`,
			m.ID, m.Layer, m.Primitive, m.Signature, m.FirstSeen.UTC().Format(time.RFC3339)); err != nil {
			return errorf("saving modes: %w", err)
		}
	}
	if err := persistTemplates(ctx, tx, templates, aliases); err != nil {
		return err
	}
	if err := persistRows(ctx, tx, src, p.chunks, p.firstChunk); err != nil {
		return err
	}
	if err := persistFailures(ctx, tx, src, p.failChunks); err != nil {
		return err
	}
	if err := s.persistCounts(ctx, tx, src, b.cube); err != nil {
		return err
	}
	dev, ino, _ := fileIdentity(src.path)
	res, err := tx.ExecContext(ctx, `UPDATE sources SET last_result_id = ?, last_result_key = ?, device = ?, inode = ?, indexed_at = ?
		WHERE id = ? AND last_result_id = ?`,
		b.lastID, b.lastKey, int64(dev), int64(ino), time.Now().UTC().Format(time.RFC3339), src.id, p.from)
	if err != nil {
		return errorf("saving the watermark of %s: %w", src.path, err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return errorf("saving the index of %s: another sandtrap is writing the state file %s; give each its own --state", src.path, s.opts.StatePath)
	}
	if err := tx.Commit(); err != nil {
		return errorf("saving the index of %s: %w", src.path, err)
	}
	s.mu.Lock()
	src.device, src.inode = dev, ino
	s.mu.Unlock()
	return nil
}

// persistRows saves the chunks of rows of each run, from its chunk
// firstChunk[ri] on, through one statement: a first read saves thousands.
func persistRows(ctx context.Context, tx *sql.Tx, src *source, chunks map[*runIndex][][]byte, firstChunk map[*runIndex]int) error {
	if len(chunks) == 0 {
		return nil
	}
	stmt, err := tx.PrepareContext(ctx, `INSERT OR REPLACE INTO row_chunks (source_id, run_id, chunk, data) VALUES (?, ?, ?, ?)`)
	if err != nil {
		return errorf("saving rows: %w", err)
	}
	defer stmt.Close()
	for ri, list := range chunks {
		for i, data := range list {
			if _, err := stmt.ExecContext(ctx, src.id, ri.rawID, firstChunk[ri]+i, data); err != nil {
				return errorf("saving rows of %s: %w", ri.rawID, err)
			}
		}
	}
	return nil
}

// runFailChunks are the failures of one run that a save rewrites, from its
// chunk first on, a chunk to a list.
type runFailChunks struct {
	ri     *runIndex
	first  int
	chunks [][]savedFailure
}

// failChunks lists, for each run of fails, the chunks its new failures
// fall in, the last one partly saved before included. Callers hold mu; the
// chunks are packed without it.
func (s *Store) failChunks(fails map[*runIndex]int) []runFailChunks {
	var out []runFailChunks
	for ri, before := range fails {
		rc := runFailChunks{ri: ri, first: before / failChunk}
		fails := ri.data.fails // not evicted: the state lacks some of them
		for c := rc.first; c*failChunk < len(fails); c++ {
			part := fails[c*failChunk : min((c+1)*failChunk, len(fails))]
			list := make([]savedFailure, len(part))
			for i, f := range part {
				list[i] = savedFailure{id: f.id, test: f.test, err: f.err, modeID: s.modes[f.mode].ID,
					by: s.names.value(kindBy, f.by), attempt: f.attempt}
			}
			rc.chunks = append(rc.chunks, list)
		}
		out = append(out, rc)
	}
	return out
}

func persistFailures(ctx context.Context, tx *sql.Tx, src *source, runs []runFailChunks) error {
	if len(runs) == 0 {
		return nil
	}
	stmt, err := tx.PrepareContext(ctx, `INSERT OR REPLACE INTO failure_chunks (source_id, run_id, chunk, data) VALUES (?, ?, ?, ?)`)
	if err != nil {
		return errorf("saving failures: %w", err)
	}
	defer stmt.Close()
	for _, rc := range runs {
		for i, list := range rc.chunks {
			if _, err := stmt.ExecContext(ctx, src.id, rc.ri.rawID, rc.first+i, encodeFailures(list)); err != nil {
				return errorf("saving failures of %s: %w", rc.ri.rawID, err)
			}
		}
	}
	return nil
}

// countsPerInsert is how many counts one INSERT of persistCounts saves:
// the driver's cost per statement is most of the cost of a count, and a
// first read of thousands of runs saves a hundred thousand.
const countsPerInsert = 64

// persistCounts adds the counts of cube to those saved, many to a
// statement.
func (s *Store) persistCounts(ctx context.Context, tx *sql.Tx, src *source, cube map[*runIndex]map[cell]int) error {
	const upsert = ` ON CONFLICT (source_id, run_id, target, domain, status, mode_id) DO UPDATE SET n = n + excluded.n`
	values := func(n int) string {
		return `INSERT INTO counts (source_id, run_id, target, domain, status, mode_id, n) VALUES ` +
			strings.Repeat(", (?, ?, ?, ?, ?, ?, ?)", n)[2:] + upsert
	}
	full, err := tx.PrepareContext(ctx, values(countsPerInsert))
	if err != nil {
		return errorf("saving counts: %w", err)
	}
	defer full.Close()
	args := make([]any, 0, 7*countsPerInsert)
	flush := func() error {
		if len(args) == 0 {
			return nil
		}
		var err error
		if len(args) == cap(args) {
			_, err = full.ExecContext(ctx, args...)
		} else {
			_, err = tx.ExecContext(ctx, values(len(args)/7), args...)
		}
		args = args[:0]
		if err != nil {
			return errorf("saving counts: %w", err)
		}
		return nil
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	for ri, cells := range cube {
		for c, n := range cells {
			modeID := ""
			if c.mode >= 0 {
				modeID = s.modes[c.mode].ID
			}
			args = append(args, src.id, ri.rawID, s.names.value(kindTarget, c.target), s.names.value(kindDomain, c.domain),
				s.names.value(kindStatus, c.status), modeID, n)
			if len(args) == cap(args) {
				if err := flush(); err != nil {
					return err
				}
			}
		}
	}
	return flush()
}

func (s *Store) String() string { return fmt.Sprintf("store with %d campaign files", len(s.sources)) }
