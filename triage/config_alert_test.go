package triage

import (
	"slices"
	"strings"
	"testing"

	"sandtrap/alert"
)

func TestParseConfigReadsAlerts(t *testing.T) {
	cfg, err := ParseConfig("sandtrap.toml", []byte(`
[[alert]]
name = "oncall"
slack_webhook_env = "SLACK_WEBHOOK_URL"
min_severity = "critical"
events = ["new-mode", "returned-mode"]
targets = ["browser"]

[[alert]]
name = "ci"
webhook_url = "https://hooks.example/sandtrap"
secret_env = "SANDTRAP_ALERT_SECRET"
events = ["run-finished"]
domains = ["file-io"]
layers = ["interface"]
`))
	if err != nil {
		t.Fatal(err)
	}
	want := []alert.Alert{
		{Name: "oncall", SlackWebhookEnv: "SLACK_WEBHOOK_URL", MinSeverity: "critical", Events: []string{"new-mode", "returned-mode"}, Targets: []string{"browser"}},
		{Name: "ci", WebhookURL: "https://hooks.example/sandtrap", SecretEnv: "SANDTRAP_ALERT_SECRET", Events: []string{"run-finished"},
			Domains: []string{"file-io"}, Layers: []string{"interface"}},
	}
	if !slices.EqualFunc(cfg.Alerts, want, func(a, b alert.Alert) bool {
		return a.Name == b.Name && a.SlackWebhookEnv == b.SlackWebhookEnv && a.WebhookURL == b.WebhookURL && a.SecretEnv == b.SecretEnv &&
			a.MinSeverity == b.MinSeverity && slices.Equal(a.Events, b.Events) && slices.Equal(a.Targets, b.Targets) &&
			slices.Equal(a.Domains, b.Domains) && slices.Equal(a.Layers, b.Layers)
	}) {
		t.Errorf("got %+v, want %+v", cfg.Alerts, want)
	}
}

func TestParseConfigRefusesBadAlertsNamingTheirLines(t *testing.T) {
	tests := []struct {
		name   string
		config string
		want   []string
	}{
		{
			name: "an unknown key is named with its line",
			config: `[[alert]]
name = "oncall"
slack_webhook_env = "SLACK_WEBHOOK_URL"
channel = "#ops"
`,
			want: []string{`line 4: unknown key "alert.channel"`},
		},
		{
			name: "a bad value is named with the line of its key, in the table it is in",
			config: `[[alert]]
name = "oncall"
slack_webhook_env = "SLACK_WEBHOOK_URL"

[[alert]]
name = "hook"
webhook_url = "https://hooks.example/x"
secret_env = "HOOK_SECRET"
min_severity = "urgent"
events = ["new-mode", "boom"]
`,
			want: []string{
				`line 9: alert "hook": min_severity: "urgent" is not one of critical, high, medium, low`,
				`line 10: alert "hook": events: "boom" is not one of new-mode, returned-mode, run-finished`,
			},
		},
		{
			name: "a problem of the table as a whole is named at its header",
			config: `[[rule]]
name = "r"
error = "x"
layer = "test"

[[alert]]
name = "nowhere"
`,
			want: []string{`line 6: alert "nowhere": has no destination: set slack_webhook_env, or webhook_url and secret_env`},
		},
		{
			name: "a string where a list goes is a type error with its line",
			config: `[[alert]]
name = "oncall"
slack_webhook_env = "SLACK_WEBHOOK_URL"
events = "new-mode"
`,
			want: []string{`line 4`, `alert.events is a string, where an array belongs`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseConfig("sandtrap.toml", []byte(tt.config))
			if err == nil {
				t.Fatal("got no error, want the config refused")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("got %v, want it to say %q", err, w)
				}
			}
		})
	}
}
