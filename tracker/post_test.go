package tracker_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"sandtrap/tracker"
)

func TestSend(t *testing.T) {
	at := time.Unix(1782882367, 0)
	tests := []struct {
		name    string
		secret  string
		status  int
		header  map[string]string
		reply   string
		wantErr *tracker.Error // nil for a delivery
	}{
		{name: "an unsigned post to Slack is delivered on 200", status: 200, reply: "ok"},
		{name: "a signed post carries the event, the timestamp and the signature", secret: "s3cret", status: 204},
		{name: "a 500 is temporary", status: 500, reply: "upstream broke",
			wantErr: &tracker.Error{Tracker: "webhook", Op: "alert", Status: 500, Message: "upstream broke", Temporary: true}},
		{name: "a 429 is temporary and says how long to wait", status: 429, header: map[string]string{"Retry-After": "120"}, reply: "slow down",
			wantErr: &tracker.Error{Tracker: "webhook", Op: "alert", Status: 429, Message: "slow down", Temporary: true, RetryAfter: 2 * time.Minute}},
		{name: "a 404 is a refusal, and the URL it echoes is redacted", status: 404, reply: "no hook at /services/T0/B0/s3cret?key=k3y",
			wantErr: &tracker.Error{Tracker: "webhook", Op: "alert", Status: 404, Message: "no hook at [redacted]?[redacted]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got *http.Request
			var body []byte
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				got, body = r, must(io.ReadAll(r.Body))
				for k, v := range tt.header {
					w.Header().Set(k, v)
				}
				w.WriteHeader(tt.status)
				io.WriteString(w, tt.reply)
			}))
			defer srv.Close()
			url := srv.URL + "/services/T0/B0/s3cret?key=k3y"
			err := tracker.Send(context.Background(), srv.Client(), tracker.Post{
				Receiver: "webhook", URL: url, Body: []byte(`{"text":"hi"}`), Event: "new-mode", Secret: tt.secret, At: at,
			})
			if got.Method != "POST" || got.URL.Path != "/services/T0/B0/s3cret" || got.Header.Get("Content-Type") != "application/json" || string(body) != `{"text":"hi"}` {
				t.Errorf("got %s %s (%s) %s, want the JSON POSTed to the URL", got.Method, got.URL.Path, got.Header.Get("Content-Type"), body)
			}
			if got.Header.Get(tracker.HeaderEvent) != "new-mode" {
				t.Errorf("got event header %q, want new-mode", got.Header.Get(tracker.HeaderEvent))
			}
			ts, sig := got.Header.Get(tracker.HeaderTimestamp), got.Header.Get(tracker.HeaderSignature)
			switch {
			case tt.secret == "" && (ts != "" || sig != ""):
				t.Errorf("got timestamp %q and signature %q, want none without a secret", ts, sig)
			case tt.secret != "" && (ts != strconv.FormatInt(at.Unix(), 10) || verifyDelivery([]byte(tt.secret), got.Header, body, at) != nil):
				t.Errorf("got timestamp %q and signature %q, want them to verify as the docs say", ts, sig)
			}
			var te *tracker.Error
			switch {
			case tt.wantErr == nil && err != nil:
				t.Errorf("got %v, want a delivery", err)
			case tt.wantErr != nil && !errors.As(err, &te):
				t.Errorf("got %v, want a *tracker.Error", err)
			case tt.wantErr != nil && *te != *tt.wantErr:
				t.Errorf("got %+v, want %+v", *te, *tt.wantErr)
			}
			if err != nil && (strings.Contains(err.Error(), "s3cret") || strings.Contains(err.Error(), "k3y")) {
				t.Errorf("got %v, want neither the URL nor the secret in it", err)
			}
		})
	}
}

func TestSendNeverNamesTheURLOfAnUnreachableReceiver(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL + "/services/T0/B0/s3cret"
	srv.Close()
	err := tracker.Send(context.Background(), nil, tracker.Post{Receiver: "slack", URL: url, Body: []byte(`{}`)})
	var te *tracker.Error
	if !errors.As(err, &te) || !te.Temporary {
		t.Fatalf("got %v, want a temporary *tracker.Error", err)
	}
	if strings.Contains(err.Error(), "s3cret") {
		t.Errorf("got %v, want no URL in it", err)
	}
}
