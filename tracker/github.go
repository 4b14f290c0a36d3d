package tracker

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/google/go-github/v81/github"

	"sandtrap"
)

type gitHubClient struct {
	api         *github.Client
	owner, repo string
	secrets     redactor
}

// NewGitHub returns a Client for the issues of repo ("owner/name"). apiURL
// "" means api.github.com; for GitHub Enterprise Server it is the server's
// URL, with or without its /api/v3 suffix. The token is sent as
// "Authorization: Bearer"; hc nil means http.DefaultClient's settings.
func NewGitHub(apiURL, repo, token string, hc *http.Client) (Client, error) {
	owner, name, ok := strings.Cut(repo, "/")
	if !ok || owner == "" || name == "" || strings.Contains(name, "/") {
		return nil, sandtrap.Errorf(sandtrap.EINVALID, "github repo %q is not of the form owner/name", repo)
	}
	api := github.NewClient(hc).WithAuthToken(token)
	if apiURL != "" {
		var err error
		if api, err = api.WithEnterpriseURLs(apiURL, apiURL); err != nil {
			return nil, sandtrap.Errorf(sandtrap.EINVALID, "github api_url %q: %v", apiURL, err)
		}
	}
	return &gitHubClient{api: api, owner: owner, repo: name, secrets: redactor{token}}, nil
}

func (c *gitHubClient) Create(ctx context.Context, is Issue) (Ticket, error) {
	req := &github.IssueRequest{Title: &is.Title, Body: &is.Body}
	if len(is.Labels) > 0 {
		req.Labels = &is.Labels
	}
	issue, resp, err := c.api.Issues.Create(ctx, c.owner, c.repo, req)
	if err != nil {
		return Ticket{}, c.fail(ctx, opCreate, resp, err)
	}
	return c.ticket(c.owner+"/"+c.repo, issue), nil
}

func (c *gitHubClient) Comment(ctx context.Context, t Ticket, body string) error {
	owner, repo, number, err := c.split(opComment, t)
	if err != nil {
		return err
	}
	_, resp, err := c.api.Issues.CreateComment(ctx, owner, repo, number, &github.IssueComment{Body: &body})
	if err != nil {
		return c.fail(ctx, opComment, resp, err)
	}
	return nil
}

// Reopen sets the issue's state to open before commenting, so that a retry
// after a failed comment repeats only a harmless state change.
func (c *gitHubClient) Reopen(ctx context.Context, t Ticket, comment string) (Ticket, error) {
	owner, repo, number, err := c.split(opReopen, t)
	if err != nil {
		return Ticket{}, err
	}
	open, reason := "open", "reopened"
	issue, resp, err := c.api.Issues.Edit(ctx, owner, repo, number, &github.IssueRequest{State: &open, StateReason: &reason})
	if err != nil {
		return Ticket{}, c.fail(ctx, opReopen, resp, err)
	}
	if comment != "" {
		if _, resp, err := c.api.Issues.CreateComment(ctx, owner, repo, number, &github.IssueComment{Body: &comment}); err != nil {
			return Ticket{}, c.fail(ctx, opReopen, resp, err)
		}
	}
	return c.ticket(owner+"/"+repo, issue), nil
}

func (c *gitHubClient) Get(ctx context.Context, t Ticket) (Ticket, error) {
	owner, repo, number, err := c.split(opGet, t)
	if err != nil {
		return Ticket{}, err
	}
	issue, resp, err := c.api.Issues.Get(ctx, owner, repo, number)
	if err != nil {
		return Ticket{}, c.fail(ctx, opGet, resp, err)
	}
	return c.ticket(owner+"/"+repo, issue), nil
}

// split reads the repository and number from a ticket's key. A ticket stays
// in the repository it was filed in, even if the team's repo changed since.
func (c *gitHubClient) Find(ctx context.Context, modeID string) (Ticket, bool, error) {
	issues, resp, err := c.api.Issues.ListByRepo(ctx, c.owner, c.repo, &github.IssueListByRepoOptions{
		Labels: []string{ModeLabel(modeID)}, State: "all"})
	if err != nil {
		return Ticket{}, false, c.fail(ctx, opFind, resp, err)
	}
	if len(issues) == 0 {
		return Ticket{}, false, nil
	}
	return c.ticket(c.owner+"/"+c.repo, issues[0]), true, nil
}

func (c *gitHubClient) split(op string, t Ticket) (owner, repo string, number int, err error) {
	path, n, err := splitKey(GitHub, op, t.Key)
	if err != nil {
		return "", "", 0, err
	}
	owner, repo, ok := strings.Cut(path, "/")
	if !ok {
		return "", "", 0, &Error{Tracker: GitHub, Op: op, Message: fmt.Sprintf("ticket key %q is not of the form owner/repo#number", t.Key)}
	}
	return owner, repo, int(n), nil
}

func (c *gitHubClient) ticket(repo string, issue *github.Issue) Ticket {
	state := StateOpen
	if issue.GetState() == "closed" {
		state = StateClosed
	}
	return Ticket{
		Tracker: GitHub,
		Key:     fmt.Sprintf("%s#%d", repo, issue.GetNumber()),
		URL:     issue.GetHTMLURL(),
		State:   state,
	}
}

// fail turns go-github's errors into an *Error. The originals are dropped:
// they hold the HTTP request, and with it the Authorization header.
func (c *gitHubClient) fail(ctx context.Context, op string, resp *github.Response, err error) error {
	var (
		rateErr  *github.RateLimitError
		abuseErr *github.AbuseRateLimitError
		respErr  *github.ErrorResponse
	)
	switch {
	case errors.As(err, &rateErr):
		return c.secrets.scrub(&Error{
			Tracker: GitHub, Op: op, Status: rateErr.Response.StatusCode, Message: rateErr.Message,
			Temporary: true, RetryAfter: max(time.Until(rateErr.Rate.Reset.Time), 0),
		})
	case errors.As(err, &abuseErr):
		return c.secrets.scrub(&Error{
			Tracker: GitHub, Op: op, Status: abuseErr.Response.StatusCode, Message: abuseErr.Message,
			Temporary: true, RetryAfter: abuseErr.GetRetryAfter(),
		})
	case errors.As(err, &respErr) && resp != nil:
		return c.secrets.scrub(statusError(GitHub, op, resp.StatusCode, resp.Header, gitHubMessage(respErr)))
	}
	return c.secrets.scrub(callError(ctx, GitHub, op, err))
}

// gitHubMessage joins GitHub's message with its per-field details, as in
// "Validation Failed: title: missing_field".
func gitHubMessage(e *github.ErrorResponse) string {
	var details []string
	for _, d := range e.Errors {
		switch {
		case d.Message != "":
			details = append(details, d.Message)
		case d.Field != "":
			details = append(details, d.Field+": "+d.Code)
		case d.Code != "":
			details = append(details, d.Code)
		}
	}
	if len(details) == 0 {
		return e.Message
	}
	return e.Message + ": " + strings.Join(details, "; ")
}
