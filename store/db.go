// Package store reads campaign databases (read-only) and keeps sandtrap's own
// state: the precomputed index of every run, and triage decisions.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"time"

	"modernc.org/sqlite" // registers the "sqlite" driver
	sqlite3 "modernc.org/sqlite/lib"

	"sandtrap"
)

// dsn builds a modernc DSN for path. busy_timeout comes first so that every
// later pragma already waits for a lock instead of failing at once.
func dsn(path string, query url.Values, busy time.Duration, pragmas ...string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	q := url.Values{}
	for k, v := range query {
		q[k] = v
	}
	q["_pragma"] = append([]string{fmt.Sprintf("busy_timeout(%d)", busy.Milliseconds())}, pragmas...)
	u := url.URL{Scheme: "file", Path: abs, RawQuery: q.Encode()}
	return u.String(), nil
}

// openCampaignDB opens a campaign file read-only. mode=ro, never immutable:
// the harness may still be writing, and immutable would hide its commits.
func openCampaignDB(ctx context.Context, path string, conns int, busy time.Duration) (*sql.DB, error) {
	d, err := dsn(path, url.Values{"mode": {"ro"}}, busy, "query_only(1)")
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

// stateBusyTimeout is how long a write to sandtrap's own state waits for
// the lock; only sandtrap writes it, so waits are short.
const stateBusyTimeout = 5 * time.Second

// openStateDBs opens sandtrap's own state file as one writer connection
// beside a pool of readers, both in WAL mode so reads never wait on writes.
func openStateDBs(ctx context.Context, path string) (writer, reader *sql.DB, err error) {
	pragmas := []string{"journal_mode(WAL)", "synchronous(NORMAL)", "foreign_keys(1)", "temp_store(MEMORY)"}
	d, err := dsn(path, url.Values{"_txlock": {"immediate"}}, stateBusyTimeout, pragmas...)
	if err != nil {
		return nil, nil, err
	}
	writer, err = sql.Open("sqlite", d)
	if err != nil {
		return nil, nil, err
	}
	writer.SetMaxOpenConns(1)
	if err := writer.PingContext(ctx); err != nil {
		writer.Close()
		return nil, nil, err
	}
	rd, err := dsn(path, nil, stateBusyTimeout, append(pragmas, "query_only(1)")...)
	if err != nil {
		writer.Close()
		return nil, nil, err
	}
	reader, err = sql.Open("sqlite", rd)
	if err != nil {
		writer.Close()
		return nil, nil, err
	}
	n := max(2, runtime.NumCPU())
	reader.SetMaxOpenConns(n)
	reader.SetMaxIdleConns(n)
	return writer, reader, nil
}

// damagedState explains a state file that is not a whole SQLite database
// and how to start afresh without it; other errors are returned as they are.
// Errors the campaign files caused are explained already, as sandtrap
// errors, and left alone.
func damagedState(path string, err error) error {
	var e *sqlite.Error
	if !damaged(err) || !errors.As(err, &e) || sandtrap.ErrorCode(err) != sandtrap.EINTERNAL {
		return err
	}
	return sandtrap.Errorf(sandtrap.EINVALID, "the state file %s is damaged (%v), so sandtrap cannot start on it. "+
		"To rebuild it, move it aside or delete it, with its -wal and -shm files, and start sandtrap again: it reads the campaign files again into a new state file. "+
		"People's triage decisions, notes and tickets live only in the state file, so they are lost unless you put back a backup of it.", path, e)
}

// diskFull reports whether err is a write that found no room on its disk.
func diskFull(err error) bool {
	var e *sqlite.Error
	return errors.As(err, &e) && e.Code()&0xff == sqlite3.SQLITE_FULL || errors.Is(err, syscall.ENOSPC)
}

// fullDisk names the state file and says what to do when err is a write to
// it that found its disk full; what is what was not saved. Other errors
// are returned as they are.
func (s *Store) fullDisk(err error, what string) error {
	if !diskFull(err) {
		return err
	}
	return sandtrap.Errorf(sandtrap.EUNAVAILABLE, "%s could not be saved: the disk holding sandtrap's state file %s is full. "+
		"Free some space there; what was saved before is kept, and sandtrap carries on once there is room.", what, s.opts.StatePath)
}

// errorf wraps err as a store error with context.
func errorf(format string, args ...any) error {
	return fmt.Errorf("store: "+format, args...)
}

// inTx runs fn in one transaction on db, committing when fn succeeds.
func inTx(ctx context.Context, db *sql.DB, fn func(*sql.Tx) error) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// snapshotState copies the state file at path, as it stands, into a new
// temporary directory and returns the copy's path; a read-only store works
// on it so that nothing it does reaches the original. A missing state file
// gives a path where an empty one will be made.
func snapshotState(ctx context.Context, path string) (string, error) {
	dir, err := os.MkdirTemp("", "sandtrap-read-only-")
	if err != nil {
		return "", errorf("copying state %s: %w", path, err)
	}
	snapshot := filepath.Join(dir, "state.db")
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return snapshot, nil
	}
	if err := vacuumInto(ctx, path, snapshot); err != nil {
		os.RemoveAll(dir)
		return "", errorf("copying state %s: %w", path, err)
	}
	return snapshot, nil
}

// vacuumInto writes a consistent copy of the database at path to dst,
// opening path read-only.
func vacuumInto(ctx context.Context, path, dst string) error {
	d, err := dsn(path, url.Values{"mode": {"ro"}}, stateBusyTimeout)
	if err != nil {
		return err
	}
	db, err := sql.Open("sqlite", d)
	if err != nil {
		return err
	}
	defer db.Close()
	_, err = db.ExecContext(ctx, `VACUUM INTO ?`, dst)
	return err
}
