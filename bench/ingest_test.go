package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"sandtrap/ingest"
)

// Load of the ingest benchmark: this many writers each send this many
// results in batches of this size.
const (
	ingestWriters   = 16
	ingestPerWriter = 10_000
	ingestBatch     = 500
)

// ingestBatches are every writer's batches of a run, as NDJSON bodies.
func ingestBatches(run string) [][][]byte {
	all := make([][][]byte, ingestWriters)
	for w := range all {
		for b := 0; b*ingestBatch < ingestPerWriter; b++ {
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			for _, r := range ingestResults(run, w, b) {
				enc.Encode(r)
			}
			all[w] = append(all[w], buf.Bytes())
		}
	}
	return all
}

// ingestResults is batch b of writer w: mostly passes, every seventh a
// failure with a message, each with a short log.
func ingestResults(run string, w, b int) []ingest.Result {
	rs := make([]ingest.Result, ingestBatch)
	worker := fmt.Sprintf("subagent-%02d", w)
	for i := range rs {
		dur := int64(1000 + i)
		rs[i] = ingest.Result{Key: fmt.Sprintf("%s/%d/%d/%d", run, w, b, i), Test: fmt.Sprintf("file-io/bench-%d-%d-%d", w, b, i),
			Target: "code-interpreter", Domain: "file-io", Status: "passed", DurationMS: &dur, Worker: &worker,
			Log: []byte("uploaded chart.png\ndownloaded chart.png\n")}
		if i%7 == 0 {
			msg := fmt.Sprintf("PermissionError: [Errno 13] Permission denied: '/usr/lib/python3/dist-packages/x%d'", i)
			rs[i].Status, rs[i].Error = "failed", &msg
		}
	}
	return rs
}

// BenchmarkIngest measures how many results a second sandtrap takes in
// when 16 writers send batches of 500 at once (goal: ≥ 20,000/s). "serve"
// posts them to `sandtrap serve --ingest` in a process of its own, which
// also indexes the file as it grows, as it would in use; "record" calls
// the ingest writer directly, without HTTP, JSON or the index.
func BenchmarkIngest(b *testing.B) {
	total := float64(ingestWriters * ingestPerWriter)
	b.Run("serve", func(b *testing.B) {
		srv, base := startIngestServe(b)
		client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: ingestWriters}}
		var elapsed time.Duration
		cpu := serverCPU(srv.Process.Pid)
		b.ResetTimer()
		for n := range b.N {
			run := fmt.Sprintf("bench-%d", n)
			if err := postIngest(client, base+"/api/ingest/runs", "application/json", fmt.Appendf(nil, `{"id":%q,"name":"Ingest benchmark"}`, run)); err != nil {
				b.Fatal(err)
			}
			batches := ingestBatches(run)
			start := time.Now()
			var wg sync.WaitGroup
			for w := range ingestWriters {
				wg.Go(func() {
					for _, body := range batches[w] {
						if err := postIngest(client, base+"/api/ingest/runs/"+run+"/results", "application/x-ndjson", body); err != nil {
							b.Error(err)
							return
						}
					}
				})
			}
			wg.Wait()
			elapsed += time.Since(start)
		}
		b.ReportMetric(total*float64(b.N)/elapsed.Seconds(), "results/s")
		b.ReportMetric((serverCPU(srv.Process.Pid)-cpu).Seconds()/elapsed.Seconds(), "server-cores")
	})
	b.Run("record", func(b *testing.B) {
		ctx := context.Background()
		in, err := ingest.Open(ctx, filepath.Join(b.TempDir(), "ingest.db"))
		if err != nil {
			b.Fatal(err)
		}
		defer in.Close()
		var elapsed time.Duration
		b.ResetTimer()
		for n := range b.N {
			run := fmt.Sprintf("bench-%d", n)
			if _, _, err := in.StartRun(ctx, ingest.Run{ID: run, Name: "Ingest benchmark"}); err != nil {
				b.Fatal(err)
			}
			batches := make([][][]ingest.Result, ingestWriters)
			for w := range batches {
				for i := 0; i*ingestBatch < ingestPerWriter; i++ {
					batches[w] = append(batches[w], ingestResults(run, w, i))
				}
			}
			start := time.Now()
			var wg sync.WaitGroup
			for w := range ingestWriters {
				wg.Go(func() {
					for _, batch := range batches[w] {
						if _, _, err := in.Record(ctx, run, batch); err != nil {
							b.Error(err)
							return
						}
					}
				})
			}
			wg.Wait()
			elapsed += time.Since(start)
		}
		b.ReportMetric(total*float64(b.N)/elapsed.Seconds(), "results/s")
	})
}

// startIngestServe starts `sandtrap serve --ingest` in a process of its own,
// stopped when b ends, and returns it with its base URL.
func startIngestServe(b *testing.B) (*exec.Cmd, string) {
	bin := buildSandtrap(b)
	dir := b.TempDir()
	srv := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--state", filepath.Join(dir, "state.db"), "--ingest", filepath.Join(dir, "ingest.db"))
	stdout, _ := srv.StdoutPipe()
	if err := srv.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { srv.Process.Signal(os.Interrupt); srv.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		b.Fatalf("serve printed nothing: %v", err)
	}
	go io.Copy(io.Discard, stdout)
	return srv, strings.TrimSuffix(regexp.MustCompile(`http://\S+`).FindString(line), "/")
}

// visiblePosts is how many results BenchmarkIngestVisible posts one at a
// time in each of its runs.
const visiblePosts = 50

// BenchmarkIngestVisible measures how long a result that `serve --ingest`
// has acknowledged takes to show in GET /api/runs/{run} (goal: under a
// second, docs/ingest.md): one result is posted at a time, and the run is
// read every 5 ms from the answer on until its total counts it. It reports
// the mean and the slowest of each run's posts.
func BenchmarkIngestVisible(b *testing.B) {
	_, base := startIngestServe(b)
	client := &http.Client{}
	var sum, slowest time.Duration
	b.ResetTimer()
	for n := range b.N {
		run := fmt.Sprintf("visible-%d", n)
		if err := postIngest(client, base+"/api/ingest/runs", "application/json", fmt.Appendf(nil, `{"id":%q,"name":"Visibility benchmark"}`, run)); err != nil {
			b.Fatal(err)
		}
		for i := range visiblePosts {
			msg := fmt.Sprintf("PermissionError: [Errno 13] Permission denied: '/data/out-%d.csv'", i)
			body, err := json.Marshal(ingest.Result{Key: fmt.Sprintf("%s/%d", run, i), Test: fmt.Sprintf("file-io/visible-%d", i),
				Target: "code-interpreter", Domain: "file-io", Status: "failed", Error: &msg})
			if err != nil {
				b.Fatal(err)
			}
			if err := postIngest(client, base+"/api/ingest/runs/"+run+"/results", "application/x-ndjson", body); err != nil {
				b.Fatal(err)
			}
			acked := time.Now()
			for total := 0; total != i+1; time.Sleep(5 * time.Millisecond) {
				if time.Since(acked) > time.Minute {
					b.Fatalf("result %d of run %s not in /api/runs after a minute (total %d)", i, run, total)
				}
				total = runTotal(b, client, base+"/api/runs/"+run)
			}
			took := time.Since(acked)
			sum += took
			slowest = max(slowest, took)
		}
	}
	b.ReportMetric(float64(sum)/float64(time.Millisecond)/float64(b.N*visiblePosts), "ms-mean")
	b.ReportMetric(float64(slowest)/float64(time.Millisecond), "ms-slowest")
}

// runTotal is the total of results GET url reports, or -1 while the run
// is not served yet; any other answer ends the benchmark.
func runTotal(b *testing.B, client *http.Client, url string) int {
	resp, err := client.Get(url)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK:
	case http.StatusNotFound:
		return -1
	default:
		msg, _ := io.ReadAll(resp.Body)
		b.Fatalf("GET %s: %s: %s", url, resp.Status, msg)
	}
	var run struct {
		Total int `json:"total"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&run); err != nil {
		b.Fatalf("GET %s: %s: %v", url, resp.Status, err)
	}
	return run.Total
}

func postIngest(client *http.Client, url, contentType string, body []byte) error {
	resp, err := client.Post(url, contentType, bytes.NewReader(body))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		msg, _ := io.ReadAll(resp.Body)
		return fmt.Errorf("POST %s: %s: %s", url, resp.Status, msg)
	}
	io.Copy(io.Discard, resp.Body)
	return nil
}
