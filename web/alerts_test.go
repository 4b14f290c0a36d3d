package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"sandtrap/alert"
)

// alertConfig writes a config with a Slack alert for new modes and a
// signed webhook for runs' ends, both at hook.
func alertConfig(t *testing.T, hook string) string {
	t.Helper()
	t.Setenv("SANDTRAP_TEST_SLACK_URL", hook+"/slack/T0/B0/s3cret")
	t.Setenv("SANDTRAP_TEST_ALERT_SECRET", "alert-s3cret")
	path := filepath.Join(t.TempDir(), "sandtrap.toml")
	config := `
[[alert]]
name = "oncall"
slack_webhook_env = "SANDTRAP_TEST_SLACK_URL"
min_severity = "low"
events = ["new-mode"]

[[alert]]
name = "ci"
webhook_url = "` + hook + `/hook"
secret_env = "SANDTRAP_TEST_ALERT_SECRET"
events = ["run-finished"]
`
	if err := os.WriteFile(path, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestServeAlertsANewModeAndTheEndOfALiveRunThatAnotherProcessWrites(t *testing.T) {
	var (
		mu    sync.Mutex
		slack []map[string]any
		ends  []alert.WebhookPayload
	)
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		defer mu.Unlock()
		switch r.URL.Path {
		case "/slack/T0/B0/s3cret":
			var m map[string]any
			json.Unmarshal(body, &m)
			slack = append(slack, m)
		case "/hook":
			var p alert.WebhookPayload
			json.Unmarshal(body, &p)
			ends = append(ends, p)
		default:
			t.Errorf("got a POST to %s", r.URL.Path)
		}
	}))
	defer hook.Close()
	campaign := demoCampaign(t)
	state := filepath.Join(t.TempDir(), "state.db")
	base, _ := startServeWith(t, state, "--config", alertConfig(t, hook.URL), campaign)
	// Alerts are armed at the notifier's first scan, after the first read;
	// a run that ended before then is history, so the writer starts after.
	waitArmed(t, state)

	// 120 results at 40 a second: the new failure mode comes at 60 %, the
	// end after about 3 s.
	sandtrapProcess(t, "demo", "--out", campaign, "--live", "--rate", "40", "--planned", "120", "--writers", "2")
	deadline := time.Now().Add(patience)
	for {
		mu.Lock()
		done := len(ends) > 0
		mu.Unlock()
		if done {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no run-finished alert within %s", patience)
		}
		time.Sleep(50 * time.Millisecond)
	}
	// A scan more, to see that nothing comes twice.
	time.Sleep(1500 * time.Millisecond)

	mu.Lock()
	defer mu.Unlock()
	tunnel := 0
	seen := map[string]bool{}
	for _, m := range slack {
		text, _ := m["text"].(string)
		if seen[text] {
			t.Errorf("got the alert %q twice", text)
		}
		seen[text] = true
		if strings.Contains(text, "New failure mode in run Live campaign") && strings.Contains(text, "proxy") && strings.Contains(text, base+"/modes/m-") {
			tunnel++
		}
	}
	if tunnel != 1 {
		t.Errorf("got %d Slack alerts of the proxy tunnel mode among %v, want 1 naming the run, with a link", tunnel, slack)
	}
	if len(ends) != 1 {
		t.Fatalf("got %d run-finished alerts, want 1", len(ends))
	}
	end := ends[0]
	if end.Event != "run-finished" || end.Alert != "ci" || !strings.HasPrefix(end.Run.ID, "live-") || end.Summary == nil || end.Summary.Total != 120 {
		t.Errorf("got %+v, want the live run's end with its 120 results", end)
	}
	if end.Summary != nil && end.Summary.NewTotal < 1 {
		t.Errorf("got %d new modes in the summary, want the proxy tunnel", end.Summary.NewTotal)
	}
	if want := base + "/runs/" + end.Run.ID; end.Run.URL != want {
		t.Errorf("got run URL %q, want %q", end.Run.URL, want)
	}

	// /teams lists the alerts and what they sent, naming the variables
	// and never the URLs or the secret.
	resp, err := http.Get(base + "/teams")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{`data-testid="alerts"`, "Slack, URL in $SANDTRAP_TEST_SLACK_URL", "a signed webhook, secret in $SANDTRAP_TEST_ALERT_SECRET",
		"run-finished", `<td data-testid="alert-state">sent</td>`} {
		if !strings.Contains(string(page), want) {
			t.Errorf("got /teams without %q", want)
		}
	}
	for _, leak := range []string{"s3cret", hook.URL} {
		if strings.Contains(string(page), leak) {
			t.Errorf("got /teams showing %q, want no URL or secret", leak)
		}
	}
}

func TestServeRefusesAnAlertWhoseVariableIsUnsetNamingIt(t *testing.T) {
	config := alertConfig(t, "https://hooks.example")
	os.Unsetenv("SANDTRAP_TEST_ALERT_SECRET")
	err := runServe(context.Background(), []string{"--addr", "127.0.0.1:0", "--state", filepath.Join(t.TempDir(), "s.db"), "--config", config, demoCampaign(t)}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "SANDTRAP_TEST_ALERT_SECRET is not set") {
		t.Errorf("got %v, want the unset variable named", err)
	}
	if err != nil && strings.Contains(err.Error(), "s3cret") {
		t.Errorf("got %v, want no secret in it", err)
	}
}

// waitArmed waits until the server whose state file is state has armed its
// alerts, reading the state as another process would.
func waitArmed(t *testing.T, state string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+state+"?mode=ro&_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var lastErr error
	eventually(t, "alerts to be armed", func() bool {
		var at string
		lastErr = db.QueryRow(`SELECT value FROM meta WHERE key = 'alerts_armed_at'`).Scan(&at)
		return lastErr == nil
	}, func() string { return lastErr.Error() })
}
