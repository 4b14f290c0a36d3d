package state

import (
	"context"
	"database/sql"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

func TestMigrationsApplyEachNumberOnceInAnyOrderTheyArrive(t *testing.T) {
	ctx := context.Background()
	migration := func(table string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte(`CREATE TABLE ` + table + ` (x);`)}
	}
	base := fstest.MapFS{"migrations/0001_a.sql": migration("a"), "migrations/0002_b.sql": migration("b")}
	with := func(extra map[string]*fstest.MapFile) fstest.MapFS {
		fsys := fstest.MapFS{}
		for k, v := range base {
			fsys[k] = v
		}
		for k, v := range extra {
			fsys[k] = v
		}
		return fsys
	}
	tests := []struct {
		name string
		// before makes the state as an earlier sandtrap left it.
		before     func(t *testing.T, db *sql.DB)
		fsys       fstest.MapFS
		wantTables []string
		wantVer    int
		wantErr    string
	}{
		{"a fresh state gets every migration, skipped numbers and all", nil,
			with(map[string]*fstest.MapFile{"migrations/0004_d.sql": migration("d")}), []string{"a", "b", "d"}, 4, ""},
		{"a number that arrives after a higher one is still applied",
			func(t *testing.T, db *sql.DB) {
				migrateOrFail(t, db, with(map[string]*fstest.MapFile{"migrations/0004_d.sql": migration("d")}))
			},
			with(map[string]*fstest.MapFile{"migrations/0003_c.sql": migration("c"), "migrations/0004_d.sql": migration("d")}),
			[]string{"a", "b", "c", "d"}, 4, ""},
		{"a state from before the ledger has had every number up to its user_version",
			func(t *testing.T, db *sql.DB) {
				execSQL(t, db, `CREATE TABLE a (x); CREATE TABLE b (x); PRAGMA user_version = 2`)
			},
			with(map[string]*fstest.MapFile{"migrations/0003_c.sql": migration("c")}), []string{"a", "b", "c"}, 3, ""},
		{"a state newer than every migration is refused",
			func(t *testing.T, db *sql.DB) { execSQL(t, db, `PRAGMA user_version = 9`) },
			base, nil, 9, "newer than this sandtrap knows"},
		{"two migrations of one number are refused", nil,
			with(map[string]*fstest.MapFile{"migrations/0002_other.sql": migration("other")}), nil, 0, "have the same number"},
		{"a migration without a number is refused", nil,
			with(map[string]*fstest.MapFile{"migrations/alerts.sql": migration("c")}), nil, 0, "not numbered like 0001_what.sql"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db, err := sql.Open("sqlite", filepath.Join(t.TempDir(), "state.db"))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if tt.before != nil {
				tt.before(t, db)
			}
			err = migrateFrom(ctx, db, tt.fsys)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got %v, want an error saying %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			// Applying again changes nothing.
			migrateOrFail(t, db, tt.fsys)
			if got := tables(t, db); !slices.Equal(got, tt.wantTables) {
				t.Errorf("got tables %v, want %v", got, tt.wantTables)
			}
			var ver int
			db.QueryRow(`PRAGMA user_version`).Scan(&ver)
			if ver != tt.wantVer {
				t.Errorf("got user_version %d, want %d", ver, tt.wantVer)
			}
		})
	}
}

func migrateOrFail(t *testing.T, db *sql.DB, fsys fstest.MapFS) {
	t.Helper()
	if err := migrateFrom(context.Background(), db, fsys); err != nil {
		t.Fatal(err)
	}
}

func execSQL(t *testing.T, db *sql.DB, q string) {
	t.Helper()
	if _, err := db.Exec(q); err != nil {
		t.Fatal(err)
	}
}

// tables lists the state's tables but the ledger, by name.
func tables(t *testing.T, db *sql.DB) []string {
	t.Helper()
	rows, err := db.Query(`SELECT name FROM sqlite_master WHERE type = 'table' AND name != 'schema_migrations' ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		rows.Scan(&n)
		out = append(out, n)
	}
	return out
}
