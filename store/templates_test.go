package store

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"sandtrap"
	"sandtrap/triage"
)

// classificationOf returns the classification of result id of run.
func classificationOf(t *testing.T, s *Store, run string, id int64) sandtrap.Classification {
	t.Helper()
	_, cl, err := s.FindResult(context.Background(), run, id)
	if err != nil {
		t.Fatalf("FindResult %s/%d: %v", run, id, err)
	}
	return cl
}

func TestEveryPieceOfEvidenceClassifiesInServe(t *testing.T) {
	path := newCampaign(t, "evidence.db")
	addRun(t, path, "r1", true, `
		INSERT INTO results (id, run_id, test, target, domain, status, error, log, exit_code) VALUES
			(1, 'r1', 'downloads/a', 'code-interpreter', 'downloads', 'failed', 'assertion failed: image differs', NULL, 1),
			(2, 'r1', 'builds/b', 'code-interpreter', 'builds', 'failed', '', 'compiling' || char(10) || '/bin/sh: 1: cc1plus: not found' || char(10), 1),
			(3, 'r1', 'forms/c', 'browser', 'forms', 'failed', NULL, NULL, NULL),
			(4, 'r1', 'builds/d', 'code-interpreter', 'builds', 'failed', 'step 3 failed', 'ok' || char(10) || 'quota: widget store full' || char(10), 1),
			(5, 'r1', 'downloads/e', 'code-interpreter', 'downloads', 'passed', NULL, NULL, 0),
			(6, 'r1', 'downloads/f', 'browser', 'downloads', 'failed', 'assertion failed: image differs', NULL, 1),
			(7, 'r1', 'downloads/g', 'browser', 'downloads', 'failed', 'PIL.UnidentifiedImageError: cannot identify image file ''p.jpg''', NULL, 1),
			(8, 'r1', 'downloads/h', 'browser', 'downloads', 'failed', 'OSError: image file is truncated (2056 bytes not processed)', 'tool=browser.download url=https://cdn.example.com/p.jpg' || char(10) || 'download saved /home/user/p.jpg expected_bytes=3818450 written_bytes=2056' || char(10), 1),
			(9, 'r1', 'file-io/i', 'code-interpreter', 'file-io', 'failed', 'FileNotFoundError: [Errno 2] No such file or directory: ''out/summary.csv''', 'step 5 write_file out/summary.csv ok' || char(10) || 'sandbox sbx_3676 restarted (reason=host-drain)' || char(10) || 'step 8 run_code' || char(10), 1);
		INSERT INTO artifacts (result_id, name, media_type, data, expected_sha256) VALUES
			(1, 'chart.png', 'image/png', x'efbfbd504e470d0a1a0a0000000d49484452', '0000000000000000000000000000000000000000000000000000000000000000'),
			(6, 'photo.png', 'image/png', x'89504e470d0a1a0a', '0000000000000000000000000000000000000000000000000000000000000000'),
			(7, 'scan.png', 'image/png', x'89504e470d0a1a0a0000000d4948445200000028', '0000000000000000000000000000000000000000000000000000000000000000'),
			(5, 'ok.bin', 'application/octet-stream', x'00', '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d');
		INSERT INTO steps (result_id, seq, tool, error) VALUES
			(3, 1, 'browser_fill', 'MCP error -32602: Invalid params: selector must be a string');`)
	cfg := `
[[rule]]
name = "widget-store"
log = 'widget store full'
layer = "sandbox"
primitive = "storage-persistence"
`
	cfgPath := filepath.Join(t.TempDir(), "rules.toml")
	writeFile(t, cfgPath, cfg)
	conf, err := triage.LoadConfig(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	s := openStoreWith(t, Options{StatePath: filepath.Join(t.TempDir(), "state.db"), Campaigns: []string{path},
		Classifier: triage.NewClassifier(conf.Rules)})

	tests := []struct {
		name                 string
		id                   int64
		layer, primitive, by string
	}{
		{"an artifact whose digest differs is interface/encoding whatever the error says", 1, "interface", "encoding", triage.ArtifactRule},
		{"an artifact cut at its first NUL byte is interface/null-byte", 6, "interface", "null-byte", triage.ArtifactRule},
		{"an artifact cut short is interface/message-size whatever the error says", 7, "interface", "message-size", triage.ArtifactRule},
		{"an empty error takes its cause from the log's end", 2, "sandbox", "package-path", "rule:package-path"},
		{"a failure with no error and no log takes its cause from its MCP step", 3, "interface", "input-validation", "rule:input-validation"},
		{"a user rule on the log matches in serve", 4, "sandbox", "storage-persistence", "rule:widget-store"},
		{"a download the log shows saved short is interface/null-byte", 8, "interface", "null-byte", triage.CountsRule},
		{"a file the log shows written and then missing was lost from storage", 9, "sandbox", "storage-persistence", triage.LostFileRule},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cl := classificationOf(t, s, "r1", tt.id)
			if cl.Layer != tt.layer || cl.Primitive != tt.primitive || cl.ClassifiedBy != tt.by {
				t.Errorf("got %s/%s by %s, want %s/%s by %s", cl.Layer, cl.Primitive, cl.ClassifiedBy, tt.layer, tt.primitive, tt.by)
			}
		})
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// openStoreWith opens a store with opts and waits for the first read.
func openStoreWith(t *testing.T, opts Options) *Store {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	opts.Poll = 5 * time.Millisecond
	s, err := Open(ctx, opts)
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

// permissionRows writes failures of one cause whose path, file name and
// number differ in every row.
func permissionRows(run string, from int) string {
	return `INSERT INTO results (run_id, test, target, domain, status, error) VALUES
		('` + run + `', 'file-io/w` + itoa(from) + `', 'code-interpreter', 'file-io', 'failed', 'PermissionError: [Errno 13] Permission denied: ''/workspace/out/report-` + itoa(from) + `.csv'''),
		('` + run + `', 'file-io/w` + itoa(from+1) + `', 'code-interpreter', 'file-io', 'failed', 'PermissionError: [Errno 13] Permission denied: ''/home/agent/data/sales_q` + itoa(from+1) + `.json'''),
		('` + run + `', 'file-io/w` + itoa(from+2) + `', 'code-interpreter', 'file-io', 'failed', 'PermissionError: [Errno 13] Permission denied: ''/tmp/x/y/z/model-` + itoa(from+2) + `.bin'''),
		('` + run + `', 'forms/f` + itoa(from) + `', 'browser', 'forms', 'failed', 'fork blocked for gcc in job ` + itoa(from) + `'),
		('` + run + `', 'forms/g` + itoa(from) + `', 'browser', 'forms', 'failed', 'fork blocked for javac in job ` + itoa(from+7) + `');`
}

var modeIDPattern = regexp.MustCompile(`^m-[0-9a-f]{12}$`)

func TestOneCauseKeepsOneModeIDAcrossRunsFilesAndRestarts(t *testing.T) {
	dir := t.TempDir()
	first := newCampaign(t, "first.db")
	addRun(t, first, "r1", true, permissionRows("r1", 1))
	state := filepath.Join(dir, "state.db")
	s := openStore(t, state, first)
	modesOf := func(s *Store, run string) map[string]bool {
		page, err := s.FindResults(context.Background(), run, sandtrap.ResultFilter{Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]bool{}
		for _, r := range page.Results {
			if r.Mode != "" {
				out[r.Mode] = true
			}
		}
		return out
	}
	r1 := modesOf(s, "r1")
	if len(r1) != 2 {
		t.Fatalf("got %d modes in r1, want 2 (permissions, fork): %v", len(r1), r1)
	}
	for id := range r1 {
		if !modeIDPattern.MatchString(id) {
			t.Errorf("got mode id %q, want m- and 12 hex digits", id)
		}
	}
	s.Close()

	second := newCampaign(t, "second.db")
	addRun(t, second, "r2", true, permissionRows("r2", 40))
	addRun(t, first, "r3", true, permissionRows("r3", 90))
	s = openStore(t, state, first, second)
	for _, run := range []string{"r1", "r2", "r3"} {
		got := modesOf(s, run)
		for id := range got {
			if !r1[id] {
				t.Errorf("run %s: got mode %s after a restart, want one of %v", run, id, r1)
			}
		}
		if len(got) != 2 {
			t.Errorf("run %s: got %d modes, want 2", run, len(got))
		}
	}
}

func TestFutureFailuresOfATemplateFollowWhatPeopleDecided(t *testing.T) {
	path := newCampaign(t, "learn.db")
	addRun(t, path, "r1", true, `INSERT INTO results (run_id, test, target, domain, status, error) VALUES
		('r1', 'builds/a', 'code-interpreter', 'builds', 'failed', 'toolchain wedged while linking libfoo'),
		('r1', 'builds/b', 'code-interpreter', 'builds', 'failed', 'toolchain wedged while linking libbar');`)
	s := openStore(t, filepath.Join(t.TempDir(), "state.db"), path)
	ctx := context.Background()
	page, err := s.FindResults(ctx, "r1", sandtrap.ResultFilter{Limit: 10})
	if err != nil || len(page.Results) != 2 {
		t.Fatalf("got %d results, %v", len(page.Results), err)
	}
	mode := page.Results[0].Mode
	layer, prim, title := "sandbox", "process-spawn", "Linker wedged by the sandbox"
	if _, err := s.UpdateMode(ctx, mode, sandtrap.Triage{Layer: &layer, Primitive: &prim, Title: &title}); err != nil {
		t.Fatal(err)
	}
	addRun(t, path, "r2", false, `INSERT INTO results (run_id, test, target, domain, status, error) VALUES
		('r2', 'builds/z', 'code-interpreter', 'builds', 'failed', 'toolchain wedged while linking libzz9');`)
	waitUntil(t, func() bool {
		p, err := s.FindResults(ctx, "r2", sandtrap.ResultFilter{Limit: 10})
		return err == nil && len(p.Results) == 1
	})
	p, err := s.FindResults(ctx, "r2", sandtrap.ResultFilter{Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	got := p.Results[0]
	if got.Mode != mode || got.Layer != layer || got.Primitive != prim || got.ClassifiedBy != "human" {
		t.Errorf("got the new failure in %s as %s/%s by %s, want %s as %s/%s by human", got.Mode, got.Layer, got.Primitive, got.ClassifiedBy, mode, layer, prim)
	}
	m, err := s.FindMode(ctx, got.Mode)
	if err != nil || m.Title != title {
		t.Errorf("got title %q (%v), want %q", m.Title, err, title)
	}
}

func TestMergeModesMergesAllOrNone(t *testing.T) {
	path := newCampaign(t, "merge.db")
	addRun(t, path, "r1", true, `INSERT INTO results (run_id, test, target, domain, status, error) VALUES
		('r1', 'a', 'code-interpreter', 'builds', 'failed', 'gcc: fork refused by policy'),
		('r1', 'b', 'code-interpreter', 'builds', 'failed', 'javac: fork refused by policy'),
		('r1', 'c', 'code-interpreter', 'builds', 'failed', 'rustc: fork refused by policy');`)
	s := openStore(t, filepath.Join(t.TempDir(), "state.db"), path)
	ctx := context.Background()
	page, err := s.FindResults(ctx, "r1", sandtrap.ResultFilter{Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range page.Results {
		ids = append(ids, r.Mode)
	}
	if _, err := s.MergeModes(ctx, []string{ids[1], "m-000000000000"}, ids[0]); err == nil {
		t.Fatal("got a merge with an unknown mode, want an error")
	}
	if m, _ := s.FindMode(ctx, ids[1]); m.ID != ids[1] {
		t.Errorf("a refused merge merged %s into %s", ids[1], m.ID)
	}
	m, err := s.MergeModes(ctx, ids[1:], ids[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Members) != 3 {
		t.Errorf("got members %v, want all three modes", m.Members)
	}
}

func TestWordingsOfOnePrimitiveInOneRunContextShareAModeAcrossARestart(t *testing.T) {
	path := newCampaign(t, "context.db")
	// Each logged other steps, so that only the run context joins them.
	logs := map[string]string{"builds/a": "$ make all", "builds/b": "$ go build ./cmd/server", "reports/a": "$ make report",
		"builds/c": "$ bwrap --unshare-user true", "builds/d": "$ cargo build --release"}
	row := func(run, test, domain, errText string) string {
		return `('` + run + `', '` + test + `', 'code-interpreter', '` + domain + `', 'failed', 1, '` + errText + `', CAST('` + logs[test] + `' AS BLOB))`
	}
	const insert = `INSERT INTO results (run_id, test, target, domain, status, exit_code, error, log) VALUES `
	addRun(t, path, "r1", true, insert+
		row("r1", "builds/a", "builds", "fatal: cannot exec ''git-remote-https'': Operation not permitted")+", "+
		row("r1", "builds/b", "builds", "runtime: failed to create new OS thread (have 11 already; errno=11)")+", "+
		row("r1", "reports/a", "reports", "bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces")+";")
	state := filepath.Join(t.TempDir(), "state.db")
	s := openStore(t, state, path)
	r1 := modesByTest(t, s, "r1")
	if r1["builds/a"] == "" || r1["builds/a"] != r1["builds/b"] {
		t.Errorf("got modes %s and %s for two spawns refused in one run context, want one", r1["builds/a"], r1["builds/b"])
	}
	if r1["reports/a"] == r1["builds/a"] {
		t.Errorf("got the report's failure in the builds' mode %s, want a mode of its own domain", r1["reports/a"])
	}
	s.Close()

	addRun(t, path, "r2", true, insert+row("r2", "builds/c", "builds", "bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces")+", "+
		row("r2", "builds/d", "builds", "error: could not execute process `cc` (never executed)")+";")
	s = openStore(t, state, path)
	r2 := modesByTest(t, s, "r2")
	if r2["builds/c"] != r1["reports/a"] {
		t.Errorf("after a restart got mode %s for a message seen before, want its mode %s", r2["builds/c"], r1["reports/a"])
	}
	if r2["builds/d"] != r1["builds/a"] {
		t.Errorf("after a restart got mode %s for a new wording in the builds' run context, want %s", r2["builds/d"], r1["builds/a"])
	}
}

func TestWordingsOfOnePrimitiveLoggedAlikeShareAModeAcrossARestart(t *testing.T) {
	path := newCampaign(t, "logged.db")
	const (
		steps = `step 2/4 install_dependencies via run_code\nproxy=none outbound policy applied\nresolving registry mirror after 30s`
		other = `step 4/4 render charts via run_code\nwrote summary table with matplotlib`
	)
	row := func(run, test, domain, errText, log string) string {
		return `('` + run + `', '` + test + `', 'code-interpreter', '` + domain + `', 'failed', 1, '` + errText + `', CAST(replace('` + log + `', '\n', char(10)) AS BLOB))`
	}
	const insert = `INSERT INTO results (run_id, test, target, domain, status, exit_code, error, log) VALUES `
	addRun(t, path, "r1", true, insert+
		row("r1", "installs/a", "package-install", "ntpdate: no server suitable for synchronization found", steps)+", "+
		row("r1", "builds/a", "builds", "DOMException: Registration failed - push service error", steps)+", "+
		row("r1", "reports/a", "reports", "curl: (6) Could not resolve host: fonts.example.com", other)+";")
	state := filepath.Join(t.TempDir(), "state.db")
	s := openStore(t, state, path)
	r1 := modesByTest(t, s, "r1")
	if r1["installs/a"] == "" || r1["installs/a"] != r1["builds/a"] {
		t.Errorf("got modes %s and %s for two wordings logged alike, want one", r1["installs/a"], r1["builds/a"])
	}
	if r1["reports/a"] == r1["installs/a"] {
		t.Errorf("got the failure logged otherwise in mode %s too, want a mode of its own", r1["reports/a"])
	}
	s.Close()

	addRun(t, path, "r2", true, insert+row("r2", "downloads/a", "downloads", "wget: unable to resolve host address github-release-assets.example.com", steps)+";")
	s = openStore(t, state, path)
	if got := modesByTest(t, s, "r2")["downloads/a"]; got != r1["installs/a"] {
		t.Errorf("after a restart got mode %s for a new wording logged alike, want %s", got, r1["installs/a"])
	}
}

func TestAWorseWordingLoggedAlikeTakesInAMilderModeWithItsDecisions(t *testing.T) {
	path := newCampaign(t, "worse.db")
	const steps = `step 3/5 fetch_artifact via read_file\nchunked transfer through the tool proxy\nstream closed after partial body`
	row := func(run, test, errText string) string {
		return `('` + run + `', '` + test + `', 'code-interpreter', 'downloads', 'failed', 1, '` + errText + `', CAST(replace('` + steps + `', '\n', char(10)) AS BLOB))`
	}
	const insert = `INSERT INTO results (run_id, test, target, domain, status, exit_code, error, log) VALUES `
	addRun(t, path, "r1", true, insert+row("r1", "downloads/a", "413 Request Entity Too Large")+";")
	state := filepath.Join(t.TempDir(), "state.db")
	s := openStore(t, state, path)
	ctx := context.Background()
	modeOf := func(run, test string) sandtrap.Mode {
		m, err := s.FindMode(ctx, modesByTest(t, s, run)[test])
		if err != nil {
			t.Fatalf("the mode of %s in run %s: %v", test, run, err)
		}
		return m
	}
	mild := modeOf("r1", "downloads/a")
	owner := "platform-team"
	if _, err := s.UpdateMode(ctx, mild.ID, sandtrap.Triage{Owner: &owner}); err != nil {
		t.Fatal(err)
	}
	s.Close()

	addRun(t, path, "r2", true, insert+row("r2", "downloads/b", "IncompleteRead(1024 bytes read, 4096 more expected)")+";")
	s = openStore(t, state, path)
	worse := modeOf("r2", "downloads/b")
	if worse.Severity != sandtrap.SeverityCritical {
		t.Fatalf("got the cut rated %s, want critical", worse.Severity)
	}
	if got := modeOf("r1", "downloads/a"); got.ID != worse.ID {
		t.Errorf("the milder failure is in mode %s, want the worse wording's %s, which took its mode in", got.ID, worse.ID)
	}
	if worse.Owner != owner {
		t.Errorf("got owner %q on the mode that took the milder one in, want %q: a person's decision must follow", worse.Owner, owner)
	}
	old, err := s.FindMode(ctx, mild.ID)
	if err != nil {
		t.Fatalf("the milder mode's old id no longer resolves: %v", err)
	}
	if old.ID != worse.ID {
		t.Errorf("the old id %s resolves to %s, want %s", mild.ID, old.ID, worse.ID)
	}
}

// modesByTest returns the mode of each result of run, by its test.
func modesByTest(t *testing.T, s *Store, run string) map[string]string {
	t.Helper()
	page, err := s.FindResults(context.Background(), run, sandtrap.ResultFilter{Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, r := range page.Results {
		out[r.Test] = r.Mode
	}
	return out
}

func TestAGuessLoggedLikeARulesFailureTakesItsClassAndModeAcrossARestart(t *testing.T) {
	path := newCampaign(t, "guessed.db")
	const (
		steps = `step 3/6 fetch_dataset via run_code\nHTTPS_PROXY=http://egress:3128 set by the image\nretrying mirror after 30s`
		other = `step 5/6 render report via run_code\nwrote 14 pages with weasyprint\nsummary table written`
		// guessed is a message no rule reads, which the learned model
		// reads as the test's own fault.
		guessed = "the fixture expected row count no longer matches the dataset"
	)
	row := func(run, test, domain, errText, log string) string {
		return `('` + run + `', '` + test + `', 'code-interpreter', '` + domain + `', 'failed', 1, '` + errText + `', CAST(replace('` + log + `', '\n', char(10)) AS BLOB))`
	}
	const insert = `INSERT INTO results (run_id, test, target, domain, status, exit_code, error, log) VALUES `
	addRun(t, path, "r1", true, insert+
		row("r1", "downloads/a", "downloads", "curl: (7) Failed to connect to mirror.example.com port 443 after 0 ms: Could not connect to server", steps)+", "+
		row("r1", "downloads/b", "downloads", guessed, steps+`\nattempt 3 failed`)+", "+
		row("r1", "reports/a", "reports", guessed, other)+";")
	state := filepath.Join(t.TempDir(), "state.db")
	s := openStore(t, state, path)
	ctx := context.Background()
	classOf := func(s *Store, id string) string {
		t.Helper()
		m, err := s.FindMode(ctx, id)
		if err != nil {
			t.Fatalf("mode %s: %v", id, err)
		}
		return m.Layer + "/" + m.Primitive
	}
	r1 := modesByTest(t, s, "r1")
	if got := classOf(s, r1["downloads/a"]); got != "sandbox/network-egress" {
		t.Fatalf("the rule's failure is in %s, want sandbox/network-egress", got)
	}
	if got := classOf(s, r1["reports/a"]); got == "sandbox/network-egress" {
		t.Fatalf("the guessed message logged otherwise is in %s too; the test needs a message guessed as another class", got)
	}
	if r1["downloads/b"] != r1["downloads/a"] {
		t.Errorf("got mode %s (%s) for the guess logged like the rule's failure, want its mode %s", r1["downloads/b"], classOf(s, r1["downloads/b"]), r1["downloads/a"])
	}
	s.Close()

	addRun(t, path, "r2", true, insert+row("r2", "downloads/c", "downloads", guessed, steps+`\nattempt 2 failed`)+";")
	s = openStore(t, state, path)
	if got := modesByTest(t, s, "r2")["downloads/c"]; got != r1["downloads/a"] {
		t.Errorf("after a restart got mode %s for the guess logged alike, want %s", got, r1["downloads/a"])
	}
}
