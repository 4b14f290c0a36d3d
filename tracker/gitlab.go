package tracker

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	gitlab "gitlab.com/gitlab-org/api/client-go"

	"sandtrap"
)

type gitLabClient struct {
	api     *gitlab.Client
	project string
	secrets redactor
}

// NewGitLab returns a Client for the issues of project, a path such as
// "group/sub/project" or a numeric id. apiURL "" means gitlab.com; for a
// self-managed instance it is the instance's URL. The token is sent in the
// PRIVATE-TOKEN header. The library's own retries are off: the caller's
// outbox decides when to retry.
func NewGitLab(apiURL, project, token string, hc *http.Client) (Client, error) {
	if project == "" {
		return nil, sandtrap.Errorf(sandtrap.EINVALID, "gitlab project is empty")
	}
	opts := []gitlab.ClientOptionFunc{gitlab.WithoutRetries()}
	if hc != nil {
		opts = append(opts, gitlab.WithHTTPClient(hc))
	}
	if apiURL != "" {
		opts = append(opts, gitlab.WithBaseURL(apiURL))
	}
	api, err := gitlab.NewClient(token, opts...)
	if err != nil {
		return nil, sandtrap.Errorf(sandtrap.EINVALID, "gitlab api_url %q: %v", apiURL, err)
	}
	return &gitLabClient{api: api, project: project, secrets: redactor{token}}, nil
}

func (c *gitLabClient) Create(ctx context.Context, is Issue) (Ticket, error) {
	opts := &gitlab.CreateIssueOptions{Title: &is.Title, Description: &is.Body}
	if len(is.Labels) > 0 {
		labels := gitlab.LabelOptions(is.Labels)
		opts.Labels = &labels
	}
	issue, err := gitLabCall(ctx, c, opCreate, func() (*gitlab.Issue, *gitlab.Response, error) {
		return c.api.Issues.CreateIssue(c.project, opts, gitlab.WithContext(ctx))
	})
	if err != nil {
		return Ticket{}, err
	}
	return c.ticket(c.project, issue), nil
}

func (c *gitLabClient) Comment(ctx context.Context, t Ticket, body string) error {
	project, iid, err := splitKey(GitLab, opComment, t.Key)
	if err != nil {
		return err
	}
	return c.note(ctx, opComment, project, iid, body)
}

func (c *gitLabClient) note(ctx context.Context, op, project string, iid int64, body string) error {
	_, err := gitLabCall(ctx, c, op, func() (*gitlab.Note, *gitlab.Response, error) {
		return c.api.Notes.CreateIssueNote(project, iid, &gitlab.CreateIssueNoteOptions{Body: &body}, gitlab.WithContext(ctx))
	})
	return err
}

// Reopen sends state_event=reopen before commenting, so that a retry after
// a failed comment repeats only a harmless state change.
func (c *gitLabClient) Reopen(ctx context.Context, t Ticket, comment string) (Ticket, error) {
	project, iid, err := splitKey(GitLab, opReopen, t.Key)
	if err != nil {
		return Ticket{}, err
	}
	reopen := "reopen"
	issue, err := gitLabCall(ctx, c, opReopen, func() (*gitlab.Issue, *gitlab.Response, error) {
		return c.api.Issues.UpdateIssue(project, iid, &gitlab.UpdateIssueOptions{StateEvent: &reopen}, gitlab.WithContext(ctx))
	})
	if err != nil {
		return Ticket{}, err
	}
	if comment != "" {
		if err := c.note(ctx, opReopen, project, iid, comment); err != nil {
			return Ticket{}, err
		}
	}
	return c.ticket(project, issue), nil
}

func (c *gitLabClient) Get(ctx context.Context, t Ticket) (Ticket, error) {
	project, iid, err := splitKey(GitLab, opGet, t.Key)
	if err != nil {
		return Ticket{}, err
	}
	issue, err := gitLabCall(ctx, c, opGet, func() (*gitlab.Issue, *gitlab.Response, error) {
		return c.api.Issues.GetIssue(project, iid, gitlab.WithContext(ctx))
	})
	if err != nil {
		return Ticket{}, err
	}
	return c.ticket(project, issue), nil
}

// gitLabCall runs one library call and turns its failure into an *Error.
// It also recovers a panic: the library's Issue decoder panics on an answer
// without an "id", and a tracker's answer must not bring sandtrap down.
func gitLabCall[T any](ctx context.Context, c *gitLabClient, op string, call func() (T, *gitlab.Response, error)) (v T, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = &Error{Tracker: GitLab, Op: op, Message: "unexpected answer: the response could not be decoded"}
		}
	}()
	v, resp, err := call()
	if err != nil {
		return v, c.fail(ctx, op, resp, err)
	}
	return v, nil
}

func (c *gitLabClient) Find(ctx context.Context, modeID string) (Ticket, bool, error) {
	labels := gitlab.LabelOptions{ModeLabel(modeID)}
	issues, resp, err := c.api.Issues.ListProjectIssues(c.project, &gitlab.ListProjectIssuesOptions{Labels: &labels}, gitlab.WithContext(ctx))
	if err != nil {
		return Ticket{}, false, c.fail(ctx, opFind, resp, err)
	}
	if len(issues) == 0 {
		return Ticket{}, false, nil
	}
	return c.ticket(c.project, issues[0]), true, nil
}

func (c *gitLabClient) ticket(project string, issue *gitlab.Issue) Ticket {
	state := StateOpen
	if issue.State == "closed" {
		state = StateClosed
	}
	return Ticket{
		Tracker: GitLab,
		Key:     fmt.Sprintf("%s#%d", project, issue.IID),
		URL:     issue.WebURL,
		State:   state,
	}
}

// fail turns the library's errors into an *Error, dropping the originals
// because they hold the HTTP request and its token header.
func (c *gitLabClient) fail(ctx context.Context, op string, resp *gitlab.Response, err error) error {
	var respErr *gitlab.ErrorResponse
	switch {
	case errors.As(err, &respErr) && resp != nil:
		return c.secrets.scrub(statusError(GitLab, op, resp.StatusCode, resp.Header, respErr.Message))
	case errors.Is(err, gitlab.ErrNotFound) && resp != nil:
		// The library drops the body of a 404, so GitLab's message is lost.
		return c.secrets.scrub(statusError(GitLab, op, resp.StatusCode, resp.Header, "project or issue not found"))
	}
	return c.secrets.scrub(callError(ctx, GitLab, op, err))
}
