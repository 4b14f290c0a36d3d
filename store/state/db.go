// Package state keeps sandtrap's own SQLite file: the saved index of every
// campaign file, people's triage decisions, the filing and alert outboxes
// and the mined templates. Each kind is a small service over one DB, and
// each method is one transaction.
package state

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
	"time"

	"modernc.org/sqlite"

	"sandtrap"
	"sandtrap/store/internal/sqlitex"
)

// DB is the state file, open as one writer connection beside a pool of
// readers, both in WAL mode so reads never wait on writes.
type DB struct {
	path   string // the state file as named, for messages
	writer *sql.DB
	reader *sql.DB
	// removeSnapshot deletes the private copy of the state that a
	// read-only DB works on.
	removeSnapshot func()
}

// busyTimeout is how long a write to sandtrap's own state waits for the
// lock; only sandtrap writes it, so waits are short.
const busyTimeout = 5 * time.Second

// Open opens the state file at path, creating and migrating it. A
// read-only DB works on a private copy of the file, so that nothing done
// to it reaches the original. Errors of a damaged file say how to start
// afresh.
func Open(ctx context.Context, path string, readOnly bool) (*DB, error) {
	db := &DB{path: path}
	open := path
	if readOnly {
		snapshot, err := snapshot(ctx, path)
		if err != nil {
			return nil, Damaged(path, err)
		}
		open, db.removeSnapshot = snapshot, func() { os.RemoveAll(filepath.Dir(snapshot)) }
	}
	var err error
	if db.writer, db.reader, err = openDBs(ctx, open); err != nil {
		if db.removeSnapshot != nil {
			db.removeSnapshot()
		}
		return nil, Damaged(path, errorf("opening state %s: %w", path, err))
	}
	if err := migrate(ctx, db.writer); err != nil {
		db.Close()
		return nil, Damaged(path, err)
	}
	return db, nil
}

// Close closes the file, and deletes the private copy a read-only DB
// worked on. It returns once every connection has closed: database/sql
// closes one still in use only when it is given back (a transaction whose
// context ended is rolled back in a goroutine of its own), and until the
// last one closes, the file's newest pages are in its -wal alone.
func (db *DB) Close() error {
	err := db.reader.Close()
	if e := db.writer.Close(); err == nil {
		err = e
	}
	if e := db.waitClosed(); err == nil {
		err = e
	}
	if db.removeSnapshot != nil {
		db.removeSnapshot()
	}
	return err
}

// waitClosed waits, for as long as a write waits for the lock, until the
// writer and the readers have no connection open.
func (db *DB) waitClosed() error {
	deadline := time.Now().Add(busyTimeout)
	for {
		open := db.reader.Stats().OpenConnections + db.writer.Stats().OpenConnections
		if open == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return errorf("closing state %s: %d connection(s) still in use after %v", db.path, open, busyTimeout)
		}
		time.Sleep(time.Millisecond)
	}
}

// openDBs opens the file at path as one writer connection beside a pool of
// readers.
func openDBs(ctx context.Context, path string) (writer, reader *sql.DB, err error) {
	pragmas := []string{"journal_mode(WAL)", "synchronous(NORMAL)", "foreign_keys(1)", "temp_store(MEMORY)"}
	d, err := sqlitex.DSN(path, url.Values{"_txlock": {"immediate"}}, busyTimeout, pragmas...)
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
	rd, err := sqlitex.DSN(path, nil, busyTimeout, append(pragmas, "query_only(1)")...)
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

// Damaged explains a state file that is not a whole SQLite database and
// how to start afresh without it; other errors are returned as they are.
// Errors the campaign files caused are explained already, as sandtrap
// errors, and left alone.
func Damaged(path string, err error) error {
	var e *sqlite.Error
	if !sqlitex.Damaged(err) || !errors.As(err, &e) || sandtrap.ErrorCode(err) != sandtrap.EINTERNAL {
		return err
	}
	return sandtrap.Errorf(sandtrap.EINVALID, "the state file %s is damaged (%v), so sandtrap cannot start on it. "+
		"To rebuild it, move it aside or delete it, with its -wal and -shm files, and start sandtrap again: it reads the campaign files again into a new state file. "+
		"People's triage decisions, notes and tickets live only in the state file, so they are lost unless you put back a backup of it.", path, e)
}

// fullDisk names the state file and says what to do when err is a write to
// it that found its disk full; what is what was not saved. Other errors
// are returned as they are.
func (db *DB) fullDisk(err error, what string) error {
	if !sqlitex.DiskFull(err) {
		return err
	}
	return sandtrap.Errorf(sandtrap.EUNAVAILABLE, "%s could not be saved: the disk holding sandtrap's state file %s is full. "+
		"Free some space there; what was saved before is kept, and sandtrap carries on once there is room.", what, db.path)
}

// inTx runs fn in one transaction on the writer, explaining a full disk.
func (db *DB) inTx(ctx context.Context, fn func(*sql.Tx) error) error {
	return db.fullDisk(sqlitex.InTx(ctx, db.writer, fn), "The change")
}

// errorf wraps err as a state error with context.
func errorf(format string, args ...any) error {
	return fmt.Errorf("store: "+format, args...)
}

// stamp is how the state stores a time.
func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// snapshot copies the state file at path, as it stands, into a new
// temporary directory and returns the copy's path. A missing state file
// gives a path where an empty one will be made.
func snapshot(ctx context.Context, path string) (string, error) {
	dir, err := os.MkdirTemp("", "sandtrap-read-only-")
	if err != nil {
		return "", errorf("copying state %s: %w", path, err)
	}
	copyPath := filepath.Join(dir, "state.db")
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return copyPath, nil
	}
	if err := vacuumInto(ctx, path, copyPath); err != nil {
		os.RemoveAll(dir)
		return "", errorf("copying state %s: %w", path, err)
	}
	return copyPath, nil
}

// vacuumInto writes a consistent copy of the database at path to dst,
// opening path read-only.
func vacuumInto(ctx context.Context, path, dst string) error {
	d, err := sqlitex.DSN(path, url.Values{"mode": {"ro"}}, busyTimeout)
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
