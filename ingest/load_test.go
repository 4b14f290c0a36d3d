package ingest_test

import (
	"bytes"
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
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"sandtrap/handlers"
	"sandtrap/ingest"
	"sandtrap/static"
)

// TestMain lets the test binary act as a harness in another process: with
// SANDTRAP_INGEST_CLIENT set to "URL WORKER RESULTS BATCH" it sends RESULTS
// results to the run "load" in batches of BATCH, every fifth batch twice at
// once, prints "ACCEPTED DUPLICATES" and exits.
func TestMain(m *testing.M) {
	if args := os.Getenv("SANDTRAP_INGEST_CLIENT"); args != "" {
		accepted, duplicates, err := client(strings.Fields(args))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println(accepted, duplicates)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func client(args []string) (accepted, duplicates int, err error) {
	if len(args) != 4 {
		return 0, 0, fmt.Errorf("client: got %q, want URL WORKER RESULTS BATCH", args)
	}
	url, worker := args[0], args[1]
	n, _ := strconv.Atoi(args[2])
	size, _ := strconv.Atoi(args[3])
	for b := 0; b*size < n; b++ {
		body, ndjson := batch(worker, b, size)
		sends := 1
		if b%5 == 4 {
			sends = 2
		}
		answers := make([]ingestAnswer, sends)
		errs := make([]error, sends)
		var wg sync.WaitGroup
		for i := range sends {
			wg.Go(func() { answers[i], errs[i] = post(url, body, ndjson) })
		}
		wg.Wait()
		for i := range sends {
			if errs[i] != nil {
				return 0, 0, errs[i]
			}
			accepted += answers[i].Accepted
			duplicates += answers[i].Duplicates
		}
	}
	return accepted, duplicates, nil
}

type ingestAnswer struct {
	Accepted   int `json:"accepted"`
	Duplicates int `json:"duplicates"`
}

// batch is batch b of a worker, as NDJSON for odd batches and a JSON
// array for even ones.
func batch(worker string, b, size int) ([]byte, bool) {
	var buf bytes.Buffer
	ndjson := b%2 == 1
	enc := json.NewEncoder(&buf)
	if !ndjson {
		buf.WriteByte('[')
	}
	for i := range size {
		r := ingest.Result{Key: fmt.Sprintf("%s-%d-%d", worker, b, i), Test: fmt.Sprintf("load/%s-%d-%d", worker, b, i),
			Target: "code-interpreter", Domain: "file-io", Status: "passed", Worker: &worker, Log: []byte("ok\x00\n")}
		if i%7 == 0 {
			msg := fmt.Sprintf("PermissionError: [Errno 13] Permission denied: '/data/%d'", i)
			r.Status, r.Error = "failed", &msg
		}
		if !ndjson && i > 0 {
			buf.WriteByte(',')
		}
		enc.Encode(r)
	}
	if !ndjson {
		buf.WriteByte(']')
	}
	return buf.Bytes(), ndjson
}

func post(url string, body []byte, ndjson bool) (ingestAnswer, error) {
	var a ingestAnswer
	ct := "application/json"
	if ndjson {
		ct = "application/x-ndjson"
	}
	resp, err := http.Post(url+"/api/ingest/runs/load/results", ct, bytes.NewReader(body))
	if err != nil {
		return a, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(resp.Body)
		return a, fmt.Errorf("got %s: %s", resp.Status, msg)
	}
	return a, json.NewDecoder(resp.Body).Decode(&a)
}

// serveIngest serves the ingest API over a new file with the run "load".
func serveIngest(t *testing.T) (url, path string) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "ingest.db")
	in, err := ingest.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	h, err := handlers.New(handlers.Config{Ingest: in, Static: static.FS})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h.Routes())
	t.Cleanup(func() { srv.Close(); in.Close() })
	resp, err := http.Post(srv.URL+"/api/ingest/runs", "application/json", strings.NewReader(`{"id":"load","name":"Load"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("got %s starting the run, want 201", resp.Status)
	}
	return srv.URL, path
}

func TestSixteenHarnessProcessesLoseAndDoubleNothing(t *testing.T) {
	const (
		workers   = 16
		perWorker = 10_000
		batchSize = 500
	)
	url, path := serveIngest(t)
	start := time.Now()
	var (
		wg                   sync.WaitGroup
		mu                   sync.Mutex
		accepted, duplicates int
	)
	for w := range workers {
		wg.Go(func() {
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), fmt.Sprintf("SANDTRAP_INGEST_CLIENT=%s w%02d %d %d", url, w, perWorker, batchSize))
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Errorf("client %d: %v\n%s", w, err, stderr.String())
				return
			}
			var a, d int
			if _, err := fmt.Sscan(string(out), &a, &d); err != nil {
				t.Errorf("client %d printed %q: %v", w, out, err)
				return
			}
			mu.Lock()
			accepted, duplicates = accepted+a, duplicates+d
			mu.Unlock()
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	total := workers * perWorker
	t.Logf("%d results (and %d sent twice) from %d processes in %s: %.0f results/s",
		total, duplicates, workers, elapsed.Round(time.Millisecond), float64(total)/elapsed.Seconds())

	wantDuplicates := workers * (perWorker / batchSize / 5) * batchSize
	if accepted != total || duplicates != wantDuplicates {
		t.Errorf("got %d accepted and %d duplicates, want %d and %d", accepted, duplicates, total, wantDuplicates)
	}
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, c := range []struct{ what, query string }{
		{"results", `SELECT count(*) FROM results WHERE run_id = 'load'`},
		{"distinct tests", `SELECT count(DISTINCT test) FROM results WHERE run_id = 'load'`},
		{"distinct keys", `SELECT count(DISTINCT key) FROM ingest_keys WHERE run_id = 'load'`},
		{"keys of an existing result", `SELECT count(*) FROM ingest_keys k JOIN results r ON r.id = k.result_id`},
	} {
		var got int
		if err := db.QueryRow(c.query).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != total {
			t.Errorf("got %d %s in the file, want %d", got, c.what, total)
		}
	}
}
