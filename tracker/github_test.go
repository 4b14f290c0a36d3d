package tracker_test

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"sandtrap/tracker"
)

func TestGitHubClient(t *testing.T) {
	const issue7 = `{"number":7,"html_url":"https://github.example/acme/widgets/issues/7","state":"open"}`
	ticket := tracker.Ticket{Tracker: "github", Key: "acme/widgets#7", URL: "https://github.example/acme/widgets/issues/7", State: "open"}
	closed := ticket
	closed.State = "closed"
	tests := []struct {
		name   string
		script []exchange
		call   func(context.Context, tracker.Client) (tracker.Ticket, error)
		want   tracker.Ticket
	}{
		{
			name: "create posts the title, body and labels to the repository's issues",
			script: []exchange{{
				method: "POST", path: "/api/v3/repos/acme/widgets/issues",
				body:   `{"title":"[sandtrap] boom","body":"details","labels":["sandtrap","mcp"]}`,
				status: 201, reply: issue7,
			}},
			call: func(ctx context.Context, c tracker.Client) (tracker.Ticket, error) {
				return c.Create(ctx, tracker.Issue{Title: "[sandtrap] boom", Body: "details", Labels: []string{"sandtrap", "mcp"}, ModeID: "m-0123456789ab"})
			},
			want: ticket,
		},
		{
			name: "comment posts to the issue's comments",
			script: []exchange{{
				method: "POST", path: "/api/v3/repos/acme/widgets/issues/7/comments",
				body: `{"body":"seen again"}`, status: 201, reply: `{"id":1}`,
			}},
			call: func(ctx context.Context, c tracker.Client) (tracker.Ticket, error) {
				return ticket, c.Comment(ctx, ticket, "seen again")
			},
			want: ticket,
		},
		{
			name: "reopen patches the state to open and then comments",
			script: []exchange{
				{
					method: "PATCH", path: "/api/v3/repos/acme/widgets/issues/7",
					body: `{"state":"open","state_reason":"reopened"}`, status: 200, reply: issue7,
				},
				{
					method: "POST", path: "/api/v3/repos/acme/widgets/issues/7/comments",
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
				method: "GET", path: "/api/v3/repos/acme/widgets/issues/7", status: 200,
				reply: `{"number":7,"html_url":"https://github.example/acme/widgets/issues/7","state":"closed"}`,
			}},
			call: func(ctx context.Context, c tracker.Client) (tracker.Ticket, error) {
				return c.Get(ctx, ticket)
			},
			want: closed,
		},
		{
			name: "find lists the issues, open or closed, that carry the mode's label",
			script: []exchange{{
				method: "GET", path: "/api/v3/repos/acme/widgets/issues", query: "labels=sandtrap-m-0123456789ab&state=all",
				status: 200, reply: "[" + issue7 + "]",
			}},
			call: func(ctx context.Context, c tracker.Client) (tracker.Ticket, error) {
				t, found, err := c.Find(ctx, "m-0123456789ab")
				if err == nil && !found {
					return t, errors.New("not found")
				}
				return t, err
			},
			want: ticket,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := scripted(t, header("Authorization", "Bearer sekrit"), tt.script...)
			c, err := tracker.NewGitHub(srv.URL, "acme/widgets", "sekrit", srv.Client())
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

func TestNewGitHubRefusesARepoThatIsNotOwnerSlashName(t *testing.T) {
	for _, repo := range []string{"", "widgets", "/widgets", "acme/", "acme/widgets/extra"} {
		if _, err := tracker.NewGitHub("", repo, "t", http.DefaultClient); err == nil {
			t.Errorf("NewGitHub(repo %q): got no error, want one", repo)
		}
	}
}

func TestGitHubRateLimitIsTemporaryAndWaitsForTheReset(t *testing.T) {
	srv := scripted(t, nil, exchange{
		method: "GET", path: "/api/v3/repos/acme/widgets/issues/7", status: 403,
		header: map[string]string{"X-RateLimit-Remaining": "0", "X-RateLimit-Limit": "5000", "X-RateLimit-Reset": unixIn(90)},
		reply:  `{"message":"API rate limit exceeded for user ID 1."}`,
	})
	c, err := tracker.NewGitHub(srv.URL, "acme/widgets", "sekrit", srv.Client())
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Get(t.Context(), tracker.Ticket{Tracker: "github", Key: "acme/widgets#7"})
	e := asTrackerError(t, err)
	if !e.Temporary || e.Status != 403 {
		t.Errorf("got status %d temporary %v, want 403 temporary", e.Status, e.Temporary)
	}
	if e.RetryAfter < 60e9 || e.RetryAfter > 91e9 {
		t.Errorf("got RetryAfter %v, want about 90s", e.RetryAfter)
	}
}
