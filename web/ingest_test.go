package main

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// ingestJSON posts body to the ingest API and decodes the answer into v.
func ingestJSON(base, path, contentType, body string, v any) (int, error) {
	resp, err := http.Post(base+path, contentType, strings.NewReader(body))
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if v != nil {
		json.NewDecoder(resp.Body).Decode(v)
	}
	return resp.StatusCode, nil
}

// ingestBatch is batch b of writer w: size results keyed w-b-i, as NDJSON.
func ingestBatch(w, b, size int) string {
	var s strings.Builder
	for i := range size {
		fmt.Fprintf(&s, `{"key":"%d-%d-%d","test":"t-%d-%d-%d","target":"browser","domain":"web-browsing","status":"failed","error":"page.goto: Target crashed","log_base64":"AAEC"}`+"\n", w, b, i, w, b, i)
	}
	return s.String()
}

type batchAnswer struct {
	Accepted   int `json:"accepted"`
	Duplicates int `json:"duplicates"`
}

// startIngestRun starts the run "r" in the ingest file.
func startIngestRun(t *testing.T, base string) {
	t.Helper()
	status, err := ingestJSON(base, "/api/ingest/runs", "application/json", `{"id":"r","name":"Ingested"}`, nil)
	if err != nil || status != http.StatusCreated {
		t.Fatalf("got %d, %v starting the run, want 201", status, err)
	}
}

// batchKeys counts, for each batch ("w-b"), the keys of its results in the
// file, and the results there are.
func batchKeys(t *testing.T, path string) (perBatch map[string]int, results int) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.QueryRow(`SELECT count(*) FROM results`).Scan(&results); err != nil {
		t.Fatal(err)
	}
	rows, err := db.Query(`SELECT k.key FROM ingest_keys k JOIN results r ON r.id = k.result_id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	perBatch = map[string]int{}
	for rows.Next() {
		var key string
		if err := rows.Scan(&key); err != nil {
			t.Fatal(err)
		}
		perBatch[key[:strings.LastIndex(key, "-")]]++
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return perBatch, results
}

// TestAnIngestedResultIsServedInALiveRun checks that an acknowledged result
// is served; how soon (under a second) is BenchmarkIngestVisible's goal.
func TestAnIngestedResultIsServedInALiveRun(t *testing.T) {
	base := startServe(t, "--ingest", filepath.Join(t.TempDir(), "ingest.db"))
	startIngestRun(t, base)
	var a batchAnswer
	if status, err := ingestJSON(base, "/api/ingest/runs/r/results", "application/x-ndjson", ingestBatch(0, 0, 1), &a); err != nil || status != 200 || a.Accepted != 1 {
		t.Fatalf("got %d, %v, %+v posting a result, want 200 and 1 accepted", status, err, a)
	}
	var run struct {
		Total  int  `json:"total"`
		Failed int  `json:"failed"`
		Live   bool `json:"live"`
	}
	eventually(t, "the posted result in /api/runs/r", func() bool {
		resp, err := http.Get(base + "/api/runs/r")
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		return json.NewDecoder(resp.Body).Decode(&run) == nil && run.Total == 1
	}, func() string { return fmt.Sprintf("%+v", run) })
	if run.Failed != 1 || !run.Live {
		t.Errorf("got %+v, want one failure in a live run", run)
	}
}

// sendBatches posts batches of size results from writers goroutines until
// stop is closed or a post fails, and returns the batches ("w-b") that
// were acknowledged and those that got no answer.
func sendBatches(base string, writers, size int, stop <-chan struct{}, acked *atomic.Int64) (ok, lost []string) {
	var (
		wg sync.WaitGroup
		mu sync.Mutex
	)
	for w := range writers {
		wg.Go(func() {
			for b := 0; ; b++ {
				select {
				case <-stop:
					return
				default:
				}
				var a batchAnswer
				status, err := ingestJSON(base, "/api/ingest/runs/r/results", "application/x-ndjson", ingestBatch(w, b, size), &a)
				mu.Lock()
				if err == nil && status == 200 {
					ok = append(ok, fmt.Sprintf("%d-%d", w, b))
					acked.Add(1)
				} else {
					lost = append(lost, fmt.Sprintf("%d-%d", w, b))
				}
				mu.Unlock()
				if err != nil || status != 200 {
					return
				}
			}
		})
	}
	wg.Wait()
	return ok, lost
}

// waitForAcks waits until acked reaches n.
func waitForAcks(t *testing.T, acked *atomic.Int64, n int64) {
	t.Helper()
	deadline := time.Now().Add(patience)
	for acked.Load() < n {
		if time.Now().After(deadline) {
			t.Fatalf("got %d batches acknowledged within %s, want %d", acked.Load(), patience, n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestStoppingServeCommitsEveryAcknowledgedBatch(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ingest.db")
	base, stopServe := startServeWith(t, filepath.Join(t.TempDir(), "state.db"), "--ingest", path)
	startIngestRun(t, base)
	const size = 100
	var acked atomic.Int64
	done := make(chan struct{})
	var ok []string
	go func() {
		ok, _ = sendBatches(base, 8, size, nil, &acked)
		close(done)
	}()
	waitForAcks(t, &acked, 20)
	stopServe() // as SIGTERM does: the context of run ends
	<-done
	perBatch, results := batchKeys(t, path)
	for _, b := range ok {
		if perBatch[b] != size {
			t.Errorf("batch %s was acknowledged, got %d of its %d results in the file", b, perBatch[b], size)
		}
	}
	// A batch cut off by the stop is in the file whole or not at all.
	for b, n := range perBatch {
		if n != size {
			t.Errorf("got %d results of batch %s, want all %d or none", n, b, size)
		}
	}
	if results != len(perBatch)*size {
		t.Errorf("got %d results, want %d: one per key", results, len(perBatch)*size)
	}
}

func TestIngestSurvivesAKillAndARetryWritesNothingTwice(t *testing.T) {
	dir := t.TempDir()
	path, state := filepath.Join(dir, "ingest.db"), filepath.Join(dir, "state.db")
	base, srv := serveProcess(t, "--state", state, "--ingest", path)
	startIngestRun(t, base)
	const size = 200
	var acked atomic.Int64
	stop := make(chan struct{})
	done := make(chan struct{})
	var ok, lost []string
	go func() {
		ok, lost = sendBatches(base, 8, size, stop, &acked)
		close(done)
	}()
	waitForAcks(t, &acked, 30)
	srv.Process.Kill()
	srv.Wait()
	close(stop)
	<-done
	if len(lost) == 0 {
		t.Fatal("got every batch answered, want some cut off by the kill")
	}

	perBatch, _ := batchKeys(t, path)
	for _, b := range ok {
		if perBatch[b] != size {
			t.Errorf("batch %s was acknowledged, got %d of its %d results in the file after the kill", b, perBatch[b], size)
		}
	}

	// The harness sends again what got no answer, and one acknowledged
	// batch besides; the keys keep each result once.
	base, _ = serveProcess(t, "--state", state, "--ingest", path)
	for _, b := range append(lost, ok[0]) {
		var w, n int
		fmt.Sscanf(b, "%d-%d", &w, &n)
		var a batchAnswer
		status, err := ingestJSON(base, "/api/ingest/runs/r/results", "application/x-ndjson", ingestBatch(w, n, size), &a)
		if err != nil || status != 200 || a.Accepted+a.Duplicates != size {
			t.Errorf("retrying batch %s: got %d, %v, %+v, want 200 and %d results counted", b, status, err, a, size)
		}
		if perBatch[b] == size && a.Duplicates != size {
			t.Errorf("retrying batch %s, already written: got %+v, want all %d duplicates", b, a, size)
		}
	}
	perBatch, results := batchKeys(t, path)
	if want := (len(ok) + len(lost)) * size; results != want {
		t.Errorf("got %d results, want %d: every batch once", results, want)
	}
	for b, n := range perBatch {
		if n != size {
			t.Errorf("got %d results of batch %s, want %d", n, b, size)
		}
	}
}

func TestReadOnlyServeRefusesIngest(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ingest.db")
	base, stop := startServeWith(t, filepath.Join(t.TempDir(), "state.db"), "--ingest", path)
	startIngestRun(t, base)
	stop()
	base = startServe(t, "--read-only", "--ingest", path)
	var answer struct {
		Error struct{ Message string } `json:"error"`
	}
	status, err := ingestJSON(base, "/api/ingest/runs/r/results", "application/x-ndjson", ingestBatch(0, 0, 1), &answer)
	if err != nil || status != http.StatusForbidden || !strings.Contains(answer.Error.Message, "--read-only") {
		t.Errorf("got %d, %v, %q, want 403 saying --read-only", status, err, answer.Error.Message)
	}
	resp, err := http.Get(base + "/api/runs/r")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("got %d for the ingested run, want it served read-only", resp.StatusCode)
	}
}

func TestIngestMaxBodyTakesSizes(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		text string
	}{
		{"32MiB", 32 << 20, "32MiB"},
		{"512 KiB", 512 << 10, "512KiB"},
		{"1GiB", 1 << 30, "1GiB"},
		{"1000", 1000, "1000"},
		{"0", 0, ""},
		{"-5MiB", 0, ""},
		{"lots", 0, ""},
		{"32MB", 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			var b byteSize
			err := b.Set(tt.in)
			if tt.want == 0 {
				if err == nil {
					t.Errorf("got %d, want a refusal", b)
				}
				return
			}
			if err != nil || int64(b) != tt.want || b.String() != tt.text {
				t.Errorf("got %d (%s), %v, want %d (%s)", b, b.String(), err, tt.want, tt.text)
			}
		})
	}
}

func TestServeTakesOnlyAnIngestFile(t *testing.T) {
	var errOut bytes.Buffer
	c, err := parseServe([]string{"--ingest", "in.db", "--ingest-max-body", "1MiB"}, &errOut)
	if err != nil || c.ingest != "in.db" || c.ingestMaxBody != 1<<20 {
		t.Errorf("got %+v, %v, want the ingest file and a 1 MiB limit", c, err)
	}
}
