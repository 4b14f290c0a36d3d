// Package bench measures sandtrap against the speed goals on a campaign of
// two runs of 1,000,000 results each, in a file with no extra indexes, and
// on a history of 3,000 runs of 1,000 (BenchmarkHistory), and soaks it for
// $SOAK under a morning's load (BenchmarkSoak). It runs with `make bench`,
// which writes the figures to bench/out; `make soak` and `make
// bench-history` run the soak and the history alone.
package bench

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"sandtrap"
	"sandtrap/handlers"
	"sandtrap/static"
	"sandtrap/store"

	_ "modernc.org/sqlite"
	"sandtrap/store/campaign"
)

// bigResults is the size of each run of the big campaign.
const bigResults = 1_000_000

// demoCampaign returns a demo campaign of n results per run, written once into
// .cache by another process and reused by later runs.
func demoCampaign(b *testing.B, n int) string {
	b.Helper()
	dir := filepath.Join("..", ".cache", "bench")
	os.MkdirAll(dir, 0o755)
	path := filepath.Join(dir, fmt.Sprintf("demo-%d.db", n))
	if _, err := os.Stat(path); err == nil {
		return path
	}
	start := time.Now()
	tmp := path + ".tmp"
	os.Remove(tmp)
	cmd := exec.Command("go", "run", "../web", "demo", "--out", tmp, "--results", strconv.Itoa(n))
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		b.Fatalf("writing the campaign: %v", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		b.Fatal(err)
	}
	b.Logf("wrote %s in %s", path, time.Since(start).Round(time.Millisecond))
	return path
}

// indexed holds the big campaign, read once for every benchmark that needs it.
var indexed struct {
	once    sync.Once
	st      *store.Store
	h       http.Handler
	path    string
	elapsed time.Duration
	runs    []string
}

func bigStore(b *testing.B) (*store.Store, http.Handler) {
	b.Helper()
	indexed.once.Do(func() {
		indexed.path = demoCampaign(b, bigResults)
		ctx := context.Background()
		state := filepath.Join(b.TempDir(), "state.db")
		runtime.GC()
		start := time.Now()
		st, err := store.Open(ctx, store.Options{StatePath: state, Campaigns: []string{indexed.path}})
		if err != nil {
			b.Fatal(err)
		}
		st.Start(ctx)
		if err := st.WaitIndexed(ctx); err != nil {
			b.Fatal(err)
		}
		indexed.elapsed = time.Since(start)
		h, err := handlers.New(handlers.Config{Runs: st, Activity: st, Results: st, Modes: st, Triager: st, Compare: st, Static: static.FS})
		if err != nil {
			b.Fatal(err)
		}
		indexed.st, indexed.h = st, h.Routes()
		runs, _ := st.ListRuns(ctx)
		for _, r := range runs {
			indexed.runs = append(indexed.runs, r.ID)
		}
	})
	if indexed.st == nil {
		b.Fatal("the big campaign could not be indexed")
	}
	return indexed.st, indexed.h
}

// singleRun returns a campaign file holding only the first run of the big
// demo, copied once by the sqlite3 tool: the goals speak of one run of a
// million results.
func singleRun(b *testing.B) string {
	b.Helper()
	src := demoCampaign(b, bigResults)
	path := filepath.Join(filepath.Dir(src), "single-1000000.db")
	if _, err := os.Stat(path); err == nil {
		return path
	}
	tmp := path + ".tmp"
	os.Remove(tmp)
	schema := campaign.Schema + `
		ATTACH '` + src + `' AS src;
		BEGIN;
		INSERT INTO main.runs SELECT * FROM src.runs ORDER BY started_at LIMIT 1;
		INSERT INTO main.results SELECT * FROM src.results WHERE run_id = (SELECT id FROM main.runs);
		INSERT INTO main.artifacts SELECT a.* FROM src.artifacts a JOIN main.results r ON r.id = a.result_id;
		INSERT INTO main.steps SELECT s.* FROM src.steps s JOIN main.results r ON r.id = s.result_id;
		COMMIT;`
	if out, err := exec.Command("sqlite3", tmp, schema).CombinedOutput(); err != nil {
		b.Fatalf("sqlite3: %v: %s", err, out)
	}
	if err := os.Rename(tmp, path); err != nil {
		b.Fatal(err)
	}
	return path
}

// vmHWM is a process's peak resident memory in MB.
func vmHWM(pid int) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "VmHWM:") {
			kb, _ := strconv.ParseFloat(strings.Fields(line)[1], 64)
			return kb / 1024
		}
	}
	return -1
}

// plainScan reads every result of path once, the columns the indexer
// reads, with nothing done to them: the floor a first read stands on. The
// file must hold want results. It returns the time the scan took and the
// CPU time this process spent on it.
func plainScan(b *testing.B, path string, want int) (wall, cpu time.Duration) {
	b.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	start, cpuStart := time.Now(), processCPU()
	rows, err := db.Query(`SELECT id, run_id, test, target, domain, status, CAST(error AS BLOB), layer, primitive, exit_code, attempt, started_at,
		CASE WHEN status IN ('passed', 'skipped') THEN NULL ELSE substr(CAST(log AS BLOB), -8192) END FROM results ORDER BY id`)
	if err != nil {
		b.Fatal(err)
	}
	var (
		id                                   int64
		run, test, target, domain, status    string
		errText, layer, prim, exit, at, tail any
		started                              any
	)
	n := 0
	for rows.Next() {
		if err := rows.Scan(&id, &run, &test, &target, &domain, &status, &errText, &layer, &prim, &exit, &at, &started, &tail); err != nil {
			b.Fatal(err)
		}
		n++
	}
	rows.Close()
	if n != want {
		b.Fatalf("plain scan read %d results, want %d", n, want)
	}
	return time.Since(start), processCPU() - cpuStart
}

// processCPU is the user and system time this process has spent so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkFirstRead starts `sandtrap serve` as its own process on a run of
// 1,000,000 results in a file with no extra indexes, and measures how long
// the first full read takes (goal ≤ 5 s, classification, evidence and
// template mining included), as a ratio to a plain scan of the same rows in
// the same run, and the server's peak memory while it reads and serves
// pages (goal < 200 MB).
func BenchmarkFirstRead(b *testing.B) {
	path := singleRun(b)
	scan, scanCPU := plainScan(b, path, bigResults)
	bin := buildSandtrap(b)
	state := filepath.Join(b.TempDir(), "state.db")
	start := time.Now()
	srv := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--state", state, path)
	stdout, _ := srv.StdoutPipe()
	if err := srv.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { srv.Process.Signal(os.Interrupt); srv.Wait() }()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		b.Fatalf("serve printed nothing: %v", err)
	}
	base := strings.TrimSuffix(regexp.MustCompile(`http://\S+`).FindString(line), "/")
	var run string
	for {
		var body struct {
			Runs []struct {
				ID    string `json:"id"`
				Total int    `json:"total"`
			} `json:"runs"`
		}
		if resp, err := http.Get(base + "/api/runs"); err == nil {
			json.NewDecoder(resp.Body).Decode(&body)
			resp.Body.Close()
		}
		if len(body.Runs) == 1 && body.Runs[0].Total == bigResults {
			run = body.Runs[0].ID
			break
		}
		if time.Since(start) > 2*time.Minute {
			b.Fatal("the first read did not finish in 2 minutes")
		}
		time.Sleep(20 * time.Millisecond)
	}
	elapsed := time.Since(start)
	cpu := serverCPU(srv.Process.Pid)
	// Then serve every kind of page once, as a user would.
	for _, p := range []string{"/", "/runs/" + run, "/runs/" + run + "/failures", "/runs/" + run + "/failures?status=all&offset=900000",
		"/runs/" + run + "/failures?q=permission", "/runs/" + run + "/modes", "/api/runs/" + run + "/modes"} {
		resp, err := http.Get(base + p)
		if err != nil || resp.StatusCode != 200 {
			b.Fatalf("GET %s: %v %v", p, err, resp)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	for b.Loop() {
	}
	b.ReportMetric(elapsed.Seconds(), "s-first-read")
	b.ReportMetric(scan.Seconds(), "s-plain-scan")
	b.ReportMetric(elapsed.Seconds()/scan.Seconds(), "x-plain-scan")
	// CPU times move less than wall times on a busy machine. The server's
	// counts all it did until the read was done, starting up included.
	b.ReportMetric(cpu.Seconds(), "s-server-cpu")
	b.ReportMetric(scanCPU.Seconds(), "s-plain-scan-cpu")
	b.ReportMetric(cpu.Seconds()/scanCPU.Seconds(), "x-plain-scan-cpu")
	b.ReportMetric(float64(bigResults), "results")
	b.ReportMetric(vmHWM(srv.Process.Pid), "MB-server-peak-rss")
}

// get serves one request in process and fails on a non-200 answer.
func get(b *testing.B, h http.Handler, path string) *httptest.ResponseRecorder {
	req := httptest.NewRequest("GET", path, nil)
	req.Host = "127.0.0.1" // the server answers only to its own names
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != 200 {
		b.Fatalf("GET %s: %d %s", path, rec.Code, rec.Body.String()[:min(200, rec.Body.Len())])
	}
	return rec
}

// latency serves path n times and returns the median and the 95th percentile.
func latency(b *testing.B, h http.Handler, path string, n int) (p50, p95 time.Duration) {
	d := make([]time.Duration, n)
	for i := range d {
		start := time.Now()
		get(b, h, path)
		d[i] = time.Since(start)
	}
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	return d[n/2], d[n*95/100]
}

// sqliteBreakdown is the baseline: the sqlite3 command-line tool computing
// the same target × domain × status breakdown straight from the file.
func sqliteBreakdown(b *testing.B, path, run string) time.Duration {
	q := fmt.Sprintf("SELECT target, domain, status, count(*) FROM results WHERE run_id = '%s' GROUP BY 1, 2, 3;", run)
	start := time.Now()
	out, err := exec.Command("sqlite3", "-readonly", path, q).CombinedOutput()
	if err != nil {
		b.Fatalf("sqlite3: %v: %s", err, out)
	}
	return time.Since(start)
}

// BenchmarkOverview serves /runs/{run} and /api/runs/{run} of a 1,000,000
// result run (goal ≤ 20 ms), against the sqlite3 CLI computing the same
// breakdown in the same run (goal: at least 50× faster).
func BenchmarkOverview(b *testing.B) {
	_, h := bigStore(b)
	run := indexed.runs[0]
	if _, err := exec.LookPath("sqlite3"); err != nil {
		b.Fatal("the baseline needs the sqlite3 command-line tool: apt-get install sqlite3")
	}
	var base []time.Duration
	for range 3 {
		base = append(base, sqliteBreakdown(b, indexed.path, run))
	}
	sort.Slice(base, func(i, j int) bool { return base[i] < base[j] })
	baseline := base[1]
	start := time.Now()
	get(b, h, "/runs/"+run)
	first := time.Since(start)
	page50, page95 := latency(b, h, "/runs/"+run, 50)
	api50, api95 := latency(b, h, "/api/runs/"+run, 50)
	for b.Loop() {
		get(b, h, "/runs/"+run)
	}
	b.ReportMetric(ms(page50), "ms-page-p50")
	b.ReportMetric(ms(page95), "ms-page-p95")
	b.ReportMetric(ms(api50), "ms-api-p50")
	b.ReportMetric(ms(api95), "ms-api-p95")
	b.ReportMetric(ms(first), "ms-page-first")
	b.ReportMetric(ms(baseline), "ms-sqlite3-cli")
	b.ReportMetric(float64(baseline)/float64(page95), "x-faster-page-p95")
	b.ReportMetric(float64(baseline)/float64(api95), "x-faster-api-p95")
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// BenchmarkFailuresList serves pages of the failures list of a 1,000,000
// result run at several offsets and filters: goal ≤ 100 ms each.
func BenchmarkFailuresList(b *testing.B) {
	_, h := bigStore(b)
	run := indexed.runs[0]
	cases := []struct{ name, query string }{
		{"first-page", ""},
		{"deep-offset", "offset=110000"},
		{"all-results-last-page", "status=all&offset=999950"},
		{"passed-deep", "status=passed&offset=500000"},
		{"target-and-domain", "target=browser&domain=web-browsing"},
		{"primitive", "primitive=memory&offset=1000"},
		{"search", "q=permission+denied"},
		{"search-no-match", "q=zzzz-no-such-text"},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			path := "/runs/" + run + "/failures?" + c.query
			p50, p95 := latency(b, h, path, 20)
			for b.Loop() {
				get(b, h, path)
			}
			b.ReportMetric(ms(p50), "ms-p50")
			b.ReportMetric(ms(p95), "ms-p95")
		})
	}
}

// BenchmarkDemoPages serves every page of the 1,000-result demo: goal ≤ 20 ms.
func BenchmarkDemoPages(b *testing.B) {
	path := demoCampaign(b, 1000)
	ctx := context.Background()
	st, err := store.Open(ctx, store.Options{StatePath: filepath.Join(b.TempDir(), "s.db"), Campaigns: []string{path}})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	st.Start(ctx)
	st.WaitIndexed(ctx)
	hd, _ := handlers.New(handlers.Config{Runs: st, Activity: st, Results: st, Modes: st, Triager: st, Compare: st, Static: static.FS})
	h := hd.Routes()
	runs, _ := st.ListRuns(ctx)
	run := runs[0].ID
	page, _ := st.FindResults(ctx, run, sandtrap.ResultFilter{Limit: 1})
	pages := []string{"/", "/runs/" + run, "/runs/" + run + "/failures", "/runs/" + run + "/failures?status=all&offset=500",
		fmt.Sprintf("/runs/%s/results/%d", run, page.Results[0].ID), "/api/runs", "/api/runs/" + run, "/api/runs/" + run + "/results"}
	for _, p := range pages {
		b.Run(strings.NewReplacer("/", "_").Replace(p), func(b *testing.B) {
			p50, p95 := latency(b, h, p, 30)
			for b.Loop() {
				get(b, h, p)
			}
			b.ReportMetric(ms(p50), "ms-p50")
			b.ReportMetric(ms(p95), "ms-p95")
		})
	}
	b.Run("first-load-transfer", func(b *testing.B) {
		total := 0
		for _, p := range []string{"/runs/" + run, "/static/app.css", "/static/datastar.js", "/static/keys.js"} {
			req := httptest.NewRequest("GET", p, nil)
			req.Host = "127.0.0.1"
			req.Header.Set("Accept-Encoding", "gzip")
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			body := rec.Body.Bytes()
			if rec.Header().Get("Content-Encoding") != "gzip" {
				b.Errorf("%s was sent uncompressed (%d bytes)", p, len(body))
			}
			total += len(body)
		}
		for b.Loop() {
		}
		b.ReportMetric(float64(total)/1024, "KB-compressed")
	})
}

// BenchmarkCompare compares the two runs of 1,000,000 results each, once
// both are indexed, through the API and the page: goal ≤ 300 ms. The first
// comparison folds each run's rows into its tests, which later ones reuse;
// it is reported on its own.
func BenchmarkCompare(b *testing.B) {
	_, h := bigStore(b)
	base, head := indexed.runs[0], indexed.runs[1]
	query := "?base=" + base + "&head=" + head
	start := time.Now()
	get(b, h, "/api/compare"+query)
	first := time.Since(start)
	api50, api95 := latency(b, h, "/api/compare"+query, 20)
	page50, page95 := latency(b, h, "/compare"+query, 20)
	for b.Loop() {
		get(b, h, "/api/compare"+query)
	}
	b.ReportMetric(ms(api50), "ms-api-p50")
	b.ReportMetric(ms(api95), "ms-api-p95")
	b.ReportMetric(ms(page50), "ms-page-p50")
	b.ReportMetric(ms(page95), "ms-page-p95")
	b.ReportMetric(ms(first), "ms-first")
	b.ReportMetric(vmHWM(os.Getpid()), "MB-bench-process-peak-rss")
}

// BenchmarkModesQueue serves the failure-mode queue of a run of 1,000,000
// results with about 120,000 failures: goal ≤ 50 ms. A queue is computed
// once per filter and kept until the index or the triage changes, so the
// cold figure (each filter's first request) is the one to hold to the goal.
func BenchmarkModesQueue(b *testing.B) {
	st, h := bigStore(b)
	run := indexed.runs[0]
	cells, _ := st.Breakdown(context.Background(), run)
	seen := map[string]bool{}
	paths := []string{"/runs/" + run + "/modes", "/api/runs/" + run + "/modes?target=browser"}
	for _, c := range cells {
		if !seen[c.Domain] {
			seen[c.Domain] = true
			paths = append(paths, "/runs/"+run+"/modes?domain="+c.Domain)
		}
	}
	var cold []time.Duration
	for _, p := range paths {
		start := time.Now()
		get(b, h, p)
		cold = append(cold, time.Since(start))
	}
	sort.Slice(cold, func(i, j int) bool { return cold[i] < cold[j] })
	warm50, warm95 := latency(b, h, paths[0], 20)
	for b.Loop() {
		get(b, h, paths[0])
	}
	b.ReportMetric(ms(cold[len(cold)/2]), "ms-cold-p50")
	b.ReportMetric(ms(cold[len(cold)-1]), "ms-cold-max")
	b.ReportMetric(float64(len(cold)), "cold-filters")
	b.ReportMetric(ms(warm50), "ms-warm-p50")
	b.ReportMetric(ms(warm95), "ms-warm-p95")
}
