package alert

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"sandtrap"
	"sandtrap/format"
)

// Message is what an alert says, as facts. The outbox keeps it as JSON, so
// a retry says what the first try said; Text, SlackBody and WebhookBody
// render it. Campaign text in it is already made visible.
type Message struct {
	Event   string    `json:"event"`
	Alert   string    `json:"alert"`
	Run     RunInfo   `json:"run"`
	Mode    *ModeInfo `json:"mode,omitempty"`    // new-mode and returned-mode
	Summary *Summary  `json:"summary,omitempty"` // run-finished
}

// RunInfo names a run and links to it.
type RunInfo struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	URL  string `json:"url"`
}

// ModeInfo is a failure mode in one run.
type ModeInfo struct {
	ID        string `json:"id"`
	Title     string `json:"title"`
	Severity  string `json:"severity"`
	Layer     string `json:"layer"`
	Primitive string `json:"primitive"`
	Count     int    `json:"count"` // failures in the run
	URL       string `json:"url"`
}

// Summary is a finished run's numbers, and its modes that the alert keeps
// (severe enough and matching its filters): up to five of each list, with
// how many there are.
type Summary struct {
	Total         int        `json:"total"`
	Passed        int        `json:"passed"`
	Skipped       int        `json:"skipped"`
	Failures      int        `json:"failures"`
	PassRate      float64    `json:"pass_rate"`    // passed / (total − skipped)
	MinSeverity   string     `json:"min_severity"` // the mildest severity the lists keep
	New           []ModeInfo `json:"new_modes"`
	NewTotal      int        `json:"new_modes_total"`
	Returned      []ModeInfo `json:"returned_modes"`
	ReturnedTotal int        `json:"returned_modes_total"`
	Worst         []ModeInfo `json:"worst_modes"`
	ModesTotal    int        `json:"modes_total"`
}

// maxTitle caps a title in a message, so one hostile title cannot make a
// message Slack refuses (a section holds 3,000 characters).
const maxTitle = 200

// Headline is the message's first line, in sandtrap's words.
func (m Message) Headline() string {
	switch m.Event {
	case EventNewMode:
		return "New failure mode in run " + cut(m.Run.Name, maxTitle)
	case EventReturnedMode:
		return "A failure mode marked fixed is failing again in run " + cut(m.Run.Name, maxTitle)
	}
	return "Run " + cut(m.Run.Name, maxTitle) + " finished"
}

// Text is the message as plain text: the webhook's "text" and Slack's
// notification line.
func (m Message) Text() string {
	var b strings.Builder
	b.WriteString(m.Headline())
	b.WriteString("\n")
	if m.Mode != nil {
		b.WriteString(modeLine(*m.Mode, "in this run") + "\n")
		fmt.Fprintf(&b, "Mode: %s\nRun: %s\n", m.Mode.URL, m.Run.URL)
	}
	if s := m.Summary; s != nil {
		b.WriteString(s.numbers() + "\n")
		for _, l := range s.lists() {
			fmt.Fprintf(&b, "%s:\n", l.title)
			for _, mi := range l.modes {
				fmt.Fprintf(&b, "- %s %s\n", modeLine(mi, ""), mi.URL)
			}
		}
		fmt.Fprintf(&b, "Run: %s\n", m.Run.URL)
	}
	return b.String()
}

// modeLine describes a mode on one line: severity, layer/primitive, count
// and title.
func modeLine(m ModeInfo, where string) string {
	count := format.Plural(m.Count, "failure")
	if where != "" {
		count += " " + where
	}
	return fmt.Sprintf("%s · %s · %s: %s", m.Severity, m.kind(), count, cut(m.Title, maxTitle))
}

// kind is the mode's layer and primitive, as "sandbox/network-egress".
func (m ModeInfo) kind() string {
	if m.Primitive == "" {
		return m.Layer
	}
	return m.Layer + "/" + m.Primitive
}

func (s Summary) numbers() string {
	modes := format.Plural(s.ModesTotal, "failure mode")
	if s.MinSeverity != sandtrap.SeverityLow {
		modes += " at " + s.MinSeverity + " or worse"
	}
	return fmt.Sprintf("%.1f%% passed · %s of %s · %s: %d new, %d returned",
		100*s.PassRate, format.Plural(s.Failures, "failure"), format.Plural(s.Total, "result"), modes, s.NewTotal, s.ReturnedTotal)
}

type modeList struct {
	title string
	modes []ModeInfo
}

// lists are the summary's lists of modes that have any, each titled with
// how many it shows of how many.
func (s Summary) lists() []modeList {
	var out []modeList
	add := func(title string, modes []ModeInfo, total int) {
		if len(modes) == 0 {
			return
		}
		if total > len(modes) {
			title = fmt.Sprintf("%s (%d of %d)", title, len(modes), total)
		}
		out = append(out, modeList{title, modes})
	}
	add("New modes", s.New, s.NewTotal)
	add("Returned modes", s.Returned, s.ReturnedTotal)
	add("Worst modes", s.Worst, s.ModesTotal)
	return out
}

// cut shortens s to at most n runes, marking the cut.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// WebhookPayload is the JSON body a generic webhook receives: the message's
// facts, its text, and when it was sent. A receiver that must not show one
// alert twice keys on alert, event, mode.id and run.id.
type WebhookPayload struct {
	Message
	Text   string    `json:"text"`
	SentAt time.Time `json:"sent_at"`
}

// WebhookBody renders the message for a generic webhook.
func (m Message) WebhookBody(sentAt time.Time) ([]byte, error) {
	return json.Marshal(WebhookPayload{Message: m, Text: m.Text(), SentAt: sentAt.UTC().Truncate(time.Second)})
}
