package notify_test

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"sandtrap"
	"sandtrap/alert"
	"sandtrap/notify"
	"sandtrap/store"
	"sandtrap/store/campaign"
)

const secret = "s3cret-signing-key"

// harnessFile is a campaign file that the test writes as a harness would,
// and a store reading it.
type harnessFile struct {
	path, state string
	w           *campaign.Writer
	st          *store.Store
	n           int // results written
}

// newCampaign writes a finished run with one failure mode and opens a
// store on it with a fresh state file.
func newCampaign(t *testing.T) *harnessFile {
	t.Helper()
	ctx := context.Background()
	c := &harnessFile{path: filepath.Join(t.TempDir(), "c.db"), state: filepath.Join(t.TempDir(), "state.db")}
	if err := campaign.Create(ctx, c.path); err != nil {
		t.Fatal(err)
	}
	w, err := campaign.OpenWriter(ctx, c.path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	c.w = w
	start := time.Now().Add(-48 * time.Hour)
	if err := w.InsertRun(ctx, campaign.Run{ID: "base", Name: "Base", StartedAt: start}); err != nil {
		t.Fatal(err)
	}
	c.fail(t, "base", permission, start)
	if err := w.FinishRun(ctx, "base", start.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	c.open(t)
	return c
}

// Two failure messages of two modes.
const (
	permission = "PermissionError: [Errno 13] Permission denied: '/usr/lib/python3/dist-packages/x'"
	tunnel     = "ProxyError: Cannot connect to proxy: tunnel connection failed: 403 Forbidden"
)

func (c *harnessFile) open(t *testing.T) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st, err := store.Open(ctx, store.Options{StatePath: c.state, Campaigns: []string{c.path}, Poll: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	st.Start(context.Background())
	if err := st.WaitIndexed(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	c.st = st
}

// fail writes a failed result and waits until the store, if open, has
// read it.
func (c *harnessFile) fail(t *testing.T, run, msg string, at time.Time) {
	t.Helper()
	c.n++
	if _, err := c.w.InsertResults(context.Background(), []campaign.Result{{
		RunID: run, Test: "file-io/t" + strings.Repeat("x", c.n), Target: "code-interpreter", Domain: "file-io",
		Status: sandtrap.StatusFailed, Error: &msg, StartedAt: &at, Attempt: 1,
	}}); err != nil {
		t.Fatal(err)
	}
	if c.st == nil {
		return
	}
	c.wait(t, func() bool {
		runs, _ := c.st.ListRuns(context.Background())
		total := 0
		for _, r := range runs {
			total += r.Counts.Total
		}
		return total == c.n
	})
}

// startLive starts a live run with one failure of a mode the base run had
// and one of a mode never seen before.
func (c *harnessFile) startLive(t *testing.T) {
	t.Helper()
	start := time.Now().Add(-time.Minute)
	if err := c.w.InsertRun(context.Background(), campaign.Run{ID: "live", Name: "Live", StartedAt: start}); err != nil {
		t.Fatal(err)
	}
	c.fail(t, "live", permission, start)
	c.fail(t, "live", tunnel, start.Add(time.Second))
}

func (c *harnessFile) finish(t *testing.T, run string) {
	t.Helper()
	if err := c.w.FinishRun(context.Background(), run, time.Now()); err != nil {
		t.Fatal(err)
	}
	c.wait(t, func() bool { ok, _ := c.st.RunSettled(context.Background(), run); return ok })
}

func (c *harnessFile) wait(t *testing.T, cond func() bool) {
	t.Helper()
	// Generous, for a loaded machine: what is waited for is the state, not
	// its speed.
	deadline := time.Now().Add(90 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("the store did not catch up within 90 s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// receiver is an httptest server that records deliveries and answers each
// with the next of its replies, then 200.
type receiver struct {
	*httptest.Server
	mu      sync.Mutex
	got     []delivery
	replies []reply
}

type delivery struct {
	method, path string
	header       http.Header
	body         []byte
}

type reply struct {
	status int
	header map[string]string
}

func newReceiver(t *testing.T, replies ...reply) *receiver {
	r := &receiver{replies: replies}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.got = append(r.got, delivery{req.Method, req.URL.Path, req.Header, body})
		rep := reply{status: 200}
		if len(r.replies) > 0 {
			rep, r.replies = r.replies[0], r.replies[1:]
		}
		r.mu.Unlock()
		for k, v := range rep.header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(rep.status)
		io.WriteString(w, http.StatusText(rep.status)+" at "+req.URL.Path)
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *receiver) deliveries() []delivery {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]delivery(nil), r.got...)
}

// setup is what a notifier is made of in a test: a clock that the test
// moves, the environment, and a log kept to be read.
type setup struct {
	now time.Time
	env map[string]string
	log bytes.Buffer
}

func (s *setup) notifier(t *testing.T, c *harnessFile, alerts ...alert.Alert) *notify.Notifier {
	t.Helper()
	if err := alert.Validate(alerts); err != nil {
		t.Fatal(err)
	}
	n, err := notify.New(notify.Config{Alerts: alerts, Runs: c.st, Outbox: c.st, Getenv: func(k string) string { return s.env[k] },
		Links: alert.Links{Base: "https://sandtrap.example"}, Log: slog.New(slog.NewTextHandler(&s.log, nil)),
		Now: func() time.Time { return s.now }})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// round detects and sends once, as Run does after a change.
func round(t *testing.T, n *notify.Notifier) {
	t.Helper()
	if err := n.Scan(context.Background()); err != nil {
		t.Fatal(err)
	}
	n.SendDue(context.Background())
}

func newSetup(hookURL string) *setup {
	return &setup{now: time.Now(), env: map[string]string{"SLACK_URL": hookURL + "/services/T0/B0/slackpath", "HOOK_SECRET": secret}}
}

func slackAlert(events ...string) alert.Alert {
	return alert.Alert{Name: "oncall", SlackWebhookEnv: "SLACK_URL", MinSeverity: "low", Events: events}
}

func webhookAlert(url string, events ...string) alert.Alert {
	return alert.Alert{Name: "ci", WebhookURL: url + "/hooks/sandtrap?token=urltoken", SecretEnv: "HOOK_SECRET", MinSeverity: "low", Events: events}
}

func TestANewModeReachesSlackOncePerModePerRun(t *testing.T) {
	hook := newReceiver(t)
	c := newCampaign(t)
	s := newSetup(hook.URL)
	n := s.notifier(t, c, slackAlert())
	c.startLive(t)
	round(t, n)
	round(t, n)

	got := hook.deliveries()
	if len(got) != 1 {
		t.Fatalf("got %d deliveries after two rounds, want the one new mode once", len(got))
	}
	d := got[0]
	if d.method != "POST" || d.path != "/services/T0/B0/slackpath" || d.header.Get("Content-Type") != "application/json" {
		t.Errorf("got %s %s (%s), want a JSON POST to the Slack URL", d.method, d.path, d.header.Get("Content-Type"))
	}
	var body struct {
		Text   string            `json:"text"`
		Blocks []json.RawMessage `json:"blocks"`
	}
	if err := json.Unmarshal(d.body, &body); err != nil {
		t.Fatalf("got %s, not JSON: %v", d.body, err)
	}
	for _, want := range []string{"New failure mode in run Live", "proxy tunnel refused", "1 failure in this run", "https://sandtrap.example/modes/m-", "https://sandtrap.example/runs/live"} {
		if !strings.Contains(body.Text, want) {
			t.Errorf("got text %q, want it to hold %q", body.Text, want)
		}
	}
	if len(body.Blocks) < 2 {
		t.Errorf("got %d blocks, want the message in blocks", len(body.Blocks))
	}

	// Another failure of the same mode in the same run is not news.
	c.fail(t, "live", tunnel, time.Now())
	round(t, n)
	if got := len(hook.deliveries()); got != 1 {
		t.Errorf("got %d deliveries after the mode failed again, want still 1", got)
	}
}

func TestTheSignedWebhookTellsARunsEndWhenItsResultsAreAllRead(t *testing.T) {
	hook := newReceiver(t)
	c := newCampaign(t)
	s := newSetup(hook.URL)
	n := s.notifier(t, c, webhookAlert(hook.URL, "new-mode", "run-finished"))
	c.startLive(t)
	round(t, n)
	c.finish(t, "live")
	round(t, n)
	round(t, n)

	got := hook.deliveries()
	if len(got) != 2 {
		t.Fatalf("got %d deliveries, want the new mode and the run's end, once each", len(got))
	}
	events := []string{}
	for _, d := range got {
		if d.method != "POST" || d.path != "/hooks/sandtrap" || d.header.Get("Content-Type") != "application/json" {
			t.Errorf("got %s %s (%s), want a JSON POST to the webhook", d.method, d.path, d.header.Get("Content-Type"))
		}
		ts := d.header.Get("X-Sandtrap-Timestamp")
		mac := hmac.New(sha256.New, []byte(secret))
		mac.Write([]byte(ts + "."))
		mac.Write(d.body)
		if want := "sha256=" + hex.EncodeToString(mac.Sum(nil)); !hmac.Equal([]byte(want), []byte(d.header.Get("X-Sandtrap-Signature"))) {
			t.Errorf("got signature %q, want the HMAC-SHA256 of the timestamp and body", d.header.Get("X-Sandtrap-Signature"))
		}
		events = append(events, d.header.Get("X-Sandtrap-Event"))
	}
	if events[0] != "new-mode" || events[1] != "run-finished" {
		t.Errorf("got events %v, want new-mode then run-finished", events)
	}
	var end alert.WebhookPayload
	if err := json.Unmarshal(got[1].body, &end); err != nil {
		t.Fatal(err)
	}
	sm := end.Summary
	if end.Event != "run-finished" || end.Alert != "ci" || end.Run.ID != "live" || sm == nil {
		t.Fatalf("got %+v, want the live run's end for alert ci", end)
	}
	if sm.Total != 2 || sm.Failures != 2 || sm.NewTotal != 1 || len(sm.Worst) != 2 || !strings.Contains(end.Text, "0.0% passed · 2 failures of 2 results") {
		t.Errorf("got %+v, text %q; want 2 failures of 2 results, 1 new mode, 2 worst", sm, end.Text)
	}
}

func TestAFailedSendIsRetriedWithBackoffAndRetryAfter(t *testing.T) {
	tests := []struct {
		name      string
		reply     reply
		notBefore time.Duration // not sent again before
		by        time.Duration // sent again by
		wantError string
	}{
		{"a 500 is retried after a backoff", reply{status: 500}, 7 * time.Second, 16 * time.Second, "The webhook answered HTTP 500: Internal Server Error at [redacted]."},
		{"a 429 waits for its Retry-After", reply{status: 429, header: map[string]string{"Retry-After": "120"}}, 119 * time.Second, 121 * time.Second, "The webhook answered HTTP 429: Too Many Requests at [redacted]."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hook := newReceiver(t, tt.reply)
			c := newCampaign(t)
			s := newSetup(hook.URL)
			n := s.notifier(t, c, webhookAlert(hook.URL, "new-mode"))
			c.startLive(t)
			round(t, n)
			sends, err := c.st.AlertSends(context.Background(), 10)
			if err != nil || len(sends) != 1 {
				t.Fatalf("got %d sends (%v), want 1", len(sends), err)
			}
			if got := sends[0]; got.State != alert.StatePending || got.Attempts != 1 || !strings.HasPrefix(got.LastError, tt.wantError) {
				t.Errorf("got %s after %d attempts with %q, want pending after 1 with %q", got.State, got.Attempts, got.LastError, tt.wantError)
			}
			start := s.now
			s.now = start.Add(tt.notBefore)
			round(t, n)
			if got := len(hook.deliveries()); got != 1 {
				t.Errorf("got %d deliveries %s later, want no retry yet", got, tt.notBefore)
			}
			s.now = start.Add(tt.by)
			round(t, n)
			if got := len(hook.deliveries()); got != 2 {
				t.Errorf("got %d deliveries %s later, want the retry", got, tt.by)
			}
			sends, _ = c.st.AlertSends(context.Background(), 10)
			if got := sends[0]; got.State != alert.StateSent || got.Attempts != 2 || got.LastError != "" {
				t.Errorf("got %s after %d attempts with %q, want sent on the second", got.State, got.Attempts, got.LastError)
			}
			for _, text := range []string{s.log.String(), sends[0].LastError} {
				for _, leak := range []string{secret, "urltoken", "/hooks/sandtrap"} {
					if strings.Contains(text, leak) {
						t.Errorf("got %q, want no secret or URL (%q) in it", text, leak)
					}
				}
			}
		})
	}
}

func TestARestartResumesPendingSendsAndQueuesNothingTwice(t *testing.T) {
	hook := newReceiver(t, reply{status: 503})
	c := newCampaign(t)
	s := newSetup(hook.URL)
	c.startLive(t)
	round(t, s.notifier(t, c, slackAlert("new-mode")))
	if got := len(hook.deliveries()); got != 1 {
		t.Fatalf("got %d deliveries, want the first, refused", got)
	}

	// The state file is opened again by a new store and notifier.
	c.st.Close()
	c.open(t)
	n := s.notifier(t, c, slackAlert("new-mode"))
	s.now = s.now.Add(time.Hour)
	round(t, n)
	round(t, n)
	if got := len(hook.deliveries()); got != 2 {
		t.Errorf("got %d deliveries, want the pending send once more, and nothing queued again", got)
	}
	sends, _ := c.st.AlertSends(context.Background(), 10)
	if len(sends) != 1 || sends[0].State != alert.StateSent {
		t.Errorf("got %+v, want one send, sent", sends)
	}
}

func TestAModeMarkedFixedThatFailsAgainIsReturned(t *testing.T) {
	hook := newReceiver(t)
	c := newCampaign(t)
	s := newSetup(hook.URL)
	n := s.notifier(t, c, slackAlert("returned-mode"))
	c.startLive(t)
	round(t, n)
	modes, _, _ := c.st.RunModes(context.Background(), "base", sandtrap.ResultFilter{})
	fixed := "fixed"
	if _, err := c.st.UpdateMode(context.Background(), modes[0].ID, sandtrap.Triage{Status: &fixed}); err != nil {
		t.Fatal(err)
	}
	round(t, n)
	if got := len(hook.deliveries()); got != 0 {
		t.Fatalf("got %d deliveries, want none: the mode failed in the live run before it was marked fixed", got)
	}
	c.fail(t, "live", permission, time.Now().Add(time.Second))
	round(t, n)
	got := hook.deliveries()
	if len(got) != 1 || !strings.Contains(string(got[0].body), "A failure mode marked fixed is failing again in run Live") {
		t.Fatalf("got %d deliveries (%v), want the returned mode", len(got), got)
	}
}

func TestARunThatFinishedBeforeAlertsWereArmedIsHistory(t *testing.T) {
	hook := newReceiver(t)
	c := newCampaign(t)
	round(t, newSetup(hook.URL).notifier(t, c, slackAlert()))
	if got := len(hook.deliveries()); got != 0 {
		t.Errorf("got %d deliveries about the finished base run, want none", got)
	}
}

func TestAnUnreachableReceiverIsRetriedAndNamedWithoutItsURL(t *testing.T) {
	hook := newReceiver(t)
	hook.Close()
	c := newCampaign(t)
	s := newSetup(hook.URL)
	c.startLive(t)
	round(t, s.notifier(t, c, webhookAlert(hook.URL, "new-mode")))
	sends, _ := c.st.AlertSends(context.Background(), 10)
	if len(sends) != 1 || sends[0].State != alert.StatePending || !strings.HasPrefix(sends[0].LastError, "The webhook: cannot reach the receiver: ") {
		t.Fatalf("got %+v, want it pending, the receiver said unreachable", sends)
	}
	if strings.Contains(sends[0].LastError, "/hooks/sandtrap") || strings.Contains(sends[0].LastError, "urltoken") {
		t.Errorf("got %q, want no URL in it", sends[0].LastError)
	}
}

func TestNewRefusesAnUnsetVariableNamingIt(t *testing.T) {
	c := newCampaign(t)
	_, err := notify.New(notify.Config{Alerts: []alert.Alert{slackAlert(), {Name: "b", WebhookURL: "https://x.example", SecretEnv: "UNSET_SECRET"}},
		Runs: c.st, Outbox: c.st, Getenv: func(k string) string { return map[string]string{"SLACK_URL": "https://hooks.example/s3cret"}[k] }})
	if err == nil || !strings.Contains(err.Error(), "UNSET_SECRET is not set") || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("got %v, want UNSET_SECRET named and no value shown", err)
	}
}
