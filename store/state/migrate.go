package state

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"time"

	"sandtrap/store/internal/sqlitex"
)

//go:embed migrations/*.sql
var migrations embed.FS

// migrate applies the embedded migrations to the state.
func migrate(ctx context.Context, db *sql.DB) error {
	return migrateFrom(ctx, db, migrations)
}

// migrateFrom applies, in order of their numbers, every migration in fsys
// the state has not had, each in its own transaction. Numbers may skip one
// that another branch holds; when it arrives later, it is still applied,
// because schema_migrations records each applied number. State files from
// before that table count every number up to their user_version as
// applied; user_version keeps the highest applied number.
func migrateFrom(ctx context.Context, db *sql.DB, fsys fs.FS) error {
	names, err := fs.Glob(fsys, "migrations/*.sql")
	if err != nil {
		return errorf("listing migrations: %w", err)
	}
	sort.Strings(names)
	versions := make([]int, len(names))
	for i, name := range names {
		prefix, _, _ := strings.Cut(strings.TrimPrefix(name, "migrations/"), "_")
		v, err := strconv.Atoi(prefix)
		if err != nil || v < 1 || len(prefix) != 4 {
			return errorf("migration %s is not numbered like 0001_what.sql", name)
		}
		if i > 0 && v == versions[i-1] {
			return errorf("migrations %s and %s have the same number", names[i-1], name)
		}
		versions[i] = v
	}
	var current int
	if err := db.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&current); err != nil {
		return errorf("reading the state's schema version: %w", err)
	}
	if len(versions) > 0 && current > versions[len(versions)-1] {
		return errorf("the state file's schema version %d is newer than this sandtrap knows (%d): use a newer sandtrap or another --state file", current, versions[len(versions)-1])
	}
	applied, err := appliedMigrations(ctx, db, versions, current)
	if err != nil {
		return err
	}
	for i, name := range names {
		version := versions[i]
		if applied[version] {
			continue
		}
		body, err := fs.ReadFile(fsys, name)
		if err != nil {
			return errorf("reading migration %s: %w", name, err)
		}
		current = max(current, version)
		err = sqlitex.InTx(ctx, db, func(tx *sql.Tx) error {
			if _, err := tx.ExecContext(ctx, string(body)); err != nil {
				return fmt.Errorf("with %s: %w", name, err)
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)`, version, stamp(time.Now())); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, `PRAGMA user_version = `+strconv.Itoa(current))
			return err
		})
		if err != nil {
			return errorf("migrating the state to version %d: %w", version, err)
		}
	}
	return nil
}

// appliedMigrations returns the numbers of the migrations the state has had,
// creating schema_migrations, and filling it for a state file from before
// it, whose user_version says how far it went.
func appliedMigrations(ctx context.Context, db *sql.DB, versions []int, current int) (map[int]bool, error) {
	applied := map[int]bool{}
	err := sqlitex.InTx(ctx, db, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)`); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT version FROM schema_migrations`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var v int
			if err := rows.Scan(&v); err != nil {
				return err
			}
			applied[v] = true
		}
		if err := rows.Err(); err != nil {
			return err
		}
		if len(applied) > 0 {
			return nil
		}
		for _, v := range versions {
			if v > current {
				break
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, applied_at) VALUES (?, '')`, v); err != nil {
				return err
			}
			applied[v] = true
		}
		return nil
	})
	if err != nil {
		return nil, errorf("reading which migrations the state has had: %w", err)
	}
	return applied, nil
}
