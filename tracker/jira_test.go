package tracker_test

import (
	"context"
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	"sandtrap/tracker"
)

func TestJiraClient(t *testing.T) {
	const (
		doneIssue = `{"key":"OPS-12","fields":{"status":{"name":"Done","statusCategory":{"key":"done"}}}}`
		openIssue = `{"key":"OPS-12","fields":{"status":{"name":"In Progress","statusCategory":{"key":"indeterminate"}}}}`
		getIssue  = "/rest/api/2/issue/OPS-12"
		path      = "/rest/api/2/issue/OPS-12/transitions"
		comments  = "/rest/api/2/issue/OPS-12/comment"
	)
	transitions := `{"transitions":[
		{"id":"21","name":"Start progress","to":{"name":"In Progress","statusCategory":{"key":"indeterminate"}}},
		{"id":"11","name":"Back to backlog","to":{"name":"Backlog","statusCategory":{"key":"new"}}},
		{"id":"31","name":"Reopen","to":{"name":"Reopened","statusCategory":{"key":"new"}}},
		{"id":"41","name":"Revive","to":{"name":"Triage","statusCategory":{"key":"indeterminate"}}}]}`
	closedTicket := tracker.Ticket{Tracker: "jira", Key: "OPS-12", State: "closed"}
	comment := func(text string) exchange {
		return exchange{method: "POST", path: comments, body: `{"body":"{noformat}\n` + text + `\n{noformat}"}`, status: 201, reply: `{"id":"100"}`}
	}
	tests := []struct {
		name   string
		opts   []tracker.JiraOption
		script []exchange
		call   func(context.Context, tracker.Client) (tracker.Ticket, error)
		want   tracker.Ticket // its URL is filled in from the server's
	}{
		{
			name: "create posts the fields with the body in a noformat block and labels without spaces",
			script: []exchange{{
				method: "POST", path: "/rest/api/2/issue",
				body: `{"fields":{"project":{"key":"OPS"},"issuetype":{"name":"Bug"},"summary":"[sandtrap] boom",
					"description":"{noformat}\nsee { noformat} here\n{noformat}","labels":["sandtrap","layer-interface"]}}`,
				status: 201, reply: `{"id":"10012","key":"OPS-12","self":"x"}`,
			}},
			call: func(ctx context.Context, c tracker.Client) (tracker.Ticket, error) {
				return c.Create(ctx, tracker.Issue{Title: "[sandtrap] boom", Body: "see {noformat} here", Labels: []string{"sandtrap", "layer interface"}})
			},
			want: tracker.Ticket{Tracker: "jira", Key: "OPS-12", State: "open"},
		},
		{
			name: "create uses the configured issue type",
			opts: []tracker.JiraOption{tracker.JiraIssueType("Task")},
			script: []exchange{{
				method: "POST", path: "/rest/api/2/issue",
				body:   `{"fields":{"project":{"key":"OPS"},"issuetype":{"name":"Task"},"summary":"s","description":"{noformat}\nb\n{noformat}"}}`,
				status: 201, reply: `{"id":"10012","key":"OPS-12"}`,
			}},
			call: func(ctx context.Context, c tracker.Client) (tracker.Ticket, error) {
				return c.Create(ctx, tracker.Issue{Title: "s", Body: "b"})
			},
			want: tracker.Ticket{Tracker: "jira", Key: "OPS-12", State: "open"},
		},
		{
			name:   "comment posts to the issue's comments",
			script: []exchange{comment("seen again")},
			call: func(ctx context.Context, c tracker.Client) (tracker.Ticket, error) {
				return tracker.Ticket{}, c.Comment(ctx, closedTicket, "seen again")
			},
		},
		{
			name:   "get reads the status and reports a Done category as closed",
			script: []exchange{{method: "GET", path: getIssue, query: "fields=status", status: 200, reply: doneIssue}},
			call: func(ctx context.Context, c tracker.Client) (tracker.Ticket, error) {
				return c.Get(ctx, tracker.Ticket{Tracker: "jira", Key: "OPS-12"})
			},
			want: closedTicket,
		},
		{
			name: "find searches the project for the mode's label with JQL",
			script: []exchange{{method: "POST", path: "/rest/api/2/search",
				body:   `{"jql":"project = \"OPS\" AND labels = \"sandtrap-m-0123456789ab\"","maxResults":1,"fields":["status"]}`,
				status: 200, reply: `{"issues":[` + doneIssue + `]}`}},
			call: func(ctx context.Context, c tracker.Client) (tracker.Ticket, error) {
				t, found, err := c.Find(ctx, "m-0123456789ab")
				if err == nil && !found {
					return t, errors.New("not found")
				}
				return t, err
			},
			want: closedTicket,
		},
		{
			name: "reopen takes the transition named Reopen and then comments",
			script: []exchange{
				{method: "GET", path: getIssue, query: "fields=status", status: 200, reply: doneIssue},
				{method: "GET", path: path, status: 200, reply: transitions},
				{method: "POST", path: path, body: `{"transition":{"id":"31"}}`, status: 204},
				comment("it is back"),
			},
			call: func(ctx context.Context, c tracker.Client) (tracker.Ticket, error) {
				return c.Reopen(ctx, closedTicket, "it is back")
			},
			want: tracker.Ticket{Tracker: "jira", Key: "OPS-12", State: "open"},
		},
		{
			name: "reopen takes the configured transition",
			opts: []tracker.JiraOption{tracker.JiraReopenTransition("revive")},
			script: []exchange{
				{method: "GET", path: getIssue, status: 200, reply: doneIssue},
				{method: "GET", path: path, status: 200, reply: transitions},
				{method: "POST", path: path, body: `{"transition":{"id":"41"}}`, status: 204},
			},
			call: func(ctx context.Context, c tracker.Client) (tracker.Ticket, error) {
				return c.Reopen(ctx, closedTicket, "")
			},
			want: tracker.Ticket{Tracker: "jira", Key: "OPS-12", State: "open"},
		},
		{
			name: "reopen without a Reopen transition takes the first into a To Do status",
			script: []exchange{
				{method: "GET", path: getIssue, status: 200, reply: doneIssue},
				{method: "GET", path: path, status: 200, reply: `{"transitions":[
					{"id":"21","name":"Start progress","to":{"name":"In Progress","statusCategory":{"key":"indeterminate"}}},
					{"id":"11","name":"Back to backlog","to":{"name":"Backlog","statusCategory":{"key":"new"}}}]}`},
				{method: "POST", path: path, body: `{"transition":{"id":"11"}}`, status: 204},
			},
			call: func(ctx context.Context, c tracker.Client) (tracker.Ticket, error) {
				return c.Reopen(ctx, closedTicket, "")
			},
			want: tracker.Ticket{Tracker: "jira", Key: "OPS-12", State: "open"},
		},
		{
			name: "reopen of an issue that is not done only comments",
			script: []exchange{
				{method: "GET", path: getIssue, status: 200, reply: openIssue},
				comment("still here"),
			},
			call: func(ctx context.Context, c tracker.Client) (tracker.Ticket, error) {
				return c.Reopen(ctx, closedTicket, "still here")
			},
			want: tracker.Ticket{Tracker: "jira", Key: "OPS-12", State: "open"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			basic := "Basic " + base64.StdEncoding.EncodeToString([]byte("bot@example.com:sekrit"))
			srv := scripted(t, header("Authorization", basic), tt.script...)
			c, err := tracker.NewJira(srv.URL, "OPS", "bot@example.com", "sekrit", srv.Client(), tt.opts...)
			if err != nil {
				t.Fatal(err)
			}
			got, err := tt.call(t.Context(), c)
			if err != nil {
				t.Fatalf("got error %v, want none", err)
			}
			want := tt.want
			if want.Key != "" {
				want.URL = srv.URL + "/browse/OPS-12"
			}
			if got != want {
				t.Errorf("got %+v, want %+v", got, want)
			}
		})
	}
}

func TestJiraWithoutUserSendsTheTokenAsBearer(t *testing.T) {
	srv := scripted(t, header("Authorization", "Bearer pat-123"), exchange{
		method: "POST", path: "/jira/rest/api/2/issue/OPS-1/comment", body: `{"body":"{noformat}\nhi\n{noformat}"}`, status: 201, reply: `{}`,
	})
	c, err := tracker.NewJira(srv.URL+"/jira/", "OPS", "", "pat-123", srv.Client())
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Comment(t.Context(), tracker.Ticket{Tracker: "jira", Key: "OPS-1"}, "hi"); err != nil {
		t.Errorf("got error %v, want none", err)
	}
}

func TestJiraReopenWithNoWayBackNamesTheTransitionsOnOffer(t *testing.T) {
	srv := scripted(t, nil,
		exchange{method: "GET", path: "/rest/api/2/issue/OPS-12", status: 200,
			reply: `{"key":"OPS-12","fields":{"status":{"statusCategory":{"key":"done"}}}}`},
		exchange{method: "GET", path: "/rest/api/2/issue/OPS-12/transitions", status: 200,
			reply: `{"transitions":[{"id":"51","name":"Archive","to":{"name":"Archived","statusCategory":{"key":"done"}}}]}`},
	)
	c, err := tracker.NewJira(srv.URL, "OPS", "", "pat", srv.Client())
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Reopen(t.Context(), tracker.Ticket{Tracker: "jira", Key: "OPS-12"}, "back")
	e := asTrackerError(t, err)
	if e.Temporary || !strings.Contains(e.Message, `"Archive"`) {
		t.Errorf("got %v, want a final error naming the Archive transition", e)
	}
}
