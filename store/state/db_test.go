package state

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A connection can still be in use when Close is called: database/sql
// rolls back a transaction whose context ended in a goroutine of its own.
// Close must wait for it, or the file is read (copied, backed up) while
// its pages are still in the -wal.
func TestCloseLeavesTheFileWholeOnceEveryConnectionIsDone(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	db, err := Open(t.Context(), path, false)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := db.reader.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := conn.QueryRowContext(t.Context(), `SELECT count(*) FROM schema_migrations`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	closed := make(chan error, 1)
	go func() { closed <- db.Close() }()
	select {
	case <-closed:
		size, wal := fileSize(path), fileSize(path+"-wal")
		conn.Close()
		t.Fatalf("Close returned while a connection was still in use, leaving %s at %d bytes beside a -wal of %d", path, size, wal)
	case <-time.After(200 * time.Millisecond):
	}
	conn.Close()
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
	if exists(path + "-wal") {
		t.Errorf("got %s-wal left after Close, want every page in %s", path, path)
	}
}

func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.Size()
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return !errors.Is(err, fs.ErrNotExist)
}
