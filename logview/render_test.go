package logview

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestRender(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		limit int
		want  []Line
	}{
		{
			name: "empty input has no lines",
			in:   "",
			want: nil,
		},
		{
			name: "only newlines make empty lines, the trailing one adding none",
			in:   "\n\n\n",
			want: []Line{{N: 1}, {N: 2}, {N: 3}},
		},
		{
			name: "a last line without a newline is kept",
			in:   "one\ntwo",
			want: []Line{{N: 1, Spans: []Span{{Text: "one"}}}, {N: 2, Spans: []Span{{Text: "two"}}}},
		},
		{
			name: "CRLF is one line break",
			in:   "one\r\ntwo\r\n",
			want: []Line{{N: 1, Spans: []Span{{Text: "one"}}}, {N: 2, Spans: []Span{{Text: "two"}}}},
		},
		{
			name: "a lone CR keeps only the text after it, as a progress bar shows",
			in:   "10%\r50%\r100%\ndone\n",
			want: []Line{{N: 1, Spans: []Span{{Text: "100%"}}}, {N: 2, Spans: []Span{{Text: "done"}}}},
		},
		{
			name: "a CR at the end of a line hides nothing",
			in:   "50%\r100%\r",
			want: []Line{{N: 1, Spans: []Span{{Text: "100%"}}}},
		},
		{
			name: "a colour set before a CR still applies after it",
			in:   "\x1b[32m10%\r100%\x1b[0m done\n",
			want: []Line{{N: 1, Spans: []Span{{Text: "100%", Class: "ansi-green"}, {Text: " done"}}}},
		},
		{
			name: "tabs stay text",
			in:   "a\tb\n",
			want: []Line{{N: 1, Spans: []Span{{Text: "a\tb"}}}},
		},
		{
			name: "a NUL in the middle is a span and the text after it is kept",
			in:   "before\x00after",
			want: []Line{{N: 1, Spans: []Span{{Text: "before"}, {Text: "␀", Kind: NUL}, {Text: "after"}}}},
		},
		{
			name: "consecutive NULs merge into one span",
			in:   "\x00\x00\x00",
			want: []Line{{N: 1, Spans: []Span{{Text: "␀␀␀", Kind: NUL}}}},
		},
		{
			name: "an invalid UTF-8 byte is an Invalid span with its hex",
			in:   "caf\xe9!",
			want: []Line{{N: 1, Spans: []Span{{Text: "caf"}, {Text: "\uFFFD", Kind: Invalid, Hex: "0xe9"}, {Text: "!"}}}},
		},
		{
			name: "consecutive invalid bytes merge with their hex listed",
			in:   "\xff\xfe",
			want: []Line{{N: 1, Spans: []Span{{Text: "\uFFFD\uFFFD", Kind: Invalid, Hex: "0xff 0xfe"}}}},
		},
		{
			name: "a replacement character in the input is valid text",
			in:   "\uFFFD",
			want: []Line{{N: 1, Spans: []Span{{Text: "\uFFFD"}}}},
		},
		{
			name: "SGR colours and bold become classes",
			in:   "\x1b[1;31mError\x1b[0m: boom",
			want: []Line{{N: 1, Spans: []Span{{Text: "Error", Class: "ansi-red ansi-bold"}, {Text: ": boom"}}}},
		},
		{
			name: "bright colours map to the plain colour names",
			in:   "\x1b[92mok\x1b[39m",
			want: []Line{{N: 1, Spans: []Span{{Text: "ok", Class: "ansi-green"}}}},
		},
		{
			name: "dim, italic and underline have classes and 22 clears the intensity",
			in:   "\x1b[2;3;4ma\x1b[22mb\x1b[mc",
			want: []Line{{N: 1, Spans: []Span{
				{Text: "a", Class: "ansi-dim ansi-italic ansi-underline"},
				{Text: "b", Class: "ansi-italic ansi-underline"},
				{Text: "c"},
			}}},
		},
		{
			name: "extended colours are consumed without their numbers being read as codes",
			in:   "\x1b[38;5;1mx\x1b[0;48;2;1;3;4my\x1b[38:5:4mz",
			want: []Line{{N: 1, Spans: []Span{{Text: "xyz"}}}},
		},
		{
			name: "leading zeros, huge numbers and cut-short extended colours are read safely",
			in:   "\x1b[031mr\x1b[99999999999999999999mx\x1b[38;5m",
			want: []Line{{N: 1, Spans: []Span{{Text: "rx", Class: "ansi-red"}}}},
		},
		{
			name: "backgrounds are ignored",
			in:   "\x1b[41;33mw",
			want: []Line{{N: 1, Spans: []Span{{Text: "w", Class: "ansi-yellow"}}}},
		},
		{
			name: "a style carries over to the next line",
			in:   "\x1b[33mwarn\nstill\x1b[0m\n",
			want: []Line{
				{N: 1, Spans: []Span{{Text: "warn", Class: "ansi-yellow"}}},
				{N: 2, Spans: []Span{{Text: "still", Class: "ansi-yellow"}}},
			},
		},
		{
			name: "text on both sides of an SGR that changes nothing is one span",
			in:   "ab\x1b[0mcd",
			want: []Line{{N: 1, Spans: []Span{{Text: "abcd"}}}},
		},
		{
			name: "OSC title sequences vanish, ended by BEL or ST",
			in:   "\x1b]0;title\x07one \x1b]2;other\x1b\\two",
			want: []Line{{N: 1, Spans: []Span{{Text: "one two"}}}},
		},
		{
			name: "other CSI and short escape sequences are stripped",
			in:   "\x1b[2K\x1b[1Ahel\x1b(Blo\x1b[?25l",
			want: []Line{{N: 1, Spans: []Span{{Text: "hello"}}}},
		},
		{
			name: "a lone ESC is a visible control",
			in:   "a\x1b\x1b[31mx\x1b",
			want: []Line{{N: 1, Spans: []Span{
				{Text: "a"},
				{Text: `\x1b`, Kind: Control},
				{Text: "x", Class: "ansi-red"},
				{Text: `\x1b`, Kind: Control, Class: "ansi-red"},
			}}},
		},
		{
			name: "an unterminated OSC shows its ESC instead of hiding the line",
			in:   "\x1b]0;title",
			want: []Line{{N: 1, Spans: []Span{{Text: `\x1b`, Kind: Control}, {Text: "]0;title"}}}},
		},
		{
			name: "control characters are visible escapes",
			in:   "bell\x07\x08del\x7f",
			want: []Line{{N: 1, Spans: []Span{
				{Text: "bell"},
				{Text: "^G^H", Kind: Control},
				{Text: "del"},
				{Text: `\x7f`, Kind: Control},
			}}},
		},
		{
			name: "C1 controls and bidirectional overrides are visible escapes",
			in:   "a\u0085b\u202ec",
			want: []Line{{N: 1, Spans: []Span{
				{Text: "a"},
				{Text: `\u0085`, Kind: Control},
				{Text: "b"},
				{Text: `\u202e`, Kind: Control},
				{Text: "c"},
			}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Render([]byte(tt.in), 1<<20)
			checkLog(t, got)
			if !reflect.DeepEqual(got.Lines, tt.want) {
				t.Errorf("Render(%q).Lines = %+v, want %+v", tt.in, got.Lines, tt.want)
			}
			if got.Truncated || got.ShownBytes != int64(len(tt.in)) || got.TotalBytes != int64(len(tt.in)) {
				t.Errorf("Render(%q) = truncated %v, %d of %d bytes, want all %d", tt.in, got.Truncated, got.ShownBytes, got.TotalBytes, len(tt.in))
			}
		})
	}
}

func TestRenderLimit(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		limit     int
		wantText  []string
		wantShown int64
	}{
		{
			name:      "the cut lands on the last line boundary within the limit",
			in:        "one\ntwo\nthree\n",
			limit:     10,
			wantText:  []string{"one", "two"},
			wantShown: 8,
		},
		{
			name:      "a limit right after a newline keeps that line",
			in:        "one\ntwo\nthree\n",
			limit:     8,
			wantText:  []string{"one", "two"},
			wantShown: 8,
		},
		{
			name:      "a first line longer than the limit is cut at a rune boundary",
			in:        "ab€cd\n",
			limit:     4,
			wantText:  []string{"ab"},
			wantShown: 2,
		},
		{
			name:      "a cut right after a rune keeps it",
			in:        "ab€cd\n",
			limit:     5,
			wantText:  []string{"ab€"},
			wantShown: 5,
		},
		{
			name:      "a cut next to an invalid byte keeps the byte",
			in:        "a\xe2\x82",
			limit:     2,
			wantText:  []string{"a\uFFFD"},
			wantShown: 2,
		},
		{
			name:      "a zero limit shows nothing",
			in:        "one\n",
			limit:     0,
			wantText:  nil,
			wantShown: 0,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Render([]byte(tt.in), tt.limit)
			checkLog(t, got)
			if text := lineTexts(got); !slices.Equal(text, tt.wantText) {
				t.Errorf("Render(%q, %d) lines = %q, want %q", tt.in, tt.limit, text, tt.wantText)
			}
			if !got.Truncated || got.ShownBytes != tt.wantShown || got.TotalBytes != int64(len(tt.in)) {
				t.Errorf("Render(%q, %d) = truncated %v, %d of %d bytes, want truncated, %d of %d",
					tt.in, tt.limit, got.Truncated, got.ShownBytes, got.TotalBytes, tt.wantShown, len(tt.in))
			}
		})
	}
}

func TestRenderText(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []Span
	}{
		{
			name: "empty text has no spans",
			in:   "",
			want: nil,
		},
		{
			name: "newlines, carriage returns and tabs stay text",
			in:   "line one\r\n\tline two\n",
			want: []Span{{Text: "line one\r\n\tline two\n"}},
		},
		{
			name: "a NUL is visible and the text after it is kept",
			in:   "path\x00.txt",
			want: []Span{{Text: "path"}, {Text: "␀", Kind: NUL}, {Text: ".txt"}},
		},
		{
			name: "escape sequences are shown, not interpreted",
			in:   "\x1b[31mred",
			want: []Span{{Text: `\x1b`, Kind: Control}, {Text: "[31mred"}},
		},
		{
			name: "invalid UTF-8 is visible with its hex",
			in:   "name\x89",
			want: []Span{{Text: "name"}, {Text: "\uFFFD", Kind: Invalid, Hex: "0x89"}},
		},
		{
			name: "format characters are visible: a bidi override, a zero-width space, a BOM",
			in:   "a\u202eb\u200b\ufeff",
			want: []Span{{Text: "a"}, {Text: `\u202e`, Kind: Control}, {Text: "b"}, {Text: `\u200b\ufeff`, Kind: Control}},
		},
		{
			name: "HTML stays text for the view to escape",
			in:   "<script>alert(1)</script>",
			want: []Span{{Text: "<script>alert(1)</script>"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := RenderText(tt.in); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("RenderText(%q) = %+v, want %+v", tt.in, got, tt.want)
			}
		})
	}
}

func TestTheHazardOracle(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want bool
	}{
		{"empty input has none", "", false},
		{"text with newlines, CRs and tabs has none", "a\r\n\tb", false},
		{"non-ASCII text has none", "naïve € 😀", false},
		{"a NUL is one", "a\x00b", true},
		{"an invalid byte is one", "a\xffb", true},
		{"an ANSI escape is one", "\x1b[0m", true},
		{"DEL is one", "\x7f", true},
		{"a C1 control is one", "\u0085", true},
		{"a bidirectional override is one", "\u202e", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := hasHazards([]byte(tt.in)); got != tt.want {
				t.Errorf("hasHazards(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

func TestKindString(t *testing.T) {
	tests := []struct {
		kind Kind
		want string
	}{
		{Text, "text"},
		{NUL, "nul"},
		{Control, "control"},
		{Invalid, "invalid"},
		{Kind(9), "Kind(9)"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("kind %d is named %s", tt.kind, tt.want), func(t *testing.T) {
			if got := tt.kind.String(); got != tt.want {
				t.Errorf("Kind(%d).String() = %q, want %q", uint8(tt.kind), got, tt.want)
			}
		})
	}
}

func FuzzRender(f *testing.F) {
	seeds := []string{
		"",
		"\n",
		"plain\r\nlines\n",
		"10%\r50%\r100%\n",
		"a\x00b\x00\x00",
		"\xff\xfe\xed\xa0\x80 caf\xe9",
		"\x1b[1;31mError\x1b[0m\n",
		"\x1b[38;5;196mx\x1b[48;2;1;2;3my\x1b[38:5:1m",
		"\x1b]0;title\x07\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\",
		"\x1b\x1b[\x1b]\x1b(\x1b",
		"\x1b[31\n\x1b]0;unterminated\n",
		"\x07\x08\x7f\u0085\u202e\u2066",
		"ab€cd\n€€€",
	}
	for _, s := range seeds {
		f.Add([]byte(s), 1<<20)
		f.Add([]byte(s), len(s)/2)
	}
	f.Add([]byte("a negative limit shows nothing"), -1)
	f.Fuzz(func(t *testing.T, b []byte, limit int) {
		got := Render(b, limit)
		checkLog(t, got)
		shown := int(got.ShownBytes)
		if got.TotalBytes != int64(len(b)) || shown > len(b) || got.Truncated != (shown < len(b)) || shown > max(limit, 0) {
			t.Fatalf("Render(%q, %d) = truncated %v, %d of %d bytes", b, limit, got.Truncated, shown, got.TotalBytes)
		}
		if before, after := []rune(string(b[:shown])), []rune(string(b[shown:])); !slices.Equal(append(before, after...), []rune(string(b))) {
			t.Fatalf("Render(%q, %d) cut inside a UTF-8 sequence at %d", b, limit, shown)
		}
		if !hasHazards(b) && !bytes.ContainsRune(b, '\r') {
			want := strings.TrimSuffix(string(b[:shown]), "\n")
			if got := strings.Join(lineTexts(got), "\n"); got != want {
				t.Fatalf("Render(%q, %d) shows %q, want the input %q", b, limit, got, want)
			}
		}

		spans := RenderText(string(b))
		checkSpans(t, spans, "\t\n\r")
		plain := true
		var text strings.Builder
		for _, s := range spans {
			plain = plain && s.Kind == Text
			text.WriteString(s.Text)
		}
		if hazards := hasHazards(b); hazards == plain {
			t.Fatalf("hasHazards(%q) = %v, but RenderText shows only plain text: %v", b, hazards, plain)
		}
		if plain && text.String() != string(b) {
			t.Fatalf("RenderText(%q) shows %q, want the input", b, text.String())
		}
	})
}

// checkLog fails t unless every line is numbered in order from 1 and every
// span is safe to show as text.
func checkLog(t *testing.T, log Log) {
	t.Helper()
	for i, line := range log.Lines {
		if line.N != i+1 {
			t.Fatalf("line %d is numbered %d, want %d", i, line.N, i+1)
		}
		checkSpans(t, line.Spans, "\t")
	}
}

// checkSpans fails t unless every span has non-empty valid UTF-8 text without
// NUL or ESC, and plain text holds no control character outside allowed.
func checkSpans(t *testing.T, spans []Span, allowed string) {
	t.Helper()
	for _, s := range spans {
		if s.Text == "" || !utf8.ValidString(s.Text) || strings.ContainsAny(s.Text, "\x00\x1b") {
			t.Fatalf("span %+v has an empty, invalid or unsafe Text", s)
		}
		if s.Kind != Text {
			continue
		}
		for _, r := range s.Text {
			if (r < ' ' || r == 0x7f || isControlRune(r)) && !strings.ContainsRune(allowed, r) {
				t.Fatalf("text span %+v holds the control character %U", s, r)
			}
		}
	}
}

// lineTexts returns the text of each line of log, ignoring kinds and styles.
func lineTexts(log Log) []string {
	var texts []string
	for _, line := range log.Lines {
		var b strings.Builder
		for _, s := range line.Spans {
			b.WriteString(s.Text)
		}
		texts = append(texts, b.String())
	}
	return texts
}

func BenchmarkRender(b *testing.B) {
	log := realisticLog(1 << 20)
	b.SetBytes(int64(len(log)))
	b.ReportAllocs()
	for b.Loop() {
		Render(log, 1<<20)
	}
}

// realisticLog returns about size bytes of what a package install followed
// by a failing test looks like: pip output with coloured progress bars,
// CR-redrawn progress, warnings and Python tracebacks.
func realisticLog(size int) []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "Collecting package-%d==1.%d.0\n", i, i%10)
		fmt.Fprintf(&b, "  Downloading package_%d-1.%d.0-cp312-cp312-manylinux_2_17_x86_64.whl (18.%d MB)\n", i, i%10, i%10)
		fmt.Fprintf(&b, "\x1b[2K   \x1b[38;2;114;156;31m━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━\x1b[0m \x1b[32m18.%d/18.%d MB\x1b[0m \x1b[31m45.2 MB/s\x1b[0m eta \x1b[36m0:00:00\x1b[0m\n", i%10, i%10)
		b.WriteString("Downloading: 10%\rDownloading: 40%\rDownloading: 80%\rDownloading: 100%\n")
		if i%5 == 0 {
			b.WriteString("\x1b[33mWARNING: Running pip as the 'root' user can result in broken permissions.\x1b[0m\n")
		}
		if i%7 == 0 {
			b.WriteString("Traceback (most recent call last):\n")
			fmt.Fprintf(&b, "  File \"/usr/lib/python3.12/site-packages/package_%d/__init__.py\", line %d, in <module>\n", i, 10+i%90)
			b.WriteString("    from ._core import load_library\n")
			b.WriteString("  File \"/usr/lib/python3.12/importlib/__init__.py\", line 90, in import_module\n")
			b.WriteString("    return _bootstrap._gcd_import(name[level:], package, level)\n")
			b.WriteString("\x1b[1;31mModuleNotFoundError\x1b[0m: No module named '_core'\n")
		}
		fmt.Fprintf(&b, "Successfully installed package-%d-1.%d.0\n", i, i%10)
	}
	return b.Bytes()
}

// hasHazards, the oracle of the property tests, reports whether b holds anything RenderText would not show as
// plain text: a NUL, invalid UTF-8, or a control character other than
// "\n", "\r" and "\t" (bidirectional overrides included).
func hasHazards(b []byte) bool {
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			if !isPlainByte(c, true) {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 || isControlRune(r) {
			return true
		}
		i += size
	}
	return false
}

func TestRenderTailDropsThePartialFirstLineAndNumbersNothing(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"a tail that starts inside a line", "ep 8/10 step 2249\nKilled\nexit 137\n", []string{"Killed", "exit 137"}},
		{"a tail inside one long line is shown as it is", "tep 2250", []string{"tep 2250"}},
		{"a tail inside one long last line that ends in a newline is shown too", `"content":"aGVsbG8="}` + "\n", []string{`"content":"aGVsbG8="}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := RenderTail([]byte(tt.in))
			var got []string
			for _, line := range l.Lines {
				if line.N != 0 {
					t.Errorf("got line number %d, want 0: the lines before are not known", line.N)
				}
				var text strings.Builder
				for _, sp := range line.Spans {
					text.WriteString(sp.Text)
				}
				got = append(got, text.String())
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got lines %q, want %q", got, tt.want)
			}
		})
	}
}
