package ingest

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"sandtrap"
)

func ptr[T any](v T) *T { return &v }

// good is one valid result as a JSON object, with room for more fields.
const good = `{"key":"k%d","test":"t","target":"browser","domain":"web-browsing","status":"passed"%s}`

// line is good with key k<i> and the extra fields.
func line(i int, extra string) string { return fmt.Sprintf(good, i, extra) }

func TestParseResultsNamesTheLineOrIndexAndFieldOfAMistake(t *testing.T) {
	ok := line(1, "")
	tests := []struct {
		name   string
		format Format
		body   string
		want   string
	}{
		{"a missing status in NDJSON names the line", NDJSON,
			ok + "\n\n" + `{"test":"t","target":"b","domain":"d"}` + "\n", `line 3: field "status": required`},
		{"a missing status in an array names the index", JSONArray,
			"[" + ok + `,{"test":"t","target":"b","domain":"d"}]`, `results[1].status: required`},
		{"bad base64 says where it breaks", JSONArray,
			"[" + ok + "," + ok + "," + ok + "," + line(4, `,"log_base64":"aGVsbG8gd29y!!!"`) + "]",
			`results[3].log_base64: illegal base64 data at input byte 12`},
		{"bad base64 in NDJSON names the line", NDJSON,
			strings.Repeat(ok+"\n", 6) + line(7, `,"log_base64":"%%%"`), `line 7: field "log_base64": illegal base64 data at input byte 0`},
		{"an unknown field is refused by name", NDJSON,
			`{"test":"t","target":"b","domain":"d","sttus":"passed"}`, `line 1: unknown field "sttus"`},
		{"an unknown field of an artifact is named with its path", JSONArray,
			"[" + line(1, `,"artifacts":[{"name":"a"},{"name":"b","mime":"x"}]`) + "]", `results[0].artifacts[1]: unknown field "mime"`},
		{"a nameless artifact is refused", NDJSON,
			line(1, `,"artifacts":[{"media_type":"text/plain"}]`), `line 1: field "artifacts[0].name": required`},
		{"a step without a tool is refused", JSONArray,
			"[" + line(1, `,"steps":[{"seq":1}]`) + "]", `results[0].steps[0].tool: required`},
		{"a step's bad response base64 is named with its path", JSONArray,
			"[" + line(1, `,"steps":[{"tool":"x","response_base64":"a"}]`) + "]", `results[0].steps[0].response_base64: illegal base64 data at input byte 0`},
		{"a string where a number goes says what it wants", NDJSON,
			line(1, `,"duration_ms":"fast"`), `line 1: field "duration_ms": got a JSON string, want an integer or null`},
		{"a fraction where an integer goes is refused", JSONArray,
			"[" + line(1, `,"attempt":1.5`) + "]", `results[0].attempt: got a JSON number 1.5, want an integer`},
		{"a time that is not RFC 3339 is refused", NDJSON,
			line(1, `,"started_at":"yesterday"`), `line 1: field "started_at": "yesterday" is not an RFC 3339 time`},
		{"an expected_sha256 that is not a digest is refused", JSONArray,
			"[" + line(1, `,"artifacts":[{"name":"a","expected_sha256":"abc"}]`) + "]", `results[0].artifacts[0].expected_sha256: "abc" is not a SHA-256`},
		{"a negative attempt is refused", NDJSON,
			line(1, `,"attempt":-1`), `line 1: field "attempt": -1 is negative`},
		{"a key used twice in one batch names both", NDJSON,
			line(1, "") + "\n" + line(2, "") + "\n" + line(1, ""), `line 3: field "key": "k1" is the key of line 1 too`},
		{"a key used twice in an array names both indexes", JSONArray,
			"[" + line(1, "") + "," + line(2, "") + "," + line(2, "") + "]", `results[2].key: "k2" is the key of results[1] too`},
		{"a line that is not JSON says so", NDJSON,
			ok + "\n{oops", `line 2: bad JSON`},
		{"a line that is an array is refused", NDJSON,
			"[" + ok + "]", `line 1: got a JSON array, want an object`},
		{"an element that is not JSON names its index", JSONArray,
			"[" + ok + ",{oops}]", `results[1]: bad JSON`},
		{"an object where the array goes is refused", JSONArray,
			ok, "the body must be a JSON array of results"},
		{"an array cut short is refused", JSONArray,
			"[" + ok, "the array of results does not end"},
		{"more after the array is refused", JSONArray,
			"[" + ok + "] []", "the body has more after the array"},
		{"an empty JSON body is refused", JSONArray,
			"", "the body must be a JSON array of results"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseResults(strings.NewReader(tt.body), tt.format)
			if err == nil {
				t.Fatalf("got %d results and no error, want %q", len(got), tt.want)
			}
			if sandtrap.ErrorCode(err) != sandtrap.EINVALID {
				t.Errorf("got code %q, want %q", sandtrap.ErrorCode(err), sandtrap.EINVALID)
			}
			if msg := sandtrap.ErrorMessage(err); !strings.HasPrefix(msg, tt.want) {
				t.Errorf("got %q, want it to start with %q", msg, tt.want)
			}
		})
	}
}

func TestParseResultsReadsEveryField(t *testing.T) {
	started := time.Date(2026, 7, 3, 22, 1, 2, 345_000_000, time.UTC)
	want := []Result{
		{Key: "k1", Test: "file-io/png", Target: "code-interpreter", Domain: "file-io", Status: "failed",
			Error: ptr("sha256 mismatch"), Title: ptr("PNG round trip"), StartedAt: &started, DurationMS: ptr[int64](4210),
			ExitCode: ptr[int64](1), Layer: ptr("interface"), Primitive: ptr("encoding"), Worker: ptr("subagent-03"), Attempt: 2,
			Log:       []byte("nul:\x00 ansi:\x1b[31m invalid:\xff"),
			Artifacts: []Artifact{{Name: "a.png", MediaType: ptr("image/png"), Data: []byte{0x89, 'P', 0}, ExpectedSHA256: ptr(strings.Repeat("ab", 32))}},
			Steps:     []Step{{Seq: 1, Tool: "write_file", Request: []byte(`{"a":1}`), Response: []byte("\x00cut"), Error: ptr("EOF"), DurationMS: ptr[int64](3)}}},
		{Test: "t2", Target: "browser", Domain: "web-browsing", Status: "passed"},
	}
	var ndjson, array strings.Builder
	enc := json.NewEncoder(&ndjson)
	for _, r := range want {
		enc.Encode(r)
	}
	b, _ := json.Marshal(want)
	array.Write(b)
	for _, tt := range []struct {
		name   string
		format Format
		body   string
	}{
		{"as NDJSON", NDJSON, ndjson.String()},
		{"as a JSON array", JSONArray, array.String()},
		{"as NDJSON read a byte at a time, without a final newline", NDJSON, strings.TrimSuffix(ndjson.String(), "\n")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseResults(iotest.OneByteReader(strings.NewReader(tt.body)), tt.format)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got %+v,\nwant %+v", got, want)
			}
		})
	}
}

func TestParseResultsPassesReadErrorsOn(t *testing.T) {
	broken := errors.New("connection reset")
	for _, format := range []Format{NDJSON, JSONArray} {
		_, err := ParseResults(iotest.ErrReader(broken), format)
		if !errors.Is(err, broken) {
			t.Errorf("format %d: got %v, want the read error wrapped", format, err)
		}
	}
}

func TestParseRunAndFinish(t *testing.T) {
	at := time.Date(2026, 7, 3, 22, 0, 0, 0, time.FixedZone("", 2*3600))
	tests := []struct {
		name    string
		body    string
		want    Run
		wantErr string
	}{
		{"every field", `{"id":"r1","name":"Night","started_at":"2026-07-03T22:00:00+02:00","planned":1000,"notes":"build 7"}`,
			Run{ID: "r1", Name: "Night", StartedAt: &at, Planned: ptr[int64](1000), Notes: ptr("build 7")}, ""},
		{"only the required fields", `{"id":"r1","name":"Night"}`, Run{ID: "r1", Name: "Night"}, ""},
		{"an unknown field", `{"id":"r1","nam":"Night"}`, Run{}, `unknown field "nam"`},
		{"a planned that is not a number", `{"id":"r1","name":"N","planned":"many"}`, Run{}, `field "planned": got a JSON string, want an integer or null`},
		{"not an object", `["r1"]`, Run{}, "got a JSON array, want an object"},
	}
	for _, tt := range tests {
		t.Run("a run with "+tt.name, func(t *testing.T) {
			got, err := ParseRun(strings.NewReader(tt.body))
			if tt.wantErr != "" {
				if err == nil || sandtrap.ErrorMessage(err) != tt.wantErr {
					t.Errorf("got %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.ID != tt.want.ID || got.Name != tt.want.Name || !equalPtr(got.Planned, tt.want.Planned) || !equalPtr(got.Notes, tt.want.Notes) ||
				(got.StartedAt == nil) != (tt.want.StartedAt == nil) || got.StartedAt != nil && !got.StartedAt.Equal(*tt.want.StartedAt) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}

	finishes := []struct {
		name, body string
		want       *time.Time
		wantErr    string
	}{
		{"an empty body finishes now", "", nil, ""},
		{"an empty object finishes now", "{}", nil, ""},
		{"a finished_at is taken", `{"finished_at":"2026-07-03T22:00:00+02:00"}`, &at, ""},
		{"an unknown field is refused", `{"at":"2026-07-03T22:00:00Z"}`, nil, `unknown field "at"`},
	}
	for _, tt := range finishes {
		t.Run("a finish with "+tt.name, func(t *testing.T) {
			got, err := ParseFinish(strings.NewReader(tt.body))
			switch {
			case tt.wantErr != "":
				if err == nil || sandtrap.ErrorMessage(err) != tt.wantErr {
					t.Errorf("got %v, want %q", err, tt.wantErr)
				}
			case err != nil:
				t.Fatal(err)
			case (got == nil) != (tt.want == nil) || got != nil && !got.Equal(*tt.want):
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}
