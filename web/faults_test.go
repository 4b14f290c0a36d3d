package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
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

// eventually polls cond for up to 20 s.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if cond() {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("waited 20 s for %s", what)
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
			func(t *testing.T, path string, good []byte) { os.Truncate(path, int64(len(good)/2)) },
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
			func(t *testing.T, path string, good []byte) { os.WriteFile(path, notSQLite, 0o644) },
			func(t *testing.T, path string, good []byte) { os.WriteFile(path, good, 0o644) }},
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
			eventually(t, "the fault to go once the file is whole", func() bool {
				status, body := fetch(base, "/")
				return status == http.StatusOK && !strings.Contains(body, `data-testid="notice-warn"`)
			})
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
			err := run(t.Context(), []string{"serve", "--addr", "127.0.0.1:0", "--state", state, campaign}, io.Discard, io.Discard)
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
