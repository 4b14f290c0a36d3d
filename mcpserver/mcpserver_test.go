package mcpserver_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"sandtrap/triage"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"sandtrap/demo"
	"sandtrap/filing"
	"sandtrap/handlers"
	"sandtrap/mcpserver"
	"sandtrap/static"
	"sandtrap/store"
	"sandtrap/store/campaign"
)

const (
	token    = "test-token"
	firstRun = "2026-06-30-overnight"
	lastRun  = "2026-07-01-overnight"
)

func ptr[T any](v T) *T { return &v }

// The evidence run holds one failure whose bytes are hostile: a log longer
// than the tail with NUL, ESC and invalid UTF-8 at its end, tool calls with
// binary bodies, and an artifact that came back with one byte changed.
var (
	hostileLog   = append(bytes.Repeat([]byte("progress line\n"), 2000), []byte("done\x00\x00 then \x1b[31mred\x1b[0m and \xff\xfe invalid\nlast:\x00\n")...)
	hostileError = "cell 2 = 'caf\x00e\xff' \x1b[2J"
	sentBytes    = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR payload")
	backBytes    = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR paYload")
	responseBody = []byte("{\"ok\":true}\x00\xc3\x28")
)

// fixture is the demo campaign and an evidence run, served by one store to
// the JSON API and to the MCP tools over both transports.
type fixture struct {
	srv      *httptest.Server // the routes: /api/... and /mcp, behind the token
	sessions []session
	evidence int64 // the hostile result's id
}

type session struct {
	transport string
	cs        *mcp.ClientSession
}

type options struct {
	readOnly bool
	actions  bool
}

func newFixture(t *testing.T, o options) *fixture {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	demoPath := filepath.Join(dir, "demo.db")
	if _, err := demo.Write(ctx, demoPath, demo.Options{Seed: 1}); err != nil {
		t.Fatal(err)
	}
	evidence := filepath.Join(dir, "evidence.db")
	w, err := campaign.OpenWriter(ctx, evidence)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)
	if err := w.InsertRun(ctx, campaign.Run{ID: "evidence", Name: "Evidence", StartedAt: start, FinishedAt: ptr(start.Add(time.Hour))}); err != nil {
		t.Fatal(err)
	}
	ids, err := w.InsertResults(ctx, []campaign.Result{{
		RunID: "evidence", Test: "file-io/png-roundtrip", Target: "code-interpreter", Domain: "file-io", Status: "failed",
		Error: ptr(hostileError), Log: hostileLog, ExitCode: ptr[int64](1), DurationMS: ptr[int64](1234),
		Artifacts: []campaign.Artifact{
			{Name: "sent.png", MediaType: ptr("image/png"), Data: sentBytes},
			{Name: "back.png", MediaType: ptr("image/png"), Data: backBytes, ExpectedSHA256: ptr(sha(sentBytes))},
		},
		Steps: []campaign.Step{{Seq: 1, Tool: "write_file", Request: []byte(`{"path":"sent.png"}`), Response: responseBody}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	w.Close()

	st, err := store.Open(ctx, store.Options{StatePath: filepath.Join(dir, "state.db"), Campaigns: []string{demoPath, evidence}, ReadOnly: o.readOnly})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	st.Start(ctx)
	if err := st.WaitIndexed(ctx); err != nil {
		t.Fatal(err)
	}
	owners := filing.DefaultOwnership()
	facts := filing.Facts(st, "")
	h, err := handlers.New(handlers.Config{Runs: st, Activity: st, Results: st, Modes: st, Triager: st, Compare: st,
		Tickets: st, Facts: facts, Owners: owners, Token: token, ReadOnly: o.readOnly, Static: static.FS})
	if err != nil {
		t.Fatal(err)
	}
	cfg := mcpserver.Config{Runs: st, Modes: st, Results: st, Compare: st, Tickets: st, Facts: facts, Owners: owners}
	if o.actions {
		cfg.Actions = h
	}
	srv := mcpserver.New(cfg)
	f := &fixture{srv: httptest.NewServer(h.RoutesWithMCP(mcpserver.HTTPHandler(srv))), evidence: ids[0]}
	t.Cleanup(f.srv.Close)

	serverEnd, clientEnd := mcp.NewInMemoryTransports()
	if _, err := srv.Connect(ctx, serverEnd, nil); err != nil {
		t.Fatal(err)
	}
	f.sessions = append(f.sessions, session{"in memory", connect(t, clientEnd)})
	f.sessions = append(f.sessions, session{"Streamable HTTP", connect(t, &mcp.StreamableClientTransport{
		Endpoint: f.srv.URL + "/mcp", HTTPClient: &http.Client{Transport: bearer{token}}})})
	return f
}

func connect(t *testing.T, tr mcp.Transport) *mcp.ClientSession {
	t.Helper()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "sandtrap-test", Version: "1"}, nil).Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// bearer adds the access token to every request.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// call calls a tool that must succeed and returns its structured answer,
// after checking that its text content says the same.
func call(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) map[string]any {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	if res.IsError {
		t.Fatalf("%s: got tool error %q", tool, textOf(res))
	}
	var structured, text map[string]any
	remarshal(t, res.StructuredContent, &structured)
	if err := json.Unmarshal([]byte(textOf(res)), &text); err != nil {
		t.Fatalf("%s: got text content that is not the answer's JSON: %v", tool, err)
	}
	if !reflect.DeepEqual(structured, text) {
		t.Errorf("%s: got text content that differs from the structured content", tool)
	}
	return structured
}

// callError calls a tool that must fail and returns its error text.
func callError(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	if !res.IsError {
		t.Fatalf("%s: got success, want a tool error", tool)
	}
	return textOf(res)
}

func textOf(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func remarshal(t *testing.T, v, into any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, into); err != nil {
		t.Fatal(err)
	}
}

// api gets a JSON API answer, with the token.
func (f *fixture) api(t *testing.T, path string) map[string]any {
	t.Helper()
	req, _ := http.NewRequest("GET", f.srv.URL+path, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s: got status %d", path, resp.StatusCode)
	}
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestEveryToolAnswersWithTheJSONAPIsIdsAndNumbers(t *testing.T) {
	f := newFixture(t, options{})
	for _, s := range f.sessions {
		t.Run(s.transport, func(t *testing.T) {
			tests := []struct {
				name      string
				tool      string
				args      map[string]any
				path      string
				got, want func(tool, api map[string]any) any
			}{
				{"list_runs lists the runs of GET /api/runs", "list_runs", nil, "/api/runs", whole, whole},
				{"list_runs filters and pages as GET /api/runs does", "list_runs", map[string]any{"q": "-", "state": "finished", "per": 1, "page": 2},
					"/api/runs?q=-&state=finished&per=1&page=2", whole, whole},
				{"get_run breaks a run down as GET /api/runs/{run}", "get_run", map[string]any{"run": firstRun}, "/api/runs/" + firstRun, whole, whole},
				{"list_failure_modes ranks a run's modes as GET /api/runs/{run}/modes", "list_failure_modes",
					map[string]any{"run": lastRun, "limit": 1000}, "/api/runs/" + lastRun + "/modes", key("modes"), key("modes")},
				{"list_failure_modes filters by layer as GET /api/runs/{run}/modes?layer=", "list_failure_modes",
					map[string]any{"run": firstRun, "layer": "sandbox", "limit": 1000}, "/api/runs/" + firstRun + "/modes?layer=sandbox", key("modes"), key("modes")},
				{"compare_runs compares as GET /api/compare", "compare_runs", map[string]any{"base": firstRun, "head": lastRun},
					"/api/compare?base=" + firstRun + "&head=" + lastRun + "&limit=100", whole, whole},
			}
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					got, want := call(t, s.cs, tt.tool, tt.args), f.api(t, tt.path)
					if g, w := tt.got(got, want), tt.want(want, got); !reflect.DeepEqual(g, w) {
						t.Errorf("got %s\nwant the API's %s", compact(t, g), compact(t, w))
					}
				})
			}

			t.Run("get_failure_mode tells each mode as GET /api/modes/{mode}, with samples that reproduce it", func(t *testing.T) {
				modes := call(t, s.cs, "list_failure_modes", map[string]any{"run": lastRun, "limit": 1000})["modes"].([]any)
				if len(modes) < 10 {
					t.Fatalf("got %d modes in %s, want the demo's", len(modes), lastRun)
				}
				for _, m := range modes {
					id := m.(map[string]any)["id"].(string)
					got, want := call(t, s.cs, "get_failure_mode", map[string]any{"mode": id}), f.api(t, "/api/modes/"+id)
					for _, k := range []string{"mode", "runs"} {
						if !reflect.DeepEqual(got[k], want[k]) {
							t.Errorf("%s: got %s %s, want the API's %s", id, k, compact(t, got[k]), compact(t, want[k]))
						}
					}
					failures := 0
					for _, rc := range got["runs"].([]any) {
						failures += int(rc.(map[string]any)["count"].(float64))
					}
					if int(got["failures"].(float64)) != failures {
						t.Errorf("%s: got %v failures, want the sum over runs, %d", id, got["failures"], failures)
					}
					repro, ok := got["reproducer"].(map[string]any)
					if !ok || len(got["samples"].([]any)) == 0 {
						t.Fatalf("%s: got reproducer %v and samples %v, want both", id, got["reproducer"], got["samples"])
					}
					res := call(t, s.cs, "get_result", map[string]any{"run": repro["run"], "result": repro["result"]})
					if res["mode"] != id {
						t.Errorf("%s: got a reproducer of mode %v", id, res["mode"])
					}
				}
			})

			t.Run("get_result agrees with GET /api/runs/{run}/results on every failure of a run", func(t *testing.T) {
				list := f.api(t, "/api/runs/"+firstRun+"/results?limit=500")["results"].([]any)
				if len(list) < 100 {
					t.Fatalf("got %d failures, want the demo's", len(list))
				}
				for _, r := range list[:40] {
					want := r.(map[string]any)
					got := call(t, s.cs, "get_result", map[string]any{"run": firstRun, "result": want["id"]})
					for _, k := range []string{"id", "test", "target", "domain", "status", "layer", "primitive", "classified_by", "mode", "severity", "attempt"} {
						if got[k] != want[k] {
							t.Errorf("result %v: got %s %v, want the API's %v", want["id"], k, got[k], want[k])
						}
					}
				}
			})

			t.Run("find_mode_for_error finds the mode the index gave each failure", func(t *testing.T) {
				list := f.api(t, "/api/runs/"+firstRun+"/results?limit=500")["results"].([]any)
				checked := 0
				for _, r := range list {
					row := r.(map[string]any)
					res := call(t, s.cs, "get_result", map[string]any{"run": firstRun, "result": row["id"]})
					if res["harness_layer"] != nil || res["error_base64"] == nil || row["classified_by"] == triage.ArtifactRule {
						continue // the tool takes the message and log, not the harness's own classification or the artifacts
					}
					msg, _ := base64.StdEncoding.DecodeString(res["error_base64"].(string))
					args := map[string]any{"error": string(msg), "target": res["target"], "domain": res["domain"], "status": res["status"]}
					if tail, _ := base64.StdEncoding.DecodeString(fmt.Sprint(res["log_tail_base64"])); len(tail) > 0 {
						args["log"] = string(tail)
					}
					if res["exit_code"] != nil {
						args["exit_code"] = res["exit_code"]
					}
					got := call(t, s.cs, "find_mode_for_error", args)
					if got["mode"] != row["mode"] || got["layer"] != row["layer"] || got["primitive"] != row["primitive"] || got["classified_by"] != row["classified_by"] || got["known"] != true {
						t.Errorf("result %v: got mode %v %v/%v by %v (known %v), want %v %v/%v by %v",
							row["id"], got["mode"], got["layer"], got["primitive"], got["classified_by"], got["known"],
							row["mode"], row["layer"], row["primitive"], row["classified_by"])
					}
					if got["fixed"] != false || got["ticket"] != nil || got["failures"].(float64) < 1 {
						t.Errorf("result %v: got fixed %v, ticket %v, failures %v, want an untriaged mode with failures", row["id"], got["fixed"], got["ticket"], got["failures"])
					}
					checked++
				}
				if checked < 50 {
					t.Errorf("checked %d failures, want most of the run's", checked)
				}
			})
		})
	}
}

// whole is a whole answer; key one of its fields.
func whole(a, _ map[string]any) any { return a }

func key(k string) func(a, _ map[string]any) any {
	return func(a, _ map[string]any) any { return a[k] }
}

func compact(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > 600 {
		return string(b[:600]) + "…"
	}
	return string(b)
}

func TestGetResultReturnsHostileBytesExactly(t *testing.T) {
	f := newFixture(t, options{})
	for _, s := range f.sessions {
		t.Run(s.transport, func(t *testing.T) {
			got := call(t, s.cs, "get_result", map[string]any{"run": "evidence", "result": f.evidence})
			decode := func(field any) []byte {
				b, err := base64.StdEncoding.DecodeString(field.(string))
				if err != nil {
					t.Fatalf("got base64 that does not decode: %v", err)
				}
				return b
			}
			tail := hostileLog[len(hostileLog)-16<<10:]
			steps, arts := got["steps"].([]any), got["artifacts"].([]any)
			if len(steps) != 1 || len(arts) != 2 {
				t.Fatalf("got %d steps and %d artifacts, want 1 and 2", len(steps), len(arts))
			}
			step, back := steps[0].(map[string]any), arts[1].(map[string]any)
			bytesTests := []struct {
				name      string
				got, want []byte
			}{
				{"the log's last 16 KiB", decode(got["log_tail_base64"]), tail},
				{"the error", decode(got["error_base64"]), []byte(hostileError)},
				{"a tool call's response", decode(step["response_base64"]), responseBody},
				{"an artifact", decode(back["data_base64"]), backBytes},
			}
			for _, tt := range bytesTests {
				if !bytes.Equal(tt.got, tt.want) {
					t.Errorf("got %s %q, want exactly %q", tt.name, tt.got, tt.want)
				}
			}
			textTests := []struct {
				name, got, want string
			}{
				{"the log tail shows NUL and invalid bytes, and goes on after them", got["log_tail"].(string), "done␀␀ then \\x1b[31mred\\x1b[0m and \uFFFD\uFFFD invalid\nlast:␀\n"},
				{"the error shows NUL, invalid bytes and ESC", got["error"].(string), "cell 2 = 'caf␀e\uFFFD' \\x1b[2J"},
				{"the response shows NUL and invalid bytes", step["response"].(string), "{\"ok\":true}␀\uFFFD("},
			}
			for _, tt := range textTests {
				if !strings.HasSuffix(tt.got, tt.want) {
					t.Errorf("%s: got …%q, want it to end with %q", tt.name, tt.got[max(0, len(tt.got)-80):], tt.want)
				}
			}
			if int(got["log_bytes"].(float64)) != len(hostileLog) || int(got["log_tail_offset"].(float64)) != len(hostileLog)-len(tail) {
				t.Errorf("got log_bytes %v and tail offset %v, want %d and %d", got["log_bytes"], got["log_tail_offset"], len(hostileLog), len(hostileLog)-len(tail))
			}
			want := map[string]any{"check": "mismatch", "diff_offset": float64(bytes.IndexByte(backBytes, 'Y')), "diff_against": "sent.png"}
			for k, v := range want {
				if back[k] != v {
					t.Errorf("got the returned artifact's %s %v, want %v", k, back[k], v)
				}
			}
			if sent := arts[0].(map[string]any); sent["check"] != "unchecked" {
				t.Errorf("got the sent artifact's check %v, want unchecked: it has no expected digest", sent["check"])
			}
		})
	}
}

func TestTriageAndFilingToolsComeOnlyWithTheActions(t *testing.T) {
	tests := []struct {
		name string
		o    options
		want []string
	}{
		{"without a token the tools only read",
			options{}, []string{"compare_runs", "find_mode_for_error", "get_failure_mode", "get_result", "get_run", "list_failure_modes", "list_runs"}},
		{"with a token they triage and file too",
			options{actions: true}, []string{"compare_runs", "file_mode", "find_mode_for_error", "get_failure_mode", "get_result", "get_run", "list_failure_modes", "list_runs", "triage_mode"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, tt.o)
			for _, s := range f.sessions {
				res, err := s.cs.ListTools(context.Background(), nil)
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, tool := range res.Tools {
					got = append(got, tool.Name)
					if tool.OutputSchema == nil || tool.Description == "" {
						t.Errorf("%s: got tool %s without an output schema or a description", s.transport, tool.Name)
					}
				}
				slices.Sort(got)
				if !slices.Equal(got, tt.want) {
					t.Errorf("%s: got tools %v, want %v", s.transport, got, tt.want)
				}
			}
		})
	}
}

func TestTriageModeGoesThroughTheAPIsChecks(t *testing.T) {
	f := newFixture(t, options{actions: true})
	cs := f.sessions[1].cs // over HTTP, as an agent with the token
	mode := call(t, cs, "list_failure_modes", map[string]any{"run": lastRun, "limit": 1})["modes"].([]any)[0].(map[string]any)["id"].(string)

	got := call(t, cs, "triage_mode", map[string]any{"mode": mode, "status": "fixed", "owner": "sandbox-platform", "note": "fixed in runtime 2.3"})
	m := got["mode"].(map[string]any)
	if m["status"] != "fixed" || m["owner"] != "sandbox-platform" || len(got["done"].([]any)) != 3 {
		t.Errorf("got mode %s done %v, want it fixed, owned by sandbox-platform, in three steps", compact(t, m), got["done"])
	}
	api := f.api(t, "/api/modes/"+mode)["mode"].(map[string]any)
	if api["status"] != "fixed" || api["owner"] != "sandbox-platform" {
		t.Errorf("got the API's mode %s after triage, want it fixed and owned", compact(t, api))
	}
	queued := call(t, cs, "list_failure_modes", map[string]any{"run": lastRun, "status": "fixed"})
	if queued["total"] != 1.0 || queued["modes"].([]any)[0].(map[string]any)["id"] != mode {
		t.Errorf("got fixed modes %s, want only %s", compact(t, queued), mode)
	}

	errorTests := []struct {
		name string
		args map[string]any
		want string
	}{
		{"a status outside the vocabulary", map[string]any{"mode": mode, "status": "done"}, `invalid: unknown status "done"`},
		{"a mode that does not exist", map[string]any{"mode": "m-000000000000", "status": "fixed"}, "not_found:"},
		{"nothing to change", map[string]any{"mode": mode}, "invalid: nothing to change"},
		{"a refusal after a change says what changed", map[string]any{"mode": mode, "severity": "low", "note": strings.Repeat("n", 20_000)}, "Severity set to low."},
	}
	for _, tt := range errorTests {
		t.Run(tt.name+" is a tool error", func(t *testing.T) {
			if got := callError(t, cs, "triage_mode", tt.args); !strings.Contains(got, tt.want) {
				t.Errorf("got %q, want it to say %q", got, tt.want)
			}
		})
	}
}

func TestTriageAndFilingAreRefusedWhenServingReadOnly(t *testing.T) {
	f := newFixture(t, options{actions: true, readOnly: true})
	cs := f.sessions[0].cs
	mode := call(t, cs, "list_failure_modes", map[string]any{"run": lastRun, "limit": 1})["modes"].([]any)[0].(map[string]any)["id"].(string)
	tests := []struct {
		tool string
		args map[string]any
	}{
		{"triage_mode", map[string]any{"mode": mode, "status": "fixed"}},
		{"file_mode", map[string]any{"mode": mode}},
	}
	for _, tt := range tests {
		t.Run(tt.tool+" is refused", func(t *testing.T) {
			if got := callError(t, cs, tt.tool, tt.args); !strings.HasPrefix(got, "forbidden: ") || !strings.Contains(got, "--read-only") {
				t.Errorf("got %q, want a refusal that names --read-only", got)
			}
		})
	}
}

func TestToolErrorsSayWhatIsWrong(t *testing.T) {
	f := newFixture(t, options{})
	cs := f.sessions[0].cs
	tests := []struct {
		name, tool string
		args       map[string]any
		want       string
	}{
		{"an unknown run", "get_run", map[string]any{"run": "nope"}, `not_found: run "nope" not found`},
		{"an unknown mode", "get_failure_mode", map[string]any{"mode": "m-nope"}, `not_found: failure mode "m-nope" not found`},
		{"a result the run does not have", "get_result", map[string]any{"run": "evidence", "result": f.evidence + 1}, "not_found: result"},
		{"a run state outside the vocabulary", "list_runs", map[string]any{"state": "done"}, `invalid: state must be "live" or "finished", not "done"`},
		{"a page past the last run", "list_runs", map[string]any{"page": 9}, "invalid: page must be from 1 to 1"},
		{"a severity outside the vocabulary", "list_failure_modes", map[string]any{"run": firstRun, "severity": "urgent"}, `invalid: unknown severity "urgent"`},
		{"comparing with one run", "compare_runs", map[string]any{"base": firstRun, "head": " "}, "invalid: name both runs"},
		{"a passing status", "find_mode_for_error", map[string]any{"error": "x", "status": "passed"}, "invalid: a passed result has no failure mode"},
		{"a missing argument", "get_run", map[string]any{}, "run"},
	}
	for _, tt := range tests {
		t.Run(tt.name+" is a tool error", func(t *testing.T) {
			if got := callError(t, cs, tt.tool, tt.args); !strings.Contains(got, tt.want) {
				t.Errorf("got %q, want it to say %q", got, tt.want)
			}
		})
	}
}

func TestFindModeForErrorOfAMessageNeverSeen(t *testing.T) {
	f := newFixture(t, options{})
	got := call(t, f.sessions[0].cs, "find_mode_for_error", map[string]any{"error": "the frobnicator wobbled at step 7", "target": "browser"})
	want := map[string]any{"known": false, "failures": 0.0, "runs": 0.0, "status": "new", "fixed": false, "ticket": nil,
		"layer": "unclassified", "classified_by": "none"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("got %s %v, want %v", k, got[k], v)
		}
	}
	if id, _ := got["mode"].(string); !strings.HasPrefix(id, "m-") || len(id) != 14 {
		t.Errorf("got mode %q, want a mode id", got["mode"])
	}
}
