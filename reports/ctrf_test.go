package reports

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestCTRFImportMapsEachTest(t *testing.T) {
	const report = `{
  "reportFormat": "CTRF",
  "specVersion": "0.0.0",
  "results": {
    "tool": {"name": "playwright"},
    "summary": {"tests": 5, "passed": 1, "failed": 1, "skipped": 1, "pending": 1, "other": 1, "start": 1782856800000, "stop": 1782856890000},
    "tests": [
      {"name": "uploads a file", "status": "passed", "duration": 1200.4, "suite": ["file-io", "uploads"], "message": "ignored when passed",
       "extra": {"target": "browser", "layer": "interface", "primitive": "encoding", "owner": {"team": "x"}}},
      {"name": "downloads it back", "status": "failed", "duration": 50, "suite": "file-io > downloads", "start": 1782856801000,
       "message": "bytes differ", "trace": "at download.spec.ts:9", "threadId": "worker-3",
       "stdout": ["line 1", "line 2"], "stderr": ["oops"],
       "attachments": [{"name": "chart.png", "contentType": "image/png", "path": "shots/chart.png"}],
       "steps": [{"name": "write_file", "status": "passed"}, {"name": "read_file", "status": "failed"}]},
      {"name": "trains", "status": "skipped", "duration": 0},
      {"name": "waits", "status": "pending", "duration": 0},
      {"name": "times out", "status": "other", "duration": 0}
    ]
  }
}`
	rep, err := ParseCTRF(strings.NewReader(report))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Tool != "playwright" || !rep.Started.Equal(time.UnixMilli(1782856800000)) || !rep.Finished.Equal(time.UnixMilli(1782856890000)) {
		t.Errorf("got tool %q, %v to %v, want playwright from summary.start to summary.stop", rep.Tool, rep.Started, rep.Finished)
	}
	if len(rep.Results) != 5 {
		t.Fatalf("got %d results, want 5", len(rep.Results))
	}
	up, down := rep.Results[0], rep.Results[1]
	tests := []struct {
		name string
		got  string
		want string
	}{
		{"the suite path and the name make the test key", up.Test, "file-io > uploads > uploads a file"},
		{"a suite as one string is split into its levels", down.Test, "file-io > downloads > downloads it back"},
		{"the top suite is the result's suite", down.Suite, "file-io"},
		{"passed stays passed", up.Status, StatusPassed},
		{"failed stays failed", down.Status, StatusFailed},
		{"skipped stays skipped", rep.Results[2].Status, StatusSkipped},
		{"pending is skipped", rep.Results[3].Status, StatusSkipped},
		{"other is kept as it is", rep.Results[4].Status, "other"},
		{"a passed test has no error", up.Error, ""},
		{"the error is the message, then the trace", down.Error, "bytes differ\nat download.spec.ts:9"},
		{"extra.target is the target", up.Props.Target, "browser"},
		{"extra.layer is the layer", up.Props.Layer, "interface"},
		{"extra.primitive is the primitive", up.Props.Primitive, "encoding"},
		{"threadId is the worker", down.Props.Worker, "worker-3"},
		{"the log labels stdout and stderr", string(down.Log), "--- stdout ---\nline 1\nline 2\n--- stderr ---\noops\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("got %q, want %q", tt.got, tt.want)
			}
		})
	}
	t.Run("the duration is in milliseconds", func(t *testing.T) {
		if d := up.Duration; d == nil || *d != 1200*time.Millisecond {
			t.Errorf("got %v, want 1.2s", d)
		}
	})
	t.Run("start is the result's start", func(t *testing.T) {
		if !down.Started.Equal(time.UnixMilli(1782856801000)) {
			t.Errorf("got %v, want %v", down.Started, time.UnixMilli(1782856801000))
		}
	})
	t.Run("attachments are named by their paths", func(t *testing.T) {
		want := Attachment{Name: "chart.png", MediaType: "image/png", Path: "shots/chart.png", Field: "results.tests[1].attachments[0]"}
		if len(down.Attachments) != 1 || down.Attachments[0].Name != want.Name || down.Attachments[0].Path != want.Path ||
			down.Attachments[0].MediaType != want.MediaType || down.Attachments[0].Field != want.Field {
			t.Errorf("got %+v, want [%+v]", down.Attachments, want)
		}
	})
	t.Run("steps keep their order and status", func(t *testing.T) {
		want := []Step{{"write_file", StatusPassed}, {"read_file", StatusFailed}}
		if len(down.Steps) != 2 || down.Steps[0] != want[0] || down.Steps[1] != want[1] {
			t.Errorf("got %+v, want %+v", down.Steps, want)
		}
	})
}

func TestCTRFImportMakesAnAttemptOfEachRetry(t *testing.T) {
	type attempt struct {
		attempt int
		status  string
		error   string
		flaky   bool
	}
	tests := []struct {
		name string
		test string
		want []attempt
	}{
		{"a test without retries is one attempt", `{"name": "t", "status": "passed", "duration": 1}`,
			[]attempt{{1, StatusPassed, "", false}}},
		{"retries alone are failed attempts before the final one", `{"name": "t", "status": "passed", "duration": 1, "retries": 2, "flaky": true}`,
			[]attempt{
				{1, StatusFailed, "attempt 1 of 3 failed; the report keeps the details of the last attempt only", false},
				{2, StatusFailed, "attempt 2 of 3 failed; the report keeps the details of the last attempt only", false},
				{3, StatusPassed, "", true},
			}},
		{"retry attempts come before the final one", `{"name": "t", "status": "passed", "duration": 1, "retries": 1, "flaky": true,
			"retryAttempts": [{"attempt": 1, "status": "failed", "message": "reset", "trace": "at x"}]}`,
			[]attempt{{1, StatusFailed, "reset\nat x", false}, {2, StatusPassed, "", true}}},
		{"retry attempts that hold the final one are the whole story", `{"name": "t", "status": "failed", "duration": 1, "retries": 1,
			"retryAttempts": [{"attempt": 2, "status": "failed", "message": "second"}, {"attempt": 1, "status": "failed", "message": "first"}]}`,
			[]attempt{{1, StatusFailed, "first", false}, {2, StatusFailed, "second", false}}},
		{"retry attempts without numbers are counted", `{"name": "t", "status": "failed", "duration": 1, "message": "third",
			"retryAttempts": [{"status": "failed", "message": "first"}, {"status": "other"}]}`,
			[]attempt{{1, StatusFailed, "first", false}, {2, "other", "", false}, {3, StatusFailed, "third", false}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := ParseCTRF(strings.NewReader(`{"results": {"tool": {"name": "x"}, "summary": {}, "tests": [` + tt.test + `]}}`))
			if err != nil {
				t.Fatal(err)
			}
			var got []attempt
			for _, r := range rep.Results {
				got = append(got, attempt{r.Attempt, r.Status, r.Error, r.Flaky})
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("attempt %d: got %+v, want %+v", i+1, got[i], tt.want[i])
				}
			}
		})
	}
}

func TestCTRFImportRefusesWhatIsNotAReport(t *testing.T) {
	test := func(fields string) string {
		return `{"results": {"tool": {"name": "x"}, "summary": {}, "tests": [{"name": "ok", "status": "passed", "duration": 1}, {` + fields + `}]}}`
	}
	tests := []struct {
		name      string
		report    string
		wantField string
		wantLine  int
		wantMsg   string
	}{
		{"an unknown status names its field", test(`"name": "t", "status": "broken", "duration": 1`), "results.tests[1].status", 0, `unknown status "broken"`},
		{"a missing status names its field", test(`"name": "t", "duration": 1`), "results.tests[1].status", 0, "missing"},
		{"a test without a name names its field", test(`"status": "passed", "duration": 1`), "results.tests[1].name", 0, "needs a name"},
		{"a wrong type names its field", test(`"name": "t", "status": "passed", "duration": "fast"`), "results.tests[1].duration", 0, "got a JSON string, want a number"},
		{"a bad step names its field", test(`"name": "t", "status": "passed", "steps": [{"name": "a", "status": "passed"}, {"name": "b", "status": "meh"}]`), "results.tests[1].steps[1].status", 0, "unknown status"},
		{"a bad retry names its field", test(`"name": "t", "status": "passed", "retryAttempts": [{"attempt": 0, "status": "failed"}]`), "results.tests[1].retryAttempts[0].attempt", 0, "not a new attempt number"},
		{"an attachment without a path names its field", test(`"name": "t", "status": "passed", "attachments": [{"name": "a"}]`), "results.tests[1].attachments[0].path", 0, "needs a path"},
		{"an extra column that is not text names its field", test(`"name": "t", "status": "passed", "extra": {"domain": 3}`), "results.tests[1].extra.domain", 0, "want a string"},
		{"JSON without results is not CTRF", `{"stats": {}}`, "results", 0, "not a CTRF report"},
		{"results without tests are not CTRF", `{"results": {"tool": {"name": "x"}}}`, "results.tests", 0, "not a CTRF report"},
		{"another report format is refused", `{"reportFormat": "JSON", "results": {"tests": []}}`, "reportFormat", 0, `want "CTRF"`},
		{"an array is not CTRF, at its line", `[1, 2]`, "", 1, "not a CTRF report"},
		{"a string is not CTRF, at the line it starts on", "\n\n  \"CTRF\"", "", 3, "the report is a JSON string"},
		{"bad JSON names its line", "{\n  \"results\": {\n    \"tests\": [,]\n  }\n}", "", 3, "bad JSON"},
		{"cut JSON names its last line", "{\n  \"results\": {\n", "", 3, "bad JSON"},
		{"an XML file says to use junit", `<?xml version="1.0"?><testsuites/>`, "", 1, "use --format junit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseCTRF(strings.NewReader(tt.report))
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("got %v, want an *Error", err)
			}
			if e.Field != tt.wantField || e.Line != tt.wantLine || !strings.Contains(e.Msg, tt.wantMsg) {
				t.Errorf("got %q at field %q line %d, want field %q line %d and a message with %q", e.Msg, e.Field, e.Line, tt.wantField, tt.wantLine, tt.wantMsg)
			}
		})
	}
}
