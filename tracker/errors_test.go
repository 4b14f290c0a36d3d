package tracker_test

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"sandtrap/tracker"
)

// secret is the token or webhook secret every client under test holds.
const secret = "sekrit-token-123"

// trackerKind describes one tracker for the tests that run against all.
type trackerKind struct {
	name      string
	newClient func(url string, hc *http.Client) (tracker.Client, error)
	// errorReply wraps a message in the tracker's error format.
	errorReply func(message string) string
	// notFound is the message a 404 comes back with.
	notFound string
	// invalid is the tracker's answer to a request that fails validation,
	// and the message that must come back.
	invalidStatus             int
	invalidReply, wantInvalid string
	// ticket is an existing ticket of this tracker.
	ticket tracker.Ticket
}

func jsonMessage(field string) func(string) string {
	return func(msg string) string {
		b, _ := json.Marshal(map[string]any{field: msg})
		return string(b)
	}
}

var trackerKinds = []trackerKind{
	{
		name: "github",
		newClient: func(url string, hc *http.Client) (tracker.Client, error) {
			return tracker.NewGitHub(url, "acme/widgets", secret, hc)
		},
		errorReply:    jsonMessage("message"),
		notFound:      "Not Found",
		invalidStatus: 422,
		invalidReply:  `{"message":"Validation Failed","errors":[{"resource":"Issue","field":"title","code":"missing_field"}]}`,
		wantInvalid:   "Validation Failed: title: missing_field",
		ticket:        tracker.Ticket{Tracker: "github", Key: "acme/widgets#7", State: "closed"},
	},
	{
		name: "gitlab",
		newClient: func(url string, hc *http.Client) (tracker.Client, error) {
			return tracker.NewGitLab(url, "group/proj", secret, hc)
		},
		errorReply:    jsonMessage("message"),
		notFound:      "project or issue not found",
		invalidStatus: 400,
		invalidReply:  `{"message":{"title":["can't be blank"]}}`,
		wantInvalid:   "title: [can't be blank]",
		ticket:        tracker.Ticket{Tracker: "gitlab", Key: "group/proj#45", State: "closed"},
	},
	{
		name: "jira",
		newClient: func(url string, hc *http.Client) (tracker.Client, error) {
			return tracker.NewJira(url, "OPS", "bot@example.com", secret, hc)
		},
		errorReply: func(msg string) string {
			b, _ := json.Marshal(map[string]any{"errorMessages": []string{msg}, "errors": map[string]string{}})
			return string(b)
		},
		notFound:      "Not Found",
		invalidStatus: 400,
		invalidReply:  `{"errorMessages":[],"errors":{"summary":"You must specify a summary of the issue."}}`,
		wantInvalid:   "summary: You must specify a summary of the issue.",
		ticket:        tracker.Ticket{Tracker: "jira", Key: "OPS-12", State: "closed"},
	},
	{
		name: "webhook",
		newClient: func(url string, hc *http.Client) (tracker.Client, error) {
			return tracker.NewWebhook(url+"/hooks/"+secret, secret, hc)
		},
		errorReply:    func(msg string) string { return msg },
		notFound:      "Not Found",
		invalidStatus: 422,
		invalidReply:  "mode_id is required",
		wantInvalid:   "mode_id is required",
		ticket:        tracker.Ticket{Tracker: "webhook", Key: "m-0123456789ab", State: "closed"},
	},
}

func TestClientErrors(t *testing.T) {
	type want struct {
		status     int
		temporary  bool
		retryAfter time.Duration
		message    string
	}
	tests := []struct {
		name string
		// reply answers the request; nil means the server is not there.
		reply   func(k trackerKind, w http.ResponseWriter, r *http.Request)
		timeout time.Duration
		want    func(k trackerKind) want
	}{
		{
			name: "a 401 is final and carries the tracker's message",
			reply: func(k trackerKind, w http.ResponseWriter, _ *http.Request) {
				w.WriteHeader(401)
				io.WriteString(w, k.errorReply("Bad credentials"))
			},
			want: func(trackerKind) want { return want{status: 401, message: "Bad credentials"} },
		},
		{
			name: "a 403 without a rate limit is final",
			reply: func(k trackerKind, w http.ResponseWriter, _ *http.Request) {
				w.WriteHeader(403)
				io.WriteString(w, k.errorReply("Resource not accessible by integration"))
			},
			want: func(trackerKind) want {
				return want{status: 403, message: "Resource not accessible by integration"}
			},
		},
		{
			name: "a 404 is final",
			reply: func(k trackerKind, w http.ResponseWriter, _ *http.Request) {
				w.WriteHeader(404)
				io.WriteString(w, k.errorReply("Not Found"))
			},
			want: func(k trackerKind) want { return want{status: 404, message: k.notFound} },
		},
		{
			name: "a validation failure is final and names the field",
			reply: func(k trackerKind, w http.ResponseWriter, _ *http.Request) {
				w.WriteHeader(k.invalidStatus)
				io.WriteString(w, k.invalidReply)
			},
			want: func(k trackerKind) want { return want{status: k.invalidStatus, message: k.wantInvalid} },
		},
		{
			name: "a 429 is temporary and honours Retry-After",
			reply: func(k trackerKind, w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Retry-After", "120")
				w.WriteHeader(429)
				io.WriteString(w, k.errorReply("slow down"))
			},
			want: func(trackerKind) want {
				return want{status: 429, temporary: true, retryAfter: 120 * time.Second, message: "slow down"}
			},
		},
		{
			name: "a 503 is temporary",
			reply: func(k trackerKind, w http.ResponseWriter, _ *http.Request) {
				w.WriteHeader(503)
				io.WriteString(w, k.errorReply("maintenance"))
			},
			want: func(trackerKind) want { return want{status: 503, temporary: true, message: "maintenance"} },
		},
		{
			name:    "a server slower than the client's timeout is temporary",
			reply:   func(_ trackerKind, w http.ResponseWriter, r *http.Request) { hang(r) },
			timeout: 100 * time.Millisecond,
			want: func(trackerKind) want {
				return want{temporary: true, message: "did not answer in time"}
			},
		},
		{
			name: "an unreachable tracker is temporary",
			want: func(trackerKind) want { return want{temporary: true, message: "cannot reach the tracker"} },
		},
	}
	for _, k := range trackerKinds {
		for _, tt := range tests {
			t.Run(k.name+": "+tt.name, func(t *testing.T) {
				srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					tt.reply(k, w, r)
				}))
				defer srv.Close()
				if tt.reply == nil {
					srv.Close()
				}
				hc := &http.Client{Timeout: tt.timeout}
				c, err := k.newClient(srv.URL, hc)
				if err != nil {
					t.Fatal(err)
				}
				_, err = c.Create(t.Context(), tracker.Issue{Title: "t", Body: "b", ModeID: "m-0123456789ab"})
				e := asTrackerError(t, err)
				w := tt.want(k)
				if e.Tracker != k.name || e.Op != "create" {
					t.Errorf("got tracker %q op %q, want %q create", e.Tracker, e.Op, k.name)
				}
				if e.Status != w.status || e.Temporary != w.temporary {
					t.Errorf("got status %d temporary %v, want %d %v", e.Status, e.Temporary, w.status, w.temporary)
				}
				if e.RetryAfter != w.retryAfter {
					t.Errorf("got RetryAfter %v, want %v", e.RetryAfter, w.retryAfter)
				}
				if !strings.Contains(e.Message, w.message) {
					t.Errorf("got message %q, want it to contain %q", e.Message, w.message)
				}
			})
		}
	}
}

// TestClientsNeverRevealTheirSecret runs every call of every client against
// a tracker that fails in every way and echoes the credentials it received
// into its error message.
func TestClientsNeverRevealTheirSecret(t *testing.T) {
	basic := base64.StdEncoding.EncodeToString([]byte("bot@example.com:" + secret))
	failures := []struct {
		name  string
		reply func(w http.ResponseWriter, r *http.Request)
	}{
		{"slow", func(_ http.ResponseWriter, r *http.Request) { hang(r) }},
		{"unreadable", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(200)
			io.WriteString(w, "{not json "+r.Header.Get("Authorization"))
		}},
	}
	for _, status := range []int{400, 401, 403, 404, 409, 410, 422, 429, 500, 502, 503} {
		failures = append(failures, struct {
			name  string
			reply func(w http.ResponseWriter, r *http.Request)
		}{strconv.Itoa(status), func(w http.ResponseWriter, r *http.Request) {
			echo := fmt.Sprintf("you sent %s %s %q %q", r.Header.Get("Authorization"), r.Header.Get("Private-Token"), r.URL.String(), r.Header)
			b, _ := json.Marshal(map[string]any{"message": echo, "errorMessages": []string{echo}})
			w.Header().Set("X-RateLimit-Remaining", "0")
			w.WriteHeader(status)
			w.Write(b)
		}})
	}
	for _, k := range trackerKinds {
		for _, f := range failures {
			t.Run(k.name+" answering "+f.name, func(t *testing.T) {
				srv := httptest.NewServer(http.HandlerFunc(f.reply))
				defer srv.Close()
				calls := map[string]func(tracker.Client) error{
					"create": func(c tracker.Client) error {
						_, err := c.Create(t.Context(), tracker.Issue{Title: "t", Body: "b", ModeID: "m-0123456789ab"})
						return err
					},
					"comment": func(c tracker.Client) error { return c.Comment(t.Context(), k.ticket, "c") },
					"reopen": func(c tracker.Client) error {
						_, err := c.Reopen(t.Context(), k.ticket, "c")
						return err
					},
					"get": func(c tracker.Client) error {
						_, err := c.Get(t.Context(), k.ticket)
						return err
					},
				}
				failed := 0
				for op, call := range calls {
					// A fresh client per call: go-github refuses calls
					// while it remembers an exhausted rate limit.
					c, err := k.newClient(srv.URL, &http.Client{Timeout: 100 * time.Millisecond})
					if err != nil {
						t.Fatal(err)
					}
					err = call(c)
					if err == nil {
						continue
					}
					failed++
					for _, text := range []string{err.Error(), fmt.Sprintf("%+v", err), fmt.Sprintf("%#v", err)} {
						if strings.Contains(text, secret) || strings.Contains(text, basic) {
							t.Errorf("%s: got error %q, want it free of the secret", op, text)
						}
					}
				}
				// A webhook receiver may answer anything with a 200, so only
				// then may every call succeed; otherwise some must fail, or
				// nothing was checked.
				if failed == 0 && (k.name != "webhook" || f.name != "unreadable") {
					t.Errorf("got no failed call, want some")
				}
			})
		}
	}
}

func asTrackerError(t *testing.T, err error) *tracker.Error {
	t.Helper()
	var e *tracker.Error
	if !errors.As(err, &e) {
		t.Fatalf("got error %v (%T), want a *tracker.Error", err, err)
	}
	return e
}

func unixIn(seconds int) string {
	return strconv.FormatInt(time.Now().Add(time.Duration(seconds)*time.Second).Unix(), 10)
}

// hang answers only once the client has gone. The body is read first: the
// server notices a closed connection only after that.
func hang(r *http.Request) {
	io.Copy(io.Discard, r.Body)
	select {
	case <-r.Context().Done():
	case <-time.After(5 * time.Second):
	}
}
