// Package filing decides who owns a failure mode and what gets filed about
// it: routing modes to teams, the Markdown of tickets and comments, whether
// to create, comment on or reopen a ticket, and when a failed filing is
// retried. It is plain logic; package tracker talks to the trackers, and
// the caller keeps the outbox.
package filing

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"sandtrap"
	"sandtrap/tracker"
)

// TrackerNone marks a team without a tracker: its modes are filed by hand,
// from the Markdown.
const TrackerNone = "none"

// Trackers is every value a team's tracker may take.
var Trackers = []string{tracker.GitHub, tracker.GitLab, tracker.Jira, tracker.Webhook, TrackerNone}

// TriageTeam owns every mode no route matches.
const TriageTeam = "triage"

// Team is a [[team]] table: who owns modes, and where their tickets go.
type Team struct {
	Name    string `toml:"name"`
	Tracker string `toml:"tracker"` // github, gitlab, jira, webhook or none
	// Repo is the GitHub repository, "owner/name", or the GitLab project
	// path, which Project may hold instead.
	Repo    string `toml:"repo"`
	Project string `toml:"project"` // the Jira project key, or the GitLab project
	// APIURL is the server of an Enterprise or self-managed tracker, or a
	// fake one in tests; for a webhook team it is the webhook's URL.
	APIURL string `toml:"api_url"`
	// TokenEnv names the environment variable that holds the token. Tokens
	// are never written in the config file.
	TokenEnv string   `toml:"token_env"`
	Labels   []string `toml:"labels"`
	// WebhookSecretEnv names the environment variable that holds the
	// webhook's signing secret.
	WebhookSecretEnv string `toml:"webhook_secret_env"`
	// IssueType and ReopenTransition adjust Jira teams; empty means "Bug"
	// and "Reopen".
	IssueType        string `toml:"issue_type"`
	ReopenTransition string `toml:"reopen_transition"`
}

// Route is a [[route]] table. Each set field must match the mode; an empty
// field matches anything. A Domain or Target matches a mode that has failed
// in that domain or on that target at least once.
type Route struct {
	Layer     string `toml:"layer"`
	Primitive string `toml:"primitive"`
	Domain    string `toml:"domain"`
	Target    string `toml:"target"`
	Mode      string `toml:"mode"`
	Team      string `toml:"team"`
}

// matches reports whether the route takes mode m.
func (r Route) matches(m ModeFacts) bool {
	return (r.Layer == "" || r.Layer == m.Layer) &&
		(r.Primitive == "" || r.Primitive == m.Primitive) &&
		(r.Domain == "" || m.PerDomain[r.Domain] > 0) &&
		(r.Target == "" || m.PerTarget[r.Target] > 0) &&
		(r.Mode == "" || r.Mode == m.ID)
}

// Ownership is the teams and the routes that give each mode its owner.
type Ownership struct {
	Teams  []Team
	Routes []Route
}

// Route returns the team that owns mode m and the index in o.Routes of the
// route that decided it. The first matching route wins; when none matches,
// the owner is TriageTeam and the index is -1.
func (o Ownership) Route(m ModeFacts) (team string, route int) {
	for i, r := range o.Routes {
		if r.matches(m) {
			return r.Team, i
		}
	}
	return TriageTeam, -1
}

// Owner returns the team that owns mode m: chosen, the team a person
// picked, when there is one, else the team the routes give. routed says
// which.
func (o Ownership) Owner(m ModeFacts, chosen string) (team string, routed bool) {
	if chosen != "" {
		return chosen, false
	}
	team, _ = o.Route(m)
	return team, true
}

// Team returns the team with the given name.
func (o Ownership) Team(name string) (Team, bool) {
	i := slices.IndexFunc(o.Teams, func(t Team) bool { return t.Name == name })
	if i < 0 {
		return Team{}, false
	}
	return o.Teams[i], true
}

// DefaultOwnership routes by layer and primitive, the way a campaign's
// owners usually split the work: the MCP layer's encoding, protocol and
// message sizes go to the MCP server's maintainers; payload handling and
// null bytes to the agent and harness authors; filesystem views, storage,
// packages, processes and egress to the sandbox's platform configuration;
// memory, CPU time and session limits to workload design; test bugs to the
// harness authors; anything else to triage. No team has a tracker, so
// modes are filed by hand from the Markdown until a config says otherwise.
func DefaultOwnership() Ownership {
	const (
		mcp      = "mcp-server"
		harness  = "agent-harness"
		sandbox  = "platform-sandbox"
		workload = "platform-workload"
	)
	teams := []Team{
		{Name: mcp, Tracker: TrackerNone},
		{Name: harness, Tracker: TrackerNone},
		{Name: sandbox, Tracker: TrackerNone},
		{Name: workload, Tracker: TrackerNone},
		{Name: TriageTeam, Tracker: TrackerNone},
	}
	var routes []Route
	add := func(layer, team string, primitives ...string) {
		for _, p := range primitives {
			routes = append(routes, Route{Layer: layer, Primitive: p, Team: team})
		}
	}
	add(sandtrap.LayerInterface, mcp, "encoding", "protocol", "message-size")
	add(sandtrap.LayerInterface, harness, "null-byte", "input-validation")
	add(sandtrap.LayerSandbox, sandbox, "filesystem-permissions", "storage-persistence", "package-path", "process-spawn", "network-egress")
	add(sandtrap.LayerSandbox, workload, "memory", "cpu-time", "session-lifecycle")
	routes = append(routes, Route{Layer: sandtrap.LayerTest, Team: harness})
	return Ownership{Teams: teams, Routes: routes}
}

// Config is the ownership part of the configuration file: its [[team]] and
// [[route]] tables, decoded as they are written.
type Config struct {
	Team  []Team  `toml:"team"`
	Route []Route `toml:"route"`
}

// Ownership applies the config to the defaults. A [[team]] replaces the
// default team of the same name or adds a team; [[route]] tables are tried
// in file order before the default routes, so a config only needs the
// routes that differ. Call Validate first.
func (c Config) Ownership() Ownership {
	o := DefaultOwnership()
	for _, t := range c.Team {
		if i := slices.IndexFunc(o.Teams, func(d Team) bool { return d.Name == t.Name }); i >= 0 {
			o.Teams[i] = t
		} else {
			o.Teams = append(o.Teams, t)
		}
	}
	o.Routes = append(slices.Clone(c.Route), o.Routes...)
	return o
}

// ConfigError is one problem in a [[team]] or [[route]] table.
type ConfigError struct {
	Table string // "team" or "route"
	// Index is the table's position among the tables of its kind, from 0,
	// so the caller can point at the line of its header.
	Index   int
	Name    string // the team's name, when it has one
	Field   string // the key at fault; "" when it is the table as a whole
	Problem string
}

func (e *ConfigError) Error() string {
	label := fmt.Sprintf("%s #%d", e.Table, e.Index+1)
	if e.Name != "" {
		label = fmt.Sprintf("%s %q", e.Table, e.Name)
	}
	if e.Field == "" {
		return label + ": " + e.Problem
	}
	return label + ": " + e.Field + ": " + e.Problem
}

// ConfigErrors is every problem Validate found, in file order.
type ConfigErrors []*ConfigError

func (l ConfigErrors) Error() string {
	lines := make([]string, len(l))
	for i, e := range l {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Unwrap lets errors.As reach each problem.
func (l ConfigErrors) Unwrap() []error {
	errs := make([]error, len(l))
	for i, e := range l {
		errs[i] = e
	}
	return errs
}

var (
	teamNamePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)
	envNamePattern  = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	jiraKeyPattern  = regexp.MustCompile(`^[A-Z][A-Z0-9_]{0,49}$`)
	modeIDPattern   = regexp.MustCompile(`^m-[0-9a-f]{12}$`)
	// tokenPrefixes begin real tokens, pasted where a variable's name goes.
	tokenPrefixes = []string{"ghp_", "gho_", "ghs_", "github_pat_", "glpat-", "ATATT"}
)

// Validate checks every [[team]] and [[route]] table and returns nil or
// ConfigErrors. It refuses an unknown tracker, a GitHub repo not of the
// form owner/name, a GitLab team without a project, a Jira team without a
// project key or api_url, a webhook team without a URL or secret, a real
// tracker without token_env, a missing, malformed or duplicate team name,
// and a route with no matcher, an unknown team, or a layer, primitive or
// mode id outside the vocabulary.
func (c Config) Validate() error {
	var errs ConfigErrors
	teams := map[string]bool{}
	for _, t := range DefaultOwnership().Teams {
		teams[t.Name] = true
	}
	seen := map[string]bool{}
	for i, t := range c.Team {
		problem := func(field, format string, args ...any) {
			errs = append(errs, &ConfigError{Table: "team", Index: i, Name: t.Name, Field: field, Problem: fmt.Sprintf(format, args...)})
		}
		switch {
		case t.Name == "":
			problem("name", "missing")
		case !teamNamePattern.MatchString(t.Name):
			problem("name", "may hold only letters, digits, '.', '_' and '-', up to 64")
		case seen[t.Name]:
			problem("name", "another [[team]] has this name")
		}
		seen[t.Name] = true
		teams[t.Name] = true
		t.check(problem)
	}
	for i, r := range c.Route {
		problem := func(field, format string, args ...any) {
			errs = append(errs, &ConfigError{Table: "route", Index: i, Field: field, Problem: fmt.Sprintf(format, args...)})
		}
		r.check(teams, problem)
	}
	if len(errs) == 0 {
		return nil
	}
	return errs
}

// check reports the problems of a team's tracker settings.
func (t Team) check(problem func(field, format string, args ...any)) {
	switch t.Tracker {
	case "":
		problem("tracker", "missing (one of %s)", strings.Join(Trackers, ", "))
		return
	case tracker.GitHub:
		if owner, name, ok := strings.Cut(t.Repo, "/"); !ok || owner == "" || name == "" || strings.Contains(name, "/") {
			problem("repo", "a GitHub repo is written owner/name")
		}
	case tracker.GitLab:
		switch {
		case t.Repo == "" && t.Project == "":
			problem("repo", "a GitLab team needs its project path, such as group/project, in repo or project")
		case t.Repo != "" && t.Project != "" && t.Repo != t.Project:
			problem("project", "repo and project name different GitLab projects; set one")
		}
	case tracker.Jira:
		if !jiraKeyPattern.MatchString(t.Project) {
			problem("project", "a Jira team needs its project key, such as OPS")
		}
		if t.APIURL == "" {
			problem("api_url", "a Jira team needs its site's URL, such as https://example.atlassian.net")
		}
	case tracker.Webhook:
		if t.APIURL == "" {
			problem("api_url", "a webhook team needs the webhook's URL here")
		}
		checkEnv(problem, "webhook_secret_env", t.WebhookSecretEnv)
		if t.TokenEnv != "" {
			problem("token_env", "does not apply to a webhook team; its secret is read from webhook_secret_env")
		}
	case TrackerNone:
	default:
		problem("tracker", "%q is not one of %s", t.Tracker, strings.Join(Trackers, ", "))
		return
	}
	if t.Tracker == tracker.GitHub || t.Tracker == tracker.GitLab || t.Tracker == tracker.Jira {
		checkEnv(problem, "token_env", t.TokenEnv)
	}
	if t.APIURL != "" {
		if u, err := url.Parse(t.APIURL); err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
			problem("api_url", "is not an http or https URL")
		}
	}
	if t.Tracker != tracker.Jira {
		if t.IssueType != "" {
			problem("issue_type", "applies to Jira teams only")
		}
		if t.ReopenTransition != "" {
			problem("reopen_transition", "applies to Jira teams only")
		}
	}
}

// checkEnv checks the name of an environment variable. The value is never
// quoted back: it may be the secret itself, pasted in the wrong place.
func checkEnv(problem func(field, format string, args ...any), field, name string) {
	switch {
	case name == "":
		problem(field, "missing: name the environment variable that holds the secret")
	case slices.ContainsFunc(tokenPrefixes, func(p string) bool { return strings.HasPrefix(name, p) }):
		problem(field, "holds what looks like a token; put the token in an environment variable and name the variable here")
	case !envNamePattern.MatchString(name):
		problem(field, "is not an environment variable name (letters, digits and '_', not starting with a digit)")
	}
}

// check reports the problems of a route.
func (r Route) check(teams map[string]bool, problem func(field, format string, args ...any)) {
	switch {
	case r.Team == "":
		problem("team", "missing")
	case !teams[r.Team]:
		problem("team", "%q is neither a [[team]] nor a built-in team", r.Team)
	}
	if r.Layer == "" && r.Primitive == "" && r.Domain == "" && r.Target == "" && r.Mode == "" {
		problem("", "matches every mode; set at least one of layer, primitive, domain, target, mode")
	}
	if r.Layer != "" && !validLayer(r.Layer) {
		problem("layer", "%q is not one of %s", r.Layer, strings.Join(layers, ", "))
	}
	switch layer := layerOf[r.Primitive]; {
	case r.Primitive == "":
	case layer == "":
		problem("primitive", "%q is not a primitive of the vocabulary", r.Primitive)
	case r.Layer != "" && validLayer(r.Layer) && layer != r.Layer:
		problem("primitive", "%q is a %s primitive, not a %s one", r.Primitive, layer, r.Layer)
	}
	if r.Mode != "" && !modeIDPattern.MatchString(r.Mode) {
		problem("mode", "%q is not a mode id such as m-3fa9c0e1d2b4", r.Mode)
	}
}

// The vocabulary of design.md §2. Package triage holds it too, but triage
// reads the configuration file that holds these tables, so filing cannot
// import triage; a test keeps the two in step.
var (
	layers     = []string{sandtrap.LayerInterface, sandtrap.LayerSandbox, sandtrap.LayerTest, sandtrap.LayerUnclassified}
	primitives = map[string][]string{
		sandtrap.LayerInterface: {"encoding", "null-byte", "message-size", "protocol", "input-validation"},
		sandtrap.LayerSandbox: {"filesystem-permissions", "storage-persistence", "memory", "cpu-time",
			"process-spawn", "network-egress", "package-path", "session-lifecycle"},
		sandtrap.LayerTest: {"harness"},
	}
	layerOf = func() map[string]string {
		m := map[string]string{}
		for layer, ps := range primitives {
			for _, p := range ps {
				m[p] = layer
			}
		}
		return m
	}()
)

func validLayer(s string) bool { return slices.Contains(layers, s) }
