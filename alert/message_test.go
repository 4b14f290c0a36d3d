package alert_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"sandtrap"
	"sandtrap/alert"
)

// hostile is campaign text that tries everything a chat message allows.
const hostile = "<!channel> @here *bold* <https://evil.example|click> & \x1b[31mred\x00cut\u202eevil"

func hostileFires(t *testing.T) (newMode, finished alert.Message) {
	t.Helper()
	m := mode("m-3fa9c0e1d2b4", "critical", "interface", isNew)
	m.Title = hostile
	run := finishedRun()
	run.Name = hostile
	fires := alert.Detect([]alert.Alert{{Name: "oncall", SlackWebhookEnv: "S"}}, alert.RunFacts{Run: run, Modes: []sandtrap.ModeStat{m}}, links)
	if len(fires) != 2 {
		t.Fatalf("got %d fires, want new-mode and run-finished", len(fires))
	}
	return fires[0].Message, fires[1].Message
}

func TestTextNamesTheModeTheRunAndTheirLinks(t *testing.T) {
	newMode, finished := hostileFires(t)
	tests := []struct {
		name string
		msg  alert.Message
		want []string
	}{
		{"a new mode gives its severity, layer/primitive, count, title and links", newMode, []string{
			"New failure mode in run ",
			"critical · interface/network-egress · 3 failures in this run: ",
			"Mode: https://sandtrap.example/modes/m-3fa9c0e1d2b4\n",
			"Run: https://sandtrap.example/runs/live-1\n",
		}},
		{"a finished run gives its pass rate, failures and modes", finished, []string{
			" finished\n",
			"66.7% passed · 3 failures of 10 results · 1 failure mode at high or worse: 1 new, 0 returned\n",
			"New modes:\n- critical · interface/network-egress · 3 failures: ",
			"Worst modes:\n",
			"https://sandtrap.example/modes/m-3fa9c0e1d2b4\n",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.msg.Text()
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("got %q, want it to hold %q", got, w)
				}
			}
			if strings.ContainsAny(got, "\x00\x1b\u202e") {
				t.Errorf("got %q, want hidden characters shown as visible marks", got)
			}
			if !strings.Contains(got, `\x1b[31mred␀cut\u202eevil`) {
				t.Errorf("got %q, want the marks logview.Visible gives the pages: ESC as \\x1b, NUL as ␀ and the bidi override as \\u202e", got)
			}
		})
	}
}

// slackMessage is the part of Slack's payload the tests read.
type slackMessage struct {
	Text   string `json:"text"`
	Blocks []struct {
		Type     string      `json:"type"`
		Text     *slackText  `json:"text"`
		Elements []slackText `json:"elements"`
	} `json:"blocks"`
}

type slackText struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	Emoji    *bool  `json:"emoji"`
	Verbatim bool   `json:"verbatim"`
}

func (m slackMessage) texts() []slackText {
	var out []slackText
	for _, b := range m.Blocks {
		if b.Text != nil {
			out = append(out, *b.Text)
		}
		out = append(out, b.Elements...)
	}
	return out
}

func TestSlackBodyKeepsCampaignTextInert(t *testing.T) {
	newMode, finished := hostileFires(t)
	for _, msg := range []alert.Message{newMode, finished} {
		t.Run(msg.Event+" puts campaign text only in plain text and escapes the notification line", func(t *testing.T) {
			b, err := msg.SlackBody()
			if err != nil {
				t.Fatal(err)
			}
			var got slackMessage
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatalf("got %s, not JSON: %v", b, err)
			}
			if len(got.Blocks) == 0 {
				t.Fatalf("got %s, want blocks", b)
			}
			for _, tx := range got.texts() {
				switch tx.Type {
				case "mrkdwn":
					if strings.Contains(tx.Text, "evil") || strings.Contains(tx.Text, "<!channel>") || !tx.Verbatim {
						t.Errorf("got mrkdwn %q (verbatim %v), want sandtrap's own words and links only, verbatim", tx.Text, tx.Verbatim)
					}
				case "plain_text":
					if tx.Emoji == nil || *tx.Emoji {
						t.Errorf("got plain text %q with emoji %v, want emoji off", tx.Text, tx.Emoji)
					}
				default:
					t.Errorf("got a text of type %q", tx.Type)
				}
			}
			if !slices.ContainsFunc(got.texts(), func(tx slackText) bool {
				return strings.Contains(tx.Text, "<https://sandtrap.example/runs/live-1|Open the run>")
			}) {
				t.Errorf("got %s, want a link to the run", b)
			}
			for _, bad := range []string{"<!channel>", "<https://evil.example", "@here"} {
				if strings.Contains(got.Text, bad) {
					t.Errorf("got notification line %q, want %q escaped", got.Text, bad)
				}
			}
			if !strings.Contains(got.Text, "&lt;!channel&gt;") {
				t.Errorf("got notification line %q, want < and > escaped", got.Text)
			}
		})
	}
	t.Run("a new mode's plain text names its title, severity, layer/primitive, count and run", func(t *testing.T) {
		b, _ := newMode.SlackBody()
		var got slackMessage
		json.Unmarshal(b, &got)
		all := ""
		for _, tx := range got.texts() {
			all += tx.Text + "\n"
		}
		for _, w := range []string{"<!channel> @here *bold*", "critical · interface/network-egress · 3 failures in run ", "mode m-3fa9c0e1d2b4", "<https://sandtrap.example/modes/m-3fa9c0e1d2b4|Open the mode>"} {
			if !strings.Contains(all, w) {
				t.Errorf("got %q, want it to hold %q", all, w)
			}
		}
	})
}

func TestWebhookBodyCarriesTheFactsTheTextAndTheTime(t *testing.T) {
	newMode, _ := hostileFires(t)
	at := time.Date(2026, 7, 1, 5, 6, 7, 890, time.UTC)
	b, err := newMode.WebhookBody(at)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("got %s, not JSON: %v", b, err)
	}
	for key, want := range map[string]any{"event": "new-mode", "alert": "oncall", "sent_at": "2026-07-01T05:06:07Z", "text": newMode.Text()} {
		if got[key] != want {
			t.Errorf("got %s %v, want %v", key, got[key], want)
		}
	}
	m, _ := got["mode"].(map[string]any)
	if m["id"] != "m-3fa9c0e1d2b4" || m["severity"] != "critical" || m["count"] != 3.0 || m["url"] != "https://sandtrap.example/modes/m-3fa9c0e1d2b4" {
		t.Errorf("got mode %v, want its id, severity, count and URL", m)
	}
	if r, _ := got["run"].(map[string]any); r["id"] != "live-1" || r["url"] != "https://sandtrap.example/runs/live-1" {
		t.Errorf("got run %v, want its id and URL", r)
	}
}

func TestARunsEndListsEmptyListsAsLists(t *testing.T) {
	_, finished := hostileFires(t)
	b, err := finished.WebhookBody(time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"returned_modes":[]`) {
		t.Errorf("got %s, want returned_modes as an empty list", b)
	}
}
