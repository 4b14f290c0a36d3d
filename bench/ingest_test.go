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
		bin := buildSandtrap(b)
		dir := b.TempDir()
		srv := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--state", filepath.Join(dir, "state.db"), "--ingest", filepath.Join(dir, "ingest.db"))
		stdout, _ := srv.StdoutPipe()
		if err := srv.Start(); err != nil {
			b.Fatal(err)
		}
		defer func() { srv.Process.Signal(os.Interrupt); srv.Wait() }()
		line, err := bufio.NewReader(stdout).ReadString('\n')
		if err != nil {
			b.Fatalf("serve printed nothing: %v", err)
		}
		go io.Copy(io.Discard, stdout)
		base := strings.TrimSuffix(regexp.MustCompile(`http://\S+`).FindString(line), "/")
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
