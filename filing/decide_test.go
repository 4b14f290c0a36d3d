package filing_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"sandtrap"
	"sandtrap/filing"
	"sandtrap/tracker"
)

func TestDecide(t *testing.T) {
	open := &tracker.Ticket{Tracker: "github", Key: "acme/widgets#7", State: "open"}
	closed := &tracker.Ticket{Tracker: "github", Key: "acme/widgets#7", State: "closed"}
	tests := []struct {
		name        string
		ticket      *tracker.Ticket
		markedFixed bool
		reappeared  bool
		want        filing.Action
	}{
		{"no ticket creates one", nil, false, false, filing.ActionCreate},
		{"no ticket creates one even for a mode marked fixed that came back", nil, true, true, filing.ActionCreate},
		{"an open ticket gets a comment", open, false, false, filing.ActionComment},
		{"an open ticket of a returning mode gets a comment", open, false, true, filing.ActionComment},
		{"an open ticket of a mode marked fixed that has not returned gets a comment", open, true, false, filing.ActionComment},
		{"an open ticket of a mode marked fixed that came back is reopened", open, true, true, filing.ActionReopen},
		{"a closed ticket whose mode came back is reopened", closed, false, true, filing.ActionReopen},
		{"a closed ticket of a mode marked fixed that came back is reopened", closed, true, true, filing.ActionReopen},
		{"a closed ticket whose mode has not returned is left alone", closed, false, false, filing.ActionNone},
		{"a closed ticket of a mode marked fixed that has not returned is left alone", closed, true, false, filing.ActionNone},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := filing.Decide(tt.ticket, tt.markedFixed, tt.reappeared); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestRetryAfter(t *testing.T) {
	temporary := &tracker.Error{Tracker: "github", Op: "create", Status: 503, Temporary: true}
	tests := []struct {
		name      string
		err       error
		attempt   int
		wantRetry bool
		min, max  time.Duration
	}{
		{"no error is not retried", nil, 1, false, 0, 0},
		{"a 401 is not retried", &tracker.Error{Status: 401}, 1, false, 0, 0},
		{"a 403 is not retried", &tracker.Error{Status: 403}, 1, false, 0, 0},
		{"a 404 is not retried", &tracker.Error{Status: 404}, 1, false, 0, 0},
		{"a 422 is not retried", &tracker.Error{Status: 422}, 1, false, 0, 0},
		{"a configuration error is not retried", sandtrap.Errorf(sandtrap.EINVALID, "env var unset"), 1, false, 0, 0},
		{"a team without a tracker is not retried", fmt.Errorf("%w: team x", filing.ErrNoTracker), 1, false, 0, 0},
		{"a 5xx is retried after about 30s the first time", temporary, 1, true, 15 * time.Second, 30 * time.Second},
		{"the wait doubles with each attempt", temporary, 3, true, 60 * time.Second, 120 * time.Second},
		{"the wait stops growing at 30 minutes", temporary, 7, true, 15 * time.Minute, 30 * time.Minute},
		{"a wrapped temporary error is retried", fmt.Errorf("filing m-1: %w", temporary), 2, true, 30 * time.Second, 60 * time.Second},
		{"a rate limit waits as long as the tracker asks",
			&tracker.Error{Status: 429, Temporary: true, RetryAfter: 10 * time.Minute}, 1, true, 10 * time.Minute, 10 * time.Minute},
		{"a short Retry-After does not shorten the backoff",
			&tracker.Error{Status: 429, Temporary: true, RetryAfter: time.Second}, 2, true, 30 * time.Second, 60 * time.Second},
		{"an absurd Retry-After is capped at a day",
			&tracker.Error{Status: 429, Temporary: true, RetryAfter: 1000 * time.Hour}, 1, true, 24 * time.Hour, 24 * time.Hour},
		{"a shutdown mid-call is retried", context.Canceled, 1, true, 15 * time.Second, 30 * time.Second},
		{"the eighth failure gives up", temporary, filing.MaxAttempts, false, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for range 50 { // the jitter must stay within bounds every time
				wait, retry := filing.RetryAfter(tt.err, tt.attempt)
				if retry != tt.wantRetry || wait < tt.min || wait > tt.max {
					t.Fatalf("got %v, %v; want %v within [%v, %v]", wait, retry, tt.wantRetry, tt.min, tt.max)
				}
			}
		})
	}
}

func TestNewClient(t *testing.T) {
	env := map[string]string{"GH": "gh-token", "GL": "gl-token", "JIRA_CLOUD": "bot@example.com:api-token", "JIRA_DC": "pat", "HOOK": "shh"}
	var gotAuth string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotAuth = r.Header.Get("Authorization") + r.Header.Get("Private-Token") + r.Header.Get("X-Sandtrap-Signature")
		w.WriteHeader(http.StatusTeapot)
	}))
	defer srv.Close()
	tests := []struct {
		name     string
		team     filing.Team
		wantAuth string // a prefix of the credentials the tracker received
		wantErr  string
	}{
		{"a GitHub team sends its token as a bearer token",
			filing.Team{Name: "a", Tracker: "github", Repo: "o/r", APIURL: srv.URL, TokenEnv: "GH"}, "Bearer gh-token", ""},
		{"a GitLab team sends its token in PRIVATE-TOKEN",
			filing.Team{Name: "b", Tracker: "gitlab", Project: "g/p", APIURL: srv.URL, TokenEnv: "GL"}, "gl-token", ""},
		{"a Jira token with an email uses basic auth",
			filing.Team{Name: "c", Tracker: "jira", Project: "OPS", APIURL: srv.URL, TokenEnv: "JIRA_CLOUD"}, "Basic ", ""},
		{"a Jira token without an email is a bearer token",
			filing.Team{Name: "d", Tracker: "jira", Project: "OPS", APIURL: srv.URL, TokenEnv: "JIRA_DC"}, "Bearer pat", ""},
		{"a webhook team signs with its secret",
			filing.Team{Name: "e", Tracker: "webhook", APIURL: srv.URL, WebhookSecretEnv: "HOOK"}, "sha256=", ""},
		{"an unset variable is named, not guessed",
			filing.Team{Name: "f", Tracker: "github", Repo: "o/r", TokenEnv: "UNSET"}, "", `team "f": environment variable UNSET is not set`},
		{"a team without a tracker has no client",
			filing.Team{Name: "g", Tracker: "none"}, "", "team has no tracker"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := filing.NewClient(tt.team, func(k string) string { return env[k] }, srv.Client())
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("got error %v, want none", err)
			}
			gotAuth = ""
			c.Create(t.Context(), tracker.Issue{Title: "t", Body: "b", ModeID: "m-0123456789ab"})
			if !strings.HasPrefix(gotAuth, tt.wantAuth) {
				t.Errorf("got credentials %q, want them to start with %q", gotAuth, tt.wantAuth)
			}
		})
	}
}

func TestDescribe(t *testing.T) {
	team := filing.Team{Name: "mcp", Tracker: "github", Repo: "acme/mcp", TokenEnv: "SANDTRAP_GITHUB_TOKEN"}
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"a refused token names the variable to check",
			&tracker.Error{Tracker: "github", Status: 401, Message: "Bad credentials"},
			"GitHub answered HTTP 401: Bad credentials. Check the token in $SANDTRAP_GITHUB_TOKEN and its permissions."},
		{"a missing repository names the team",
			&tracker.Error{Tracker: "github", Status: 404, Message: "Not Found"},
			`GitHub answered HTTP 404: Not Found. Check the repo or project of team "mcp".`},
		{"a rate limit says when it is retried",
			&tracker.Error{Tracker: "github", Status: 429, Message: "slow down", Temporary: true, RetryAfter: 90 * time.Second},
			"GitHub answered HTTP 429: slow down. It will be retried in 1m30s."},
		{"a timeout says it is retried",
			&tracker.Error{Tracker: "github", Message: "the tracker did not answer in time", Temporary: true},
			"GitHub answered: the tracker did not answer in time. It will be retried."},
		{"a configuration error shows its message",
			sandtrap.Errorf(sandtrap.EINVALID, "team %q: environment variable X is not set", "mcp"),
			`team "mcp": environment variable X is not set`},
		{"a team without a tracker points to the Markdown",
			fmt.Errorf("%w: team mcp", filing.ErrNoTracker),
			`Team "mcp" has no tracker; copy or download the Markdown instead.`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := filing.Describe(team, tt.err); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestNewIssueCarriesTitleBodyLabelsAndMode(t *testing.T) {
	m := exampleMode()
	is := filing.NewIssue(filing.Team{Labels: []string{"sandtrap", "mcp"}}, m)
	if is.Title != filing.Title(m) || is.Body != filing.Body(m) || is.ModeID != m.ID || strings.Join(is.Labels, ",") != "sandtrap,mcp,sandtrap-"+m.ID {
		t.Errorf("got %+v, want the mode's title, body, id, the team's labels and the mode's own", is)
	}
}

func TestErrorCodeSaysWhoseFaultAFilingFailureIs(t *testing.T) {
	refused := &tracker.Error{Tracker: "github", Op: "create", Status: 401, Message: "Bad credentials"}
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"a filing kept to retry is unavailable for now", &filing.FilingError{Retrying: true, Err: &tracker.Error{Status: 503, Temporary: true}}, sandtrap.EUNAVAILABLE},
		{"a tracker's refusal is the upstream's", &filing.FilingError{Err: refused}, sandtrap.EUPSTREAM},
		{"a team without a tracker is an invalid request", &filing.FilingError{Err: filing.ErrNoTracker}, sandtrap.EINVALID},
		{"an unknown mode stays not found", &filing.FilingError{Err: sandtrap.Errorf(sandtrap.ENOTFOUND, "mode %q not found", "m")}, sandtrap.ENOTFOUND},
		{"a broken state file is internal", &filing.FilingError{Err: errors.New("store: disk I/O error")}, sandtrap.EINTERNAL},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := filing.ErrorCode(tt.err); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
