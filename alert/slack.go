package alert

import (
	"encoding/json"
	"fmt"
	"strings"

	"sandtrap/format"
)

// slackPayload is what a Slack-compatible incoming webhook takes: a
// notification line and Block Kit blocks.
type slackPayload struct {
	Text   string       `json:"text"`
	Blocks []slackBlock `json:"blocks"`
}

type slackBlock struct {
	Type     string       `json:"type"` // section or context
	Text     *slackText   `json:"text,omitempty"`
	Elements []*slackText `json:"elements,omitempty"`
}

// slackText is a text object. Campaign text only ever goes in plain_text
// objects, which Slack shows as they are: no formatting, links or
// mentions. Sandtrap's own words and links go in mrkdwn, verbatim so that
// Slack links nothing by itself.
type slackText struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	Emoji    *bool  `json:"emoji,omitempty"`    // plain_text: keep ":x:" as typed
	Verbatim bool   `json:"verbatim,omitempty"` // mrkdwn
}

// maxSlackText keeps a text object within Slack's limit of 3,000.
const maxSlackText = 2900

func plain(s string) *slackText {
	return &slackText{Type: "plain_text", Text: cut(s, maxSlackText), Emoji: new(false)}
}

func mrkdwn(s string) *slackText { return &slackText{Type: "mrkdwn", Text: s, Verbatim: true} }

func section(t *slackText) slackBlock { return slackBlock{Type: "section", Text: t} }

func contextBlock(ts ...*slackText) slackBlock { return slackBlock{Type: "context", Elements: ts} }

// slackEscape escapes the three characters Slack's mrkdwn gives a meaning
// to, so text can neither open a link nor mention anyone, and breaks '@'
// with a zero-width space for clients that link bare mentions.
func slackEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "@", "@\u200b").Replace(s)
}

func slackLink(url, label string) string {
	return "<" + slackEscape(url) + "|" + slackEscape(label) + ">"
}

// SlackBody renders the message for a Slack-compatible incoming webhook.
func (m Message) SlackBody() ([]byte, error) {
	p := slackPayload{Text: cut(slackEscape(m.Text()), maxSlackText)}
	footer := "alert " + m.Alert
	if mi := m.Mode; mi != nil {
		what := "New failure mode"
		if m.Event == EventReturnedMode {
			what = "Failing again after it was marked fixed"
		}
		p.Blocks = append(p.Blocks,
			section(mrkdwn(fmt.Sprintf("*%s* · %s · %s", what, slackLink(mi.URL, "Open the mode"), slackLink(m.Run.URL, "Open the run")))),
			section(plain(fmt.Sprintf("%s\n%s · %s · %s in run %s", cut(mi.Title, maxTitle), mi.Severity, mi.kind(), format.Plural(mi.Count, "failure"), cut(m.Run.Name, maxTitle)))),
			contextBlock(plain(fmt.Sprintf("mode %s · run %s · %s", mi.ID, cut(m.Run.ID, maxTitle), footer))))
	}
	if s := m.Summary; s != nil {
		p.Blocks = append(p.Blocks,
			section(mrkdwn("*Run finished* · "+slackLink(m.Run.URL, "Open the run"))),
			section(plain(cut(m.Run.Name, maxTitle)+"\n"+s.numbers())))
		for _, l := range s.lists() {
			lines, links := []string{l.title + ":"}, make([]string, 0, len(l.modes))
			for _, mi := range l.modes {
				lines = append(lines, "• "+modeLine(mi, ""))
				links = append(links, slackLink(mi.URL, mi.ID))
			}
			p.Blocks = append(p.Blocks, section(plain(strings.Join(lines, "\n"))), contextBlock(mrkdwn("Open: "+strings.Join(links, " · "))))
		}
		p.Blocks = append(p.Blocks, contextBlock(plain("run "+cut(m.Run.ID, maxTitle)+" · "+footer)))
	}
	return json.Marshal(p)
}
