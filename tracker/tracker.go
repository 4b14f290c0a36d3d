// Package tracker files failure modes as tickets in issue trackers: GitHub
// Issues, GitLab issues, Jira, or a signed webhook. Each tracker has a
// Client that creates a ticket, comments on it, reopens it and reads its
// current state.
//
// Failures come back as *Error, which carries the tracker's own message and
// says whether retrying later may help. No Client ever puts its token or
// secret into an error, a log line or a returned value.
package tracker

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Trackers a Ticket can live in.
const (
	GitHub  = "github"
	GitLab  = "gitlab"
	Jira    = "jira"
	Webhook = "webhook"
)

// States of a Ticket, the same words for every tracker.
const (
	StateOpen   = "open"
	StateClosed = "closed"
)

// Ticket is what a tracker holds for one failure mode.
type Ticket struct {
	Tracker string `json:"tracker"` // github, gitlab, jira or webhook
	// Key names the ticket in its tracker: "owner/repo#123" on GitHub,
	// "group/project#45" on GitLab, "PROJ-12" on Jira, and on a webhook the
	// key its receiver answered with, or else the mode id.
	Key   string `json:"key"`
	URL   string `json:"url,omitempty"`
	State string `json:"state"` // open or closed
}

// Issue is a ticket to be created.
type Issue struct {
	Title  string
	Body   string // Markdown
	Labels []string
	ModeID string
}

// Client files and updates tickets in one tracker.
type Client interface {
	Create(ctx context.Context, is Issue) (Ticket, error)
	Comment(ctx context.Context, t Ticket, body string) error
	// Reopen opens a closed ticket and adds comment to it ("" adds none).
	// Reopening an open ticket only adds the comment.
	Reopen(ctx context.Context, t Ticket, comment string) (Ticket, error)
	// Get returns the ticket's current state, to notice a ticket that people
	// closed in the tracker.
	Get(ctx context.Context, t Ticket) (Ticket, error)
	// Find looks for the ticket of a failure mode by its label (ModeLabel),
	// so that a filing cut short after the tracker made the ticket is not
	// made twice. A webhook cannot be asked: its receiver keys on mode_id.
	Find(ctx context.Context, modeID string) (Ticket, bool, error)
}

// ModeLabel is the label every ticket of a failure mode carries.
func ModeLabel(modeID string) string { return "sandtrap-" + modeID }

// Operations named in errors.
const (
	opCreate  = "create"
	opComment = "comment"
	opReopen  = "reopen"
	opGet     = "get"
	opFind    = "find"
)

// Error is a failed call to a tracker.
type Error struct {
	Tracker string // github, gitlab, jira or webhook
	Op      string // create, comment, reopen or get
	Status  int    // the HTTP status; 0 when no response came
	// Message is the tracker's own message, such as GitHub's "Validation
	// Failed: title: missing_field", or what went wrong on the way there.
	Message string
	// RetryAfter is how long the tracker asked to be left alone; 0 when it
	// did not say.
	RetryAfter time.Duration
	// Temporary reports whether the same call may succeed later: rate
	// limits, 5xx responses, timeouts and unreachable trackers.
	Temporary bool

	ctxErr error // the context's error when the context ended the call
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: ", e.Tracker, e.Op)
	if e.Status != 0 {
		fmt.Fprintf(&b, "HTTP %d: ", e.Status)
	}
	b.WriteString(e.Message)
	if e.RetryAfter > 0 {
		fmt.Fprintf(&b, " (retry after %s)", e.RetryAfter.Round(time.Second))
	}
	return b.String()
}

// Unwrap returns context.Canceled or context.DeadlineExceeded when the
// caller's context ended the call, so errors.Is tells shutdown from failure.
func (e *Error) Unwrap() error { return e.ctxErr }

// statusError classifies an HTTP error response.
func statusError(tracker, op string, status int, h http.Header, message string) *Error {
	if message == "" {
		message = http.StatusText(status)
	}
	e := &Error{Tracker: tracker, Op: op, Status: status, Message: message}
	switch {
	case status == http.StatusTooManyRequests, status == http.StatusRequestTimeout, status >= 500:
		e.Temporary = true
	case status == http.StatusForbidden && rateLimited(h):
		// GitHub answers 403, not 429, when a rate limit is exhausted.
		e.Temporary = true
	}
	if e.Temporary {
		e.RetryAfter = retryAfter(h, time.Now())
	}
	return e
}

// rateLimited reports whether a 403 response is a rate limit rather than a
// refusal.
func rateLimited(h http.Header) bool {
	return h.Get("X-RateLimit-Remaining") == "0" || h.Get("Retry-After") != ""
}

// retryAfter reads how long to wait from Retry-After (seconds or an HTTP
// date), else from the rate-limit reset time that GitHub and GitLab send as
// Unix seconds and Jira Cloud as an ISO timestamp.
func retryAfter(h http.Header, now time.Time) time.Duration {
	if v := strings.TrimSpace(h.Get("Retry-After")); v != "" {
		if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
			return max(time.Duration(secs)*time.Second, 0)
		}
		if at, err := http.ParseTime(v); err == nil {
			return max(at.Sub(now), 0)
		}
	}
	for _, name := range []string{"X-RateLimit-Reset", "RateLimit-Reset"} {
		v := strings.TrimSpace(h.Get(name))
		if v == "" {
			continue
		}
		if unix, err := strconv.ParseInt(v, 10, 64); err == nil {
			return max(time.Unix(unix, 0).Sub(now), 0)
		}
		if at, err := time.Parse(time.RFC3339, v); err == nil {
			return max(at.Sub(now), 0)
		}
	}
	return 0
}

// callError classifies an error that came with no error response: the
// context ended, the network failed, or a success response was unreadable.
func callError(ctx context.Context, tracker, op string, err error) *Error {
	e := &Error{Tracker: tracker, Op: op}
	var netErr net.Error
	var urlErr *url.Error
	switch {
	case ctx.Err() != nil:
		e.ctxErr = ctx.Err()
		e.Temporary = true
		e.Message = "request abandoned: " + ctx.Err().Error()
		if errors.Is(e.ctxErr, context.DeadlineExceeded) {
			e.Message = "the tracker did not answer in time"
		}
	case errors.As(err, &netErr) && netErr.Timeout():
		e.Temporary = true
		e.Message = "the tracker did not answer in time"
	case errors.As(err, &urlErr):
		// The inner error names the host but not the URL, whose path may
		// itself be a secret (webhook URLs often are).
		e.Temporary = true
		e.Message = "cannot reach the tracker: " + urlErr.Err.Error()
	default:
		// The call may have taken effect although its answer is unreadable;
		// retrying a create could file a duplicate, so it is not temporary.
		e.Message = "unexpected answer: " + err.Error()
	}
	return e
}

// redactor removes a client's secrets from the messages of its errors: a
// misbehaving tracker or proxy may echo the Authorization header back.
type redactor []string

func (r redactor) scrub(e *Error) error {
	for _, secret := range r {
		if secret != "" {
			e.Message = strings.ReplaceAll(e.Message, secret, "[redacted]")
		}
	}
	return e
}

// maxMessage bounds a message taken from an error response body.
const maxMessage = 500

// plainMessage turns an error response body that is not the tracker's JSON
// error format into a short single-line message.
func plainMessage(body []byte) string {
	s := strings.Join(strings.Fields(strings.ToValidUTF8(string(body), "\uFFFD")), " ")
	if len(s) > maxMessage {
		s = strings.ToValidUTF8(s[:maxMessage], "") + "…"
	}
	return s
}

// splitKey splits a "path#number" ticket key.
func splitKey(tracker, op, key string) (path string, number int64, err error) {
	path, num, ok := cutLast(key, "#")
	if ok {
		number, err = strconv.ParseInt(num, 10, 64)
	}
	if !ok || err != nil || path == "" || number <= 0 {
		return "", 0, &Error{Tracker: tracker, Op: op, Message: fmt.Sprintf("ticket key %q is not of the form path#number", key)}
	}
	return path, number, nil
}

func cutLast(s, sep string) (before, after string, found bool) {
	if i := strings.LastIndex(s, sep); i >= 0 {
		return s[:i], s[i+len(sep):], true
	}
	return s, "", false
}
