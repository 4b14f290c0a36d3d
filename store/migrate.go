package store

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
)

//go:embed migrations/*.sql
var migrations embed.FS

// migrate applies, in order, every embedded migration newer than the state
// file's user_version, each in its own transaction.
func migrate(ctx context.Context, db *sql.DB) error {
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return errorf("listing migrations: %w", err)
	}
	sort.Strings(names)
	var current int
	if err := db.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&current); err != nil {
		return errorf("reading the state's schema version: %w", err)
	}
	if current > len(names) {
		return errorf("the state file's schema version %d is newer than this sandtrap knows (%d): use a newer sandtrap or another --state file", current, len(names))
	}
	for i, name := range names {
		version := i + 1
		if prefix, _, _ := strings.Cut(strings.TrimPrefix(name, "migrations/"), "_"); prefix != fmt.Sprintf("%04d", version) {
			return errorf("migration %s is out of sequence: want number %04d", name, version)
		}
		if version <= current {
			continue
		}
		body, err := migrations.ReadFile(name)
		if err != nil {
			return errorf("reading migration %s: %w", name, err)
		}
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return errorf("migrating the state to version %d: %w", version, err)
		}
		if _, err := tx.ExecContext(ctx, string(body)); err != nil {
			tx.Rollback()
			return errorf("migrating the state with %s: %w", name, err)
		}
		if _, err := tx.ExecContext(ctx, `PRAGMA user_version = `+strconv.Itoa(version)); err != nil {
			tx.Rollback()
			return errorf("migrating the state to version %d: %w", version, err)
		}
		if err := tx.Commit(); err != nil {
			return errorf("migrating the state to version %d: %w", version, err)
		}
	}
	return nil
}
