package tracker_test

import (
	"context"
	"errors"
	"testing"

	"sandtrap/tracker"
)

func TestGitLabClient(t *testing.T) {
	const issue45 = `{"id":9045,"iid":45,"web_url":"https://gitlab.example/group/proj/-/issues/45","state":"opened"}`
	ticket := tracker.Ticket{Tracker: "gitlab", Key: "group/proj#45", URL: "https://gitlab.example/group/proj/-/issues/45", State: "open"}
	closed := ticket
	closed.State = "closed"
	tests := []struct {
		name   string
		script []exchange
		call   func(context.Context, tracker.Client) (tracker.Ticket, error)
		want   tracker.Ticket
	}{
		{
			name: "create posts the title, description and comma-separated labels to the project's issues",
			script: []exchange{{
				method: "POST", path: "/api/v4/projects/group%2Fproj/issues",
				body:   `{"title":"[sandtrap] boom","description":"details","labels":"sandtrap,mcp"}`,
				status: 201, reply: issue45,
			}},
			call: func(ctx context.Context, c tracker.Client) (tracker.Ticket, error) {
				return c.Create(ctx, tracker.Issue{Title: "[sandtrap] boom", Body: "details", Labels: []string{"sandtrap", "mcp"}})
			},
			want: ticket,
		},
		{
			name: "comment posts a note on the issue",
			script: []exchange{{
				method: "POST", path: "/api/v4/projects/group%2Fproj/issues/45/notes",
				body: `{"body":"seen again"}`, status: 201, reply: `{"id":1,"body":"seen again"}`,
			}},
			call: func(ctx context.Context, c tracker.Client) (tracker.Ticket, error) {
				return ticket, c.Comment(ctx, ticket, "seen again")
			},
			want: ticket,
		},
		{
			name: "reopen puts state_event=reopen and then adds a note",
			script: []exchange{
				{
					method: "PUT", path: "/api/v4/projects/group%2Fproj/issues/45",
					body: `{"state_event":"reopen"}`, status: 200, reply: issue45,
				},
				{
					method: "POST", path: "/api/v4/projects/group%2Fproj/issues/45/notes",
					body: `{"body":"it is back"}`, status: 201, reply: `{"id":2}`,
				},
			},
			call: func(ctx context.Context, c tracker.Client) (tracker.Ticket, error) {
				return c.Reopen(ctx, closed, "it is back")
			},
			want: ticket,
		},
		{
			name: "get reads the issue and reports it closed",
			script: []exchange{{
				method: "GET", path: "/api/v4/projects/group%2Fproj/issues/45", status: 200,
				reply: `{"id":9045,"iid":45,"web_url":"https://gitlab.example/group/proj/-/issues/45","state":"closed"}`,
			}},
			call: func(ctx context.Context, c tracker.Client) (tracker.Ticket, error) {
				return c.Get(ctx, ticket)
			},
			want: closed,
		},
		{
			name: "find lists the project's issues that carry the mode's label",
			script: []exchange{{
				method: "GET", path: "/api/v4/projects/group%2Fproj/issues", query: "labels=sandtrap-m-0123456789ab", status: 200,
				reply: `[{"id":9045,"iid":45,"web_url":"https://gitlab.example/group/proj/-/issues/45","state":"closed"}]`,
			}},
			call: func(ctx context.Context, c tracker.Client) (tracker.Ticket, error) {
				t, found, err := c.Find(ctx, "m-0123456789ab")
				if err == nil && !found {
					return t, errors.New("not found")
				}
				return t, err
			},
			want: closed,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := scripted(t, header("PRIVATE-TOKEN", "sekrit"), tt.script...)
			c, err := tracker.NewGitLab(srv.URL, "group/proj", "sekrit", srv.Client())
			if err != nil {
				t.Fatal(err)
			}
			got, err := tt.call(t.Context(), c)
			if err != nil {
				t.Fatalf("got error %v, want none", err)
			}
			if got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestGitLabRateLimitWaitsForRateLimitReset(t *testing.T) {
	srv := scripted(t, nil, exchange{
		method: "POST", path: "/api/v4/projects/group%2Fproj/issues/45/notes", status: 429, body: `{"body":"x"}`,
		header: map[string]string{"RateLimit-Reset": unixIn(30)}, reply: `{"message":"Retry later"}`,
	})
	c, err := tracker.NewGitLab(srv.URL, "group/proj", "sekrit", srv.Client())
	if err != nil {
		t.Fatal(err)
	}
	err = c.Comment(t.Context(), tracker.Ticket{Tracker: "gitlab", Key: "group/proj#45"}, "x")
	e := asTrackerError(t, err)
	if !e.Temporary || e.RetryAfter < 20e9 || e.RetryAfter > 31e9 {
		t.Errorf("got temporary %v RetryAfter %v, want temporary about 30s", e.Temporary, e.RetryAfter)
	}
}

func TestGitLabAnswerThatTheLibraryCannotDecodeIsAnError(t *testing.T) {
	srv := scripted(t, nil, exchange{
		method: "GET", path: "/api/v4/projects/group%2Fproj/issues/45", status: 200, reply: `{"iid":45,"state":"opened"}`,
	})
	c, err := tracker.NewGitLab(srv.URL, "group/proj", "sekrit", srv.Client())
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Get(t.Context(), tracker.Ticket{Tracker: "gitlab", Key: "group/proj#45"})
	if e := asTrackerError(t, err); e.Temporary {
		t.Errorf("got a temporary error %v, want a final one", e)
	}
}
