package bench

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"sandtrap/store/campaign"
)

// Load of the live view: BenchmarkLiveFanout's figures come from this many
// clients on the overview of a live run while a writer commits this fast.
const (
	liveClients  = 1000
	liveRate     = 20 // commits a second, one result each
	liveDuration = 20 * time.Second
)

// buildSandtrap builds the command once for the benchmarks that run it as
// a server of its own.
func buildSandtrap(b *testing.B) string {
	b.Helper()
	bin := filepath.Join(b.TempDir(), "sandtrap")
	out, err := exec.Command("go", "build", "-o", bin, "../web").CombinedOutput()
	if err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// serverCPU reads a process's user and system time from /proc.
func serverCPU(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The command name may hold spaces; fields count from after it.
	fields := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
	utime, _ := strconv.ParseInt(fields[11], 10, 64)
	stime, _ := strconv.ParseInt(fields[12], 10, 64)
	return time.Duration(utime+stime) * time.Second / 100 // clock ticks (USER_HZ = 100)
}

var totalRE = regexp.MustCompile(`data-testid="stat-results".*?stat-value num">(?:<a [^>]*>)?([0-9,]+)`)

// BenchmarkLiveFanout measures, with 1,000 clients watching the overview of
// a live run while another process commits 20 results a second, the time
// from each commit to the event that shows it reaching the clients (goal:
// p95 ≤ 100 ms) and the server's CPU (goal: under one core). The server is
// `sandtrap serve` in a process of its own; this process writes and reads.
func BenchmarkLiveFanout(b *testing.B) {
	bin := buildSandtrap(b)
	ctx := context.Background()
	dir := b.TempDir()
	path := filepath.Join(dir, "live.db")
	w, err := campaign.OpenWriter(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	planned := int64(1_000_000)
	if err := w.InsertRun(ctx, campaign.Run{ID: "live", Name: "Live load", StartedAt: time.Now(), Planned: &planned}); err != nil {
		b.Fatal(err)
	}
	commit := func() {
		if _, err := w.InsertResults(ctx, []campaign.Result{{RunID: "live", Test: "t", Target: "browser", Domain: "web-browsing", Status: "passed"}}); err != nil {
			b.Fatal(err)
		}
	}
	commit()

	srv := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--state", filepath.Join(dir, "state.db"), "--poll", "5ms", path)
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

	// Each client notes when it first sees each total.
	type sighting struct {
		total int
		at    time.Time
	}
	seen := make([][]sighting, liveClients)
	var wg sync.WaitGroup
	loadCtx, stopLoad := context.WithCancel(ctx)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: liveClients, MaxConnsPerHost: 0, DisableCompression: true}}
	connected := make(chan struct{}, liveClients)
	for i := range liveClients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequestWithContext(loadCtx, "GET", base+"/runs/live/live", nil)
			req.Header.Set("Datastar-Request", "true")
			resp, err := client.Do(req)
			if err != nil {
				connected <- struct{}{}
				return
			}
			defer resp.Body.Close()
			connected <- struct{}{}
			sc := bufio.NewScanner(resp.Body)
			sc.Buffer(make([]byte, 1<<20), 1<<20)
			last := -1
			for sc.Scan() {
				m := totalRE.FindSubmatch(sc.Bytes())
				if m == nil {
					continue
				}
				n, _ := strconv.Atoi(strings.ReplaceAll(string(m[1]), ",", ""))
				if n != last {
					seen[i] = append(seen[i], sighting{n, time.Now()})
					last = n
				}
			}
		}()
	}
	for range liveClients {
		<-connected
	}
	time.Sleep(time.Second)

	// Commit at a steady pace and note when each total was committed.
	committedAt := map[int]time.Time{}
	total := 1
	cpuBefore, wallBefore := serverCPU(srv.Process.Pid), time.Now()
	tick := time.NewTicker(time.Second / liveRate)
	for deadline := time.Now().Add(liveDuration); time.Now().Before(deadline); {
		<-tick.C
		commit()
		total++
		committedAt[total] = time.Now()
	}
	tick.Stop()
	time.Sleep(500 * time.Millisecond)
	cpu := serverCPU(srv.Process.Pid) - cpuBefore
	wall := time.Since(wallBefore)
	stopLoad()
	wg.Wait()

	var lat []time.Duration
	missed, clientsSeeing := 0, 0
	for _, s := range seen {
		if len(s) > 0 {
			clientsSeeing++
		}
		for n, at := range committedAt {
			// An event may fold several commits; the first event showing
			// a total at or past n shows commit n.
			var first time.Time
			for _, x := range s {
				if x.total >= n {
					first = x.at
					break
				}
			}
			if first.IsZero() {
				missed++
				continue
			}
			lat = append(lat, max(first.Sub(at), 0))
		}
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	pct := func(p float64) float64 {
		if len(lat) == 0 {
			return -1
		}
		return ms(lat[int(float64(len(lat)-1)*p)])
	}
	for b.Loop() {
	}
	b.ReportMetric(float64(liveClients), "clients")
	b.ReportMetric(float64(clientsSeeing), "clients-updated")
	b.ReportMetric(float64(len(committedAt)), "commits")
	b.ReportMetric(pct(0.50), "ms-p50")
	b.ReportMetric(pct(0.95), "ms-p95")
	b.ReportMetric(pct(0.99), "ms-p99")
	b.ReportMetric(float64(missed), "missed")
	b.ReportMetric(cpu.Seconds()/wall.Seconds(), "server-cores")
}
