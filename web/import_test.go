package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sandtrap"
	"sandtrap/store"
)

// importReports runs `sandtrap import` with args and returns what it
// printed.
func importReports(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(context.Background(), append([]string{"import"}, args...), &out, &errOut)
	return out.String(), err
}

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// missingTool skips a test whose tool is not installed, except under
// CI=true, where the tool must be there.
func missingTool(t *testing.T, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf(format, args...)
	}
	t.Skipf(format, args...)
}

// servedRun opens the campaign file the way `sandtrap serve` does and
// returns the run as it would show it.
func servedRun(t *testing.T, campaign, runID string) sandtrap.Run {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st, err := store.Open(ctx, store.Options{StatePath: filepath.Join(t.TempDir(), "state.db"), Campaigns: []string{campaign}, Poll: 5 * time.Millisecond})
	if err != nil {
		t.Fatalf("serve cannot open the imported file: %v", err)
	}
	defer st.Close()
	st.Start(context.Background())
	if err := st.WaitIndexed(ctx); err != nil {
		t.Fatal(err)
	}
	run, err := st.FindRun(ctx, runID)
	if err != nil {
		t.Fatalf("serve does not find run %q: %v", runID, err)
	}
	return run
}

// importedRow is a results row as the import wrote it.
type importedRow struct {
	test, target, domain, status         string
	attempt                              int
	errText, title, layer, prim, worker  sql.NullString
	log                                  []byte
	durationMS                           sql.NullInt64
	artifacts, steps                     int
	runID, runName, runNotes, runStarted string
	runFinished                          sql.NullString
}

func importedRows(t *testing.T, campaign string) []importedRow {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+campaign+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT r.test, r.target, r.domain, r.status, r.attempt, r.error, r.title, r.layer, r.primitive, r.worker, r.log, r.duration_ms,
		(SELECT count(*) FROM artifacts a WHERE a.result_id = r.id), (SELECT count(*) FROM steps s WHERE s.result_id = r.id),
		u.id, u.name, coalesce(u.notes, ''), u.started_at, u.finished_at
		FROM results r JOIN runs u ON u.id = r.run_id ORDER BY r.id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []importedRow
	for rows.Next() {
		var r importedRow
		if err := rows.Scan(&r.test, &r.target, &r.domain, &r.status, &r.attempt, &r.errText, &r.title, &r.layer, &r.prim, &r.worker,
			&r.log, &r.durationMS, &r.artifacts, &r.steps, &r.runID, &r.runName, &r.runNotes, &r.runStarted, &r.runFinished); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// rowOf finds the row of a test's attempt.
func rowOf(t *testing.T, rows []importedRow, test string, attempt int) importedRow {
	t.Helper()
	var tests []string
	for _, r := range rows {
		if r.test == test && r.attempt == attempt {
			return r
		}
		tests = append(tests, r.test)
	}
	t.Fatalf("got no attempt %d of %q among %q", attempt, test, tests)
	return importedRow{}
}

func TestImportCommandLineMistakesAreUsageErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no format", []string{"--into", "c.db", "r.xml"}, "needs --format"},
		{"an unknown format", []string{"--format", "tap", "--into", "c.db", "r.xml"}, `unknown format "tap"`},
		{"no campaign file", []string{"--format", "junit", "r.xml"}, "needs --into"},
		{"no report", []string{"--format", "junit", "--into", "c.db"}, "at least one report file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := importReports(t, tt.args...)
			var ue usageError
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want a usage error saying %q", err, tt.want)
			}
		})
	}
}

// pytestPython finds a Python that has pytest; Debian's python3-pytest
// installs it for /usr/bin/python3, which another python3 may shadow.
func pytestPython(t *testing.T) string {
	t.Helper()
	for _, py := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(py, "-m", "pytest", "--version").Run() == nil {
			return py
		}
	}
	missingTool(t, "pytest is missing: install Debian's python3-pytest (apt-get install python3-pytest) to import its JUnit report")
	return ""
}

func TestImportPytestJUnitReport(t *testing.T) {
	py := pytestPython(t)
	dir := t.TempDir()
	report := filepath.Join(dir, "pytest.xml")
	cmd := exec.Command(py, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "junit_logging=all", "--junitxml", report, "test_sandbox.py")
	cmd.Dir = filepath.Join("..", "testdata", "import", "pytest")
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
	// pytest exits 1 because some tests fail; what matters is the report.
	if out, err := cmd.CombinedOutput(); err != nil {
		if _, statErr := os.Stat(report); statErr != nil {
			t.Fatalf("pytest wrote no report: %v\n%s", err, out)
		}
	}
	campaign := filepath.Join(dir, "campaign.db")
	if _, err := importReports(t, "--format", "junit", "--into", campaign, "--run", "pytest", report); err != nil {
		t.Fatal(err)
	}

	t.Run("serve counts every status", func(t *testing.T) {
		got := servedRun(t, campaign, "pytest").Counts
		want := sandtrap.Counts{Total: 5, Passed: 2, Failed: 1, Errored: 1, Skipped: 1}
		if got != want {
			t.Errorf("got %+v, want %+v", got, want)
		}
	})
	rows := importedRows(t, campaign)
	t.Run("a failed assertion keeps its message and its traceback", func(t *testing.T) {
		r := rowOf(t, rows, "test_sandbox.test_reads_back", 1)
		if r.status != "failed" || !strings.HasPrefix(r.errText.String, "AssertionError: round trip changed the text") ||
			!strings.Contains(r.errText.String, "test_sandbox.py:") {
			t.Errorf("got %s with error %q, want failed with the message, then the traceback", r.status, r.errText.String)
		}
	})
	t.Run("a fixture error is an error", func(t *testing.T) {
		r := rowOf(t, rows, "test_sandbox.test_needs_a_sandbox", 1)
		if r.status != "error" || !strings.Contains(r.errText.String, "sandbox did not start") {
			t.Errorf("got %s with error %q, want error saying the sandbox did not start", r.status, r.errText.String)
		}
	})
	t.Run("printed output is in the log under its stream", func(t *testing.T) {
		log := string(rowOf(t, rows, "test_sandbox.test_prints", 1).log)
		out, errOut, ok := strings.Cut(log, "--- system-err ---\n")
		if !ok || !strings.Contains(out, "--- system-out ---\n") || !strings.Contains(out, "héllo from stdout") || !strings.Contains(errOut, "warning on stderr") {
			t.Errorf("got log %q, want stdout and stderr under their labels", log)
		}
	})
	t.Run("the suite's property is the target and its name the domain", func(t *testing.T) {
		for _, r := range rows {
			if r.target != "code-interpreter" || r.domain != "pytest" {
				t.Errorf("got %s on %s/%s, want code-interpreter/pytest", r.test, r.target, r.domain)
			}
		}
	})
}

func TestImportGotestsumJUnitReport(t *testing.T) {
	dir := t.TempDir()
	report := filepath.Join(dir, "go.xml")
	cmd := exec.Command("go", "run", "gotest.tools/gotestsum@v1.13.0", "--junitfile", report, "--", "./testdata/import/go/sample/")
	cmd.Dir = ".."
	out, err := cmd.CombinedOutput()
	if _, statErr := os.Stat(report); statErr != nil {
		missingTool(t, "gotestsum did not run (go run gotest.tools/gotestsum@v1.13.0 needs the Go module proxy): %v\n%s", err, out)
	}
	campaign := filepath.Join(dir, "campaign.db")
	if _, err := importReports(t, "--format", "junit", "--into", campaign, "--run", "go", "--name", "Go tests",
		"--target", "code-interpreter", "--domain", "file-io", report); err != nil {
		t.Fatal(err)
	}

	t.Run("serve counts every status", func(t *testing.T) {
		got := servedRun(t, campaign, "go").Counts
		want := sandtrap.Counts{Total: 6, Passed: 2, Failed: 3, Skipped: 1}
		if got != want {
			t.Errorf("got %+v, want %+v", got, want)
		}
	})
	rows := importedRows(t, campaign)
	t.Run("a failing test keeps what it said", func(t *testing.T) {
		r := rowOf(t, rows, "sandtrap/testdata/import/go/sample.TestReadsBack", 1)
		if r.status != "failed" || !strings.Contains(r.errText.String, `got "héllo", want "hello"`) {
			t.Errorf("got %s with error %q, want failed with the t.Errorf text", r.status, r.errText.String)
		}
	})
	t.Run("a subtest is a test of its own", func(t *testing.T) {
		if r := rowOf(t, rows, "sandtrap/testdata/import/go/sample.TestBrowser/submits_a_form", 1); r.status != "failed" {
			t.Errorf("got %s, want failed", r.status)
		}
	})
	t.Run("the flags fill the target and the domain, and name the run", func(t *testing.T) {
		for _, r := range rows {
			if r.target != "code-interpreter" || r.domain != "file-io" || r.runName != "Go tests" {
				t.Errorf("got %s on %s/%s in %q, want code-interpreter/file-io in \"Go tests\"", r.test, r.target, r.domain, r.runName)
			}
		}
	})
}

func TestImportMochaCTRFReport(t *testing.T) {
	node, err := exec.LookPath("node")
	project := filepath.Join("..", "testdata", "import", "node")
	mocha := filepath.Join(project, "node_modules", "mocha", "bin", "mocha.js")
	if _, statErr := os.Stat(mocha); err != nil || statErr != nil {
		missingTool(t, "node or mocha is missing: install Node.js, then run npm ci --prefix testdata/import/node")
	}
	dir := t.TempDir()
	cmd := exec.Command(node, filepath.Join("node_modules", "mocha", "bin", "mocha.js"), "--reporter", "mocha-ctrf-json-reporter",
		"--reporter-option", "outputDir="+dir, "--reporter-option", "outputFile=ctrf.json", "test/")
	cmd.Dir = project
	out, err := cmd.CombinedOutput()
	report := filepath.Join(dir, "ctrf.json")
	if _, statErr := os.Stat(report); statErr != nil {
		t.Fatalf("mocha wrote no report: %v\n%s", err, out)
	}
	campaign := filepath.Join(dir, "campaign.db")
	printed, err := importReports(t, "--format", "ctrf", "--into", campaign, "--domain", "file-io", report)
	if err != nil {
		t.Fatal(err)
	}
	rows := importedRows(t, campaign)
	if len(rows) == 0 {
		t.Fatal("got no rows")
	}
	runID := rows[0].runID

	t.Run("the run id is made of the file's name and the report's start", func(t *testing.T) {
		if !strings.HasPrefix(runID, "ctrf-") || !strings.Contains(printed, runID) {
			t.Errorf("got run %q and output %q, want a ctrf-TIME id that the output names", runID, printed)
		}
	})
	t.Run("serve counts every status, pending as skipped", func(t *testing.T) {
		got := servedRun(t, campaign, runID).Counts
		want := sandtrap.Counts{Total: 6, Passed: 2, Failed: 3, Skipped: 1}
		if got != want {
			t.Errorf("got %+v, want %+v", got, want)
		}
	})
	t.Run("a retried test has a failed attempt, then a passed one", func(t *testing.T) {
		first := rowOf(t, rows, "sandbox reaches the network on a retry", 1)
		second := rowOf(t, rows, "sandbox reaches the network on a retry", 2)
		if first.status != "failed" || second.status != "passed" {
			t.Errorf("got %s then %s, want failed then passed", first.status, second.status)
		}
		if !strings.Contains(first.runNotes, "Flaky") || !strings.Contains(first.runNotes, "sandbox reaches the network on a retry") {
			t.Errorf("got notes %q, want the flaky test named", first.runNotes)
		}
	})
	t.Run("extra fields fill the columns they name", func(t *testing.T) {
		r := rowOf(t, rows, "sandbox opens a page", 1)
		got := []string{r.target, r.domain, r.layer.String, r.prim.String}
		want := []string{"browser", "web-browsing", "sandbox", "network-egress"}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("got %q, want %q", got, want)
		}
	})
	t.Run("without extra fields the flag and the default decide", func(t *testing.T) {
		r := rowOf(t, rows, "sandbox reads the file back", 1)
		if r.target != "imported" || r.domain != "file-io" {
			t.Errorf("got %s/%s, want imported/file-io", r.target, r.domain)
		}
		if !strings.HasPrefix(r.errText.String, "AssertionError round trip changed the text") || !strings.Contains(r.errText.String, "sandbox.test.js") {
			t.Errorf("got error %q, want the message, then the trace", r.errText.String)
		}
	})
}

func TestImportKeepsWhatReportsSay(t *testing.T) {
	dir := t.TempDir()
	huge := strings.Repeat("MemoryError: cannot allocate ", 300_000) // 8.7 MB
	junit := writeFile(t, dir, "edge.xml", `<?xml version="1.0" encoding="UTF-8"?>
<testsuites>
<testsuite name="file-io" timestamp="2026-06-30T22:00:00Z">
  <properties><property name="target" value="code-interpreter"/></properties>
  <testcase classname="io" name="nul"><failure message="bytes differ"/><system-out>a&#0;b`+"\x00\xff\xfe\x1b[31m"+`</system-out></testcase>
  <testcase classname="io" name="huge" time="0.5"><failure message="`+huge+`"/></testcase>
  <testcase classname="io" name="owned">
    <properties><property name="domain" value="ml-training"/><property name="worker" value="subagent-03"/><property name="title" value="Train a model"/></properties>
  </testcase>
</testsuite>
</testsuites>`)
	writeFile(t, dir, "shots/chart.png", "\x89PNG\r\n\x1a\nnot really")
	ctrf := writeFile(t, dir, "edge.json", `{"results": {"tool": {"name": "harness"}, "summary": {"start": 1782856800000, "stop": 1782856900000}, "tests": [
  {"name": "plain", "status": "passed", "duration": 3},
  {"name": "upload", "status": "failed", "duration": 7, "suite": ["uploads"], "message": "mismatch",
   "attachments": [{"name": "chart.png", "contentType": "image/png", "path": "shots/chart.png"}],
   "steps": [{"name": "write_file", "status": "passed"}, {"name": "read_file", "status": "failed"}]}
]}}`)
	campaign := filepath.Join(dir, "campaign.db")
	if _, err := importReports(t, "--format", "junit", "--into", campaign, "--run", "edge", "--domain", "from-flag", junit); err != nil {
		t.Fatal(err)
	}
	if _, err := importReports(t, "--format", "ctrf", "--into", campaign, "--run", "ctrf", ctrf); err != nil {
		t.Fatal(err)
	}
	rows := importedRows(t, campaign)

	tests := []struct {
		name string
		got  any
		want any
	}{
		{"NUL and invalid UTF-8 in system-out are kept byte for byte", string(rowOf(t, rows, "io.nul", 1).log), "--- system-out ---\na\x00b\x00\xff\xfe\x1b[31m\n"},
		{"a huge message is kept whole", rowOf(t, rows, "io.huge", 1).errText.String == huge, true},
		{"the time is in milliseconds", rowOf(t, rows, "io.huge", 1).durationMS.Int64, int64(500)},
		{"a case's domain property beats the flag", rowOf(t, rows, "io.owned", 1).domain, "ml-training"},
		{"the flag beats the suite's name", rowOf(t, rows, "io.nul", 1).domain, "from-flag"},
		{"a worker property is the worker", rowOf(t, rows, "io.owned", 1).worker.String, "subagent-03"},
		{"a title property is the title", rowOf(t, rows, "io.owned", 1).title.String, "Train a model"},
		{"the suite's timestamp starts the run", rowOf(t, rows, "io.nul", 1).runStarted, "2026-06-30T22:00:00.000Z"},
		{"an import is a finished run", rowOf(t, rows, "io.nul", 1).runFinished.Valid, true},
		{"the run's name is its id by default", rowOf(t, rows, "io.nul", 1).runName, "edge"},
		{"without a flag the suite names the domain", rowOf(t, rows, "uploads > upload", 1).domain, "uploads"},
		{"without a suite the domain is imported", rowOf(t, rows, "plain", 1).domain, "imported"},
		{"an attachment is read from beside the report", rowOf(t, rows, "uploads > upload", 1).artifacts, 1},
		{"steps are rows", rowOf(t, rows, "uploads > upload", 1).steps, 2},
		{"summary.start starts the run", rowOf(t, rows, "uploads > upload", 1).runStarted, "2026-06-30T22:00:00.000Z"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("got %q, want %q", tt.got, tt.want)
			}
		})
	}

	t.Run("the attachment's bytes and the failed step's error are stored", func(t *testing.T) {
		db, err := sql.Open("sqlite", "file:"+campaign+"?mode=ro")
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		var name, mediaType string
		var data []byte
		if err := db.QueryRow(`SELECT name, media_type, data FROM artifacts`).Scan(&name, &mediaType, &data); err != nil {
			t.Fatal(err)
		}
		if name != "chart.png" || mediaType != "image/png" || string(data) != "\x89PNG\r\n\x1a\nnot really" {
			t.Errorf("got %s (%s) %q, want chart.png (image/png) with the file's bytes", name, mediaType, data)
		}
		var steps []string
		rs, err := db.Query(`SELECT seq || ' ' || tool || ' ' || coalesce(error, '-') FROM steps ORDER BY seq`)
		if err != nil {
			t.Fatal(err)
		}
		defer rs.Close()
		for rs.Next() {
			var s string
			rs.Scan(&s)
			steps = append(steps, s)
		}
		if got, want := strings.Join(steps, ", "), "1 write_file -, 2 read_file failed"; got != want {
			t.Errorf("got steps %q, want %q", got, want)
		}
	})
}

func TestImportCountsATestThatComesAgainAsItsNextAttempt(t *testing.T) {
	dir := t.TempDir()
	first := writeFile(t, dir, "first.xml", `<testsuite name="s"><testcase classname="c" name="t"><failure message="one"/></testcase>
<testcase classname="c" name="t"><failure message="two"/></testcase></testsuite>`)
	rerun := writeFile(t, dir, "rerun.xml", `<testsuite name="s"><testcase classname="c" name="t"/></testsuite>`)
	campaign := filepath.Join(dir, "campaign.db")
	if _, err := importReports(t, "--format", "junit", "--into", campaign, "--run", "r", first, rerun); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range importedRows(t, campaign) {
		got = append(got, r.status+"@"+string(rune('0'+r.attempt)))
	}
	if want := "failed@1 failed@2 passed@3"; strings.Join(got, " ") != want {
		t.Errorf("got %q, want %q", strings.Join(got, " "), want)
	}
}

func TestARefusedImportAppendsNothing(t *testing.T) {
	dir := t.TempDir()
	good := writeFile(t, dir, "good.xml", `<testsuite name="s" timestamp="2026-06-30T22:00:00Z"><testcase name="t"/></testsuite>`)
	campaign := filepath.Join(dir, "campaign.db")
	if _, err := importReports(t, "--format", "junit", "--into", campaign, good); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(campaign)
	if err != nil {
		t.Fatal(err)
	}
	badXML := writeFile(t, dir, "bad.xml", "<testsuites>\n<testsuite name=\"a\">\n<testcase name=\"x\">\n</testsuite>\n")
	badStatus := writeFile(t, dir, "bad.json", `{"results": {"tests": [{"name": "a", "status": "passed", "duration": 1}, {"name": "b", "status": "exploded", "duration": 1}]}}`)
	lost := writeFile(t, dir, "lost.json", `{"results": {"tests": [{"name": "a", "status": "failed", "duration": 1, "attachments": [{"name": "x", "contentType": "text/plain", "path": "gone.txt"}]}]}}`)
	ctrf := writeFile(t, dir, "report.json", `{"results": {"tests": [{"name": "a", "status": "passed", "duration": 1}]}}`)
	empty := writeFile(t, dir, "empty.xml", `<testsuites/>`)

	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"the same report again names the run and the file", []string{"--format", "junit", good}, []string{`run "good-20260630T220000Z"`, "good.xml", "campaign.db", "--run"}},
		{"a run id the file has is refused", []string{"--format", "ctrf", "--run", "good-20260630T220000Z", ctrf}, []string{`run "good-20260630T220000Z"`, "campaign.db"}},
		{"malformed XML names the file and the line", []string{"--format", "junit", "--run", "new", good, badXML}, []string{"bad.xml:4:", "bad XML"}},
		{"an unknown status names the field", []string{"--format", "ctrf", badStatus}, []string{"bad.json: results.tests[1].status", `"exploded"`}},
		{"a missing attachment names the field", []string{"--format", "ctrf", lost}, []string{"lost.json: results.tests[0].attachments[0].path", "gone.txt"}},
		{"a CTRF file given as JUnit says so", []string{"--format", "junit", ctrf}, []string{"report.json:1:", "use --format ctrf"}},
		{"a report without tests is refused", []string{"--format", "junit", empty}, []string{"no tests", "empty.xml"}},
		{"a missing report is named", []string{"--format", "junit", filepath.Join(dir, "nope.xml")}, []string{"nope.xml"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := importReports(t, append([]string{"--into", campaign}, tt.args...)...)
			if err == nil {
				t.Fatal("got no error, want the import refused")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("got %q, want it to say %q", err, w)
				}
			}
			after, err := os.ReadFile(campaign)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(after, before) {
				t.Errorf("got a campaign file of sha256 %x, want it byte-identical to before (%x)", sha256.Sum256(after), sha256.Sum256(before))
			}
			for _, side := range []string{"-wal", "-shm", "-journal"} {
				if _, err := os.Stat(campaign + side); err == nil {
					t.Errorf("got %s left behind, want none", filepath.Base(campaign+side))
				}
			}
		})
	}

	t.Run("a refused import into a missing file creates none", func(t *testing.T) {
		missing := filepath.Join(dir, "new.db")
		if _, err := importReports(t, "--format", "ctrf", "--into", missing, lost); err == nil {
			t.Fatal("got no error, want the import refused")
		}
		if _, err := os.Stat(missing); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("got %v, want no file at %s", err, missing)
		}
	})
}
