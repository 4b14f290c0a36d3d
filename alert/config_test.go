package alert_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"sandtrap/alert"
	"sandtrap/triage"
)

func TestValidate(t *testing.T) {
	slack := alert.Alert{Name: "oncall", SlackWebhookEnv: "SLACK_URL"}
	hook := alert.Alert{Name: "hook", WebhookURL: "https://hooks.example/a?key=s3cret", SecretEnv: "HOOK_SECRET"}
	with := func(a alert.Alert, f func(*alert.Alert)) alert.Alert { f(&a); return a }
	tests := []struct {
		name   string
		alerts []alert.Alert
		want   []string // each problem, as Error() words it
	}{
		{name: "a Slack alert and a signed webhook with every filter pass", alerts: []alert.Alert{
			slack,
			with(hook, func(a *alert.Alert) {
				a.MinSeverity, a.Events = "critical", []string{"new-mode", "run-finished"}
				a.Targets, a.Domains, a.Layers = []string{"browser"}, []string{"file-io"}, []string{"interface", "sandbox"}
			}),
		}},
		{name: "a missing name and a name taken twice are refused", alerts: []alert.Alert{with(slack, func(a *alert.Alert) { a.Name = "" }), slack, slack}, want: []string{
			"alert #1: name: missing", `alert "oncall": name: another [[alert]] has this name`,
		}},
		{name: "no destination, or two, is refused", alerts: []alert.Alert{{Name: "none"}, with(slack, func(a *alert.Alert) { a.WebhookURL = hook.WebhookURL })}, want: []string{
			`alert "none": has no destination: set slack_webhook_env, or webhook_url and secret_env`,
			`alert "oncall": has two destinations: set slack_webhook_env or webhook_url, not both`,
		}},
		{name: "a pasted URL or token where a variable's name goes is refused without being repeated", alerts: []alert.Alert{
			with(slack, func(a *alert.Alert) { a.SlackWebhookEnv = "https://hooks.slack.com/services/T0/B0/s3cret" }),
			with(hook, func(a *alert.Alert) { a.SecretEnv = "xoxb-s3cret" }),
		}, want: []string{
			`alert "oncall": slack_webhook_env: holds what looks like a URL or a token; put it in an environment variable and name the variable here`,
			`alert "hook": secret_env: holds what looks like a URL or a token; put it in an environment variable and name the variable here`,
		}},
		{name: "a webhook needs an http URL and a secret, and Slack takes no secret", alerts: []alert.Alert{
			with(hook, func(a *alert.Alert) { a.WebhookURL, a.SecretEnv = "ftp://hooks.example/s3cret", "" }),
			with(slack, func(a *alert.Alert) { a.SecretEnv = "X" }),
		}, want: []string{
			`alert "hook": webhook_url: is not an http or https URL`,
			`alert "hook": secret_env: missing: name the environment variable that holds the secret`,
			`alert "oncall": secret_env: does not apply to Slack, whose webhook URL is its secret`,
		}},
		{name: "values outside the vocabulary are refused, each named", alerts: []alert.Alert{with(slack, func(a *alert.Alert) {
			a.MinSeverity, a.Events, a.Layers, a.Targets = "urgent", []string{"new-mode", "mode-new"}, []string{"network"}, []string{""}
		})}, want: []string{
			`alert "oncall": min_severity: "urgent" is not one of critical, high, medium, low`,
			`alert "oncall": events: "mode-new" is not one of new-mode, returned-mode, run-finished`,
			`alert "oncall": layers: "network" is not one of interface, sandbox, test, unclassified`,
			`alert "oncall": targets: holds an empty target`,
		}},
		{name: "an empty list of events is refused", alerts: []alert.Alert{with(slack, func(a *alert.Alert) { a.Events = []string{} })}, want: []string{
			`alert "oncall": events: lists no event; leave it out to send every event (new-mode, returned-mode, run-finished)`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := alert.Validate(tt.alerts)
			var got []string
			var errs alert.ConfigErrors
			if errors.As(err, &errs) {
				for _, e := range errs {
					got = append(got, e.Error())
				}
			} else if err != nil {
				t.Fatalf("got %v, want ConfigErrors", err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got problems\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			if err != nil && strings.Contains(err.Error(), "s3cret") {
				t.Errorf("got %v, want no secret quoted back", err)
			}
		})
	}
}

func TestResolveNamesAMissingVariableAndNeverAValue(t *testing.T) {
	env := map[string]string{"SLACK_URL": "https://hooks.slack.example/services/s3cret", "HOOK_SECRET": "s3cret", "NOT_A_URL": "s3cret"}
	getenv := func(k string) string { return env[k] }
	tests := []struct {
		name    string
		alert   alert.Alert
		want    alert.Target
		wantErr string
	}{
		{"Slack reads its URL from the variable", alert.Alert{Name: "a", SlackWebhookEnv: "SLACK_URL"},
			alert.Target{Destination: "slack", URL: env["SLACK_URL"]}, ""},
		{"a webhook reads its secret from the variable", alert.Alert{Name: "b", WebhookURL: "https://hooks.example/x", SecretEnv: "HOOK_SECRET"},
			alert.Target{Destination: "webhook", URL: "https://hooks.example/x", Secret: "s3cret"}, ""},
		{"an unset Slack variable is named", alert.Alert{Name: "c", SlackWebhookEnv: "UNSET_URL"}, alert.Target{},
			`alert "c": environment variable UNSET_URL is not set: put the Slack webhook's URL in it`},
		{"an unset secret variable is named", alert.Alert{Name: "d", WebhookURL: "https://hooks.example/x", SecretEnv: "UNSET_SECRET"}, alert.Target{},
			`alert "d": environment variable UNSET_SECRET is not set: put the webhook's signing secret in it`},
		{"a Slack variable that holds no URL is named, its value not shown", alert.Alert{Name: "e", SlackWebhookEnv: "NOT_A_URL"}, alert.Target{},
			`alert "e": environment variable NOT_A_URL does not hold an http or https URL`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.alert.Resolve(getenv)
			if gotErr := errString(err); gotErr != tt.wantErr {
				t.Errorf("got error %q, want %q", gotErr, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestTheVocabularyIsTriages(t *testing.T) {
	if !slices.Equal(alert.Severities, triage.Severities()) {
		t.Errorf("got severities %v, want triage's %v", alert.Severities, triage.Severities())
	}
	for _, layer := range triage.Layers() {
		if err := alert.Validate([]alert.Alert{{Name: "a", SlackWebhookEnv: "S", Layers: []string{layer}}}); err != nil {
			t.Errorf("got %v for triage's layer %q, want it accepted", err, layer)
		}
	}
}

func TestRetryAfter(t *testing.T) {
	tests := []struct {
		name             string
		attempt          int
		temporary        bool
		asked            time.Duration
		wantMin, wantMax time.Duration
		wantRetry        bool
	}{
		{"a first temporary failure waits 7.5 to 15 s", 1, true, 0, 7500 * time.Millisecond, 15 * time.Second, true},
		{"the third waits 30 s to 1 min", 3, true, 0, 30 * time.Second, time.Minute, true},
		{"waits stop growing at 10 min", 7, true, 0, 5 * time.Minute, 10 * time.Minute, true},
		{"a longer Retry-After is honoured", 1, true, 2 * time.Minute, 2 * time.Minute, 2 * time.Minute, true},
		{"a Retry-After past an hour waits an hour", 1, true, 48 * time.Hour, time.Hour, time.Hour, true},
		{"a refusal is not retried", 1, false, 0, 0, 0, false},
		{"the last attempt gives up", alert.MaxAttempts, true, 0, 0, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for range 50 {
				wait, retry := alert.RetryAfter(tt.attempt, tt.temporary, tt.asked)
				if retry != tt.wantRetry || wait < tt.wantMin || wait > tt.wantMax {
					t.Fatalf("got %s, %v; want between %s and %s, %v", wait, retry, tt.wantMin, tt.wantMax, tt.wantRetry)
				}
			}
		})
	}
}
