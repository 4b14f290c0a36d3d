package tracker

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"sandtrap"
)

// Webhook headers. The signature is "sha256=" and the hex HMAC-SHA256, keyed
// with the shared secret, of the timestamp, a ".", and the raw body. Signing
// the timestamp with the body lets a receiver refuse replays: it checks the
// signature, then that the timestamp is recent.
const (
	HeaderEvent     = "X-Sandtrap-Event"
	HeaderTimestamp = "X-Sandtrap-Timestamp" // Unix seconds
	HeaderSignature = "X-Sandtrap-Signature"
)

// Webhook events, in HeaderEvent and WebhookPayload.Event.
const (
	EventCreate  = "create"
	EventComment = "comment"
	EventReopen  = "reopen"
)

// WebhookPayload is the JSON body of every webhook delivery.
type WebhookPayload struct {
	Event  string    `json:"event"`            // create, comment or reopen
	ModeID string    `json:"mode_id"`          // the failure mode
	Title  string    `json:"title,omitempty"`  // on create
	Body   string    `json:"body"`             // Markdown: the issue, or the comment
	Labels []string  `json:"labels,omitempty"` // on create
	Ticket *Ticket   `json:"ticket,omitempty"` // on comment and reopen
	SentAt time.Time `json:"sent_at"`
}

// webhookAnswer is what a receiver may answer a create with, to name the
// ticket it made.
type webhookAnswer struct {
	Key   string `json:"key"`
	URL   string `json:"url"`
	State string `json:"state"`
}

type webhookClient struct {
	url     string
	secret  []byte
	hc      *http.Client
	secrets redactor
}

// NewWebhook returns a Client that POSTs a signed WebhookPayload to url for
// each create, comment and reopen. A receiver may answer a create with
// {"key", "url", "state"} to name its ticket; otherwise the ticket's key is
// the mode id. A webhook cannot be asked for a ticket's state, so Get
// returns the ticket as it is. The URL never appears in errors, because
// webhook URLs often carry a secret of their own.
func NewWebhook(rawURL, secret string, hc *http.Client) (Client, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, sandtrap.Errorf(sandtrap.EINVALID, "webhook URL is not an http or https URL")
	}
	if secret == "" {
		return nil, sandtrap.Errorf(sandtrap.EINVALID, "webhook secret is empty")
	}
	if hc == nil {
		hc = http.DefaultClient
	}
	// The path and query often hold a secret too (think of chat webhooks).
	secrets := redactor{secret, rawURL, u.RawQuery}
	if u.Path != "/" {
		secrets = append(secrets, u.Path)
	}
	return &webhookClient{url: rawURL, secret: []byte(secret), hc: hc, secrets: secrets}, nil
}

func (c *webhookClient) Create(ctx context.Context, is Issue) (Ticket, error) {
	answer, err := c.send(ctx, opCreate, WebhookPayload{
		Event: EventCreate, ModeID: is.ModeID, Title: is.Title, Body: is.Body, Labels: is.Labels,
	})
	if err != nil {
		return Ticket{}, err
	}
	t := Ticket{Tracker: Webhook, Key: is.ModeID, URL: answer.URL, State: StateOpen}
	if answer.Key != "" {
		t.Key = answer.Key
	}
	if answer.State == StateClosed {
		t.State = StateClosed
	}
	return t, nil
}

func (c *webhookClient) Comment(ctx context.Context, t Ticket, body string) error {
	_, err := c.send(ctx, opComment, WebhookPayload{Event: EventComment, ModeID: modeOf(t), Body: body, Ticket: &t})
	return err
}

func (c *webhookClient) Reopen(ctx context.Context, t Ticket, comment string) (Ticket, error) {
	if _, err := c.send(ctx, opReopen, WebhookPayload{Event: EventReopen, ModeID: modeOf(t), Body: comment, Ticket: &t}); err != nil {
		return Ticket{}, err
	}
	t.State = StateOpen
	return t, nil
}

func (c *webhookClient) Get(_ context.Context, t Ticket) (Ticket, error) { return t, nil }

// Find never finds: a receiver keys tickets on mode_id, so creating again
// after a filing was cut short reaches the same ticket.
func (c *webhookClient) Find(context.Context, string) (Ticket, bool, error) {
	return Ticket{}, false, nil
}

// modeOf returns the mode id of a webhook ticket whose key is one.
func modeOf(t Ticket) string {
	if strings.HasPrefix(t.Key, "m-") {
		return t.Key
	}
	return ""
}

func (c *webhookClient) send(ctx context.Context, op string, p WebhookPayload) (webhookAnswer, error) {
	p.SentAt = time.Now().UTC().Truncate(time.Second)
	body, err := json.Marshal(p)
	if err != nil {
		return webhookAnswer{}, fmt.Errorf("webhook %s: encoding payload: %w", op, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return webhookAnswer{}, c.secrets.scrub(&Error{Tracker: Webhook, Op: op, Message: "cannot build the request"})
	}
	ts := strconv.FormatInt(p.SentAt.Unix(), 10)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "sandtrap")
	req.Header.Set(HeaderEvent, p.Event)
	req.Header.Set(HeaderTimestamp, ts)
	req.Header.Set(HeaderSignature, SignWebhook(c.secret, ts, body))
	resp, err := c.hc.Do(req)
	if err != nil {
		return webhookAnswer{}, c.secrets.scrub(callError(ctx, Webhook, op, err))
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse))
	if err != nil {
		return webhookAnswer{}, c.secrets.scrub(callError(ctx, Webhook, op, err))
	}
	if resp.StatusCode >= 300 {
		return webhookAnswer{}, c.secrets.scrub(statusError(Webhook, op, resp.StatusCode, resp.Header, plainMessage(data)))
	}
	// The answer is optional: a receiver that says nothing, or something
	// other than JSON, still took the delivery.
	var answer webhookAnswer
	_ = json.Unmarshal(data, &answer)
	return answer, nil
}

// SignWebhook returns the HeaderSignature value for a body sent at the
// HeaderTimestamp value ts.
func SignWebhook(secret []byte, ts string, body []byte) string {
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte(ts))
	mac.Write([]byte("."))
	mac.Write(body)
	return "sha256=" + hex.EncodeToString(mac.Sum(nil))
}
