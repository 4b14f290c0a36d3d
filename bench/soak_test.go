package bench

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The soak's load: beside two finished runs of soakBase results, the demo's
// live run of soakLive results written over the whole soak by another
// process, soakClients live pages opened over the soak (some staying to the
// end of the run, the rest coming and going), and soakCrawlers reading every
// kind of page in a loop. The live run is a small share of the index, so
// that what it adds, and what its end adds to the caches (about 0.2 MB in
// all), stays well within the drift allowed.
const (
	soakBase     = 20_000
	soakLive     = 300
	soakClients  = 500
	soakStayers  = 50
	soakWarmups  = 20
	soakCrawlers = 2
	// soakDrift is how far the figures may end from their level after the
	// warm-up.
	soakDrift = 0.05
)

// soakDuration is $SOAK, 10 minutes when unset.
func soakDuration(b *testing.B) time.Duration {
	s := os.Getenv("SOAK")
	if s == "" {
		return 10 * time.Minute
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 30*time.Second {
		b.Fatalf("SOAK=%q: want a duration of at least 30s, such as 30s or 10m", s)
	}
	return d
}

// serverFigures are what leaks would grow.
type serverFigures struct {
	Goroutines    int    `json:"goroutines"`
	HeapLiveBytes uint64 `json:"heap_live_bytes"`
	Memstats      struct {
		NumGC uint32
	} `json:"memstats"`
	fds   int
	rssMB float64
}

// figuresOf reads the server's open files and resident memory from /proc,
// and its goroutines and live heap from /debug/vars. The live heap is what
// a collection marked: figuresOf has the server collect three times while
// it serves nothing but small pages, one at a time, and keeps the least, so
// that no work in flight counts.
func figuresOf(b *testing.B, base string, pid int) serverFigures {
	b.Helper()
	// The files first, before a request of our own opens a connection: the
	// least of a few looks, as connections and checks open files for a
	// moment.
	fds := math.MaxInt
	for range 5 {
		open, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
		if err != nil {
			b.Fatal(err)
		}
		fds = min(fds, len(open))
		time.Sleep(200 * time.Millisecond)
	}
	rss := procStatusMB(pid, "VmRSS:")
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	vars := func() serverFigures {
		resp, err := client.Get(base + "/debug/vars")
		if err != nil {
			b.Fatal(err)
		}
		defer resp.Body.Close()
		var f serverFigures
		if err := json.NewDecoder(resp.Body).Decode(&f); err != nil {
			b.Fatalf("/debug/vars: %v", err)
		}
		return f
	}
	f := vars()
	heap := f.HeapLiveBytes
	for range 3 {
		for gc, deadline := f.Memstats.NumGC, time.Now().Add(time.Minute); f.Memstats.NumGC == gc; f = vars() {
			if time.Now().After(deadline) {
				b.Fatal("the server did not collect its garbage within a minute of small pages")
			}
			for range 20 {
				resp, err := client.Get(base + "/api/runs")
				if err != nil {
					b.Fatal(err)
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		}
		heap = min(heap, f.HeapLiveBytes)
	}
	f.HeapLiveBytes = heap
	f.fds, f.rssMB = fds, rss
	return f
}

// procStatusMB reads one of the memory lines of /proc/PID/status, in MB.
func procStatusMB(pid int, field string) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, field) {
			kb, _ := strconv.ParseFloat(strings.Fields(line)[1], 64)
			return kb / 1024
		}
	}
	return -1
}

// soakLoad counts what the soak's clients did.
type soakLoad struct {
	requests, failed atomic.Int64
	mu               sync.Mutex
	failures         []string
	slowestOpen      time.Duration // the longest a stream took to answer
}

func (l *soakLoad) fail(format string, args ...any) {
	l.failed.Add(1)
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.failures) < 20 {
		l.failures = append(l.failures, fmt.Sprintf(format, args...))
	}
}

// getJSON GETs path into v; a failure is counted.
func (l *soakLoad) getJSON(c *http.Client, base, path string, v any) bool {
	l.requests.Add(1)
	resp, err := c.Get(base + path)
	if err != nil {
		l.fail("GET %s: %v", path, err)
		return false
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		l.fail("GET %s: %d", path, resp.StatusCode)
		return false
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		l.fail("GET %s: %v", path, err)
		return false
	}
	return true
}

// page GETs path and reads it whole; a failure is counted.
func (l *soakLoad) page(c *http.Client, base, path string) {
	l.requests.Add(1)
	resp, err := c.Get(base + path)
	if err != nil {
		l.fail("GET %s: %v", path, err)
		return
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		l.fail("GET %s: %v", path, err)
	} else if resp.StatusCode != http.StatusOK {
		l.fail("GET %s: %d", path, resp.StatusCode)
	}
}

// crawl reads every kind of page once: the runs list, and for each run
// its overview, failures, queue and targets, a sample of its results and
// of its modes, a comparison with the run before it, and the teams.
func (l *soakLoad) crawl(c *http.Client, base string, rnd *rand.Rand) {
	var list struct {
		Runs []struct {
			ID    string `json:"id"`
			Total int    `json:"total"`
		} `json:"runs"`
	}
	if !l.getJSON(c, base, "/api/runs", &list) {
		return
	}
	l.page(c, base, "/")
	for i, r := range list.Runs {
		run := "/runs/" + url.PathEscape(r.ID)
		for _, p := range []string{run, run + "/failures", run + "/modes", run + "/targets"} {
			l.page(c, base, p)
		}
		var results struct {
			Results []struct{ ID int64 } `json:"results"`
		}
		offset := rnd.IntN(max(r.Total-10, 1))
		if l.getJSON(c, base, fmt.Sprintf("/api/runs/%s/results?status=all&limit=10&offset=%d", url.PathEscape(r.ID), offset), &results) {
			for _, res := range results.Results[:min(2, len(results.Results))] {
				l.page(c, base, fmt.Sprintf("%s/results/%d", run, res.ID))
			}
		}
		var modes struct {
			Modes []struct{ ID string } `json:"modes"`
		}
		if l.getJSON(c, base, "/api/runs/"+url.PathEscape(r.ID)+"/modes", &modes) && len(modes.Modes) > 0 {
			for range 2 {
				l.page(c, base, "/modes/"+url.PathEscape(modes.Modes[rnd.IntN(len(modes.Modes))].ID))
			}
		}
		if i > 0 {
			l.page(c, base, "/compare?base="+url.QueryEscape(list.Runs[i-1].ID)+"&head="+url.QueryEscape(r.ID))
		}
	}
	l.page(c, base, "/teams")
}

// watch opens a live page's stream and reads it for stay once it is open,
// or until the server ends it when stay is 0. It returns the last total of
// results the overview showed, and whether the server ended the stream.
func (l *soakLoad) watch(c *http.Client, base, path string, stay time.Duration) (last int, ended bool) {
	l.requests.Add(1)
	ctx, leave := context.WithCancel(context.Background())
	defer leave()
	req, _ := http.NewRequestWithContext(ctx, "GET", base+path, nil)
	req.Header.Set("Datastar-Request", "true")
	start := time.Now()
	slow := time.AfterFunc(30*time.Second, leave)
	resp, err := c.Do(req)
	slow.Stop()
	if err != nil {
		l.fail("GET %s: %v", path, err)
		return -1, false
	}
	defer resp.Body.Close()
	l.streamOpened(time.Since(start))
	if resp.StatusCode != http.StatusOK {
		l.fail("GET %s: %d", path, resp.StatusCode)
		return -1, false
	}
	if stay > 0 {
		time.AfterFunc(stay, leave)
	}
	last = -1
	lines := bufio.NewScanner(resp.Body)
	lines.Buffer(make([]byte, 1<<20), 1<<20)
	for lines.Scan() {
		if m := totalRE.FindSubmatch(lines.Bytes()); m != nil {
			last, _ = strconv.Atoi(strings.ReplaceAll(string(m[1]), ",", ""))
		}
	}
	return last, ctx.Err() == nil
}

// streamOpened notes how long a stream took to answer.
func (l *soakLoad) streamOpened(d time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.slowestOpen = max(l.slowestOpen, d)
}

// BenchmarkSoak runs `sandtrap serve` for $SOAK (10 minutes unless set,
// SOAK=30s for a short one) while another process writes the demo's live
// run, 500 clients open its live pages over time (50 from the warm-up to the
// run's end, the rest for a while each) and crawlers read every kind of page
// in a loop. At the end the server's goroutines, open files and live heap
// must be within 5 % of their level after the warm-up, every client that
// stayed must have seen the run's final total, and no request may fail.
func BenchmarkSoak(b *testing.B) {
	soak := soakDuration(b)
	warmup := min(max(soak/6, 10*time.Second), 90*time.Second)
	bin := buildSandtrap(b)
	dir := b.TempDir()
	campaign := filepath.Join(dir, "demo.db")
	if out, err := exec.Command(bin, "demo", "--out", campaign, "--results", strconv.Itoa(soakBase)).CombinedOutput(); err != nil {
		b.Fatalf("demo: %v\n%s", err, out)
	}
	srv := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--state", filepath.Join(dir, "state.db"), campaign)
	stdout, _ := srv.StdoutPipe()
	srv.Stderr = os.Stderr
	if err := srv.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { srv.Process.Signal(os.Interrupt); srv.Wait() }()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		b.Fatalf("serve printed nothing: %v", err)
	}
	base := strings.TrimSuffix(regexp.MustCompile(`http://\S+`).FindString(line), "/")
	rate := strconv.FormatFloat(soakLive/soak.Seconds(), 'f', -1, 64)
	writer := exec.Command(bin, "demo", "--out", campaign, "--live", "--rate", rate, "--planned", strconv.Itoa(soakLive))
	writer.Stderr = os.Stderr
	if err := writer.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { writer.Process.Signal(os.Interrupt); writer.Wait() }()
	start := time.Now()

	var load soakLoad
	crawlClient := &http.Client{Timeout: 30 * time.Second}
	var live string
	for live == "" && time.Since(start) < time.Minute {
		var list struct {
			Runs []struct {
				ID   string `json:"id"`
				Live bool   `json:"live"`
			} `json:"runs"`
		}
		if load.getJSON(crawlClient, base, "/api/runs", &list) {
			for _, r := range list.Runs {
				if r.Live {
					live = r.ID
				}
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	if live == "" {
		b.Fatal("no live run within a minute")
	}
	streams := []string{"/runs/" + live + "/live", "/runs/" + live + "/failures/live", "/runs/" + live + "/modes/live", "/live"}

	// The crawlers read until told to stop, and pause for the figures.
	var (
		crawling    sync.WaitGroup
		paused      sync.RWMutex
		stopCrawler atomic.Bool
		crawled     atomic.Int64 // passes over every page
	)
	for i := range soakCrawlers {
		crawling.Go(func() {
			rnd := rand.New(rand.NewPCG(uint64(i), 1))
			for !stopCrawler.Load() {
				paused.RLock()
				load.crawl(crawlClient, base, rnd)
				paused.RUnlock()
				crawled.Add(1)
			}
		})
	}
	sseTransport := &http.Transport{MaxIdleConnsPerHost: soakClients, DisableCompression: true}
	sseClient := &http.Client{Transport: sseTransport}
	var watchers sync.WaitGroup
	// visit opens a stream at from for stay, and counts it as failed when
	// the server ends it while the run is live.
	visit := func(from, stay time.Duration, path string) {
		watchers.Go(func() {
			time.Sleep(time.Until(start.Add(from)))
			if _, ended := load.watch(sseClient, base, path, stay); ended {
				load.fail("the stream of %s ended after %s of its %s", path, time.Since(start.Add(from)).Round(time.Second), stay)
			}
		})
	}
	rnd := rand.New(rand.NewPCG(42, 1))
	for range soakWarmups {
		from := time.Duration(rnd.Int64N(int64(warmup / 2)))
		visit(from, time.Duration(rnd.Int64N(int64(warmup/4)))+time.Second, streams[rnd.IntN(len(streams))])
	}
	// The warm-up lasts until every crawler has read every page a few
	// times, so that the caches the pages fill are filled.
	time.Sleep(time.Until(start.Add(warmup)))
	for crawled.Load() < 3*soakCrawlers {
		time.Sleep(50 * time.Millisecond)
	}
	watchers.Wait()
	paused.Lock()
	sseTransport.CloseIdleConnections()
	crawlClient.CloseIdleConnections()
	time.Sleep(time.Second)
	warm := figuresOf(b, base, srv.Process.Pid)
	paused.Unlock()

	// From the warm-up on: stayers on the overview to the run's end, and
	// the rest coming and going until 90 % of the soak.
	finals := make([]int, soakStayers)
	var stayers sync.WaitGroup
	for i := range soakStayers {
		stayers.Go(func() {
			finals[i], _ = load.watch(sseClient, base, streams[0], 0)
		})
	}
	rest := soak - warmup
	for range soakClients - soakStayers - soakWarmups {
		from := warmup + time.Duration(rnd.Int64N(int64(rest*7/10)))
		stay := min(time.Duration(rnd.Int64N(int64(rest/10)))+time.Second, soak*9/10-from)
		visit(from, stay, streams[rnd.IntN(len(streams))])
	}
	if err := waitExit(writer, soak+5*time.Minute); err != nil {
		b.Fatalf("the live run did not end: %v", err)
	}
	var run struct {
		Total      int     `json:"total"`
		FinishedAt *string `json:"finished_at"`
	}
	for deadline := time.Now().Add(time.Minute); run.FinishedAt == nil && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		load.getJSON(crawlClient, base, "/api/runs/"+url.PathEscape(live), &run)
	}
	if run.FinishedAt == nil || run.Total != soakLive {
		b.Fatalf("got the live run at %d results, finished %v, want all %d and finished", run.Total, run.FinishedAt != nil, soakLive)
	}
	stayers.Wait()
	watchers.Wait()
	stopCrawler.Store(true)
	crawling.Wait()
	elapsed := time.Since(start)
	sseTransport.CloseIdleConnections()
	crawlClient.CloseIdleConnections()
	// Closed connections take a moment to end on the server's side.
	var end serverFigures
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(500 * time.Millisecond) {
		if end = figuresOf(b, base, srv.Process.Pid); within(end.Goroutines, warm.Goroutines) && within(end.fds, warm.fds) {
			break
		}
	}

	sawFinal := 0
	for _, n := range finals {
		if n == run.Total {
			sawFinal++
		}
	}
	for b.Loop() {
	}
	b.ReportMetric(elapsed.Seconds(), "s-soak")
	b.ReportMetric(float64(run.Total), "results-written")
	b.ReportMetric(float64(load.requests.Load()), "requests")
	b.ReportMetric(float64(load.failed.Load()), "failed")
	b.ReportMetric(soakClients, "sse-clients")
	b.ReportMetric(float64(sawFinal), "stayers-saw-final")
	b.ReportMetric(ms(load.slowestOpen), "ms-stream-open-max")
	b.ReportMetric(float64(warm.Goroutines), "goroutines-warm")
	b.ReportMetric(float64(end.Goroutines), "goroutines-end")
	b.ReportMetric(float64(warm.fds), "fds-warm")
	b.ReportMetric(float64(end.fds), "fds-end")
	b.ReportMetric(float64(warm.HeapLiveBytes)/(1<<20), "MB-heap-warm")
	b.ReportMetric(float64(end.HeapLiveBytes)/(1<<20), "MB-heap-end")
	b.ReportMetric(warm.rssMB, "MB-rss-warm")
	b.ReportMetric(end.rssMB, "MB-rss-end")
	b.Logf("soak of %s: %d requests, %d failed; %d live clients, %d of %d stayers saw the final total %d", elapsed.Round(time.Second),
		load.requests.Load(), load.failed.Load(), soakClients, sawFinal, soakStayers, run.Total)
	b.Logf("after the warm-up → at the end: goroutines %d → %d, open files %d → %d, live heap %.1f → %.1f MB, RSS %.1f → %.1f MB",
		warm.Goroutines, end.Goroutines, warm.fds, end.fds, float64(warm.HeapLiveBytes)/(1<<20), float64(end.HeapLiveBytes)/(1<<20), warm.rssMB, end.rssMB)
	for _, f := range load.failures {
		b.Errorf("failed: %s", f)
	}
	if sawFinal != soakStayers {
		b.Errorf("got %d of %d clients that stayed seeing the final total %d (they saw %v)", sawFinal, soakStayers, run.Total, finals)
	}
	for _, c := range []struct {
		what      string
		warm, end float64
	}{
		{"goroutines", float64(warm.Goroutines), float64(end.Goroutines)},
		{"open files", float64(warm.fds), float64(end.fds)},
		{"live heap", float64(warm.HeapLiveBytes), float64(end.HeapLiveBytes)},
	} {
		if c.end > c.warm*(1+soakDrift) {
			b.Errorf("got %s at %.0f at the end, want within %.0f %% of %.0f after the warm-up", c.what, c.end, soakDrift*100, c.warm)
		}
	}
}

// within reports whether end is within soakDrift of warm.
func within[T int | uint64](end, warm T) bool { return float64(end) <= float64(warm)*(1+soakDrift) }

// waitExit waits for cmd to exit by itself, for at most d.
func waitExit(cmd *exec.Cmd, d time.Duration) error {
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(d):
		return fmt.Errorf("still running after %s", d)
	}
}
