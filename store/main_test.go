package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"sandtrap/store/campaign"
)

// TestMain lets the test binary act as a harness in another process: with
// SANDTRAP_WRITER_DB set, it runs the SQL in SANDTRAP_WRITER_SQL against
// that file in one transaction and exits.
func TestMain(m *testing.M) {
	if path := os.Getenv("SANDTRAP_WRITER_DB"); path != "" {
		if err := writeSQL(path, os.Getenv("SANDTRAP_WRITER_SQL")); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func writeSQL(path, script string) error {
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_txlock=immediate")
	if err != nil {
		return err
	}
	defer db.Close()
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	if _, err := tx.Exec(script); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// harness runs script against path in a separate process, as a harness's
// sub-agent would.
func harness(t *testing.T, path, script string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "SANDTRAP_WRITER_DB="+path, "SANDTRAP_WRITER_SQL="+script)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("harness process failed: %v\n%s", err, out)
	}
}

// newCampaign creates a campaign file in another process and returns its path.
func newCampaign(t *testing.T, name string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	harness(t, path, campaign.Schema)
	return path
}

// addRun inserts a run and n results in another process. Results cycle
// through the given statuses and errors.
func addRun(t *testing.T, path, run string, finished bool, rows string) {
	t.Helper()
	fin := "NULL"
	if finished {
		fin = "'2026-06-30T23:00:00Z'"
	}
	harness(t, path, `INSERT OR IGNORE INTO runs (id, name, started_at, finished_at, planned) VALUES ('`+run+`', 'Run `+run+`', '2026-06-30T22:00:00Z', `+fin+`, 100);`+rows)
}

// resultsSQL inserts n results into run: every fifth fails with a permission
// error on code-interpreter, every seventh is an error on browser, the rest pass.
func resultsSQL(run string, n int) string {
	return `WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < ` + itoa(n) + `)
	INSERT INTO results (run_id, test, target, domain, status, error, log)
	SELECT '` + run + `', 'file-io/t-' || i,
		CASE WHEN i % 7 = 0 THEN 'browser' ELSE 'code-interpreter' END,
		CASE WHEN i % 2 = 0 THEN 'file-io' ELSE 'package-install' END,
		CASE WHEN i % 5 = 0 THEN 'failed' WHEN i % 7 = 0 THEN 'error' ELSE 'passed' END,
		CASE WHEN i % 5 = 0 THEN 'PermissionError: [Errno 13] Permission denied: ''/usr/lib/python3/dist-packages/x' || i || '''' 
		     WHEN i % 7 = 0 THEN 'page.goto: Target crashed' ELSE NULL END,
		'log line ' || i
	FROM seq;`
}

func itoa(n int) string { return strconv.Itoa(n) }

func fileSHA(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// openStore opens a store over the campaigns with a fresh state file in dir
// and waits for the first read.
func openStore(t *testing.T, state string, campaigns ...string) *Store {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := Open(ctx, Options{StatePath: state, Campaigns: campaigns, Poll: 5 * time.Millisecond})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	s.Start(context.Background())
	if err := s.WaitIndexed(ctx); err != nil {
		t.Fatalf("WaitIndexed: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// stateDB opens the state file of s for the test to query, read-only.
func stateDB(t *testing.T, s *Store) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+s.opts.StatePath+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
