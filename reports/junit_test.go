package reports

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestJUnitImportMapsEachTestCase(t *testing.T) {
	const report = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites>
  <testsuite name="file-io" timestamp="2026-06-30T22:00:00Z" time="90">
    <properties>
      <property name="target" value="code-interpreter"/>
      <property name="go.version" value="go1.26"/>
    </properties>
    <testcase classname="sandbox.files" name="test_write" time="1.5"/>
    <testcase classname="sandbox.files" name="test_read" time="0.25">
      <properties><property name="layer" value="interface"/><property name="target" value="browser"/></properties>
      <failure message="AssertionError: bytes differ">Traceback (most recent call last):
  File "t.py", line 3
AssertionError: bytes differ</failure>
      <system-out>read 3 bytes</system-out>
      <system-err>warning</system-err>
    </testcase>
    <testcase name="test_setup"><error message="fixture exploded"/></testcase>
    <testcase name="test_gpu"><skipped message="no GPU here"/></testcase>
  </testsuite>
</testsuites>`
	rep, err := ParseJUnit(strings.NewReader(report))
	if err != nil {
		t.Fatal(err)
	}
	if want := time.Date(2026, 6, 30, 22, 0, 0, 0, time.UTC); !rep.Started.Equal(want) {
		t.Errorf("got started %v, want %v", rep.Started, want)
	}
	if want := time.Date(2026, 6, 30, 22, 1, 30, 0, time.UTC); !rep.Finished.Equal(want) {
		t.Errorf("got finished %v, want the timestamp plus the suite's time, %v", rep.Finished, want)
	}
	if len(rep.Results) != 4 {
		t.Fatalf("got %d results, want 4", len(rep.Results))
	}
	tests := []struct {
		name string
		got  string
		want string
	}{
		{"the test key is the class name and the name", rep.Results[0].Test, "sandbox.files.test_write"},
		{"without a class name the suite names the test", rep.Results[2].Test, "file-io/test_setup"},
		{"a test case without a failure passed", rep.Results[0].Status, StatusPassed},
		{"a failure fails", rep.Results[1].Status, StatusFailed},
		{"an error is an error", rep.Results[2].Status, StatusError},
		{"skipped is skipped", rep.Results[3].Status, StatusSkipped},
		{"the error keeps the message first, then the traceback", rep.Results[1].Error,
			"AssertionError: bytes differ\nTraceback (most recent call last):\n  File \"t.py\", line 3\nAssertionError: bytes differ"},
		{"an error without a body is its message", rep.Results[2].Error, "fixture exploded"},
		{"a skip keeps its reason", rep.Results[3].Error, "no GPU here"},
		{"the log labels both streams", string(rep.Results[1].Log), "--- system-out ---\nread 3 bytes\n--- system-err ---\nwarning\n"},
		{"the suite's property reaches its cases", rep.Results[0].Props.Target, "code-interpreter"},
		{"the case's property beats the suite's", rep.Results[1].Props.Target, "browser"},
		{"a case's own property is kept", rep.Results[1].Props.Layer, "interface"},
		{"the suite is the result's suite", rep.Results[3].Suite, "file-io"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("got %q, want %q", tt.got, tt.want)
			}
		})
	}
	t.Run("the time is the duration", func(t *testing.T) {
		if d := rep.Results[0].Duration; d == nil || *d != 1500*time.Millisecond {
			t.Errorf("got %v, want 1.5s", d)
		}
		if d := rep.Results[2].Duration; d != nil {
			t.Errorf("got %v, want none for a case without a time", *d)
		}
	})
}

func TestJUnitImportReadsABareTestSuiteAndTheSuitesOutput(t *testing.T) {
	rep, err := ParseJUnit(strings.NewReader(`<testsuite name="pkg">
<testcase classname="pkg" name="TestA"/>
<testcase classname="pkg" name="TestB"><system-out>own</system-out></testcase>
<system-out>suite output</system-out>
</testsuite>`))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(rep.Results), 2; got != want {
		t.Fatalf("got %d results, want %d", got, want)
	}
	if got, want := string(rep.Results[0].Log), "--- system-out ---\nsuite output\n"; got != want {
		t.Errorf("got log %q of a case without output, want the suite's %q", got, want)
	}
	if got, want := string(rep.Results[1].Log), "--- system-out ---\nown\n"; got != want {
		t.Errorf("got log %q of a case with output, want its own %q", got, want)
	}
}

func TestJUnitImportMakesAnAttemptOfEachRerun(t *testing.T) {
	rep, err := ParseJUnit(strings.NewReader(`<testsuite name="s">
<testcase classname="c" name="flaky" time="2">
  <flakyFailure message="connection reset" type="IOError"><stackTrace>at c.flaky(C.java:9)</stackTrace><system-out>try 1</system-out></flakyFailure>
  <flakyError message="timeout"/>
</testcase>
<testcase classname="c" name="broken">
  <failure message="first">trace 1</failure>
  <rerunFailure message="second"><stackTrace>trace 2</stackTrace></rerunFailure>
  <rerunError message="third"/>
</testcase>
</testsuite>`))
	if err != nil {
		t.Fatal(err)
	}
	type attempt struct {
		test    string
		attempt int
		status  string
		error   string
		flaky   bool
	}
	want := []attempt{
		{"c.flaky", 1, StatusFailed, "connection reset\nat c.flaky(C.java:9)", false},
		{"c.flaky", 2, StatusError, "timeout", false},
		{"c.flaky", 3, StatusPassed, "", true},
		{"c.broken", 1, StatusFailed, "first\ntrace 1", false},
		{"c.broken", 2, StatusFailed, "second\ntrace 2", false},
		{"c.broken", 3, StatusError, "third", false},
	}
	if len(rep.Results) != len(want) {
		t.Fatalf("got %d results, want %d", len(rep.Results), len(want))
	}
	for i, w := range want {
		r := rep.Results[i]
		if got := (attempt{r.Test, r.Attempt, r.Status, r.Error, r.Flaky}); got != w {
			t.Errorf("result %d: got %+v, want %+v", i, got, w)
		}
	}
	if got, want := string(rep.Results[0].Log), "--- system-out ---\ntry 1\n"; got != want {
		t.Errorf("got the first try's log %q, want %q", got, want)
	}
}

func TestJUnitImportKeepsOutputByteForByte(t *testing.T) {
	// XML 1.0 has no place for these bytes, but reports carry them.
	tests := []struct {
		name   string
		output string // as written in the report
		want   string // as the log must hold it
	}{
		{"a raw NUL", "a\x00b", "a\x00b"},
		{"a NUL as a character reference", "a&#0;b", "a\x00b"},
		{"ANSI colours as references", "&#27;[31mred&#x1b;[0m", "\x1b[31mred\x1b[0m"},
		{"raw ANSI colours", "\x1b[31mred\x1b[0m", "\x1b[31mred\x1b[0m"},
		{"invalid UTF-8", "caf\xe9 \xff\xfe", "caf\xe9 \xff\xfe"},
		{"a rune of the range that stands for bytes", "\U0010FF41", "\U0010FF41"},
		{"a CDATA section keeps references as text", "<![CDATA[&#0; \x00 <b>]]>", "&#0; \x00 <b>"},
		{"a carriage return as a reference", "50%&#13;100%", "50%\r100%"},
		{"plain UTF-8", "héllo ✓", "héllo ✓"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := ParseJUnit(strings.NewReader(`<testsuite name="s"><testcase name="t"><failure message="m&#0;x"/><system-out>` + tt.output + `</system-out></testcase></testsuite>`))
			if err != nil {
				t.Fatal(err)
			}
			want := "--- system-out ---\n" + tt.want + "\n"
			if got := string(rep.Results[0].Log); got != want {
				t.Errorf("got log %q, want %q", got, want)
			}
			if got, want := rep.Results[0].Error, "m\x00x"; got != want {
				t.Errorf("got error %q, want %q", got, want)
			}
		})
	}
}

func TestJUnitImportRefusesWhatIsNotAReport(t *testing.T) {
	tests := []struct {
		name     string
		report   string
		wantLine int
		wantMsg  string
	}{
		{"malformed XML names its line", "<testsuites>\n<testsuite name=\"a\">\n<testcase name=\"x\">\n</testsuite>\n</testsuites>", 4, "bad XML"},
		{"an unclosed element names the last line", "<testsuite name=\"a\">\n<testcase name=\"x\"/>\n", 3, "unexpected EOF"},
		{"another root element is refused", "<?xml version=\"1.0\"?>\n<coverage line-rate=\"1\"/>", 2, "the root element is <coverage>"},
		{"a test case without a name is refused", "<testsuite name=\"a\">\n<testcase classname=\"c\"/>\n</testsuite>", 2, "without a name"},
		{"a time that is not a number is refused", "<testsuite name=\"a\">\n\n<testcase name=\"t\" time=\"soon\"/></testsuite>", 3, `"soon" is not a number of seconds`},
		{"a timestamp that is not a time is refused", "<testsuite name=\"a\" timestamp=\"yesterday\"/>", 1, "not an ISO 8601 time"},
		{"a JSON file says to use ctrf", "\n  {\"results\": {}}", 1, "use --format ctrf"},
		{"an empty file has no element", "", 1, "no XML element"},
		{"a second root is refused", "<testsuite name=\"a\"/>\n<testsuite name=\"b\"/>", 2, "a second root element"},
		{"another encoding is refused", "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<testsuite/>", 1, "only UTF-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseJUnit(strings.NewReader(tt.report))
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("got %v, want an *Error", err)
			}
			if e.Line != tt.wantLine || !strings.Contains(e.Msg, tt.wantMsg) {
				t.Errorf("got line %d %q, want line %d and a message with %q", e.Line, e.Msg, tt.wantLine, tt.wantMsg)
			}
		})
	}
}

func TestImportEscapesEveryByteOfXMLAndBack(t *testing.T) {
	var all []byte
	for b := range 256 {
		if b != '<' && b != '&' {
			all = append(all, byte(b))
		}
	}
	all = append(all, "\U0010FF00\U0010FFFF\uFFFE"...)
	esc := escapeXML(all)
	if got := bytes.Count(esc, []byte("\n")); got != bytes.Count(all, []byte("\n")) {
		t.Errorf("got %d newlines after escaping, want the input's %d", got, bytes.Count(all, []byte("\n")))
	}
	if got := unescape(esc); !bytes.Equal(got, all) {
		t.Errorf("got %q back, want %q", got, all)
	}
}
