package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"sandtrap"
	"sandtrap/filing"
	"sandtrap/store"
	"sandtrap/store/campaign"
	"sandtrap/triage"
)

// sandtrapRun runs `sandtrap args...` in another process to its end.
func sandtrapRun(t *testing.T, args ...string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "SANDTRAP_TEST_ARGS="+strings.Join(args, "\x1f"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("sandtrap %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// fetch GETs path and returns the status and the body; 0 when the server
// did not answer.
func fetch(base, path string) (int, string) {
	resp, err := http.Get(base + path)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// patience is how long a test waits for a server, a browser or another
// process to reach a state before it fails. It bounds the wait and is no
// claim about speed: with the suite's packages running side by side on two
// cores, what takes a second alone has taken more than 20.
const patience = 90 * time.Second

// eventually polls cond for up to patience. On a timeout it says what
// state each of lastSeen reports, so a wait that fails once under load
// leaves its reason.
func eventually(t *testing.T, what string, cond func() bool, lastSeen ...func() string) {
	t.Helper()
	deadline := time.Now().Add(patience)
	for time.Now().Before(deadline) {
		if cond() {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	var seen strings.Builder
	for _, f := range lastSeen {
		seen.WriteString("; last seen: " + f())
	}
	t.Fatalf("waited %s for %s%s", patience, what, seen.String())
}

// noticeOf returns the warning notice a page shows, up to 400 bytes of
// its markup, or "no notice".
func noticeOf(body string) string {
	i := strings.Index(body, `data-testid="notice-warn"`)
	if i < 0 {
		return "no notice"
	}
	return body[i:min(len(body), i+400)]
}

// rewrite writes b over path at off, in place, as a disk or a careless
// copy would.
func rewrite(t *testing.T, path string, off int64, b []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt(b, off); err != nil {
		t.Fatal(err)
	}
}

// overwrite writes b over path in place, cutting it to b's length.
func overwrite(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// renameInto writes b to a file beside path and renames it into its place.
func renameInto(t *testing.T, path string, b []byte) {
	t.Helper()
	tmp := path + ".new"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

func TestACampaignFileThatBreaksWhileServedIsShownAndReadAgainOnceWhole(t *testing.T) {
	notSQLite := []byte(strings.Repeat("this is a text file, not a SQLite database\n", 40))
	// The middle pages of the file: results, logs and artifacts.
	middle := func(good []byte) int64 { return int64(len(good)/2) &^ 4095 }
	garbage := make([]byte, 64*4096)
	for i := range garbage {
		garbage[i] = byte(i*7 + 3)
	}
	tests := []struct {
		name          string
		breakIt, mend func(t *testing.T, path string, good []byte)
	}{
		{"a file cut in half, then its bytes put back",
			func(t *testing.T, path string, good []byte) {
				if err := os.Truncate(path, int64(len(good)/2)); err != nil {
					t.Fatal(err)
				}
			},
			func(t *testing.T, path string, good []byte) { rewrite(t, path, 0, good) }},
		{"pages overwritten with garbage, then their bytes put back",
			func(t *testing.T, path string, good []byte) { rewrite(t, path, middle(good), garbage) },
			func(t *testing.T, path string, good []byte) {
				rewrite(t, path, middle(good), good[middle(good):middle(good)+int64(len(garbage))])
			}},
		{"a text file renamed into its place, then a good copy",
			func(t *testing.T, path string, good []byte) { renameInto(t, path, notSQLite) },
			func(t *testing.T, path string, good []byte) { renameInto(t, path, good) }},
		{"text written over it in place, then its bytes put back",
			func(t *testing.T, path string, good []byte) { overwrite(t, path, notSQLite) },
			func(t *testing.T, path string, good []byte) { overwrite(t, path, good) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "campaign.db")
			sandtrapRun(t, "demo", "--out", path)
			good, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			base, _ := startServeWith(t, filepath.Join(t.TempDir(), "state.db"), path)
			waitForDemo(t, base)
			const run = "2026-06-30-overnight"
			_, runsBefore := fetch(base, "/api/runs")
			_, runBefore := fetch(base, "/api/runs/"+run)
			var results struct {
				Results []struct{ ID int64 } `json:"results"`
			}
			_, body := fetch(base, "/api/runs/"+run+"/results?status=all&limit=1&offset=500")
			if err := json.Unmarshal([]byte(body), &results); err != nil || len(results.Results) != 1 {
				t.Fatalf("got %s for a result of the run, want one", body)
			}
			resultPage := fmt.Sprintf("/runs/%s/results/%d", run, results.Results[0].ID)

			tt.breakIt(t, path, good)
			noticed := func(page string) bool {
				status, body := fetch(base, page)
				return status == http.StatusOK && strings.Contains(body, `data-testid="notice-warn"`) && strings.Contains(body, path)
			}
			eventually(t, "the runs list to show the file's fault", func() bool { return noticed("/") })
			for _, page := range []string{"/runs/" + run, "/runs/" + run + "/failures", "/runs/" + run + "/modes", "/runs/" + run + "/targets"} {
				if !noticed(page) {
					t.Errorf("got %s without the file's fault, want it said there too", page)
				}
			}
			if status, body := fetch(base, "/api/runs"); status != http.StatusOK || body != runsBefore {
				t.Errorf("got %d %s from /api/runs while the file is broken, want 200 and what was read:\n%s", status, body, runsBefore)
			}
			if status, body := fetch(base, "/api/runs/"+run); status != http.StatusOK || body != runBefore {
				t.Errorf("got %d from /api/runs/%s while the file is broken, want 200 and what was read (%t)", status, run, body == runBefore)
			}
			if status, body := fetch(base, "/api/runs/"+run+"/results"); status != http.StatusOK {
				t.Errorf("got %d %s for the run's failures while the file is broken, want 200 from the index", status, body)
			}
			// A result is read from the file itself: shown if it can be,
			// else the answer says why.
			switch status, body := fetch(base, resultPage); status {
			case http.StatusOK:
			case http.StatusServiceUnavailable:
				if !strings.Contains(body, path) {
					t.Errorf("got a 503 result page that does not name %s:\n%s", path, body)
				}
			default:
				t.Errorf("got %d for a result while the file is broken, want 200 or 503", status)
			}

			tt.mend(t, path, good)
			var lastStatus int
			var lastBody string
			eventually(t, "the fault to go once the file is whole", func() bool {
				lastStatus, lastBody = fetch(base, "/")
				return lastStatus == http.StatusOK && !strings.Contains(lastBody, `data-testid="notice-warn"`)
			}, func() string { return fmt.Sprintf("%d, %s", lastStatus, noticeOf(lastBody)) })
			eventually(t, "the runs to be read again", func() bool {
				status, body := fetch(base, "/api/runs")
				return status == http.StatusOK && body == runsBefore
			})
			if status, body := fetch(base, resultPage); status != http.StatusOK {
				t.Errorf("got %d for a result once the file is whole, want 200:\n%.500s", status, body)
			}
		})
	}
}

func TestServeRefusesADamagedStateFileAndSaysHowToRebuildIt(t *testing.T) {
	campaign := filepath.Join(t.TempDir(), "campaign.db")
	sandtrapRun(t, "demo", "--out", campaign)
	good := filepath.Join(t.TempDir(), "state.db")
	base, stop := startServeWith(t, good, campaign)
	waitForDemo(t, base)
	stop()
	// Cut with pages still in the -wal, the file is a whole empty state.
	if _, err := os.Stat(good + "-wal"); err == nil {
		t.Fatalf("got %s-wal left after serve stopped, want every page in %s", good, good)
	}
	saved, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		bytes []byte
	}{
		{"garbage bytes", []byte(strings.Repeat("\x00\xffgarbage ", 4096))},
		{"a state file cut in half", saved[:len(saved)/2]},
		{"a state file cut after its first page", saved[:4096]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			state := filepath.Join(t.TempDir(), "state.db")
			if err := os.WriteFile(state, tt.bytes, 0o644); err != nil {
				t.Fatal(err)
			}
			// A serve that starts ends with the deadline, and fails the
			// test instead of hanging it.
			ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
			defer cancel()
			err := run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--state", state, campaign}, io.Discard, io.Discard)
			if err == nil {
				t.Fatal("got serve started on a damaged state file, want it refused")
			}
			for _, want := range []string{state, "is damaged", "move it aside or delete it", "reads the campaign files again", "lost unless you put back a backup"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("got %q, want it to say %q", err, want)
				}
			}
			// Doing as it says rebuilds the state from the campaign.
			if err := os.Rename(state, state+".damaged"); err != nil {
				t.Fatal(err)
			}
			base, _ := startServeWith(t, state, campaign)
			waitForDemo(t, base)
		})
	}
}

// fileSize is the size of path, 0 when it is missing.
func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// countResults counts the results in a campaign file, read-only.
func countResults(t *testing.T, path string) int {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM results`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// readToTheEnd waits until the server at base has indexed n results, and
// returns what /api/runs and each run's /api/runs/{run} and modes say.
func readToTheEnd(t *testing.T, base string, n int) map[string]string {
	t.Helper()
	var list struct {
		Runs []struct {
			ID    string `json:"id"`
			Total int    `json:"total"`
		} `json:"runs"`
	}
	var runs string
	eventually(t, fmt.Sprintf("the server to index all %d results", n), func() bool {
		status, body := fetch(base, "/api/runs")
		if status != http.StatusOK || json.Unmarshal([]byte(body), &list) != nil {
			return false
		}
		total := 0
		for _, r := range list.Runs {
			total += r.Total
		}
		runs = body
		return total == n
	})
	answers := map[string]string{"/api/runs": runs}
	for _, r := range list.Runs {
		for _, p := range []string{"/api/runs/" + r.ID, "/api/runs/" + r.ID + "/modes"} {
			_, answers[p] = fetch(base, p)
		}
	}
	return answers
}

// killMidSave kills srv in the middle of a write to the state, after it has
// seen it finish saved writes: when a probe finds the state's write lock
// held for the saved+1-th time. Only when saved is 0 can it return false,
// with srv killed: when the server saved its first read before any probe
// found it writing (srv starts reading before it prints its address, so on
// a loaded machine a first save can land before the first probe, and
// nothing is left to catch). For later saves it always returns true.
func killMidSave(t *testing.T, srv *exec.Cmd, state string, saved int) bool {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+state+"?_pragma=busy_timeout(0)&_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	defer srv.Wait()
	defer srv.Process.Kill()
	inSave := false
	for deadline := time.Now().Add(patience); time.Now().Before(deadline); {
		tx, err := db.Begin()
		switch {
		case campaign.Busy(err) && saved == 0:
			return true
		case campaign.Busy(err):
			inSave = true
		case err != nil:
			t.Fatalf("probing the state's write lock: %v", err)
		default:
			read := 0
			if saved == 0 {
				err = tx.QueryRow(`SELECT count(*) FROM sources WHERE last_result_id > 0`).Scan(&read)
			}
			tx.Rollback()
			if err != nil {
				t.Fatalf("probing the state's saved reads: %v", err)
			}
			if read > 0 {
				return false
			}
			if inSave {
				inSave, saved = false, saved-1
			}
		}
		// A pause between probes, so that they neither hold the lock the
		// server waits for nor take a core from it.
		time.Sleep(100 * time.Microsecond)
	}
	t.Fatalf("the server did not save its index within %s", patience)
	return false
}

// killMidFirstSave serves campaign on a new state file and kills the server
// during its first writes to it, and returns the state's path. A server
// whose first save landed before a probe could catch it is started again
// on another new state.
func killMidFirstSave(t *testing.T, campaign string) string {
	t.Helper()
	const attempts = 5
	for range attempts {
		state := filepath.Join(t.TempDir(), "state.db")
		_, srv := serveProcess(t, "--state", state, "--poll", "10ms", campaign)
		if killMidSave(t, srv, state, 0) {
			return state
		}
	}
	t.Fatalf("the server saved its first read before any probe caught it writing, %d times", attempts)
	return ""
}

func TestAServerKilledWhileItSavesItsIndexCountsEveryResultOnceWhenItRestarts(t *testing.T) {
	t.Parallel()
	campaign := filepath.Join(t.TempDir(), "campaign.db")
	sandtrapRun(t, "demo", "--out", campaign, "--results", "10000")

	// Killed during the save of its first read, then after more and more
	// saves of the passes over what a harness appends.
	state := killMidFirstSave(t, campaign)
	writer := sandtrapProcess(t, "demo", "--out", campaign, "--live", "--rate", "300", "--writers", "4", "--planned", "1000000")
	for saved := range 4 {
		_, srv := serveProcess(t, "--state", state, "--poll", "10ms", campaign)
		killMidSave(t, srv, state, 1+saved*3)
	}
	writer.Process.Signal(os.Interrupt)
	writer.Wait()
	n := countResults(t, campaign)

	base, _ := serveProcess(t, "--state", state, campaign)
	restarted := readToTheEnd(t, base, n)
	base, _ = serveProcess(t, "--state", filepath.Join(t.TempDir(), "fresh.db"), campaign)
	fresh := readToTheEnd(t, base, n)
	for path, want := range fresh {
		if got := restarted[path]; got != want {
			t.Errorf("got %s after the kills:\n%.2000s\nwant what a fresh read says:\n%.2000s", path, got, want)
		}
	}
}

func TestAFilingToATrackerThatNeverAnswersTimesOutAndIsRetriedThroughTheOutbox(t *testing.T) {
	gh := &fakeGitHub{}
	var hanging atomic.Bool
	hanging.Store(true)
	release := make(chan struct{})
	fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hanging.Load() {
			// The tracker does what it is asked and never answers.
			gh.ServeHTTP(httptest.NewRecorder(), r)
			select {
			case <-release:
			case <-r.Context().Done():
			}
			return
		}
		gh.ServeHTTP(w, r)
	}))
	defer fake.Close()
	defer close(release)

	ctx := t.Context()
	campaign := filepath.Join(t.TempDir(), "campaign.db")
	sandtrapRun(t, "demo", "--out", campaign)
	st, err := store.Open(ctx, store.Options{StatePath: filepath.Join(t.TempDir(), "state.db"), Campaigns: []string{campaign}})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	st.Start(ctx)
	st.WaitIndexed(ctx)
	cfg, err := triage.LoadConfig(filingConfig(t, fake.URL))
	if err != nil {
		t.Fatal(err)
	}
	modes, _, err := st.RunModes(ctx, "2026-06-30-overnight", sandtrap.ResultFilter{})
	if err != nil || len(modes) == 0 {
		t.Fatalf("got %d modes (%v), want the demo's", len(modes), err)
	}
	mode := modes[0].ID
	var clock atomic.Int64
	clock.Store(time.Now().UnixNano())
	client := trackerClient()
	client.Timeout = 300 * time.Millisecond
	filer := &filing.Filer{Outbox: st, Facts: filing.Facts(st, ""), Owners: cfg.Owners.Ownership(),
		Getenv: func(string) string { return "test-token" }, HTTP: client, Log: slog.New(slog.DiscardHandler),
		Now: func() time.Time { return time.Unix(0, clock.Load()) }}
	before := runtime.NumGoroutine()

	start := time.Now()
	_, err = filer.File(ctx, mode, "")
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("got a filing that took %s against a tracker that never answers, want it cut short by the client's timeout", took)
	}
	if !filing.IsRetrying(err) {
		t.Errorf("got %v, want a filing kept to retry", err)
	}
	for _, want := range []string{"did not answer in time", "will be retried"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got %v, want it to say %q", err, want)
		}
	}
	latest := func() filing.Filing {
		fl, err := st.LatestFiling(ctx, mode)
		if err != nil {
			t.Fatal(err)
		}
		return fl
	}
	fl := latest()
	if fl.State != filing.StatePending || fl.Attempts != 1 || !strings.Contains(fl.LastError, "did not answer in time") {
		t.Errorf("got filing %+v, want it pending after 1 attempt, with why", fl)
	}
	if wait := fl.NextAt.Sub(time.Unix(0, clock.Load())); wait < 10*time.Second {
		t.Errorf("got the retry in %s, want a backoff", wait)
	}

	// The outbox tries again when the time comes, and again, until the
	// tracker answers: then the ticket its first call made is the one.
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { filer.Run(runCtx); close(done) }()
	for attempt, state := range []string{filing.StatePending, filing.StateDone} {
		hanging.Store(state == filing.StatePending)
		clock.Store(fl.NextAt.Add(time.Second).UnixNano())
		filer.Wake()
		eventually(t, fmt.Sprintf("attempt %d to end %s", attempt+2, state), func() bool {
			fl = latest()
			return fl.Attempts == attempt+2 && fl.State == state
		})
	}
	stop()
	<-done
	if creates, _, _ := gh.counts(); creates != 1 {
		t.Errorf("got %d tickets made for one mode, want 1: the tracker made one before it stopped answering", creates)
	}
	if ticket, has, err := st.Ticket(ctx, mode); err != nil || !has || !strings.HasSuffix(ticket.URL, "/issues/1") {
		t.Errorf("got ticket %+v, %v, want issue 1", ticket, err)
	}
	client.CloseIdleConnections()
	eventually(t, "the goroutines of the filings to end", func() bool { return runtime.NumGoroutine() <= before })
}

func TestAClientSendingItsHeadersByteByByteIsCutOffWhileOthersAreServed(t *testing.T) {
	t.Parallel()
	campaign := filepath.Join(t.TempDir(), "campaign.db")
	sandtrapRun(t, "demo", "--out", campaign)
	base := startServe(t, campaign)
	waitForDemo(t, base)
	const slow = 20
	cut := make(chan time.Duration, slow)
	for range slow {
		go func() {
			c, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
			if err != nil {
				cut <- 0
				return
			}
			defer c.Close()
			start := time.Now()
			closed := make(chan struct{})
			go func() { io.Copy(io.Discard, c); close(closed) }()
			request := "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + strings.Repeat("a", 100)
			for i := 0; ; i++ {
				c.Write([]byte{request[i%len(request)]})
				select {
				case <-closed:
					cut <- time.Since(start)
					return
				case <-time.After(time.Second):
				}
			}
		}()
	}
	served := 0
	for deadline := time.Now().Add(readHeaderTimeout); time.Now().Before(deadline); served++ {
		start := time.Now()
		if status, _ := fetch(base, "/runs/2026-06-30-overnight"); status != http.StatusOK {
			t.Fatalf("got %d for a page while slow clients hold connections, want 200", status)
		}
		if took := time.Since(start); took >= readHeaderTimeout {
			t.Errorf("got a page in %s while slow clients hold connections, want it without waiting for them", took)
		}
		time.Sleep(100 * time.Millisecond)
	}
	for range slow {
		select {
		case d := <-cut:
			if d < readHeaderTimeout-500*time.Millisecond || d > readHeaderTimeout+3*time.Second {
				t.Errorf("got a slow client cut off after %s, want after the header timeout of %s", d.Round(time.Millisecond), readHeaderTimeout)
			}
		case <-time.After(readHeaderTimeout + 10*time.Second):
			t.Fatalf("a slow client still held its connection %s after the header timeout", 10*time.Second)
		}
	}
	t.Logf("served %d pages while %d clients sent their headers a byte a second", served, slow)
}
