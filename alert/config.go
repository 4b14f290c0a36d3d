// Package alert decides what sandtrap tells people while campaigns run:
// which events of a run fire for which [[alert]] table, the key that makes
// each fire once, the words of each message as Slack and a signed webhook
// receive them, and when a failed send is tried again. It is plain logic;
// package notify watches the store, keeps the outbox and sends.
package alert

import (
	"fmt"
	"net/url"
	"regexp"
	"sandtrap/filing"
	"slices"
	"strings"

	"sandtrap"
)

// Events an alert can name.
const (
	// EventNewMode is a failure mode never seen before in the campaign
	// appearing in a live run.
	EventNewMode = "new-mode"
	// EventReturnedMode is a mode a person marked fixed failing again.
	EventReturnedMode = "returned-mode"
	// EventRunFinished is a run that was seen live getting its finished_at.
	EventRunFinished = "run-finished"
)

// Events is every event, in the order messages and docs list them.
var Events = []string{EventNewMode, EventReturnedMode, EventRunFinished}

// Destinations of an alert.
const (
	Slack   = "slack"
	Webhook = "webhook"
)

// Alert is an [[alert]] table: which events of which modes to send where.
// Secrets are never in the file: the Slack URL and the webhook's signing
// secret are read from the environment variables it names.
type Alert struct {
	Name string `toml:"name"`
	// SlackWebhookEnv names the variable holding a Slack incoming-webhook
	// URL; the URL is the secret.
	SlackWebhookEnv string `toml:"slack_webhook_env"`
	// WebhookURL and SecretEnv make a generic JSON webhook, signed as the
	// filing webhook is.
	WebhookURL string `toml:"webhook_url"`
	SecretEnv  string `toml:"secret_env"`
	// MinSeverity is the mildest severity sent; "" is high.
	MinSeverity string `toml:"min_severity"`
	// Events are the events sent; none set means every event.
	Events []string `toml:"events"`
	// Targets, Domains and Layers, when set, keep the modes that failed on
	// one of the targets, in one of the domains, or are of one of the layers.
	Targets []string `toml:"targets"`
	Domains []string `toml:"domains"`
	Layers  []string `toml:"layers"`
}

// Destination is Slack or Webhook.
func (a Alert) Destination() string {
	if a.SlackWebhookEnv != "" {
		return Slack
	}
	return Webhook
}

// Sends reports whether the alert sends event.
func (a Alert) Sends(event string) bool {
	return a.Events == nil || slices.Contains(a.Events, event)
}

// minSeverity is the alert's threshold with its default.
func (a Alert) minSeverity() string {
	if a.MinSeverity == "" {
		return sandtrap.SeverityHigh
	}
	return a.MinSeverity
}

// The vocabulary of design.md §2. Package triage reads the file these
// tables are in, so alert cannot import it; a test keeps the two in step.
var (
	Severities = []string{sandtrap.SeverityCritical, sandtrap.SeverityHigh, sandtrap.SeverityMedium, sandtrap.SeverityLow}
	layers     = []string{sandtrap.LayerInterface, sandtrap.LayerSandbox, sandtrap.LayerTest, sandtrap.LayerUnclassified}
)

// severityRank orders severities: 0 is the worst; unknown ones come last.
func severityRank(s string) int {
	if i := slices.Index(Severities, s); i >= 0 {
		return i
	}
	return len(Severities)
}

// ConfigError is one problem of an [[alert]] table, in the words the
// filing tables use for theirs; its Table is "alert".
type ConfigError = filing.ConfigError

// ConfigErrors is every problem Validate found, in file order.
type ConfigErrors = filing.ConfigErrors

var (
	namePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)
	envPattern  = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
)

// Validate checks every [[alert]] table and returns nil or ConfigErrors. It
// refuses a missing, malformed or duplicate name; no destination or two; a
// webhook without an http or https URL or without secret_env; a variable
// name that is not one (a pasted URL or secret is never quoted back); and
// an unknown severity, event or layer, or an empty target or domain.
func Validate(alerts []Alert) error {
	var errs ConfigErrors
	seen := map[string]bool{}
	for i, a := range alerts {
		problem := func(field, format string, args ...any) {
			errs = append(errs, &ConfigError{Table: "alert", Index: i, Name: a.Name, Field: field, Problem: fmt.Sprintf(format, args...)})
		}
		switch {
		case a.Name == "":
			problem("name", "missing")
		case !namePattern.MatchString(a.Name):
			problem("name", "may hold only letters, digits, '.', '_' and '-', up to 64")
		case seen[a.Name]:
			problem("name", "another [[alert]] has this name")
		}
		seen[a.Name] = true
		a.checkDestination(problem)
		if a.MinSeverity != "" && !slices.Contains(Severities, a.MinSeverity) {
			problem("min_severity", "%q is not one of %s", a.MinSeverity, strings.Join(Severities, ", "))
		}
		if a.Events != nil && len(a.Events) == 0 {
			problem("events", "lists no event; leave it out to send every event (%s)", strings.Join(Events, ", "))
		}
		for _, e := range a.Events {
			if !slices.Contains(Events, e) {
				problem("events", "%q is not one of %s", e, strings.Join(Events, ", "))
			}
		}
		for _, l := range a.Layers {
			if !slices.Contains(layers, l) {
				problem("layers", "%q is not one of %s", l, strings.Join(layers, ", "))
			}
		}
		if slices.Contains(a.Targets, "") {
			problem("targets", "holds an empty target")
		}
		if slices.Contains(a.Domains, "") {
			problem("domains", "holds an empty domain")
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return errs
}

// checkDestination reports the problems of where the alert sends.
func (a Alert) checkDestination(problem func(field, format string, args ...any)) {
	switch {
	case a.SlackWebhookEnv == "" && a.WebhookURL == "":
		problem("", "has no destination: set slack_webhook_env, or webhook_url and secret_env")
		return
	case a.SlackWebhookEnv != "" && a.WebhookURL != "":
		problem("", "has two destinations: set slack_webhook_env or webhook_url, not both")
		return
	case a.SlackWebhookEnv != "":
		checkEnv(problem, "slack_webhook_env", a.SlackWebhookEnv)
		if a.SecretEnv != "" {
			problem("secret_env", "does not apply to Slack, whose webhook URL is its secret")
		}
		return
	}
	// The URL is never quoted back: webhook URLs often carry a secret.
	if u, err := url.Parse(a.WebhookURL); err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		problem("webhook_url", "is not an http or https URL")
	}
	checkEnv(problem, "secret_env", a.SecretEnv)
}

// checkEnv checks the name of an environment variable. The value is never
// quoted back: it may be the secret itself, pasted in the wrong place.
func checkEnv(problem func(field, format string, args ...any), field, name string) {
	switch {
	case name == "":
		problem(field, "missing: name the environment variable that holds the secret")
	case strings.Contains(name, "://") || strings.HasPrefix(name, "xox"):
		problem(field, "holds what looks like a URL or a token; put it in an environment variable and name the variable here")
	case !envPattern.MatchString(name):
		problem(field, "is not an environment variable name (letters, digits and '_', not starting with a digit)")
	}
}

// Target is where an alert sends, as the environment completes it.
type Target struct {
	Destination string // Slack or Webhook
	URL         string
	Secret      string // the webhook's signing secret; "" for Slack
}

// Resolve reads the alert's secrets with getenv (os.Getenv in production).
// Its errors name the variable, never its value.
func (a Alert) Resolve(getenv func(string) string) (Target, error) {
	if a.Destination() == Slack {
		u := getenv(a.SlackWebhookEnv)
		if u == "" {
			return Target{}, fmt.Errorf("alert %q: environment variable %s is not set: put the Slack webhook's URL in it", a.Name, a.SlackWebhookEnv)
		}
		if p, err := url.Parse(u); err != nil || p.Scheme != "http" && p.Scheme != "https" || p.Host == "" {
			return Target{}, fmt.Errorf("alert %q: environment variable %s does not hold an http or https URL", a.Name, a.SlackWebhookEnv)
		}
		return Target{Destination: Slack, URL: u}, nil
	}
	secret := getenv(a.SecretEnv)
	if secret == "" {
		return Target{}, fmt.Errorf("alert %q: environment variable %s is not set: put the webhook's signing secret in it", a.Name, a.SecretEnv)
	}
	return Target{Destination: Webhook, URL: a.WebhookURL, Secret: secret}, nil
}
