package demo

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"sandtrap"
	"sandtrap/logview"
)

// modePatterns recognise each mode's message by its first line, the way a
// normaliser would: only the variable parts may change between occurrences.
var modePatterns = map[string]*regexp.Regexp{
	"b64-corruption":          regexp.MustCompile(`^(artifact round trip mismatch: sha256 expected [0-9a-f]{64} got [0-9a-f]{64} for \S+ \(\d+ bytes\)|binascii\.Error: Incorrect padding)$`),
	"nul-truncation":          regexp.MustCompile(`^downloaded \d+ of \d+ bytes: content truncated at first NUL byte \(offset \d+\)$`),
	"mcp-size-limit":          regexp.MustCompile(`^MCP error -32600: Invalid Request: message size \d+ exceeds limit of 10485760 bytes$`),
	"jsonrpc-parse":           regexp.MustCompile(`^JSON-RPC error -32700: Parse error: unexpected end of JSON input at position \d+$`),
	"path-traversal-accepted": regexp.MustCompile(`^write_file accepted path '[^']+' outside /workspace without validation$`),
	"site-packages-readonly":  regexp.MustCompile(`^PermissionError: \[Errno 13\] Permission denied: '/usr/lib/python3/dist-packages/[\w.-]+\.dist-info'$`),
	"files-vanish":            regexp.MustCompile(`^FileNotFoundError: \[Errno 2\] No such file or directory: '/home/user/output/[\w.-]+'$`),
	"browser-oom-tabs":        regexp.MustCompile(`^(page\.goto: Target crashed|Page crashed!)$`),
	"training-oom":            regexp.MustCompile(`^process exited with code 137 \(SIGKILL\): memory cgroup out of memory$`),
	"cpu-timeout":             regexp.MustCompile(`^TimeoutError: execution exceeded the \d+ s CPU time limit$`),
	"spawn-denied":            regexp.MustCompile(`^(java\.io\.IOException: Cannot run program "\w+": error=1, Operation not permitted|Error: spawn [\w+]+ EPERM)$`),
	"pip-egress":              regexp.MustCompile(`^ERROR: Could not find a version that satisfies the requirement [\w-]+ \(from versions: none\)$`),
	"browser-dns":             regexp.MustCompile(`^page\.goto: net::ERR_NAME_NOT_RESOLVED at https://\S+$`),
	"module-not-on-path":      regexp.MustCompile(`^ModuleNotFoundError: No module named '\w+'$`),
	"missing-shared-lib":      regexp.MustCompile(`^ImportError: [\w.+-]+: cannot open shared object file: No such file or directory$`),
	"session-expired":         regexp.MustCompile(`^session sbx-[0-9a-f]{8} expired after \d+ s: sandbox not found \(HTTP 404\)$`),
	"harness-assert":          regexp.MustCompile(`^AssertionError: expected \d+ rows, got \d+$`),
	"harness-fixture":         regexp.MustCompile(`^harness error: fixture '\w+' not found$`),
	"stream-closed":           regexp.MustCompile(`^MCP error -32603: Internal error: response stream closed before the result was sent$`),
	"disk-full":               regexp.MustCompile(`^OSError: \[Errno 28\] No space left on device: '/[\w/.-]+'$`),
	"egress-proxy-tunnel":     regexp.MustCompile(`^page\.goto: net::ERR_TUNNEL_CONNECTION_FAILED at https://\S+$`),
}

// modeOf names the mode of an error message, or "" when none matches.
func modeOf(t *testing.T, errText string) string {
	t.Helper()
	first, _, _ := strings.Cut(errText, "\n")
	var found []string
	for key, re := range modePatterns {
		if re.MatchString(first) {
			found = append(found, key)
		}
	}
	if len(found) > 1 {
		t.Fatalf("error %q matches modes %v, want one", first, found)
	}
	if len(found) == 0 {
		return ""
	}
	return found[0]
}

func openRO(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func writeDemo(t *testing.T, opts Options) (string, Summary) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "demo.db")
	summary, err := Write(context.Background(), path, opts)
	if err != nil {
		t.Fatal(err)
	}
	return path, summary
}

// dump hashes every row of every table, in id order.
func dump(t *testing.T, path string) string {
	t.Helper()
	db := openRO(t, path)
	h := sha256.New()
	for _, table := range []string{"runs", "results", "artifacts", "steps"} {
		rows, err := db.Query("SELECT * FROM " + table + " ORDER BY rowid")
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		values := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range values {
			ptrs[i] = &values[i]
		}
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			for _, v := range values {
				fmt.Fprintf(h, "%T:%v\x1f", v, v)
			}
		}
		if err := rows.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

func TestWriteIsDeterministic(t *testing.T) {
	a, _ := writeDemo(t, Options{Seed: 7, Results: 300})
	b, _ := writeDemo(t, Options{Seed: 7, Results: 300})
	c, _ := writeDemo(t, Options{Seed: 8, Results: 300})
	tests := []struct {
		name      string
		x, y      string
		wantEqual bool
	}{
		{"the same seed gives the same rows", a, b, true},
		{"another seed gives other rows", a, c, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := dump(t, tt.x) == dump(t, tt.y); got != tt.wantEqual {
				t.Errorf("got equal dumps %v, want %v", got, tt.wantEqual)
			}
		})
	}
}

func TestWriteRefusesToOverwrite(t *testing.T) {
	path, _ := writeDemo(t, Options{Results: 100})
	before := dump(t, path)
	if _, err := Write(context.Background(), path, Options{Results: 100}); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("got error %v, want one naming %s", err, path)
	}
	if after := dump(t, path); after != before {
		t.Errorf("got the file changed, want it untouched")
	}
}

func TestWriteRejectsTooFewResults(t *testing.T) {
	if _, err := Write(context.Background(), filepath.Join(t.TempDir(), "x.db"), Options{Results: 10}); err == nil {
		t.Errorf("got no error for 10 results per run, want one")
	}
}

func TestNights(t *testing.T) {
	tests := []struct {
		name string
		now  string
		want []string
	}{
		{"the default moment gives the contract's run ids", "2026-07-02T09:00:00Z", []string{"2026-06-30-overnight", "2026-07-01-overnight"}},
		{"a run still going at dawn is not the latest", "2026-07-02T04:00:00Z", []string{"2026-06-29-overnight", "2026-06-30-overnight"}},
		{"late evening counts the night before", "2026-07-02T23:30:00Z", []string{"2026-06-30-overnight", "2026-07-01-overnight"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			now, err := time.Parse(time.RFC3339, tt.now)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, spec := range nights(now) {
				got = append(got, spec.id)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

type demoRow struct {
	id        int64
	run       string
	test      string
	target    string
	domain    string
	status    string
	errText   string
	log       []byte
	layer     string
	primitive string
	attempt   int
	mode      string
}

func readRows(t *testing.T, db *sql.DB) []demoRow {
	t.Helper()
	rows, err := db.Query(`SELECT id, run_id, test, target, domain, status, coalesce(error, ''), log,
		coalesce(layer, ''), coalesce(primitive, ''), attempt FROM results ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []demoRow
	for rows.Next() {
		var r demoRow
		if err := rows.Scan(&r.id, &r.run, &r.test, &r.target, &r.domain, &r.status, &r.errText, &r.log, &r.layer, &r.primitive, &r.attempt); err != nil {
			t.Fatal(err)
		}
		if sandtrap.IsFailure(r.status) {
			r.mode = modeOf(t, r.errText)
		}
		out = append(out, r)
	}
	return out
}

func TestWrite(t *testing.T) {
	path, summary := writeDemo(t, Options{Seed: 1})
	db := openRO(t, path)
	rows := readRows(t, db)
	const base, head = "2026-06-30-overnight", "2026-07-01-overnight"
	want := Expected()

	t.Run("writes two finished runs of a thousand results", func(t *testing.T) {
		var got []string
		r, err := db.Query(`SELECT r.id, r.planned, r.finished_at IS NOT NULL, count(*) FROM runs r JOIN results s ON s.run_id = r.id GROUP BY r.id ORDER BY r.id`)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		for r.Next() {
			var id string
			var planned, total int
			var finished bool
			if err := r.Scan(&id, &planned, &finished, &total); err != nil {
				t.Fatal(err)
			}
			got = append(got, fmt.Sprintf("%s planned=%d finished=%v total=%d", id, planned, finished, total))
		}
		wantRuns := []string{base + " planned=1000 finished=true total=1000", head + " planned=1000 finished=true total=1000"}
		if !slices.Equal(got, wantRuns) {
			t.Errorf("got %q, want %q", got, wantRuns)
		}
		if len(summary.Runs) != 2 || summary.Runs[0].ID != base || summary.Runs[0].Counts.Total != 1000 {
			t.Errorf("got summary %+v, want two runs starting with %s of 1000 results", summary.Runs, base)
		}
	})

	t.Run("the summary names the file and each run", func(t *testing.T) {
		got := summary.String()
		for _, want := range []string{path, base, head, "1000 results"} {
			if !strings.Contains(got, want) {
				t.Errorf("got summary %q, want it to mention %q", got, want)
			}
		}
	})

	t.Run("run 1 passes 86 to 90 percent and has every status", func(t *testing.T) {
		var c sandtrap.Counts
		statuses := map[string]int{}
		for _, r := range rows {
			if r.run == base {
				c.Add(r.status, 1)
				statuses[r.status]++
			}
		}
		if rate := c.PassRate(); rate < 0.86 || rate > 0.90 {
			t.Errorf("got pass rate %.3f, want 0.86–0.90", rate)
		}
		if c.Skipped == 0 || c.Errored == 0 || c.Other < 2 || c.Other > 3 {
			t.Errorf("got %d skipped, %d errors and %d other statuses (%v), want some skipped and errors and 2–3 others", c.Skipped, c.Errored, c.Other, statuses)
		}
		if c != summary.Runs[0].Counts {
			t.Errorf("got summary counts %+v, want %+v", summary.Runs[0].Counts, c)
		}
	})

	t.Run("every failure has the message shape of one mode", func(t *testing.T) {
		for _, r := range rows {
			if sandtrap.IsFailure(r.status) && r.mode == "" {
				t.Errorf("result %d (%s): got error %q, want one of the modes' shapes", r.id, r.status, r.errText)
			}
		}
	})

	t.Run("each run has exactly its modes", func(t *testing.T) {
		got := map[string]map[string]int{base: {}, head: {}}
		for _, r := range rows {
			if r.mode != "" {
				got[r.run][r.mode]++
			}
		}
		wantBase := append(slices.Clone(want.ModesFixed), want.ModesKept...)
		wantHead := append(slices.Clone(want.ModesKept), want.ModesAdded...)
		for run, keys := range map[string][]string{base: wantBase, head: wantHead} {
			gotKeys := slices.Sorted(maps.Keys(got[run]))
			slices.Sort(keys)
			if !slices.Equal(gotKeys, keys) {
				t.Errorf("run %s: got modes %v, want %v", run, gotKeys, keys)
			}
		}
		for key, n := range got[base] {
			if n < 2 || n > 22 {
				t.Errorf("run %s: got %d failures of %s, want 2–22", base, n, key)
			}
		}
	})

	t.Run("modes fail on their own targets and domains", func(t *testing.T) {
		for _, r := range rows {
			if r.mode == "" {
				continue
			}
			m := modes[modeIndex(r.mode)]
			if !slices.ContainsFunc(m.workflows, func(wf workflow) bool {
				return wf.target == r.target && domains[wf.domain].key == r.domain
			}) {
				t.Errorf("result %d: got %s on %s/%s, want one of its workflows", r.id, r.mode, r.target, r.domain)
			}
		}
	})

	t.Run("the expected tests are fixed and regressed, and no others", func(t *testing.T) {
		final := map[string]map[string]string{base: {}, head: {}}
		attempts := map[string]map[string]int{base: {}, head: {}}
		for _, r := range rows {
			if r.attempt >= attempts[r.run][r.test] {
				attempts[r.run][r.test] = r.attempt
				final[r.run][r.test] = r.status
			}
		}
		var fixed, regressed []string
		recurring := 0
		for test, s1 := range final[base] {
			s2, ok := final[head][test]
			if !ok {
				continue
			}
			recurring++
			switch {
			case sandtrap.IsFailure(s1) && s2 == sandtrap.StatusPassed:
				fixed = append(fixed, test)
			case s1 == sandtrap.StatusPassed && sandtrap.IsFailure(s2):
				regressed = append(regressed, test)
			}
		}
		slices.Sort(fixed)
		slices.Sort(regressed)
		wantFixed, wantRegressed := slices.Sorted(slices.Values(want.TestsFixed)), slices.Sorted(slices.Values(want.TestsRegressed))
		if !slices.Equal(fixed, wantFixed) || !slices.Equal(regressed, wantRegressed) {
			t.Errorf("got fixed %q and regressed %q, want %q and %q", fixed, regressed, wantFixed, wantRegressed)
		}
		if share := float64(recurring) / float64(len(final[base])); share < 0.5 || share > 0.7 {
			t.Errorf("got %.2f of run 1's tests recurring in run 2, want about 0.6", share)
		}
	})

	t.Run("run 2 retries flaky tests as new rows", func(t *testing.T) {
		failedFirst := map[string]bool{}
		flaky := 0
		for _, r := range rows {
			if r.run != head {
				continue
			}
			if r.attempt == 1 && sandtrap.IsFailure(r.status) {
				failedFirst[r.test] = true
			}
			if r.attempt == 2 && r.status == sandtrap.StatusPassed && failedFirst[r.test] {
				flaky++
			}
		}
		if flaky < 5 {
			t.Errorf("got %d tests failing then passing on a later row, want at least 5", flaky)
		}
	})

	t.Run("only run 2's harness labels some failures, sometimes in its own words", func(t *testing.T) {
		labelled := map[string]int{}
		failures := map[string]int{}
		synonyms := 0
		for _, r := range rows {
			if !sandtrap.IsFailure(r.status) {
				continue
			}
			failures[r.run]++
			if r.layer != "" {
				labelled[r.run]++
				if r.layer == "mcp" || r.primitive == "fs" || r.primitive == "oom" {
					synonyms++
				}
			}
		}
		share := float64(labelled[head]) / float64(failures[head])
		if labelled[base] != 0 || share < 0.04 || share > 0.2 || synonyms == 0 {
			t.Errorf("got %d labels in run 1, %.2f of run 2's failures labelled with %d synonyms; want 0, about 0.1 and some", labelled[base], share, synonyms)
		}
	})

	t.Run("logs and errors carry hostile bytes", func(t *testing.T) {
		checks := []struct {
			name string
			ok   func(demoRow) bool
		}{
			{"a log over 1 MiB", func(r demoRow) bool { return len(r.log) > 1<<20 }},
			{"a log with a NUL byte", func(r demoRow) bool { return bytes.IndexByte(r.log, 0) >= 0 }},
			{"a log with invalid UTF-8", func(r demoRow) bool { return !utf8.Valid(r.log) }},
			{"a log with ANSI colours", func(r demoRow) bool { return bytes.Contains(r.log, []byte("\x1b[31m")) }},
			{"an error with a script tag", func(r demoRow) bool { return strings.Contains(r.errText, "<script>alert(1)</script>") }},
			{"an error with an onerror image", func(r demoRow) bool { return strings.Contains(r.errText, "<img src=x onerror=alert(1)>") }},
			{"an error with a data-on attribute", func(r demoRow) bool { return strings.Contains(r.errText, `data-on-load="alert(1)"`) }},
			{"an error with a NUL and control characters", func(r demoRow) bool {
				return strings.Contains(r.errText, "\x00") && strings.Contains(r.errText, "\x1b[2J")
			}},
			{"a test key with HTML", func(r demoRow) bool { return strings.Contains(r.test, "<img") }},
		}
		for _, c := range checks {
			if !slices.ContainsFunc(rows, c.ok) {
				t.Errorf("got no row with %s, want one", c.name)
			}
		}
	})

	t.Run("a corrupted round trip has a sibling with the expected digest", func(t *testing.T) {
		arts := artifactsByResult(t, db)
		corrupted := 0
		for _, r := range rows {
			if r.mode != "b64-corruption" || !strings.HasPrefix(r.errText, "artifact round trip") {
				continue
			}
			var bad, good *artifactRow
			for i, a := range arts[r.id] {
				if a.expected != "" && a.digest != a.expected {
					bad = &arts[r.id][i]
				} else if a.expected != "" {
					good = &arts[r.id][i]
				}
			}
			if bad == nil || good == nil || good.digest != bad.expected || !strings.Contains(r.errText, bad.digest) {
				t.Errorf("result %d: got artifacts %+v, want a corrupted one and its intact sibling", r.id, arts[r.id])
				continue
			}
			if off := firstDifference(good.data, bad.data); off < 90 || off > 200 {
				t.Errorf("result %d: got the first difference at offset %d, want about 100", r.id, off)
			}
			corrupted++
		}
		if corrupted == 0 {
			t.Errorf("got no corrupted round trip, want some")
		}
	})

	t.Run("artifacts include every kind the pages must serve safely", func(t *testing.T) {
		var media []string
		r, err := db.Query(`SELECT DISTINCT media_type FROM artifacts ORDER BY 1`)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		for r.Next() {
			var m string
			if err := r.Scan(&m); err != nil {
				t.Fatal(err)
			}
			media = append(media, m)
		}
		for _, m := range []string{mediaPNG, mediaCSV, mediaJSON, mediaHTML, mediaSVG, mediaBin} {
			if !slices.Contains(media, m) {
				t.Errorf("got media types %v, want %s among them", media, m)
			}
		}
	})

	t.Run("results make 2 to 6 tool calls and broken payloads carry a NUL", func(t *testing.T) {
		var minSteps, maxSteps, nulResponses int
		err := db.QueryRow(`SELECT min(n), max(n) FROM (SELECT count(*) AS n FROM steps GROUP BY result_id)`).Scan(&minSteps, &maxSteps)
		if err != nil {
			t.Fatal(err)
		}
		if err := db.QueryRow(`SELECT count(*) FROM steps WHERE instr(response, x'00') > 0`).Scan(&nulResponses); err != nil {
			t.Fatal(err)
		}
		if minSteps < 2 || maxSteps > 6 || nulResponses == 0 {
			t.Errorf("got %d–%d steps per result and %d responses with a NUL, want 2–6 and some", minSteps, maxSteps, nulResponses)
		}
	})
}

type artifactRow struct {
	name, expected, digest string
	data                   []byte
}

func artifactsByResult(t *testing.T, db *sql.DB) map[int64][]artifactRow {
	t.Helper()
	rows, err := db.Query(`SELECT result_id, name, coalesce(expected_sha256, ''), data FROM artifacts ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[int64][]artifactRow{}
	for rows.Next() {
		var id int64
		var a artifactRow
		if err := rows.Scan(&id, &a.name, &a.expected, &a.data); err != nil {
			t.Fatal(err)
		}
		a.digest = logview.SHA256Hex(a.data)
		out[id] = append(out[id], a)
	}
	return out
}

func firstDifference(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

func TestExpected(t *testing.T) {
	e := Expected()
	tests := []struct {
		name string
		got  []string
		want []string
	}{
		{"run 2 fixes three modes", e.ModesFixed, []string{"b64-corruption", "files-vanish", "pip-egress"}},
		{"run 2 adds two modes", e.ModesAdded, []string{"stream-closed", "disk-full"}},
		{"the live run brings one new mode", e.ModesNewInLive, []string{"egress-proxy-tunnel"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !slices.Equal(tt.got, tt.want) {
				t.Errorf("got %v, want %v", tt.got, tt.want)
			}
		})
	}
	t.Run("every mode has a known layer, primitive and severity", func(t *testing.T) {
		primitives := map[string][]string{
			"interface": {"encoding", "null-byte", "message-size", "protocol", "input-validation"},
			"sandbox": {"filesystem-permissions", "storage-persistence", "memory", "cpu-time", "process-spawn",
				"network-egress", "package-path", "session-lifecycle"},
			"test": {"harness"},
		}
		severities := []string{sandtrap.SeverityCritical, sandtrap.SeverityHigh, sandtrap.SeverityMedium, sandtrap.SeverityLow}
		for _, m := range e.Modes {
			if !slices.Contains(primitives[m.Layer], m.Primitive) || !slices.Contains(severities, m.Severity) {
				t.Errorf("mode %s: got %s/%s %s, want a vocabulary layer, primitive and severity", m.Key, m.Layer, m.Primitive, m.Severity)
			}
			if modePatterns[m.Key] == nil {
				t.Errorf("mode %s: got no message pattern in this test, want one", m.Key)
			}
		}
		if len(e.Modes) != 21 {
			t.Errorf("got %d modes, want 21", len(e.Modes))
		}
	})
}

func TestWriteScalesWithTheSameProportions(t *testing.T) {
	path, summary := writeDemo(t, Options{Seed: 3, Results: 20_000})
	for _, r := range summary.Runs {
		if rate := r.Counts.PassRate(); r.Counts.Total != 20_000 || rate < 0.86 || rate > 0.91 {
			t.Errorf("run %s: got %d results passing %.3f, want 20000 passing 0.86–0.91", r.ID, r.Counts.Total, rate)
		}
	}
	db := openRO(t, path)
	var detailed, noLog int
	if err := db.QueryRow(`SELECT count(DISTINCT result_id) FROM steps`).Scan(&detailed); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(`SELECT count(*) FROM results WHERE log IS NULL AND status = 'passed'`).Scan(&noLog); err != nil {
		t.Fatal(err)
	}
	if detailed > 2*detailedResults+2000 || noLog == 0 {
		t.Errorf("got %d results with tool calls and %d passed without log, want at most about %d and some", detailed, noLog, 2*detailedResults)
	}
}

func TestLiveSlotMix(t *testing.T) {
	const planned = 1000
	newMode := modeIndex(modeProxyTunnel)
	seen := map[int]bool{}
	first := -1
	for i := range planned {
		s := liveSlot(liveRNG(1, i), i, planned)
		if s.mode >= 0 {
			seen[s.mode] = true
		}
		if s.mode == newMode && first < 0 {
			first = i
		}
	}
	if first != 600 {
		t.Errorf("got the new mode first at result %d, want 600", first)
	}
	if len(seen) < 16 {
		t.Errorf("got %d distinct modes in the live run, want at least 16", len(seen))
	}
	for _, k := range Expected().ModesFixed {
		if seen[modeIndex(k)] {
			t.Errorf("got fixed mode %s in the live run, want it gone", k)
		}
	}
}
