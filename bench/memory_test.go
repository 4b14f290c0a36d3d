package bench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"sandtrap/store/campaign"
)

// The history of the memory benchmark: memRuns finished runs of
// memResults results each, a handful of recurring causes among them.
const (
	memRuns    = 3000
	memResults = 1000
)

// memoryBudgetMB is the goal for the server's peak resident memory in both
// scenarios.
const memoryBudgetMB = 300

// memHistoryCampaign returns a campaign of runs finished runs of n results
// each, written once into .cache by the sqlite3 tool and reused by later
// runs. The same 1,000 tests run in every run; about one result in ten
// fails, with one of a handful of causes whose details vary.
func memHistoryCampaign(b *testing.B, runs, n int) string {
	b.Helper()
	dir := filepath.Join("..", ".cache", "bench")
	os.MkdirAll(dir, 0o755)
	path := filepath.Join(dir, fmt.Sprintf("memory-history-%dx%d.db", runs, n))
	if _, err := os.Stat(path); err == nil {
		return path
	}
	if _, err := exec.LookPath("sqlite3"); err != nil {
		b.Fatal("writing the history campaign needs the sqlite3 command-line tool: apt-get install sqlite3")
	}
	start := time.Now()
	tmp := path + ".tmp"
	os.Remove(tmp)
	script := fmt.Sprintf(`PRAGMA journal_mode = OFF;
		PRAGMA synchronous = OFF;
		%s
		BEGIN;
		WITH RECURSIVE r(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM r WHERE n < %[2]d - 1)
		INSERT INTO runs (id, name, started_at, finished_at, planned)
		SELECT printf('h%%05d', n), printf('nightly %%d', n),
			strftime('%%Y-%%m-%%dT%%H:%%M:%%fZ', '2026-01-01', printf('+%%d minutes', n * 30)),
			strftime('%%Y-%%m-%%dT%%H:%%M:%%fZ', '2026-01-01', printf('+%%d minutes', n * 30 + 25)), %[3]d
		FROM r;
		WITH RECURSIVE r(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM r WHERE n < %[2]d - 1),
			i(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM i WHERE k < %[3]d),
			x AS (SELECT n, k, (k * 7 + n) %% 10 = 0 AS failing FROM r, i)
		INSERT INTO results (run_id, test, target, domain, status, started_at, duration_ms, exit_code, error, log, attempt)
		SELECT printf('h%%05d', n), printf('suite-%%d/case-%%d', k %% 40, k),
			CASE k %% 3 WHEN 0 THEN 'code-interpreter' WHEN 1 THEN 'browser' ELSE 'shell' END,
			CASE k %% 5 WHEN 0 THEN 'file-io' WHEN 1 THEN 'package-install' WHEN 2 THEN 'web-browsing' WHEN 3 THEN 'data-analysis' ELSE 'git' END,
			CASE WHEN failing AND k %% 2 = 0 THEN 'failed' WHEN failing THEN 'error' WHEN k %% 17 = 0 THEN 'skipped' ELSE 'passed' END,
			strftime('%%Y-%%m-%%dT%%H:%%M:%%fZ', '2026-01-01', printf('+%%d seconds', n * 1800 + k)),
			100 + k %% 900,
			CASE WHEN failing THEN 1 ELSE 0 END,
			CASE WHEN NOT failing THEN NULL
				WHEN n %% 500 = 7 THEN printf('AssertionError: expected %%d rows, got %%d', k, k + n)
				ELSE CASE k %% 5
					WHEN 0 THEN printf('PermissionError: [Errno 13] Permission denied: ''/workspace/out/file-%%d.txt''', k)
					WHEN 1 THEN printf('TimeoutError: tool call exceeded %%ds', 30 + k %% 30)
					WHEN 2 THEN printf('ModuleNotFoundError: No module named ''pkg_%%d''', k %% 7)
					WHEN 3 THEN printf('net::ERR_CONNECTION_REFUSED at http://10.0.%%d.1:8080/', k %% 250)
					ELSE printf('OSError: [Errno 28] No space left on device: ''/tmp/scratch-%%d''', k) END END,
			CASE WHEN failing THEN 'running the case' || char(10) || 'the case failed' END,
			1
		FROM x ORDER BY n, k;
		COMMIT;`, campaign.Schema, runs, n)
	if out, err := exec.Command("sqlite3", tmp, script).CombinedOutput(); err != nil {
		b.Fatalf("sqlite3: %v: %s", err, out)
	}
	if err := os.Rename(tmp, path); err != nil {
		b.Fatal(err)
	}
	b.Logf("wrote %s in %s", path, time.Since(start).Round(time.Millisecond))
	return path
}

// memRun is the public id of run n of the history campaign.
func memRun(n int) string { return fmt.Sprintf("h%05d", n) }

// memoryBinary is the sandtrap the memory benchmarks start: $SANDTRAP_BIN
// when set, so that another build (main's, for a baseline) is measured by
// the same steps, else one built from this tree.
func memoryBinary(b *testing.B) string {
	if bin := os.Getenv("SANDTRAP_BIN"); bin != "" {
		return bin
	}
	return buildSandtrap(b)
}

// memServer is a `sandtrap serve` process.
type memServer struct {
	cmd  *exec.Cmd
	base string
	// opened is how long the process took to open the state and print
	// where it serves.
	opened time.Duration
	// slowest is the page that took longest to get, and how long.
	slowest     string
	slowestTime time.Duration
}

// startMemServer starts `sandtrap serve` on a free port over the campaigns
// with the given state file, and returns once it serves.
func startMemServer(b *testing.B, bin, state string, campaigns ...string) *memServer {
	b.Helper()
	start := time.Now()
	cmd := exec.Command(bin, append([]string{"serve", "--addr", "127.0.0.1:0", "--state", state}, campaigns...)...)
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		b.Fatalf("serve printed nothing: %v", err)
	}
	s := &memServer{cmd: cmd, opened: time.Since(start),
		base: strings.TrimSuffix(regexp.MustCompile(`http://\S+`).FindString(line), "/")}
	b.Cleanup(s.stop)
	return s
}

func (s *memServer) stop() {
	if s.cmd.ProcessState == nil {
		s.cmd.Process.Signal(os.Interrupt)
		s.cmd.Wait()
	}
}

// peakMB is the server's peak resident memory so far.
func (s *memServer) peakMB() float64 { return vmHWM(s.cmd.Process.Pid) }

// waitRun waits until run has total results read, and returns how long
// the server had been running by then.
func (s *memServer) waitRun(b *testing.B, run string, total int, started time.Time) time.Duration {
	b.Helper()
	for {
		var body struct{ Total int }
		if resp, err := http.Get(s.base + "/api/runs/" + url.PathEscape(run)); err == nil {
			json.NewDecoder(resp.Body).Decode(&body)
			resp.Body.Close()
		}
		if body.Total == total {
			return time.Since(started)
		}
		if time.Since(started) > 10*time.Minute {
			b.Fatalf("run %s did not reach %d results in 10 minutes", run, total)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// get fetches path and fails on anything but 200.
func (s *memServer) get(b *testing.B, path string) []byte {
	b.Helper()
	start := time.Now()
	defer func() {
		if d := time.Since(start); d > s.slowestTime {
			s.slowest, s.slowestTime = path, d
		}
	}()
	resp, err := http.Get(s.base + path)
	if err != nil {
		b.Fatalf("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		b.Fatalf("GET %s: %d %v %.200s", path, resp.StatusCode, err, body)
	}
	return body
}

// modesOf lists the ids of a run's failure modes.
func (s *memServer) modesOf(b *testing.B, run string) []string {
	var body struct{ Modes []struct{ ID string } }
	if err := json.Unmarshal(s.get(b, "/api/runs/"+url.PathEscape(run)+"/modes"), &body); err != nil {
		b.Fatal(err)
	}
	var ids []string
	for _, m := range body.Modes {
		ids = append(ids, m.ID)
	}
	return ids
}

// browseRun reads every kind of page of a run and returns its modes.
func (s *memServer) browseRun(b *testing.B, run string) []string {
	r := "/runs/" + url.PathEscape(run)
	for _, p := range []string{r, r + "/failures", r + "/failures?status=all&offset=500", r + "/modes", r + "/targets", "/api/runs/" + url.PathEscape(run) + "/results"} {
		s.get(b, p)
	}
	var page struct {
		Results []struct{ ID int64 }
	}
	if err := json.Unmarshal(s.get(b, "/api/runs/"+url.PathEscape(run)+"/results"), &page); err != nil {
		b.Fatal(err)
	}
	if len(page.Results) > 0 {
		s.get(b, fmt.Sprintf("%s/results/%d", r, page.Results[0].ID))
	}
	return s.modesOf(b, run)
}

// compareRuns reads the comparison page and its API.
func (s *memServer) compareRuns(b *testing.B, base, head string) {
	q := "?base=" + url.QueryEscape(base) + "&head=" + url.QueryEscape(head)
	s.get(b, "/compare"+q)
	s.get(b, "/api/compare"+q)
}

// browseMemHistory reads the pages of one run in every hundred, the mode
// pages of the modes they show, and comparisons of neighbouring runs and
// of the oldest with the newest.
func (s *memServer) browseMemHistory(b *testing.B) {
	modes := map[string]bool{}
	for n := 0; n < memRuns; n += memRuns / 30 {
		for _, m := range s.browseRun(b, memRun(n)) {
			modes[m] = true
		}
		if n+1 < memRuns {
			s.compareRuns(b, memRun(n), memRun(n+1))
		}
	}
	s.compareRuns(b, memRun(0), memRun(memRuns-1))
	for m := range modes {
		s.get(b, "/modes/"+url.PathEscape(m))
	}
}

// BenchmarkMemoryHistory measures the peak resident memory of `sandtrap
// serve` over a history of 3,000 finished runs of 1,000 results (goal ≤ 300
// MB): while it reads the whole history, then while people browse run
// pages, mode pages and comparisons; and, started again on the same state,
// how long it takes to open (the index of every run is in the state) and
// its peak while the same pages are browsed.
func BenchmarkMemoryHistory(b *testing.B) {
	path := memHistoryCampaign(b, memRuns, memResults)
	bin := memoryBinary(b)
	state := filepath.Join(b.TempDir(), "state.db")
	start := time.Now()
	srv := startMemServer(b, bin, state, path)
	read := srv.waitRun(b, memRun(memRuns-1), memResults, start)
	readPeak := srv.peakMB()
	browseStart := time.Now()
	srv.browseMemHistory(b)
	browsed := time.Since(browseStart)
	peak := srv.peakMB()
	srv.stop()

	start = time.Now()
	again := startMemServer(b, bin, state, path)
	ready := again.waitRun(b, memRun(memRuns-1), memResults, start)
	openPeak := again.peakMB()
	again.browseMemHistory(b)
	againPeak := again.peakMB()
	for b.Loop() {
	}
	b.ReportMetric(read.Seconds(), "s-first-read")
	b.ReportMetric(readPeak, "MB-first-read-peak-rss")
	b.ReportMetric(browsed.Seconds(), "s-browse")
	b.ReportMetric(ms(srv.slowestTime), "ms-slowest-page")
	b.Logf("slowest page: %s in %s", srv.slowest, srv.slowestTime.Round(time.Millisecond))
	b.ReportMetric(peak, "MB-peak-rss")
	b.ReportMetric(again.opened.Seconds(), "s-restart-open")
	b.ReportMetric(ready.Seconds(), "s-restart-ready")
	b.ReportMetric(openPeak, "MB-restart-open-peak-rss")
	b.ReportMetric(againPeak, "MB-restart-peak-rss")
	if worst := max(peak, againPeak); worst > memoryBudgetMB {
		b.Logf("peak resident memory %.0f MB is over the goal of %d MB", worst, memoryBudgetMB)
	}
}

// BenchmarkMemoryCompare measures the peak resident memory of `sandtrap
// serve` over two runs of 1,000,000 results (goal ≤ 300 MB), through their
// first read, the pages of both runs and their comparison; and again after
// a restart on the same state, with how long it takes to open.
func BenchmarkMemoryCompare(b *testing.B) {
	path := demoCampaign(b, bigResults)
	bin := memoryBinary(b)
	const first, second = "2026-06-30-overnight", "2026-07-01-overnight"
	browse := func(srv *memServer) {
		srv.browseRun(b, first)
		srv.browseRun(b, second)
		srv.compareRuns(b, first, second)
		srv.compareRuns(b, second, first)
	}
	state := filepath.Join(b.TempDir(), "state.db")
	start := time.Now()
	srv := startMemServer(b, bin, state, path)
	read := srv.waitRun(b, second, bigResults, start)
	srv.waitRun(b, first, bigResults, start)
	readPeak := srv.peakMB()
	browse(srv)
	peak := srv.peakMB()
	srv.stop()

	start = time.Now()
	again := startMemServer(b, bin, state, path)
	ready := again.waitRun(b, second, bigResults, start)
	openPeak := again.peakMB()
	browse(again)
	againPeak := again.peakMB()
	for b.Loop() {
	}
	b.ReportMetric(read.Seconds(), "s-first-read")
	b.ReportMetric(readPeak, "MB-first-read-peak-rss")
	b.ReportMetric(peak, "MB-peak-rss")
	b.ReportMetric(again.opened.Seconds(), "s-restart-open")
	b.ReportMetric(ready.Seconds(), "s-restart-ready")
	b.ReportMetric(openPeak, "MB-restart-open-peak-rss")
	b.ReportMetric(againPeak, "MB-restart-peak-rss")
	if worst := max(peak, againPeak); worst > memoryBudgetMB {
		b.Logf("peak resident memory %.0f MB is over the goal of %d MB", worst, memoryBudgetMB)
	}
}
