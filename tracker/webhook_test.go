package tracker_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"sandtrap/tracker"
)

func TestWebhookClient(t *testing.T) {
	ticket := tracker.Ticket{Tracker: "webhook", Key: "m-0123456789ab", State: "closed"}
	tests := []struct {
		name        string
		reply       string
		call        func(context.Context, tracker.Client) (tracker.Ticket, error)
		wantEvent   string
		wantPayload tracker.WebhookPayload // SentAt is not compared
		want        tracker.Ticket
	}{
		{
			name: "create sends the issue and keys the ticket on the mode id",
			call: func(ctx context.Context, c tracker.Client) (tracker.Ticket, error) {
				return c.Create(ctx, tracker.Issue{Title: "boom", Body: "details", Labels: []string{"sandtrap"}, ModeID: "m-0123456789ab"})
			},
			wantEvent:   "create",
			wantPayload: tracker.WebhookPayload{Event: "create", ModeID: "m-0123456789ab", Title: "boom", Body: "details", Labels: []string{"sandtrap"}},
			want:        tracker.Ticket{Tracker: "webhook", Key: "m-0123456789ab", State: "open"},
		},
		{
			name:  "create takes the key and URL the receiver answers with",
			reply: `{"key":"INC-7","url":"https://hooks.example/INC-7"}`,
			call: func(ctx context.Context, c tracker.Client) (tracker.Ticket, error) {
				return c.Create(ctx, tracker.Issue{Title: "boom", Body: "details", ModeID: "m-0123456789ab"})
			},
			wantEvent:   "create",
			wantPayload: tracker.WebhookPayload{Event: "create", ModeID: "m-0123456789ab", Title: "boom", Body: "details"},
			want:        tracker.Ticket{Tracker: "webhook", Key: "INC-7", URL: "https://hooks.example/INC-7", State: "open"},
		},
		{
			name: "comment sends the body and the ticket",
			call: func(ctx context.Context, c tracker.Client) (tracker.Ticket, error) {
				return tracker.Ticket{}, c.Comment(ctx, ticket, "seen again")
			},
			wantEvent:   "comment",
			wantPayload: tracker.WebhookPayload{Event: "comment", ModeID: "m-0123456789ab", Body: "seen again", Ticket: &ticket},
		},
		{
			name: "reopen sends the comment and the ticket, and reports the ticket open",
			call: func(ctx context.Context, c tracker.Client) (tracker.Ticket, error) {
				return c.Reopen(ctx, ticket, "it is back")
			},
			wantEvent:   "reopen",
			wantPayload: tracker.WebhookPayload{Event: "reopen", ModeID: "m-0123456789ab", Body: "it is back", Ticket: &ticket},
			want:        tracker.Ticket{Tracker: "webhook", Key: "m-0123456789ab", State: "open"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got struct {
				header http.Header
				body   []byte
			}
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method != "POST" || r.URL.Path != "/hook" {
					t.Errorf("got %s %s, want POST /hook", r.Method, r.URL.Path)
				}
				got.header, got.body = r.Header, must(io.ReadAll(r.Body))
				io.WriteString(w, tt.reply)
			}))
			defer srv.Close()
			c, err := tracker.NewWebhook(srv.URL+"/hook", "shh", srv.Client())
			if err != nil {
				t.Fatal(err)
			}
			ticket, err := tt.call(t.Context(), c)
			if err != nil {
				t.Fatalf("got error %v, want none", err)
			}
			if ticket != tt.want {
				t.Errorf("got ticket %+v, want %+v", ticket, tt.want)
			}
			if err := verifyDelivery([]byte("shh"), got.header, got.body, time.Now()); err != nil {
				t.Errorf("got %v verifying the delivery, want a valid signature", err)
			}
			if e := got.header.Get("X-Sandtrap-Event"); e != tt.wantEvent {
				t.Errorf("got event header %q, want %q", e, tt.wantEvent)
			}
			if ct := got.header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("got Content-Type %q, want application/json", ct)
			}
			var p tracker.WebhookPayload
			if err := json.Unmarshal(got.body, &p); err != nil {
				t.Fatalf("payload %s: %v", got.body, err)
			}
			if time.Since(p.SentAt).Abs() > time.Minute {
				t.Errorf("got sent_at %v, want about now", p.SentAt)
			}
			p.SentAt = time.Time{}
			gotJSON, wantJSON := must(json.Marshal(p)), must(json.Marshal(tt.wantPayload))
			if string(gotJSON) != string(wantJSON) {
				t.Errorf("got payload %s, want %s", gotJSON, wantJSON)
			}
		})
	}
}

func TestWebhookGetReturnsTheTicketAsItIs(t *testing.T) {
	c, err := tracker.NewWebhook("http://127.0.0.1:1/hook", "shh", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := tracker.Ticket{Tracker: "webhook", Key: "m-0123456789ab", State: "closed"}
	if got, err := c.Get(t.Context(), want); err != nil || got != want {
		t.Errorf("got %+v, %v; want %+v, nil", got, err, want)
	}
}

func TestTheDocumentedReceiverCheckAcceptsOnlyFreshSignedDeliveries(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	body := []byte(`{"event":"create"}`)
	signed := func(secret string, at time.Time, body []byte) http.Header {
		ts := strconv.FormatInt(at.Unix(), 10)
		h := http.Header{}
		h.Set("X-Sandtrap-Timestamp", ts)
		h.Set("X-Sandtrap-Signature", tracker.SignWebhook([]byte(secret), ts, body))
		return h
	}
	tests := []struct {
		name   string
		header http.Header
		body   []byte
		want   error
	}{
		{"a fresh delivery signed with the secret passes", signed("shh", now.Add(-time.Minute), body), body, nil},
		{"a changed body fails", signed("shh", now, body), []byte(`{"event":"reopen"}`), errBadSignature},
		{"another secret fails", signed("other", now, body), body, errBadSignature},
		{"a replay older than the tolerance fails", signed("shh", now.Add(-10*time.Minute), body), body, errStale},
		{"a delivery without a timestamp fails", http.Header{"X-Sandtrap-Signature": {"sha256=00"}}, body, errStale},
		{"a timestamp moved forward breaks the signature", func() http.Header {
			h := signed("shh", now.Add(-10*time.Minute), body)
			h.Set("X-Sandtrap-Timestamp", strconv.FormatInt(now.Unix(), 10))
			return h
		}(), body, errBadSignature},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := verifyDelivery([]byte("shh"), tt.header, tt.body, now); !errors.Is(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

var (
	errBadSignature = errors.New("webhook signature does not match")
	errStale        = errors.New("webhook timestamp is missing or too far from now")
)

// verifyDelivery is the receiver's check that docs/filing.md gives: the
// signature over timestamp and body, and a timestamp within 5 minutes.
func verifyDelivery(secret []byte, h http.Header, body []byte, now time.Time) error {
	ts := h.Get(tracker.HeaderTimestamp)
	unix, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || now.Sub(time.Unix(unix, 0)).Abs() > 5*time.Minute {
		return errStale
	}
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte(ts + "."))
	mac.Write(body)
	want := "sha256=" + hex.EncodeToString(mac.Sum(nil))
	if !hmac.Equal([]byte(want), []byte(h.Get(tracker.HeaderSignature))) {
		return errBadSignature
	}
	return nil
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
