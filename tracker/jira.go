package tracker

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"sandtrap"
)

// Jira defaults, each replaceable with a JiraOption.
const (
	DefaultJiraIssueType = "Bug"
	// DefaultJiraReopen is the transition Reopen looks for first; without
	// it, any transition into a "To Do" status will do.
	DefaultJiraReopen = "Reopen"
)

// maxResponse bounds how much of a response body is read.
const maxResponse = 1 << 20

type jiraClient struct {
	base      string // the server URL, without a trailing slash
	project   string
	issueType string
	reopen    string
	auth      string // the Authorization header
	hc        *http.Client
	secrets   redactor
}

// JiraOption adjusts a Jira client.
type JiraOption func(*jiraClient)

// JiraIssueType sets the issue type of created tickets; "" keeps the
// default, "Bug".
func JiraIssueType(name string) JiraOption {
	return func(c *jiraClient) {
		if name != "" {
			c.issueType = name
		}
	}
}

// JiraReopenTransition sets the name of the transition Reopen prefers; ""
// keeps the default, "Reopen".
func JiraReopenTransition(name string) JiraOption {
	return func(c *jiraClient) {
		if name != "" {
			c.reopen = name
		}
	}
}

// NewJira returns a Client for the Jira project with the given key, through
// the REST API v2 at apiURL (the site, such as https://example.atlassian.net).
// With a user, it authenticates the way Jira Cloud documents: basic auth
// with the account's email and an API token. Without one, the token is a
// Jira Data Center personal access token, sent as a bearer token. hc nil
// means http.DefaultClient.
//
// The API v2 takes wiki markup, not Markdown, so descriptions and comments
// are sent inside a {noformat} block: they show verbatim and nothing in them
// is interpreted.
func NewJira(apiURL, project, user, token string, hc *http.Client, opts ...JiraOption) (Client, error) {
	u, err := url.Parse(apiURL)
	if err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, sandtrap.Errorf(sandtrap.EINVALID, "jira api_url %q is not an http or https URL", apiURL)
	}
	if project == "" {
		return nil, sandtrap.Errorf(sandtrap.EINVALID, "jira project is empty")
	}
	if hc == nil {
		hc = http.DefaultClient
	}
	c := &jiraClient{
		base: strings.TrimSuffix(u.String(), "/"), project: project,
		issueType: DefaultJiraIssueType, reopen: DefaultJiraReopen, hc: hc,
		auth: "Bearer " + token, secrets: redactor{token},
	}
	if user != "" {
		basic := base64.StdEncoding.EncodeToString([]byte(user + ":" + token))
		c.auth = "Basic " + basic
		c.secrets = append(c.secrets, basic)
	}
	for _, opt := range opts {
		opt(c)
	}
	return c, nil
}

func (c *jiraClient) Create(ctx context.Context, is Issue) (Ticket, error) {
	fields := map[string]any{
		"project":     map[string]string{"key": c.project},
		"issuetype":   map[string]string{"name": c.issueType},
		"summary":     truncate(is.Title, jiraMaxSummary),
		"description": noformat(is.Body),
	}
	if len(is.Labels) > 0 {
		fields["labels"] = jiraLabels(is.Labels)
	}
	var created struct {
		Key string `json:"key"`
	}
	if err := c.do(ctx, opCreate, http.MethodPost, "/rest/api/2/issue", map[string]any{"fields": fields}, &created); err != nil {
		return Ticket{}, err
	}
	return c.ticket(created.Key, StateOpen), nil
}

func (c *jiraClient) Comment(ctx context.Context, t Ticket, body string) error {
	return c.comment(ctx, opComment, t.Key, body)
}

func (c *jiraClient) comment(ctx context.Context, op, key, body string) error {
	return c.do(ctx, op, http.MethodPost, "/rest/api/2/issue/"+url.PathEscape(key)+"/comment",
		map[string]string{"body": noformat(body)}, nil)
}

// jiraTransition is one entry of GET /rest/api/2/issue/{key}/transitions.
type jiraTransition struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	To   struct {
		Name           string `json:"name"`
		StatusCategory struct {
			Key string `json:"key"`
		} `json:"statusCategory"`
	} `json:"to"`
}

// Reopen moves a closed issue back with the transition named as configured
// ("Reopen" by default), or else with the first transition whose target
// status is in the "To Do" category (key "new"), then comments. Workflows
// differ between Jira projects, which is why the transition is looked up
// rather than assumed.
func (c *jiraClient) Reopen(ctx context.Context, t Ticket, comment string) (Ticket, error) {
	cur, err := c.get(ctx, opReopen, t.Key)
	if err != nil {
		return Ticket{}, err
	}
	if cur.State == StateClosed {
		var list struct {
			Transitions []jiraTransition `json:"transitions"`
		}
		path := "/rest/api/2/issue/" + url.PathEscape(t.Key) + "/transitions"
		if err := c.do(ctx, opReopen, http.MethodGet, path, nil, &list); err != nil {
			return Ticket{}, err
		}
		tr, ok := pickReopen(list.Transitions, c.reopen)
		if !ok {
			return Ticket{}, &Error{Tracker: Jira, Op: opReopen, Message: fmt.Sprintf(
				"no transition named %q or leading to a To Do status; the issue offers %s",
				c.reopen, transitionNames(list.Transitions))}
		}
		body := map[string]any{"transition": map[string]string{"id": tr.ID}}
		if err := c.do(ctx, opReopen, http.MethodPost, path, body, nil); err != nil {
			return Ticket{}, err
		}
		cur.State = StateOpen
	}
	if comment != "" {
		if err := c.comment(ctx, opReopen, t.Key, comment); err != nil {
			return Ticket{}, err
		}
	}
	return cur, nil
}

func pickReopen(ts []jiraTransition, name string) (jiraTransition, bool) {
	if i := slices.IndexFunc(ts, func(t jiraTransition) bool { return strings.EqualFold(t.Name, name) }); i >= 0 {
		return ts[i], true
	}
	if i := slices.IndexFunc(ts, func(t jiraTransition) bool { return t.To.StatusCategory.Key == "new" }); i >= 0 {
		return ts[i], true
	}
	return jiraTransition{}, false
}

func transitionNames(ts []jiraTransition) string {
	if len(ts) == 0 {
		return "no transitions"
	}
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = fmt.Sprintf("%q → %q", t.Name, t.To.Name)
	}
	return strings.Join(names, ", ")
}

func (c *jiraClient) Get(ctx context.Context, t Ticket) (Ticket, error) {
	return c.get(ctx, opGet, t.Key)
}

// get reads the issue's status; a status in the "Done" category counts as
// closed.
func (c *jiraClient) get(ctx context.Context, op, key string) (Ticket, error) {
	var issue jiraIssue
	if err := c.do(ctx, op, http.MethodGet, "/rest/api/2/issue/"+url.PathEscape(key)+"?fields=status", nil, &issue); err != nil {
		return Ticket{}, err
	}
	return c.ticket(issue.Key, issue.state()), nil
}

// jiraIssue is an issue as Jira answers it with fields=status.
type jiraIssue struct {
	Key    string `json:"key"`
	Fields struct {
		Status struct {
			StatusCategory struct {
				Key string `json:"key"`
			} `json:"statusCategory"`
		} `json:"status"`
	} `json:"fields"`
}

// state is the issue's ticket state: closed when its status is in the
// "Done" category.
func (i jiraIssue) state() string {
	if i.Fields.Status.StatusCategory.Key == "done" {
		return StateClosed
	}
	return StateOpen
}

func (c *jiraClient) Find(ctx context.Context, modeID string) (Ticket, bool, error) {
	jql := fmt.Sprintf(`project = "%s" AND labels = "%s"`, c.project, ModeLabel(modeID))
	var out struct {
		Issues []jiraIssue `json:"issues"`
	}
	in := map[string]any{"jql": jql, "maxResults": 1, "fields": []string{"status"}}
	if err := c.do(ctx, opFind, http.MethodPost, "/rest/api/2/search", in, &out); err != nil {
		return Ticket{}, false, err
	}
	if len(out.Issues) == 0 {
		return Ticket{}, false, nil
	}
	return c.ticket(out.Issues[0].Key, out.Issues[0].state()), true, nil
}

func (c *jiraClient) ticket(key, state string) Ticket {
	return Ticket{Tracker: Jira, Key: key, URL: c.base + "/browse/" + url.PathEscape(key), State: state}
}

// do sends one API request with in as its JSON body (nil for none) and
// decodes the JSON answer into out (nil to ignore it).
func (c *jiraClient) do(ctx context.Context, op, method, path string, in, out any) error {
	var body io.Reader
	if in != nil {
		data, err := json.Marshal(in)
		if err != nil {
			return fmt.Errorf("jira %s: encoding request: %w", op, err)
		}
		body = bytes.NewReader(data)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, body)
	if err != nil {
		return fmt.Errorf("jira %s: building request: %w", op, err)
	}
	req.Header.Set("Authorization", c.auth)
	req.Header.Set("Accept", "application/json")
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return c.secrets.scrub(callError(ctx, Jira, op, err))
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse))
	if err != nil {
		return c.secrets.scrub(callError(ctx, Jira, op, err))
	}
	if resp.StatusCode >= 300 {
		return c.secrets.scrub(statusError(Jira, op, resp.StatusCode, resp.Header, jiraMessage(data)))
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			return c.secrets.scrub(callError(ctx, Jira, op, err))
		}
	}
	return nil
}

// jiraMessage reads Jira's error format, {"errorMessages": [...], "errors":
// {"field": "message"}}, falling back to the body as text.
func jiraMessage(body []byte) string {
	var e struct {
		ErrorMessages []string          `json:"errorMessages"`
		Errors        map[string]string `json:"errors"`
	}
	if json.Unmarshal(body, &e) != nil || len(e.ErrorMessages) == 0 && len(e.Errors) == 0 {
		return plainMessage(body)
	}
	parts := slices.Clone(e.ErrorMessages)
	for _, field := range slices.Sorted(maps.Keys(e.Errors)) {
		parts = append(parts, field+": "+e.Errors[field])
	}
	return plainMessage([]byte(strings.Join(parts, "; ")))
}

// jiraMaxSummary is Jira's limit on a summary's length.
const jiraMaxSummary = 255

// noformat wraps text in a {noformat} block, breaking any {noformat} inside
// it so the text cannot end the block early.
func noformat(s string) string {
	return "{noformat}\n" + strings.ReplaceAll(s, "{noformat}", "{ noformat}") + "\n{noformat}"
}

// jiraLabels replaces whitespace in labels, which Jira refuses in a label.
func jiraLabels(labels []string) []string {
	out := make([]string, len(labels))
	for i, l := range labels {
		out[i] = strings.Join(strings.Fields(l), "-")
	}
	return out
}

// truncate cuts s to at most n bytes on a rune boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "")
}
