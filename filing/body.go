package filing

import (
	"cmp"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"sandtrap/format"
	"sandtrap/logview"
	"sandtrap/tracker"
)

// ModeFacts is what a ticket says about a failure mode.
type ModeFacts struct {
	ID             string
	Title          string
	Signature      string
	Layer          string
	Primitive      string
	Severity       string
	SeverityReason string
	Count          int        // failures, over every run
	PerRun         []RunCount // oldest run first
	PerTarget      map[string]int
	PerDomain      map[string]int
	FirstSeen      time.Time
	LastSeen       time.Time
	Samples        []Sample // representative failures; the first three are shown
	Smallest       *Sample  // the smallest workflow that reproduces it
	FirstDiff      *Diff    // for round-trip failures
	Link           string   // the mode's page in sandtrap; "" without --public-url
	Deterministic  bool     // it fails every time its workflows run
}

// RunCount is a mode's failures in one run.
type RunCount struct {
	RunID string
	Count int
}

// Sample is one failure of a mode.
type Sample struct {
	RunID    string
	ResultID int64
	Test     string
	Error    string
}

// Diff locates the first byte where an artifact came back different from
// what was sent.
type Diff struct {
	Artifact string
	Offset   int64
}

// Snapshot is what the last filing reported, kept by the caller so the next
// comment can say what is new.
type Snapshot struct {
	Runs  map[string]int // failures per run
	Count int
	At    time.Time
}

// SnapshotOf records what filing m now reports.
func SnapshotOf(m ModeFacts, at time.Time) Snapshot {
	runs := make(map[string]int, len(m.PerRun))
	for _, r := range m.PerRun {
		runs[r.RunID] = r.Count
	}
	return Snapshot{Runs: runs, Count: m.Count, At: at}
}

// Limits that keep a ticket readable and within every tracker's size limit
// (Jira's is 32,767 characters).
const (
	maxTitle     = 200
	maxSignature = 2000
	maxSample    = 300
	maxSamples   = 3
	maxRows      = 15
)

// Title is the ticket's title, such as "[sandtrap] critical ·
// interface/encoding: artifact round trip corrupts binary files", at most
// 200 characters on one line.
func Title(m ModeFacts) string {
	where := m.Layer
	if m.Primitive != "" {
		where += "/" + m.Primitive
	}
	title := fmt.Sprintf("[sandtrap] %s · %s: %s", m.Severity, where, m.Title)
	return trimRunes(oneLine(title), maxTitle)
}

// NewIssue is the ticket to create for m in team's tracker. Its labels are
// the team's and the mode's own, by which a ticket is found again.
func NewIssue(team Team, m ModeFacts) tracker.Issue {
	labels := append(slices.Clone(team.Labels), tracker.ModeLabel(m.ID))
	return tracker.Issue{Title: Title(m), Body: Body(m), Labels: labels, ModeID: m.ID}
}

// Body is the ticket's Markdown: the signature, the severity and its
// reason, counts per run, target and domain, when it was first and last
// seen, three samples, the smallest reproducing workflow, the first
// differing byte of a round trip, a link back to sandtrap, and a hidden
// marker that ties the ticket to its mode. Everything taken from the
// campaign is rendered inert: it cannot add markup, links, HTML or mentions.
func Body(m ModeFacts) string {
	var b strings.Builder
	b.WriteString(Marker(m.ID) + "\n")
	fmt.Fprintf(&b, "**Failure mode** %s · %s · severity **%s**\n\n", code(m.ID), text(where(m)), text(m.Severity))
	if m.SeverityReason != "" {
		fmt.Fprintf(&b, "%s: %s\n\n", text(capitalize(m.Severity)), text(m.SeverityReason))
	}

	b.WriteString("### Signature\n\n")
	b.WriteString(fence(trimRunes(m.Signature, maxSignature)))

	b.WriteString("\n### Where it happens\n\n")
	fmt.Fprintf(&b, "%s in %s. First seen %s, last seen %s. ",
		format.Plural(m.Count, "failure"), format.Plural(len(m.PerRun), "run"), format.Time(m.FirstSeen), format.Time(m.LastSeen))
	if m.Deterministic {
		b.WriteString("It fails every time its workflows run.\n\n")
	} else {
		b.WriteString("It fails intermittently.\n\n")
	}
	runs := make([][2]string, len(m.PerRun))
	for i, r := range m.PerRun {
		runs[i] = [2]string{r.RunID, fmt.Sprint(r.Count)}
	}
	table(&b, "Run", runs, true)
	table(&b, "Target", byCount(m.PerTarget), false)
	table(&b, "Domain", byCount(m.PerDomain), false)

	if len(m.Samples) > 0 {
		b.WriteString("### Samples\n\n")
		for _, s := range m.Samples[:min(len(m.Samples), maxSamples)] {
			sample(&b, s)
		}
	}
	if m.Smallest != nil {
		b.WriteString("### Smallest reproducing workflow\n\n")
		sample(&b, *m.Smallest)
	}
	if m.FirstDiff != nil {
		b.WriteString("### First differing byte\n\n")
		fmt.Fprintf(&b, "%s came back different from what was sent, first at byte offset %d (0x%x).\n\n",
			code(m.FirstDiff.Artifact), m.FirstDiff.Offset, m.FirstDiff.Offset)
	}
	if link := safeLink(m.Link); link != "" {
		fmt.Fprintf(&b, "[Open this failure mode in sandtrap](<%s>)\n", link)
	}
	return b.String()
}

// CommentBody is the comment for a mode filed before: what is new since
// the filing that since records, that is new runs and changed counts.
func CommentBody(m ModeFacts, since Snapshot) string {
	var b strings.Builder
	b.WriteString(Marker(m.ID) + "\n")
	delta := m.Count - since.Count
	fmt.Fprintf(&b, "**Seen again.** Failure mode %s now has %s (%+d since %s); last seen %s.\n\n",
		code(m.ID), format.Plural(m.Count, "failure"), delta, format.Time(since.At), format.Time(m.LastSeen))
	var added, changed [][2]string
	for _, r := range m.PerRun {
		before, ok := since.Runs[r.RunID]
		switch {
		case !ok:
			added = append(added, [2]string{r.RunID, fmt.Sprint(r.Count)})
		case before != r.Count:
			changed = append(changed, [2]string{r.RunID, fmt.Sprintf("%d → %d", before, r.Count)})
		}
	}
	if len(added) == 0 && len(changed) == 0 {
		b.WriteString("No new runs and no changed counts.\n\n")
	}
	if len(added) > 0 {
		b.WriteString("New runs:\n\n")
		table(&b, "Run", added, true)
	}
	if len(changed) > 0 {
		b.WriteString("Runs with changed counts:\n\n")
		table(&b, "Run", changed, true)
	}
	if link := safeLink(m.Link); link != "" {
		fmt.Fprintf(&b, "[Open this failure mode in sandtrap](<%s>)\n", link)
	}
	return b.String()
}

// Marker is the hidden line that ties a ticket to its mode, such as
// "<!-- sandtrap:mode=m-3fa9c0e1d2b4 -->". Only letters, digits and '-' of
// the id are kept, so the id cannot close the comment.
func Marker(modeID string) string {
	id := strings.Map(func(r rune) rune {
		if r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return -1
	}, modeID)
	return "<!-- sandtrap:mode=" + id + " -->"
}

func where(m ModeFacts) string {
	if m.Primitive == "" {
		return m.Layer
	}
	return m.Layer + " / " + m.Primitive
}

func sample(b *strings.Builder, s Sample) {
	fmt.Fprintf(b, "%s · run %s · result %d\n\n", code(s.Test), code(s.RunID), s.ResultID)
	// A credential in the error stays in the campaign, not in the
	// tracker: its value is cut (see logview.Redact).
	shown, _ := logview.Redact(s.Error)
	b.WriteString(fence(trimRunes(shown, maxSample)))
	b.WriteString("\n")
}

// table writes a two-column table of names and counts, at most maxRows
// rows. latest keeps the last rows rather than the first, for runs.
func table(b *strings.Builder, name string, rows [][2]string, latest bool) {
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(b, "| %s | Failures |\n|---|---:|\n", name)
	hidden := len(rows) - maxRows
	if hidden > 0 && latest {
		fmt.Fprintf(b, "| %d earlier %s not shown | |\n", hidden, strings.ToLower(name)+"s")
		rows = rows[hidden:]
	}
	for _, r := range rows[:min(len(rows), maxRows)] {
		fmt.Fprintf(b, "| %s | %s |\n", cell(r[0]), r[1])
	}
	if hidden > 0 && !latest {
		fmt.Fprintf(b, "| %d more not shown | |\n", hidden)
	}
	b.WriteString("\n")
}

// byCount orders a tally by count, highest first, then by name.
func byCount(m map[string]int) [][2]string {
	names := slices.SortedFunc(maps.Keys(m), func(a, b string) int {
		return cmp.Or(cmp.Compare(m[b], m[a]), cmp.Compare(a, b))
	})
	rows := make([][2]string, len(names))
	for i, n := range names {
		rows[i] = [2]string{n, fmt.Sprint(m[n])}
	}
	return rows
}

func capitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return strings.ToUpper(string(r)) + s[n:]
}

// oneLine folds s onto one line, then makes what is left of its hidden
// characters visible (logview.Visible): a NUL shows as ␀ and a bidi
// override as \u202e, so nothing is hidden, reordered, cut short or able to
// drive a terminal.
func oneLine(s string) string {
	return logview.Visible(strings.Join(strings.Fields(s), " "))
}

// text renders s as inert inline Markdown on one line: markup characters
// are escaped, so no emphasis, link, image, HTML tag or entity can form,
// and '@' and '#' get a zero-width space so they mention no one and link no
// issue.
func text(s string) string {
	var b strings.Builder
	for _, r := range oneLine(s) {
		switch r {
		case '\\', '`', '*', '_', '[', ']', '<', '>', '|', '~', '&', '!':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '@', '#':
			b.WriteRune(r)
			b.WriteRune('\u200b')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// code renders s as an inline code span, inert by nature. The delimiter is
// one backtick longer than any run of backticks in s, so s cannot end it.
func code(s string) string {
	s = oneLine(s)
	if s == "" {
		return "(none)"
	}
	delim := strings.Repeat("`", longestRun(s, '`')+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return delim + s + delim
}

// cell is code for a table cell; GFM splits cells at '|' even in code.
func cell(s string) string { return strings.ReplaceAll(code(s), "|", `\|`) }

// fence renders s as a fenced code block, which shows it verbatim and
// inert, each line made visible. The fence is longer than any run of
// backticks in s, so a ``` in s cannot close the block early.
func fence(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = logview.Visible(l)
	}
	s = strings.Join(lines, "\n")
	f := strings.Repeat("`", max(3, longestRun(s, '`')+1))
	return f + "text\n" + s + "\n" + f + "\n"
}

func longestRun(s string, c byte) int {
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return longest
}

// trimRunes cuts s to n runes, marking the cut with an ellipsis.
func trimRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// safeLink returns link if it is an absolute http or https URL that can sit
// between angle brackets, and "" otherwise.
func safeLink(link string) string {
	u, err := url.Parse(link)
	if err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" ||
		strings.ContainsAny(link, "<>\\ \t\r\n") || strings.ContainsFunc(link, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return ""
	}
	return link
}
