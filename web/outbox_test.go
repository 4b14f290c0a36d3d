package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// serveProcess runs `sandtrap serve` as a process of its own and returns
// its URL and the process, which the test may kill.
func serveProcess(t *testing.T, args ...string) (string, *exec.Cmd) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "SANDTRAP_TEST_ARGS="+strings.Join(append([]string{"serve", "--addr", "127.0.0.1:0"}, args...), "\x1f"))
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("serve printed nothing: %v", err)
	}
	go io.Copy(io.Discard, out)
	return strings.TrimSuffix(regexp.MustCompile(`http://\S+`).FindString(line), "/"), cmd
}

func TestTheOutboxNeverFilesTwiceWhenTheServerIsKilledMidFiling(t *testing.T) {
	gh := &fakeGitHub{}
	// The first create reaches the tracker, which makes the ticket, but its
	// answer is held until the server has been killed.
	release := make(chan struct{})
	var once sync.Once
	held := make(chan struct{})
	fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == "POST" && strings.HasSuffix(r.URL.Path, "/issues") {
			first := false
			once.Do(func() { first = true })
			if first {
				rec := httptest.NewRecorder()
				gh.ServeHTTP(rec, r)
				close(held)
				<-release
				return
			}
		}
		gh.ServeHTTP(w, r)
	}))
	defer fake.Close()
	defer close(release)
	t.Setenv("SANDTRAP_TEST_TOKEN", "test-token")
	campaign := demoCampaign(t)
	state := filepath.Join(t.TempDir(), "state.db")
	config := filingConfig(t, fake.URL)

	base, srv := serveProcess(t, "--state", state, "--config", config, campaign)
	mode := firstModes(t, base)[0]
	go http.Post(base+"/api/modes/"+mode+"/file", "application/json", strings.NewReader(`{}`))
	select {
	case <-held:
	case <-time.After(patience):
		t.Fatal("the filing never reached the tracker")
	}
	srv.Process.Kill()
	srv.Wait()

	// A new server on the same state resumes the filing: it finds the
	// ticket the tracker made instead of making another.
	base, _ = serveProcess(t, "--state", state, "--config", config, campaign)
	deadline := time.Now().Add(patience)
	var ticket string
	for time.Now().Before(deadline) && ticket == "" {
		resp, err := http.Get(base + "/api/modes/" + mode)
		if err == nil {
			var body struct {
				Mode struct {
					Ticket *string `json:"ticket"`
				} `json:"mode"`
			}
			json.NewDecoder(resp.Body).Decode(&body)
			resp.Body.Close()
			if body.Mode.Ticket != nil {
				ticket = *body.Mode.Ticket
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	if ticket == "" {
		t.Fatalf("the resumed filing stored no ticket within %s", patience)
	}
	if creates, _, _ := gh.counts(); creates != 1 {
		t.Errorf("got %d tickets made for one mode across a kill and a restart, want 1", creates)
	}
	if !strings.HasSuffix(ticket, "/issues/1") {
		t.Errorf("got ticket %s, want issue 1", ticket)
	}

	// Filing it once more through the API comments on that ticket.
	resp, err := http.Post(base+"/api/modes/"+mode+"/file", "application/json", strings.NewReader(`{"team":"platform"}`))
	if err != nil {
		t.Fatal(err)
	}
	var answer struct {
		Ticket map[string]string `json:"ticket"`
	}
	json.NewDecoder(resp.Body).Decode(&answer)
	resp.Body.Close()
	if answer.Ticket["action"] != "commented" || answer.Ticket["tracker"] != "github" {
		t.Errorf("got %v, want a comment on the github ticket", answer.Ticket)
	}
}

func TestATrackerRefusalIsShownWithItsOwnWords(t *testing.T) {
	gh := &fakeGitHub{}
	fake := httptest.NewServer(gh)
	defer fake.Close()
	t.Setenv("SANDTRAP_TEST_TOKEN", "wrong-token")
	campaign := demoCampaign(t)
	base, _ := serveProcess(t, "--state", filepath.Join(t.TempDir(), "s.db"), "--config", filingConfig(t, fake.URL), campaign)
	mode := firstModes(t, base)[0]
	resp, err := http.Post(base+"/api/modes/"+mode+"/file", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadGateway {
		t.Errorf("got status %d, want %d: the tracker refused, not the caller", resp.StatusCode, http.StatusBadGateway)
	}
	for _, want := range []string{"401", "Bad credentials", "SANDTRAP_TEST_TOKEN"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("got %s, want it to say %q", b, want)
		}
	}
	if strings.Contains(string(b), "wrong-token") {
		t.Error("got the token in the answer, want it never shown")
	}
}
