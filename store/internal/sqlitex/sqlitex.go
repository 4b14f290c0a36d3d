// Package sqlitex holds what the store's packages share about SQLite: the
// DSN they open files with, one transaction, what an error means, and the
// timestamps they read back.
package sqlitex

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"syscall"
	"time"

	"modernc.org/sqlite" // registers the "sqlite" driver
	sqlite3 "modernc.org/sqlite/lib"
)

// DSN builds a modernc DSN for path. busy_timeout comes first so that every
// later pragma already waits for a lock instead of failing at once.
func DSN(path string, query url.Values, busy time.Duration, pragmas ...string) (string, error) {
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

// InTx runs fn in one transaction on db, committing when fn succeeds.
func InTx(ctx context.Context, db *sql.DB, fn func(*sql.Tx) error) error {
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

// Busy reports whether err means the database stayed locked by another
// writer for longer than the busy timeout, so the work may be retried.
func Busy(err error) bool {
	var e *sqlite.Error
	return errors.As(err, &e) && e.Code()&0xff == sqlite3.SQLITE_BUSY
}

// Damaged reports whether err means a file's bytes are not a whole SQLite
// database: cut short, overwritten, or not SQLite at all.
func Damaged(err error) bool {
	var e *sqlite.Error
	var d DamageError
	if errors.As(err, &e) {
		code := e.Code() & 0xff
		return code == sqlite3.SQLITE_CORRUPT || code == sqlite3.SQLITE_NOTADB
	}
	return errors.As(err, &d)
}

// DamageError is what a check of a file's pages found wrong.
type DamageError string

func (e DamageError) Error() string { return string(e) }

// DiskFull reports whether err is a write that found no room on its disk.
func DiskFull(err error) bool {
	var e *sqlite.Error
	return errors.As(err, &e) && e.Code()&0xff == sqlite3.SQLITE_FULL || errors.Is(err, syscall.ENOSPC)
}

// ParseTime reads a timestamp as harnesses and the state write them; an
// unreadable one is the zero time.
func ParseTime(s string) time.Time {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05", "2006-01-02T15:04:05", "2006-01-02 15:04:05.999999999-07:00"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t
		}
	}
	return time.Time{}
}
