package store

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sandtrap"
	"sandtrap/store/campaign"
)

// minimalSchema has only the columns contract v1 requires.
const minimalSchema = `CREATE TABLE runs (id TEXT PRIMARY KEY, name TEXT NOT NULL, started_at TEXT NOT NULL);
CREATE TABLE results (id INTEGER PRIMARY KEY, run_id TEXT NOT NULL, test TEXT NOT NULL, target TEXT NOT NULL,
	domain TEXT NOT NULL, status TEXT NOT NULL);`

func TestAMinimalCampaignIsServed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "minimal.db")
	harness(t, path, minimalSchema+`
		INSERT INTO runs VALUES ('m1', 'Minimal', '2026-06-30T22:00:00Z');
		INSERT INTO results (run_id, test, target, domain, status) VALUES
			('m1', 'a', 'browser', 'web-browsing', 'passed'),
			('m1', 'b', 'browser', 'web-browsing', 'failed'),
			('m1', 'c', 'code-interpreter', 'file-io', 'error'),
			('m1', 'd', 'code-interpreter', 'file-io', 'skipped');`)
	before := fileSHA(t, path)
	s := openStore(t, filepath.Join(t.TempDir(), "state.db"), path)
	ctx := context.Background()

	run, err := s.FindRun(ctx, "m1")
	if err != nil {
		t.Fatal(err)
	}
	if want := (sandtrap.Counts{Total: 4, Passed: 1, Failed: 1, Errored: 1, Skipped: 1}); run.Counts != want {
		t.Errorf("got counts %+v, want %+v", run.Counts, want)
	}
	if !run.Live() || run.Planned != 0 || run.Notes != "" {
		t.Errorf("got run %+v, want a live run with no plan and no notes, as a missing finished_at, planned and notes say", run)
	}
	page, err := s.FindResults(ctx, "m1", sandtrap.ResultFilter{Status: sandtrap.StatusFailed})
	if err != nil {
		t.Fatal(err)
	}
	if page.Total != 1 {
		t.Fatalf("got %d failed results, want 1", page.Total)
	}
	id := page.Results[0].ID
	r, _, err := s.FindResult(ctx, "m1", id)
	if err != nil {
		t.Fatalf("FindResult: %v", err)
	}
	if r.Test != "b" || r.Title != "" || r.HasError || r.DurationMS != -1 || r.ExitCode != nil || r.Attempt != 1 || len(r.Problems) != 0 {
		t.Errorf("got result %+v, want test b with no title, error, duration or exit code, attempt 1 and no problems", r)
	}
	log, size, err := s.ResultLog(ctx, "m1", id, 1<<20)
	if err != nil || len(log) != 0 || size != 0 {
		t.Errorf("got log %q of %d bytes (err %v), want an empty log", log, size, err)
	}
	tail, err := s.ResultLogTail(ctx, "m1", id, 100)
	if err != nil || len(tail) != 0 {
		t.Errorf("got log tail %q (err %v), want an empty one", tail, err)
	}
	arts, err := s.Artifacts(ctx, "m1", id)
	if err != nil || len(arts) != 0 {
		t.Errorf("got artifacts %v (err %v), want none", arts, err)
	}
	steps, err := s.Steps(ctx, "m1", id)
	if err != nil || len(steps) != 0 {
		t.Errorf("got steps %v (err %v), want none", steps, err)
	}
	if after := fileSHA(t, path); after != before {
		t.Error("got the campaign file changed, want its bytes untouched")
	}
}

func TestOptionalTablesMayMissOptionalColumns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lean.db")
	harness(t, path, minimalSchema+`
		CREATE TABLE artifacts (id INTEGER PRIMARY KEY, result_id INTEGER NOT NULL, name TEXT NOT NULL);
		CREATE TABLE steps (id INTEGER PRIMARY KEY, result_id INTEGER NOT NULL, seq INTEGER NOT NULL, tool TEXT NOT NULL);
		INSERT INTO runs VALUES ('m1', 'Lean', '2026-06-30T22:00:00Z');
		INSERT INTO results (id, run_id, test, target, domain, status) VALUES (1, 'm1', 'a', 'browser', 'web-browsing', 'failed');
		INSERT INTO artifacts VALUES (1, 1, 'chart.png');
		INSERT INTO steps VALUES (1, 1, 1, 'write_file');`)
	s := openStore(t, filepath.Join(t.TempDir(), "state.db"), path)
	ctx := context.Background()

	arts, err := s.Artifacts(ctx, "m1", 1)
	if err != nil || len(arts) != 1 || arts[0].Name != "chart.png" || arts[0].Size != 0 || arts[0].ExpectedSHA256 != "" {
		t.Errorf("got artifacts %+v (err %v), want chart.png with no data and nothing to check", arts, err)
	}
	a, data, err := s.ArtifactData(ctx, "m1", 1, 1)
	if err != nil || a.Name != "chart.png" || len(data) != 0 {
		t.Errorf("got artifact %+v with %d bytes (err %v), want chart.png and no bytes", a, len(data), err)
	}
	steps, err := s.Steps(ctx, "m1", 1)
	if err != nil || len(steps) != 1 || steps[0].Tool != "write_file" || steps[0].Request != nil || steps[0].Error != "" || steps[0].DurationMS != -1 {
		t.Errorf("got steps %+v (err %v), want write_file with no request, error or duration", steps, err)
	}
}

func TestLenientCampaignsAreRead(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name   string
		schema string
		run    string
		want   sandtrap.Counts
		check  func(t *testing.T, s *Store)
	}{
		{
			name: "results as a view with the contract's columns is read like a table",
			schema: strings.Replace(campaign.Schema, "CREATE TABLE results", "CREATE TABLE raw_results", 1) + `
				CREATE VIEW results AS SELECT * FROM raw_results;
				INSERT INTO runs (id, name, started_at) VALUES ('v1', 'View', '2026-06-30T22:00:00Z');
				INSERT INTO raw_results (run_id, test, target, domain, status, error, log) VALUES
					('v1', 'a', 'browser', 'web-browsing', 'passed', NULL, 'ok'),
					('v1', 'b', 'browser', 'web-browsing', 'failed', 'page.goto: Target crashed', 'boom');`,
			run:  "v1",
			want: sandtrap.Counts{Total: 2, Passed: 1, Failed: 1},
			check: func(t *testing.T, s *Store) {
				page, err := s.FindResults(ctx, "v1", sandtrap.ResultFilter{Status: sandtrap.StatusFailed})
				if err != nil || page.Total != 1 {
					t.Fatalf("got %+v (err %v), want the failure", page, err)
				}
				log, _, err := s.ResultLog(ctx, "v1", page.Results[0].ID, 100)
				if err != nil || string(log) != "boom" {
					t.Errorf("got log %q (err %v), want boom", log, err)
				}
			},
		},
		{
			name: "columns of other types are read leniently",
			schema: `CREATE TABLE runs (id INTEGER PRIMARY KEY, name TEXT, started_at TEXT);
				CREATE TABLE results (id INTEGER PRIMARY KEY, run_id INTEGER, test TEXT, target TEXT, domain TEXT,
					status INTEGER, exit_code TEXT, attempt TEXT);
				INSERT INTO runs VALUES (7, 'Integer id', '2026-06-30T22:00:00Z');
				INSERT INTO results (run_id, test, target, domain, status, exit_code, attempt) VALUES
					(7, 'a', 'browser', 'web-browsing', 'passed', '0', '1'),
					(7, 'b', 'browser', 'web-browsing', 'failed', 'junk', 'twice'),
					(7, 'c', 'browser', 'web-browsing', 3, NULL, NULL);`,
			run:  "7",
			want: sandtrap.Counts{Total: 3, Passed: 1, Failed: 1, Other: 1},
			check: func(t *testing.T, s *Store) {
				page, err := s.FindResults(ctx, "7", sandtrap.ResultFilter{Status: sandtrap.StatusFailed})
				if err != nil || page.Total != 1 {
					t.Fatalf("got %+v (err %v), want the failure", page, err)
				}
				r, _, err := s.FindResult(ctx, "7", page.Results[0].ID)
				if err != nil {
					t.Fatal(err)
				}
				if r.ExitCode != nil || r.Attempt != 1 || len(r.Problems) != 2 {
					t.Errorf("got exit code %v, attempt %d and problems %q, want unknown, 1 and both junk values named", r.ExitCode, r.Attempt, r.Problems)
				}
				other, err := s.FindResults(ctx, "7", sandtrap.ResultFilter{Status: "3"})
				if err != nil || other.Total != 1 {
					t.Errorf("got %+v (err %v), want the integer status 3 kept as it is", other, err)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "c.db")
			harness(t, path, tt.schema)
			s := openStore(t, filepath.Join(t.TempDir(), "state.db"), path)
			run, err := s.FindRun(ctx, tt.run)
			if err != nil {
				t.Fatal(err)
			}
			if run.Counts != tt.want {
				t.Errorf("got counts %+v, want %+v", run.Counts, tt.want)
			}
			tt.check(t, s)
		})
	}
}

func TestOpenRefusesFilesOutsideTheContractInOneMessage(t *testing.T) {
	tests := []struct {
		name  string
		file  string
		write func(t *testing.T, path string)
		want  string
	}{
		{"every missing table and column is named at once", "several.db",
			func(t *testing.T, path string) {
				harness(t, path, `CREATE TABLE results (id INTEGER PRIMARY KEY, run_id TEXT, test TEXT, target TEXT, error TEXT);
					CREATE TABLE steps (id INTEGER PRIMARY KEY, result_id INTEGER, seq INTEGER);`)
			},
			` does not follow the contract: table "runs" is missing; table "results" has no column "domain" or "status"; table "steps" has no column "tool"`},
		{"a file without tables names both tables", "notables.db",
			func(t *testing.T, path string) { harness(t, path, `CREATE TABLE other (x); DROP TABLE other;`) },
			` does not follow the contract: table "runs" is missing; table "results" is missing`},
		{"a WAL file without its database is missing, and says why the WAL is no help", "walonly.db",
			func(t *testing.T, path string) {
				if err := os.WriteFile(path+"-wal", []byte("a WAL file whose database was deleted"), 0o644); err != nil {
					t.Fatal(err)
				}
			},
			` is missing: no such file (walonly.db-wal is there, but a WAL file holds only recent changes: it is no database without its main file)`},
		{"a zero-byte file is refused by name", "empty.db",
			func(t *testing.T, path string) {
				if err := os.WriteFile(path, nil, 0o644); err != nil {
					t.Fatal(err)
				}
			},
			` is empty (0 bytes): it has no tables yet; serve it once the harness (or sandtrap init-db) has written its schema`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, tt.file)
			tt.write(t, path)
			before := fileSHAOrNone(t, path)
			_, err := Open(context.Background(), Options{StatePath: filepath.Join(t.TempDir(), "state.db"), Campaigns: []string{path}})
			if err == nil {
				t.Fatal("got no error, want one")
			}
			if want := "campaign " + path + tt.want; err.Error() != want {
				t.Errorf("got error %q, want %q", err, want)
			}
			if sandtrap.ErrorCode(err) != sandtrap.EINVALID {
				t.Errorf("got code %q, want %q", sandtrap.ErrorCode(err), sandtrap.EINVALID)
			}
			if after := fileSHAOrNone(t, path); after != before {
				t.Errorf("got the file %s after the refusal, want %s: sandtrap neither creates nor changes it", after, before)
			}
		})
	}
}

// fileSHAOrNone is fileSHA, or "no file" when path does not exist.
func fileSHAOrNone(t *testing.T, path string) string {
	t.Helper()
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return "no file"
	}
	return fileSHA(t, path)
}

func TestAFileStillBeingCreatedIsRefusedUntouchedThenServed(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "new.db")
	// A harness's connect creates the file before it writes the schema.
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	_, err := Open(ctx, Options{StatePath: filepath.Join(t.TempDir(), "state.db"), Campaigns: []string{path}})
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "empty") {
		t.Fatalf("got %v, want a refusal naming the empty file", err)
	}
	if got := dirEntries(t, dir); !slices.Equal(got, []string{"new.db"}) {
		t.Errorf("got files %v, want only new.db: no journal or WAL made by sandtrap", got)
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() != 0 {
		t.Fatalf("got %v (err %v), want the file still empty", fi, err)
	}

	harness(t, path, campaign.Schema+`INSERT INTO runs (id, name, started_at) VALUES ('n1', 'New', '2026-06-30T22:00:00Z');`)
	before := fileSHA(t, path)
	s := openStore(t, filepath.Join(t.TempDir(), "state.db"), path)
	if _, err := s.FindRun(ctx, "n1"); err != nil {
		t.Errorf("got %v once the schema is there, want the run served", err)
	}
	if after := fileSHA(t, path); after != before {
		t.Error("got the campaign file changed, want its bytes untouched")
	}
}

// dirEntries lists the names in dir, sorted.
func dirEntries(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}
