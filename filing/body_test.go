package filing_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"sandtrap/filing"
)

func exampleMode() filing.ModeFacts {
	return filing.ModeFacts{
		ID:             "m-3fa9c0e1d2b4",
		Title:          "artifact round trip corrupts binary files",
		Signature:      "sha256 mismatch after upload of <path> (<size> bytes)",
		Layer:          "interface",
		Primitive:      "encoding",
		Severity:       "critical",
		SeverityReason: "silent corruption of user data",
		Count:          42,
		PerRun:         []filing.RunCount{{RunID: "2026-06-29-nightly", Count: 12}, {RunID: "2026-06-30-overnight", Count: 30}},
		PerTarget:      map[string]int{"code-interpreter": 40, "browser": 2},
		PerDomain:      map[string]int{"file-io": 42},
		FirstSeen:      time.Date(2026, 6, 29, 1, 2, 0, 0, time.UTC),
		LastSeen:       time.Date(2026, 6, 30, 5, 6, 0, 0, time.UTC),
		Samples: []filing.Sample{
			{RunID: "2026-06-30-overnight", ResultID: 101, Test: "file-io/png-roundtrip", Error: "sha256 mismatch after upload of /tmp/a.png"},
			{RunID: "2026-06-30-overnight", ResultID: 102, Test: "file-io/pdf-roundtrip", Error: "sha256 mismatch after upload of /tmp/b.pdf"},
			{RunID: "2026-06-29-nightly", ResultID: 55, Test: "file-io/zip-roundtrip", Error: "sha256 mismatch after upload of /tmp/c.zip"},
			{RunID: "2026-06-29-nightly", ResultID: 56, Test: "file-io/fourth-sample", Error: "not shown"},
		},
		Smallest:      &filing.Sample{RunID: "2026-06-29-nightly", ResultID: 7, Test: "file-io/one-byte", Error: "sha256 mismatch (1 byte)"},
		FirstDiff:     &filing.Diff{Artifact: "a.png", Offset: 1234},
		Link:          "https://sandtrap.example/modes/m-3fa9c0e1d2b4",
		Deterministic: true,
	}
}

func TestBodyHasEveryPart(t *testing.T) {
	body := filing.Body(exampleMode())
	for _, want := range []string{
		"<!-- sandtrap:mode=m-3fa9c0e1d2b4 -->\n",
		"```text\nsha256 mismatch after upload of <path> (<size> bytes)\n```",
		"severity **critical**",
		"Critical: silent corruption of user data",
		"42 failures in 2 runs",
		"First seen 2026-06-29 01:02 UTC, last seen 2026-06-30 05:06 UTC",
		"It fails every time",
		"| Run | Failures |", "| `2026-06-30-overnight` | 30 |",
		"| Target | Failures |", "| `code-interpreter` | 40 |\n| `browser` | 2 |",
		"| Domain | Failures |", "| `file-io` | 42 |",
		"### Samples", "`file-io/png-roundtrip` · run `2026-06-30-overnight` · result 101",
		"`file-io/zip-roundtrip`",
		"### Smallest reproducing workflow", "`file-io/one-byte`",
		"### First differing byte", "`a.png` came back different from what was sent, first at byte offset 1234 (0x4d2)",
		"[Open this failure mode in sandtrap](<https://sandtrap.example/modes/m-3fa9c0e1d2b4>)",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("got body\n%s\nwant it to contain %q", body, want)
		}
	}
	if strings.Contains(body, "fourth-sample") {
		t.Errorf("got a fourth sample in the body, want three")
	}
}

func TestBodyKeepsLeakedCredentialsOutOfTheTracker(t *testing.T) {
	const token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
	m := exampleMode()
	m.Samples = []filing.Sample{{RunID: "night", ResultID: 1, Test: "builds/clone", Error: "fatal: could not read from https://" + token + "@github.com/acme/private"}}
	m.Smallest = &filing.Sample{RunID: "night", ResultID: 2, Test: "builds/db", Error: "connect: host=db user=ci password=AbMvKXy4J54JPK refused"}
	body := filing.Body(m)
	for _, leaked := range []string{token, "AbMvKXy4J54JPK"} {
		if strings.Contains(body, leaked) {
			t.Errorf("got the credential %q in the ticket, want its value cut:\n%s", leaked, body)
		}
	}
	for _, want := range []string{"https://ghp_[redacted]@github.com/acme/private", "password=[redacted] refused"} {
		if !strings.Contains(body, want) {
			t.Errorf("got body\n%s\nwant it to contain %q", body, want)
		}
	}
}

func TestBodyLeavesOutWhatTheModeLacks(t *testing.T) {
	m := exampleMode()
	m.Smallest, m.FirstDiff, m.Link, m.Samples, m.Deterministic = nil, nil, "", nil, false
	body := filing.Body(m)
	for _, absent := range []string{"Smallest", "First differing", "Open this failure mode", "### Samples"} {
		if strings.Contains(body, absent) {
			t.Errorf("got body containing %q, want it left out", absent)
		}
	}
	if !strings.Contains(body, "intermittently") {
		t.Errorf("got body without %q", "intermittently")
	}
}

func TestBodyTrimsSamplesAndCapsTables(t *testing.T) {
	m := exampleMode()
	m.Samples = []filing.Sample{{RunID: "r", Test: "t", Error: strings.Repeat("x", 5000) + "TAIL"}}
	m.PerRun = nil
	for i := range 20 {
		m.PerRun = append(m.PerRun, filing.RunCount{RunID: "run-" + string(rune('a'+i)), Count: i})
	}
	body := filing.Body(m)
	if strings.Contains(body, "TAIL") || !strings.Contains(body, strings.Repeat("x", 299)+"…") {
		t.Errorf("got a sample error not trimmed to 300 characters")
	}
	if !strings.Contains(body, "5 earlier runs not shown") || strings.Contains(body, "`run-a`") || !strings.Contains(body, "`run-t`") {
		t.Errorf("got run table\n%s\nwant the 15 latest runs and a note of 5 earlier", body)
	}
}

// fenceOpen finds the opening fences of code blocks.
var fenceOpen = regexp.MustCompile("(?m)^(`{3,})text$")

func TestBodyNeutralisesHostileText(t *testing.T) {
	hostile := "x](javascript:alert(1)) <img src=x onerror=alert(1)> @octocat #1 **bold** [a](http://evil) &#64;admin | cell\n# heading\n```\n<script>alert(1)</script>\n````\u0000\x1b[31m \u202eevil\ufeff"
	m := exampleMode()
	m.ID = "m-1 --><script>alert(1)</script>"
	m.Title, m.SeverityReason, m.Signature = hostile, hostile, hostile
	m.PerTarget = map[string]int{hostile: 1}
	m.PerDomain = map[string]int{"`x` | y": 1}
	m.Samples = []filing.Sample{{RunID: hostile, Test: "``" + hostile, Error: hostile}}
	m.Smallest = &filing.Sample{RunID: "r", Test: "t", Error: hostile}
	m.FirstDiff = &filing.Diff{Artifact: hostile}
	m.Link = "javascript:alert(1)"
	body := filing.Body(m)

	// Outside code, nothing hostile may survive unescaped; escaped
	// characters are literal, so they are dropped before looking.
	prose := regexp.MustCompile(`\\.`).ReplaceAllString(outsideCode(t, body), "")
	for _, bad := range []string{"](javascript:", "<img", "<script", "@octocat", "#1", "**bold**", "[a](", "&#64;", "\n# heading", "javascript:alert(1)>"} {
		if strings.Contains(prose, bad) {
			t.Errorf("got %q outside code blocks, want it neutralised:\n%s", bad, prose)
		}
	}
	if !strings.Contains(body, "<!-- sandtrap:mode=m-1--scriptalert1script -->") {
		t.Errorf("got body without a sanitised marker:\n%s", body)
	}
	if strings.ContainsAny(body, "\x00\x1b\u202e\ufeff") {
		t.Errorf("got raw control or format characters in the body, want visible marks:\n%s", body)
	}
	if !strings.Contains(body, `␀\x1b`) || !strings.Contains(body, `\u202e`) || !strings.Contains(body, `\ufeff`) {
		t.Errorf("got body without the NUL, ESC, bidi override and BOM shown as ␀, \\x1b, \\u202e and \\ufeff:\n%s", body)
	}
}

// outsideCode returns body without its fenced blocks and code spans,
// checking on the way that every fence is longer than any backtick run
// inside its block, so no block ends early.
func outsideCode(t *testing.T, body string) string {
	t.Helper()
	var prose strings.Builder
	for {
		loc := fenceOpen.FindStringSubmatchIndex(body)
		if loc == nil {
			prose.WriteString(body)
			break
		}
		prose.WriteString(body[:loc[0]])
		fence := body[loc[2]:loc[3]]
		rest := body[loc[1]:]
		end := strings.Index(rest, "\n"+fence+"\n")
		if end < 0 {
			t.Fatalf("got an unclosed fence %q in\n%s", fence, body)
		}
		block := rest[:end]
		for _, line := range strings.Split(block, "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), fence) {
				t.Errorf("got line %q inside a %d-backtick fence, which would close it", line, len(fence))
			}
		}
		body = rest[end+len(fence)+2:]
	}
	return withoutCodeSpans(prose.String())
}

// withoutCodeSpans drops CommonMark code spans, which open and close with
// backtick runs of one length, from s, keeping backslash escapes.
func withoutCodeSpans(s string) string {
	run := func(i int) int {
		n := 0
		for i+n < len(s) && s[i+n] == '`' {
			n++
		}
		return n
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		switch {
		case s[i] == '\\' && i+1 < len(s):
			b.WriteString(s[i : i+2])
			i += 2
		case s[i] == '`':
			n, end := run(i), -1
			for j := i + n; j < len(s); {
				if m := run(j); m == n {
					end = j
					break
				} else if m > 0 {
					j += m
				} else {
					j++
				}
			}
			if end < 0 {
				b.WriteString(s[i : i+n])
				i += n
				continue
			}
			i = end + n
		default:
			b.WriteByte(s[i])
			i++
		}
	}
	return b.String()
}

func TestTitle(t *testing.T) {
	tests := []struct {
		name string
		mode filing.ModeFacts
		want string
	}{
		{"names severity, layer, primitive and title", exampleMode(),
			"[sandtrap] critical · interface/encoding: artifact round trip corrupts binary files"},
		{"leaves out an empty primitive", filing.ModeFacts{Severity: "medium", Layer: "unclassified", Title: "it broke"},
			"[sandtrap] medium · unclassified: it broke"},
		{"folds lines and shows control characters", filing.ModeFacts{Severity: "low", Layer: "test", Primitive: "harness", Title: "a\nb\x00c"},
			"[sandtrap] low · test/harness: a b␀c"},
		{"is capped at 200 characters", filing.ModeFacts{Severity: "low", Layer: "test", Title: strings.Repeat("é", 500)},
			"[sandtrap] low · test: " + strings.Repeat("é", 200-len([]rune("[sandtrap] low · test: "))-1) + "…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := filing.Title(tt.mode); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestCommentBody(t *testing.T) {
	at := time.Date(2026, 6, 29, 12, 0, 0, 0, time.UTC)
	m := exampleMode()
	m.PerRun = append(m.PerRun, filing.RunCount{RunID: "2026-07-01-nightly", Count: 8})
	m.Count = 50
	since := filing.Snapshot{Runs: map[string]int{"2026-06-29-nightly": 12, "2026-06-30-overnight": 20}, Count: 32, At: at}
	got := filing.CommentBody(m, since)
	for _, want := range []string{
		"<!-- sandtrap:mode=m-3fa9c0e1d2b4 -->",
		"now has 50 failures (+18 since 2026-06-29 12:00 UTC)",
		"New runs:", "| `2026-07-01-nightly` | 8 |",
		"Runs with changed counts:", "| `2026-06-30-overnight` | 20 → 30 |",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("got comment\n%s\nwant it to contain %q", got, want)
		}
	}
	if strings.Contains(got, "`2026-06-29-nightly`") {
		t.Errorf("got an unchanged run in the comment, want only what is new")
	}

	quiet := filing.CommentBody(m, filing.SnapshotOf(m, at))
	if !strings.Contains(quiet, "No new runs and no changed counts.") {
		t.Errorf("got comment\n%s\nwant it to say nothing changed", quiet)
	}
}
