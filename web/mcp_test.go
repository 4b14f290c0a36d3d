package main

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"sandtrap"
	"sandtrap/store"
	"sandtrap/triage"
)

// initialize is the first message an MCP client sends.
const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}`

// postMCP posts initialize to /mcp with the given headers and returns the
// status.
func postMCP(t *testing.T, base string, headers map[string]string) int {
	t.Helper()
	req, err := http.NewRequest("POST", base+"/mcp", strings.NewReader(initialize))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range headers {
		if k == "Host" {
			req.Host = v
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func TestServeGuardsMCPLikeEveryRoute(t *testing.T) {
	campaign := demoCampaign(t)
	t.Setenv("SANDTRAP_TOKEN", "")
	open := startServe(t, campaign)
	t.Setenv("SANDTRAP_TOKEN", "s3cret")
	guarded := startServe(t, campaign)
	tests := []struct {
		name    string
		base    string
		headers map[string]string
		want    int
	}{
		{"a client with the token is served", guarded, map[string]string{"Authorization": "Bearer s3cret"}, http.StatusOK},
		{"a client without the token is refused", guarded, nil, http.StatusUnauthorized},
		{"a client with another token is refused", guarded, map[string]string{"Authorization": "Bearer guess"}, http.StatusUnauthorized},
		{"a page of another origin is refused, token or not", guarded, map[string]string{"Authorization": "Bearer s3cret", "Origin": "https://evil.example"}, http.StatusForbidden},
		{"a page of the server's own origin is served", guarded, map[string]string{"Authorization": "Bearer s3cret", "Origin": guarded}, http.StatusOK},
		{"without a token, a loopback client is served", open, nil, http.StatusOK},
		{"without a token, a Host that is not the server's is refused (DNS rebinding)", open, map[string]string{"Host": "evil.example:8080"}, http.StatusForbidden},
		{"without a token, a page of another origin is refused", open, map[string]string{"Origin": "http://evil.example"}, http.StatusForbidden},
		{"an opaque origin is refused", open, map[string]string{"Origin": "null"}, http.StatusForbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := postMCP(t, tt.base, tt.headers); got != tt.want {
				t.Errorf("got status %d, want %d", got, tt.want)
			}
		})
	}
}

// bearer adds the access token to every request.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// mcpClient connects to an MCP server over tr.
func mcpClient(t *testing.T, tr mcp.Transport) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "sandtrap-test", Version: "1"}, nil).Connect(ctx, tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func toolNames(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	return names
}

// callTool calls a tool that must succeed and decodes its structured answer.
func callTool(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any, into any) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.IsError {
		t.Fatalf("%s: got a tool error: %v", name, res.Content)
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, into); err != nil {
		t.Fatal(err)
	}
}

// apiJSON gets a JSON API answer with the token.
func apiJSON(t *testing.T, base, token, path string, into any) {
	t.Helper()
	req, _ := http.NewRequest("GET", base+path, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s: got status %d", path, resp.StatusCode)
	}
	if err := json.NewDecoder(resp.Body).Decode(into); err != nil {
		t.Fatal(err)
	}
}

// waitIndexed waits until every run of the demo has all its results.
func waitIndexed(t *testing.T, base, token string) {
	t.Helper()
	deadline := time.Now().Add(patience)
	for time.Now().Before(deadline) {
		var body struct {
			Runs []struct{ Total, Planned int } `json:"runs"`
		}
		apiJSON(t, base, token, "/api/runs", &body)
		done := len(body.Runs) == 2
		for _, r := range body.Runs {
			done = done && r.Total == r.Planned
		}
		if done {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("the demo was not indexed within %s", patience)
}

var readTools = []string{"compare_runs", "find_mode_for_error", "get_failure_mode", "get_result", "get_run", "list_failure_modes", "list_runs"}

func TestServeTriagesAndFilesOverMCPOnlyWithAToken(t *testing.T) {
	gh := &fakeGitHub{}
	fake := httptest.NewServer(gh)
	defer fake.Close()
	t.Setenv("SANDTRAP_TEST_TOKEN", "test-token")
	campaign := demoCampaign(t)
	config := filingConfig(t, fake.URL)

	t.Setenv("SANDTRAP_TOKEN", "")
	open := mcpClient(t, &mcp.StreamableClientTransport{Endpoint: startServe(t, "--config", config, campaign) + "/mcp"})
	if got := toolNames(t, open); !slices.Equal(got, readTools) {
		t.Errorf("got tools %v without a token, want only %v", got, readTools)
	}

	t.Setenv("SANDTRAP_TOKEN", "s3cret")
	base := startServe(t, "--config", config, campaign)
	waitIndexed(t, base, "s3cret")
	cs := mcpClient(t, &mcp.StreamableClientTransport{Endpoint: base + "/mcp", HTTPClient: &http.Client{Transport: bearer{"s3cret"}}})
	if got, want := toolNames(t, cs), append(slices.Clone(readTools), "file_mode", "triage_mode"); !slices.Equal(got, slices.Sorted(slices.Values(want))) {
		t.Errorf("got tools %v with a token, want %v", got, want)
	}

	var modes struct {
		Modes []struct {
			ID string `json:"id"`
		} `json:"modes"`
	}
	callTool(t, cs, "list_failure_modes", map[string]any{"run": "2026-07-01-overnight", "limit": 1}, &modes)
	mode := modes.Modes[0].ID
	var filed struct {
		Ticket struct{ Key, URL, Action string } `json:"ticket"`
	}
	callTool(t, cs, "file_mode", map[string]any{"mode": mode}, &filed)
	if filed.Ticket.Action != "created" || filed.Ticket.Key != "acme/sandbox#1" {
		t.Errorf("got ticket %+v, want acme/sandbox#1 created", filed.Ticket)
	}
	var triaged struct {
		Mode struct{ Status string } `json:"mode"`
	}
	callTool(t, cs, "triage_mode", map[string]any{"mode": mode, "status": "fixed"}, &triaged)

	// The mode now reads fixed and filed, from the tools and from the API.
	var detail struct {
		Mode    map[string]any `json:"mode"`
		Samples []struct {
			Run    string `json:"run"`
			Result int64  `json:"result"`
		} `json:"samples"`
	}
	callTool(t, cs, "get_failure_mode", map[string]any{"mode": mode}, &detail)
	var api struct {
		Mode map[string]any `json:"mode"`
	}
	apiJSON(t, base, "s3cret", "/api/modes/"+mode, &api)
	if !reflect.DeepEqual(detail.Mode, api.Mode) || api.Mode["status"] != "fixed" || api.Mode["ticket"] != filed.Ticket.URL {
		t.Errorf("got mode %v from the tool and %v from the API, want the same, fixed, with ticket %s", detail.Mode, api.Mode, filed.Ticket.URL)
	}
	// A sample the harness did not classify: the tool takes the message alone.
	type sample struct {
		ErrorBase64  string `json:"error_base64"`
		Target       string `json:"target"`
		Domain       string `json:"domain"`
		Status       string `json:"status"`
		HarnessLayer string `json:"harness_layer"`
	}
	var result *sample
	for _, s := range detail.Samples {
		var r sample
		callTool(t, cs, "get_result", map[string]any{"run": s.Run, "result": s.Result}, &r)
		if r.HarnessLayer == "" {
			result = &r
			break
		}
	}
	if result == nil {
		t.Fatalf("got only samples the harness classified, want one it did not")
	}
	msg := decode64(t, result.ErrorBase64)
	var lookup struct {
		Mode   string `json:"mode"`
		Fixed  bool   `json:"fixed"`
		Ticket *struct{ Key string }
	}
	callTool(t, cs, "find_mode_for_error", map[string]any{"error": string(msg), "target": result.Target, "domain": result.Domain, "status": result.Status}, &lookup)
	if lookup.Mode != mode || !lookup.Fixed || lookup.Ticket == nil || lookup.Ticket.Key != "acme/sandbox#1" {
		t.Errorf("got %+v for a sample's error, want mode %s, fixed, with ticket acme/sandbox#1", lookup, mode)
	}
}

func TestMCPCommandServesTheToolsOnStdioWithoutWriting(t *testing.T) {
	ctx := context.Background()
	campaign := demoCampaign(t)
	state := filepath.Join(t.TempDir(), "state.db")
	// A person marked a mode fixed in serve's state before.
	st, err := store.Open(ctx, store.Options{StatePath: state, Campaigns: []string{campaign}})
	if err != nil {
		t.Fatal(err)
	}
	st.Start(ctx)
	if err := st.WaitIndexed(ctx); err != nil {
		t.Fatal(err)
	}
	page, err := st.FindResults(ctx, "2026-07-01-overnight", sandtrap.ResultFilter{Limit: 1})
	if err != nil || len(page.Results) == 0 {
		t.Fatalf("got %v, %v: want a failure in the demo", page.Results, err)
	}
	failure, _, err := st.FindResult(ctx, "2026-07-01-overnight", page.Results[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	fixed := triage.StatusFixed
	if _, err := st.UpdateMode(ctx, page.Results[0].Mode, sandtrap.Triage{Status: &fixed}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	before := map[string][32]byte{campaign: fileSum(t, campaign), state: fileSum(t, state)}

	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "SANDTRAP_TEST_ARGS="+strings.Join([]string{"mcp", "--state", state, campaign}, "\x1f"))
	cmd.Stderr = os.Stderr
	cs := mcpClient(t, &mcp.CommandTransport{Command: cmd})
	if got := toolNames(t, cs); !slices.Equal(got, readTools) {
		t.Errorf("got tools %v, want only %v: the command never writes", got, readTools)
	}
	var runs struct {
		Runs []struct {
			ID    string `json:"id"`
			Total int    `json:"total"`
		} `json:"runs"`
	}
	callTool(t, cs, "list_runs", nil, &runs)
	if len(runs.Runs) != 2 || runs.Runs[1].ID != "2026-06-30-overnight" || runs.Runs[0].Total != 1000 {
		t.Errorf("got runs %+v, want the demo's two, newest first, indexed whole", runs.Runs)
	}
	var lookup struct {
		Mode  string `json:"mode"`
		Known bool   `json:"known"`
		Fixed bool   `json:"fixed"`
	}
	args := map[string]any{"error": failure.Error, "target": failure.Target, "domain": failure.Domain, "status": failure.Status}
	if failure.ExitCode != nil {
		args["exit_code"] = *failure.ExitCode
	}
	callTool(t, cs, "find_mode_for_error", args, &lookup)
	if lookup.Mode != page.Results[0].Mode || !lookup.Known || !lookup.Fixed {
		t.Errorf("got %+v, want mode %s, known and fixed as the state says", lookup, page.Results[0].Mode)
	}
	cs.Close()
	cmd.Wait()
	for path, sum := range before {
		if fileSum(t, path) != sum {
			t.Errorf("got %s changed by sandtrap mcp, want it untouched", filepath.Base(path))
		}
	}
}

func fileSum(t *testing.T, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

func decode64(t *testing.T, s string) []byte {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
