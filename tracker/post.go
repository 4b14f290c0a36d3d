package tracker

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// Post is one JSON delivery that is not about a ticket: an alert to Slack
// or to a generic webhook.
type Post struct {
	Receiver string // named in errors: "slack" or "webhook"
	URL      string
	Body     []byte
	// Event goes in HeaderEvent; Secret, when set, signs the body with
	// the timestamp At, as webhook deliveries are signed.
	Event  string
	Secret string
	At     time.Time
}

// opAlert names alert deliveries in errors.
const opAlert = "alert"

// Send POSTs p. Any 2xx answer is a delivery. Failures are *Error, with
// 429 and 5xx answers, timeouts and unreachable receivers Temporary and a
// Retry-After read; neither the URL (a Slack webhook's URL is its secret)
// nor the secret ever appears in them.
func Send(ctx context.Context, hc *http.Client, p Post) error {
	u, err := url.Parse(p.URL)
	if err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return &Error{Tracker: p.Receiver, Op: opAlert, Message: "the URL is not an http or https URL"}
	}
	secrets := redactor{p.Secret, p.URL, u.RawQuery}
	if u.Path != "/" {
		secrets = append(secrets, u.Path)
	}
	if hc == nil {
		hc = http.DefaultClient
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.URL, bytes.NewReader(p.Body))
	if err != nil {
		return secrets.scrub(&Error{Tracker: p.Receiver, Op: opAlert, Message: "cannot build the request"})
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "sandtrap")
	if p.Event != "" {
		req.Header.Set(HeaderEvent, p.Event)
	}
	if p.Secret != "" {
		ts := strconv.FormatInt(p.At.Unix(), 10)
		req.Header.Set(HeaderTimestamp, ts)
		req.Header.Set(HeaderSignature, SignWebhook([]byte(p.Secret), ts, p.Body))
	}
	resp, err := hc.Do(req)
	if err != nil {
		return secrets.scrub(callError(ctx, p.Receiver, opAlert, err))
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse))
	if err != nil {
		return secrets.scrub(callError(ctx, p.Receiver, opAlert, err))
	}
	if resp.StatusCode < 200 || resp.StatusCode >= 300 {
		return secrets.scrub(statusError(p.Receiver, opAlert, resp.StatusCode, resp.Header, plainMessage(data)))
	}
	return nil
}
