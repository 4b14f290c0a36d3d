package filing

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"

	"sandtrap"
	"sandtrap/tracker"
)

// Action is what filing a mode does to its ticket.
type Action string

// Actions, in the words the API reports them with.
const (
	ActionCreate  Action = "create"
	ActionComment Action = "comment"
	ActionReopen  Action = "reopen"
	ActionNone    Action = "none"
)

// Decide chooses what filing a mode does. Tickets are keyed by mode id, so
// a mode has at most one ticket; existing is it, nil when there is none,
// with the state last read from the tracker. markedFixed says a human
// marked the mode fixed in sandtrap; reappeared says the mode failed in a
// run that began after its ticket was closed or it was marked fixed.
//
//	ticket   closed or marked fixed   reappeared   action
//	none     -                        -            create
//	open     no                       -            comment
//	open     yes                      no           comment
//	any      yes                      yes          reopen
//	closed   -                        no           none
//
// A ticket people closed stays closed until its mode comes back.
func Decide(existing *tracker.Ticket, markedFixed bool, reappeared bool) Action {
	switch closed := existing != nil && existing.State == tracker.StateClosed; {
	case existing == nil:
		return ActionCreate
	case (closed || markedFixed) && reappeared:
		return ActionReopen
	case closed:
		return ActionNone
	default:
		return ActionComment
	}
}

// Retry policy of the outbox.
const (
	MaxAttempts  = 8
	firstBackoff = 30 * time.Second
	maxBackoff   = 30 * time.Minute
	// maxRetryAfter bounds how long a tracker can make the outbox wait.
	maxRetryAfter = 24 * time.Hour
)

// RetryAfter says whether a filing that failed with err, on its attempt-th
// try (from 1), is tried again, and after how long. Temporary tracker
// errors are retried with exponential backoff: 30s, 1m, 2m, … up to 30m,
// each drawn between half and all of that, so pending filings do not all
// wake at once. A tracker's own Retry-After is honoured when it is longer.
// Refusals (401, 403, 404, 422 and the like) and configuration errors are
// not retried: trying again cannot help until a person acts. After
// MaxAttempts tries the filing gives up.
func RetryAfter(err error, attempt int) (wait time.Duration, retry bool) {
	if err == nil || attempt >= MaxAttempts {
		return 0, false
	}
	var te *tracker.Error
	var se *sandtrap.Error
	switch {
	case errors.As(err, &te) && !te.Temporary:
		return 0, false
	case errors.As(err, &se), errors.Is(err, ErrNoTracker):
		return 0, false
	}
	base := min(firstBackoff<<(max(attempt, 1)-1), maxBackoff)
	wait = base/2 + rand.N(base/2+1)
	if te != nil && te.RetryAfter > wait {
		wait = min(te.RetryAfter, maxRetryAfter)
	}
	return wait, true
}

// ErrNoTracker is NewClient's answer for a team whose tracker is "none":
// its modes are filed by hand, from the Markdown.
var ErrNoTracker = errors.New("filing: team has no tracker")

// NewClient returns the tracker client of team, reading its token or
// webhook secret with getenv (os.Getenv in production). A Jira token of the
// form "email:api-token" authenticates as Jira Cloud does, with basic auth;
// any other Jira token is a Data Center personal access token, sent as a
// bearer token. Errors name the variable, never its value.
func NewClient(team Team, getenv func(string) string, hc *http.Client) (tracker.Client, error) {
	secret := func(env string) (string, error) {
		if env == "" {
			return "", sandtrap.Errorf(sandtrap.EINVALID, "team %q: no environment variable is named for its secret", team.Name)
		}
		v := getenv(env)
		if v == "" {
			return "", sandtrap.Errorf(sandtrap.EINVALID, "team %q: environment variable %s is not set", team.Name, env)
		}
		return v, nil
	}
	var (
		client tracker.Client
		err    error
	)
	switch team.Tracker {
	case TrackerNone, "":
		return nil, fmt.Errorf("%w: team %q", ErrNoTracker, team.Name)
	case tracker.Webhook:
		s, serr := secret(team.WebhookSecretEnv)
		if serr != nil {
			return nil, serr
		}
		client, err = tracker.NewWebhook(team.APIURL, s, hc)
	case tracker.GitHub, tracker.GitLab, tracker.Jira:
		token, serr := secret(team.TokenEnv)
		if serr != nil {
			return nil, serr
		}
		switch team.Tracker {
		case tracker.GitHub:
			client, err = tracker.NewGitHub(team.APIURL, team.Repo, token, hc)
		case tracker.GitLab:
			client, err = tracker.NewGitLab(team.APIURL, cmp.Or(team.Repo, team.Project), token, hc)
		default:
			user, pat, basic := strings.Cut(token, ":")
			if !basic {
				user, pat = "", token
			}
			client, err = tracker.NewJira(team.APIURL, team.Project, user, pat, hc,
				tracker.JiraIssueType(team.IssueType), tracker.JiraReopenTransition(team.ReopenTransition))
		}
	default:
		return nil, sandtrap.Errorf(sandtrap.EINVALID, "team %q: unknown tracker %q", team.Name, team.Tracker)
	}
	if err != nil {
		return nil, fmt.Errorf("team %q: %w", team.Name, err)
	}
	return client, nil
}

// Describe is the message to show on a mode whose filing failed: the
// tracker's own message, and for a refusal, what the team's config should
// be checked for.
func Describe(team Team, err error) string {
	var te *tracker.Error
	if !errors.As(err, &te) {
		switch {
		case errors.Is(err, ErrNoTracker):
			return fmt.Sprintf("Team %q has no tracker; copy or download the Markdown instead.", team.Name)
		case errors.Is(err, context.Canceled):
			return "Filing was interrupted; it resumes on the next start."
		}
		return sandtrap.ErrorMessage(err)
	}
	msg := fmt.Sprintf("%s answered: %s", trackerName(te.Tracker), te.Message)
	if te.Status != 0 {
		msg = fmt.Sprintf("%s answered HTTP %d: %s", trackerName(te.Tracker), te.Status, te.Message)
	}
	if !strings.HasSuffix(msg, ".") {
		msg += "."
	}
	switch {
	case te.Temporary && te.RetryAfter > 0:
		msg += fmt.Sprintf(" It will be retried in %s.", te.RetryAfter.Round(time.Second))
	case te.Temporary:
		msg += " It will be retried."
	case te.Status == http.StatusUnauthorized, te.Status == http.StatusForbidden:
		env := team.TokenEnv
		if team.Tracker == tracker.Webhook {
			env = team.WebhookSecretEnv
		}
		msg += fmt.Sprintf(" Check the token in $%s and its permissions.", env)
	case te.Status == http.StatusNotFound:
		msg += fmt.Sprintf(" Check the repo or project of team %q.", team.Name)
	}
	return msg
}

func trackerName(t string) string {
	switch t {
	case tracker.GitHub:
		return "GitHub"
	case tracker.GitLab:
		return "GitLab"
	case tracker.Jira:
		return "Jira"
	}
	return "The webhook"
}
