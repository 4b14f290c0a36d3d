package filing_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"sandtrap/filing"
	"sandtrap/triage"
)

func TestOwnershipRoute(t *testing.T) {
	custom := filing.Ownership{Routes: []filing.Route{
		{Mode: "m-0123456789ab", Team: "pinned"},
		{Layer: "sandbox", Target: "browser", Team: "browser"},
		{Layer: "sandbox", Team: "platform"},
		{Primitive: "memory", Team: "never-reached"},
		{Domain: "ml-training", Team: "ml"},
	}}
	tests := []struct {
		name      string
		own       filing.Ownership
		mode      filing.ModeFacts
		wantTeam  string
		wantRoute int
	}{
		{"encoding goes to the MCP server team by default", filing.DefaultOwnership(),
			filing.ModeFacts{Layer: "interface", Primitive: "encoding"}, "mcp-server", 0},
		{"null bytes go to the agent and harness authors by default", filing.DefaultOwnership(),
			filing.ModeFacts{Layer: "interface", Primitive: "null-byte"}, "agent-harness", 3},
		{"filesystem permissions go to the sandbox platform by default", filing.DefaultOwnership(),
			filing.ModeFacts{Layer: "sandbox", Primitive: "filesystem-permissions"}, "platform-sandbox", 5},
		{"memory goes to workload design by default", filing.DefaultOwnership(),
			filing.ModeFacts{Layer: "sandbox", Primitive: "memory"}, "platform-workload", 10},
		{"any test failure goes to the harness authors by default", filing.DefaultOwnership(),
			filing.ModeFacts{Layer: "test", Primitive: "harness"}, "agent-harness", 13},
		{"an unclassified mode falls back to triage", filing.DefaultOwnership(),
			filing.ModeFacts{Layer: "unclassified"}, "triage", -1},
		{"a sandbox mode without a primitive falls back to triage", filing.DefaultOwnership(),
			filing.ModeFacts{Layer: "sandbox"}, "triage", -1},
		{"a route on a mode id wins over everything after it", custom,
			filing.ModeFacts{ID: "m-0123456789ab", Layer: "sandbox", Primitive: "memory", PerTarget: map[string]int{"browser": 1}}, "pinned", 0},
		{"a target matches a mode that failed there at least once", custom,
			filing.ModeFacts{Layer: "sandbox", Primitive: "memory", PerTarget: map[string]int{"code-interpreter": 9, "browser": 1}}, "browser", 1},
		{"a target with no failures does not match", custom,
			filing.ModeFacts{Layer: "sandbox", Primitive: "memory", PerTarget: map[string]int{"browser": 0}}, "platform", 2},
		{"the first match wins over a later, narrower route", custom,
			filing.ModeFacts{Layer: "sandbox", Primitive: "memory"}, "platform", 2},
		{"empty fields are wildcards", custom,
			filing.ModeFacts{Layer: "interface", Primitive: "encoding", PerDomain: map[string]int{"ml-training": 2}}, "ml", 4},
		{"nothing matching gives triage", custom,
			filing.ModeFacts{Layer: "interface", Primitive: "encoding"}, "triage", -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			team, route := tt.own.Route(tt.mode)
			if team != tt.wantTeam || route != tt.wantRoute {
				t.Errorf("got team %q route %d, want %q %d", team, route, tt.wantTeam, tt.wantRoute)
			}
		})
	}
}

func TestDefaultOwnershipRoutesEveryPrimitiveToAKnownTeamWithoutTracker(t *testing.T) {
	own := filing.DefaultOwnership()
	for _, layer := range triage.Layers()[:3] {
		for _, p := range triage.Primitives(layer) {
			team, route := own.Route(filing.ModeFacts{Layer: layer, Primitive: p})
			if route < 0 {
				t.Errorf("%s/%s: got no route, want one", layer, p)
			}
			if tm, ok := own.Team(team); !ok || tm.Tracker != "none" {
				t.Errorf("%s/%s: got team %+v (found %v), want a known team with tracker none", layer, p, tm, ok)
			}
		}
	}
	if err := (filing.Config{Team: own.Teams, Route: own.Routes}).Validate(); err != nil {
		t.Errorf("got %v validating the defaults, want nil", err)
	}
}

// TestVocabularyMatchesTriage keeps the copy of the vocabulary that
// Validate uses in step with triage's.
func TestVocabularyMatchesTriage(t *testing.T) {
	for _, layer := range triage.Layers() {
		if err := (filing.Config{Route: []filing.Route{{Layer: layer, Team: "triage"}}}).Validate(); err != nil {
			t.Errorf("layer %q: got %v, want it valid", layer, err)
		}
		for _, p := range triage.Primitives(layer) {
			if err := (filing.Config{Route: []filing.Route{{Layer: layer, Primitive: p, Team: "triage"}}}).Validate(); err != nil {
				t.Errorf("%s/%s: got %v, want it valid", layer, p, err)
			}
		}
	}
}

const exampleConfig = `
[[team]]
name = "mcp-server"
tracker = "github"
repo = "acme/mcp-server"
token_env = "SANDTRAP_GITHUB_TOKEN"
labels = ["sandtrap", "mcp"]

[[team]]
name = "platform"
tracker = "gitlab"
repo = "infra/sandbox"
api_url = "https://gitlab.acme.example"
token_env = "SANDTRAP_GITLAB_TOKEN"

[[team]]
name = "workload"
tracker = "jira"
project = "WL"
api_url = "https://acme.atlassian.net"
token_env = "SANDTRAP_JIRA_TOKEN"
issue_type = "Task"

[[team]]
name = "oncall"
tracker = "webhook"
api_url = "https://hooks.acme.example/sandtrap"
webhook_secret_env = "SANDTRAP_WEBHOOK_SECRET"

[[route]]
target = "browser"
layer = "sandbox"
team = "oncall"

[[route]]
layer = "sandbox"
team = "platform"

[[route]]
primitive = "memory"
team = "workload"
`

func TestConfigDecodedFromTOMLValidatesAndOverridesTheDefaults(t *testing.T) {
	var cfg filing.Config
	md, err := toml.Decode(exampleConfig, &cfg)
	if err != nil {
		t.Fatal(err)
	}
	if undecoded := md.Undecoded(); len(undecoded) > 0 {
		t.Errorf("got undecoded keys %v, want none", undecoded)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatalf("got %v, want a valid config", err)
	}
	own := cfg.Ownership()
	if team, _ := own.Team("mcp-server"); team.Tracker != "github" || team.Repo != "acme/mcp-server" {
		t.Errorf("got mcp-server %+v, want the configured GitHub team", team)
	}
	if team, ok := own.Team("platform-workload"); !ok || team.Tracker != "none" {
		t.Errorf("got platform-workload %+v (found %v), want the default team kept", team, ok)
	}
	tests := []struct {
		mode      filing.ModeFacts
		wantTeam  string
		wantRoute int
	}{
		{filing.ModeFacts{Layer: "sandbox", Primitive: "memory", PerTarget: map[string]int{"browser": 1}}, "oncall", 0},
		{filing.ModeFacts{Layer: "sandbox", Primitive: "memory"}, "platform", 1},
		{filing.ModeFacts{Layer: "interface", Primitive: "encoding"}, "mcp-server", 3},
	}
	for _, tt := range tests {
		if team, route := own.Route(tt.mode); team != tt.wantTeam || route != tt.wantRoute {
			t.Errorf("%+v: got %q route %d, want %q %d", tt.mode, team, route, tt.wantTeam, tt.wantRoute)
		}
	}
}

func TestConfigValidate(t *testing.T) {
	github := filing.Team{Name: "gh", Tracker: "github", Repo: "acme/widgets", TokenEnv: "GH_TOKEN"}
	with := func(f func(*filing.Team)) filing.Config {
		t := github
		f(&t)
		return filing.Config{Team: []filing.Team{t}}
	}
	routes := func(rs ...filing.Route) filing.Config {
		return filing.Config{Team: []filing.Team{github}, Route: rs}
	}
	tests := []struct {
		name string
		cfg  filing.Config
		want []string // each must appear in one problem
	}{
		{"a team without a name", with(func(t *filing.Team) { t.Name = "" }), []string{"team #1: name: missing"}},
		{"a team name with odd characters", with(func(t *filing.Team) { t.Name = "a b" }), []string{`team "a b": name:`}},
		{"two teams with one name", filing.Config{Team: []filing.Team{github, github}}, []string{`team "gh": name: another [[team]]`}},
		{"a team without a tracker", with(func(t *filing.Team) { t.Tracker = "" }), []string{`team "gh": tracker: missing`}},
		{"an unknown tracker", with(func(t *filing.Team) { t.Tracker = "githib" }), []string{`team "gh": tracker: "githib" is not one of`}},
		{"a GitHub repo without an owner", with(func(t *filing.Team) { t.Repo = "widgets" }), []string{`team "gh": repo: a GitHub repo is written owner/name`}},
		{"a GitHub team without token_env", with(func(t *filing.Team) { t.TokenEnv = "" }), []string{`team "gh": token_env: missing`}},
		{"a token pasted into token_env, not echoed", with(func(t *filing.Team) { t.TokenEnv = "ghp_abcdef123456" }), []string{`token_env: holds what looks like a token`}},
		{"a token_env that is no variable name", with(func(t *filing.Team) { t.TokenEnv = "MY TOKEN" }), []string{`token_env: is not an environment variable name`}},
		{"an api_url that is not a URL", with(func(t *filing.Team) { t.APIURL = "ftp://x" }), []string{`api_url: is not an http or https URL`}},
		{"a Jira setting on a GitHub team", with(func(t *filing.Team) { t.IssueType = "Bug" }), []string{`issue_type: applies to Jira teams only`}},
		{"a GitLab team without a project", with(func(t *filing.Team) { t.Tracker, t.Repo = "gitlab", "" }), []string{`team "gh": repo: a GitLab team needs its project path`}},
		{"a Jira team without project or URL", with(func(t *filing.Team) { t.Tracker, t.Repo = "jira", "" }),
			[]string{`team "gh": project: a Jira team needs its project key`, `team "gh": api_url: a Jira team needs`}},
		{"a webhook team without URL or secret", with(func(t *filing.Team) { t.Tracker, t.TokenEnv = "webhook", "" }),
			[]string{`api_url: a webhook team needs the webhook's URL`, `webhook_secret_env: missing`}},
		{"a webhook team with a token_env", with(func(t *filing.Team) {
			t.Tracker, t.APIURL, t.WebhookSecretEnv = "webhook", "https://hooks.example/x", "HOOK_SECRET"
		}), []string{`token_env: does not apply to a webhook team`}},
		{"a route without a team", routes(filing.Route{Layer: "sandbox"}), []string{"route #1: team: missing"}},
		{"a route naming an unknown team", routes(filing.Route{Layer: "sandbox"}, filing.Route{Layer: "test", Team: "nobody"}),
			[]string{`route #1: team: missing`, `route #2: team: "nobody" is neither`}},
		{"a route with no matcher", routes(filing.Route{Team: "gh"}), []string{"route #1: matches every mode"}},
		{"a route with an unknown layer", routes(filing.Route{Layer: "kernel", Team: "gh"}), []string{`route #1: layer: "kernel" is not one of`}},
		{"a route with an unknown primitive", routes(filing.Route{Primitive: "gpu", Team: "gh"}), []string{`route #1: primitive: "gpu" is not a primitive`}},
		{"a route whose primitive belongs to another layer", routes(filing.Route{Layer: "sandbox", Primitive: "encoding", Team: "gh"}),
			[]string{`route #1: primitive: "encoding" is a interface primitive, not a sandbox one`}},
		{"a route with a malformed mode id", routes(filing.Route{Mode: "3fa9", Team: "gh"}), []string{`route #1: mode: "3fa9" is not a mode id`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.cfg.Validate()
			if err == nil {
				t.Fatalf("got no error, want %q", tt.want)
			}
			var list filing.ConfigErrors
			if !errors.As(err, &list) {
				t.Fatalf("got %T, want filing.ConfigErrors", err)
			}
			if len(list) != len(tt.want) {
				t.Errorf("got %d problems (%v), want %d", len(list), err, len(tt.want))
			}
			for _, w := range tt.want {
				if !slices.ContainsFunc(list, func(e *filing.ConfigError) bool { return strings.Contains(e.Error(), w) }) {
					t.Errorf("got %q, want a problem containing %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "ghp_abcdef123456") {
				t.Errorf("got %q, want the pasted token left out", err)
			}
		})
	}
}

func TestConfigErrorCarriesTheIndexOfItsTable(t *testing.T) {
	cfg := filing.Config{Route: []filing.Route{{Layer: "sandbox", Team: "triage"}, {Layer: "nope", Team: "triage"}}}
	var e *filing.ConfigError
	if !errors.As(cfg.Validate(), &e) {
		t.Fatal("got no ConfigError, want one")
	}
	if e.Table != "route" || e.Index != 1 || e.Field != "layer" {
		t.Errorf("got table %q index %d field %q, want route 1 layer", e.Table, e.Index, e.Field)
	}
}

func TestOwnerIsThePersonsChoiceElseTheRoutes(t *testing.T) {
	o := filing.DefaultOwnership()
	memory := filing.ModeFacts{ID: "m-1", Layer: "sandbox", Primitive: "memory"}
	tests := []struct {
		name, chosen, want string
		wantRouted         bool
	}{
		{"without a choice the routes decide", "", "platform-workload", true},
		{"a person's choice wins over the routes", "mcp-server", "mcp-server", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, routed := o.Owner(memory, tt.chosen)
			if got != tt.want || routed != tt.wantRouted {
				t.Errorf("got %q (routed %v), want %q (routed %v)", got, routed, tt.want, tt.wantRouted)
			}
		})
	}
}
