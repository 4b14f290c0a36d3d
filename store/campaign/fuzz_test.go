package campaign

import (
	"context"
	"database/sql"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// stored is what a results column of numbers should read as, given what
// SQLite stored when the harness wrote into it (its affinity turns numeric
// text into numbers): an integer as it is, a finite real in int64's range
// cut to an integer, text that spells one as that; NULL and empty text as
// unknown; anything else as unknown and named among the row's problems.
func stored(v any) (n int64, known, named bool) {
	switch x := v.(type) {
	case nil:
		return 0, false, false
	case int64:
		return x, true, false
	case float64:
		if math.IsNaN(x) || x < math.MinInt64 || x >= math.MaxInt64 {
			return 0, false, true
		}
		return int64(x), true, false
	case []byte:
		v = string(x)
	}
	s := v.(string)
	if s == "" {
		return 0, false, false
	}
	if i, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64); err == nil {
		return i, true, false
	}
	if f, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err == nil {
		return stored(f)
	}
	return 0, false, true
}

// FuzzResultRow writes one results row whose values are fuzzed (a status,
// an error with NULs, numbers written as any text) into a campaign file,
// then reads it back as pages and the indexer do. Reading never fails;
// text comes back byte for byte; a number reads as the number SQLite
// stored, and junk as unknown, named among the row's problems; and the
// indexer reads the row as the pages do.
func FuzzResultRow(f *testing.F) {
	ctx := context.Background()
	path := filepath.Join(f.TempDir(), "campaign.db")
	w, err := sql.Open("sqlite", path)
	if err != nil {
		f.Fatal(err)
	}
	defer w.Close()
	if _, err := w.Exec(Schema + `;INSERT INTO runs (id, name, started_at) VALUES ('r', 'R', '2026-06-30T22:00:00Z')`); err != nil {
		f.Fatal(err)
	}
	c, err := Open(ctx, path, time.Second)
	if err != nil {
		f.Fatal(err)
	}
	defer c.Close()
	f.Fuzz(func(t *testing.T, status string, errText string, duration, exit, attempt string, log []byte) {
		res, err := w.Exec(`INSERT INTO results (run_id, test, target, domain, status, error, duration_ms, exit_code, attempt, log)
			VALUES ('r', 't', 'code-interpreter', 'file-io', ?, ?, ?, ?, ?, ?)`, status, errText, duration, exit, attempt, log)
		if err != nil {
			t.Fatalf("writing the row: %v", err)
		}
		id, _ := res.LastInsertId()
		r, runID, err := c.Result(ctx, id)
		if err != nil {
			t.Fatalf("reading the row back: %v", err)
		}
		if runID != "r" || r.Status != status || r.Error != errText || !r.HasError || r.LogSize != int64(len(log)) {
			t.Fatalf("got run %q, status %q, error %q (%v) and a log of %d bytes; want r, %q, %q and %d", runID, r.Status, r.Error, r.HasError, r.LogSize, status, errText, len(log))
		}
		var values [3]any
		if err := w.QueryRow(`SELECT duration_ms, exit_code, attempt FROM results WHERE id = ?`, id).Scan(&values[0], &values[1], &values[2]); err != nil {
			t.Fatal(err)
		}
		var problems []string
		check := func(column string, v any, got int64, known bool, unknown int64) {
			n, ok, named := stored(v)
			if named {
				problems = append(problems, column)
			}
			if !ok {
				n = unknown
			}
			if got != n || known != ok {
				t.Fatalf("%s stored as %#v reads as %d (known %v), want %d (known %v)", column, v, got, known, n, ok)
			}
		}
		check("duration_ms", values[0], r.DurationMS, r.DurationMS != -1 || values[0] == int64(-1), -1)
		var exitCode int64
		if r.ExitCode != nil {
			exitCode = *r.ExitCode
		}
		check("exit_code", values[1], exitCode, r.ExitCode != nil, 0)
		n, ok, junk := stored(values[2])
		if junk {
			problems = append(problems, "attempt")
		}
		if !ok || n < 1 {
			n = 1
		}
		if int64(r.Attempt) != n {
			t.Fatalf("attempt stored as %#v reads as %d, want %d", values[2], r.Attempt, n)
		}
		var named []string
		for _, p := range r.Problems {
			named = append(named, strings.Fields(p)[0])
		}
		if !slices.Equal(named, problems) {
			t.Fatalf("got problems %q, want %v named", r.Problems, problems)
		}

		var rows int
		err = c.ScanResults(ctx, id-1, id, func(row *ResultRow) error {
			rows++
			if row.Status != status || row.Error != errText || row.Attempt != int64(r.Attempt) || row.ExitCode.Valid != (r.ExitCode != nil) ||
				row.ExitCode.Valid && row.ExitCode.Int64 != *r.ExitCode {
				t.Fatalf("the indexer reads status %q, error %q, attempt %d, exit code %v; the pages %q, %q, %d, %v",
					row.Status, row.Error, row.Attempt, row.ExitCode, r.Status, r.Error, r.Attempt, r.ExitCode)
			}
			return nil
		})
		if err != nil || rows != 1 {
			t.Fatalf("the indexer read %d rows (%v), want the one", rows, err)
		}
	})
}
