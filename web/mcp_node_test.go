package main

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
)

// mcpClientDir holds the official TypeScript MCP client, pinned by its
// package-lock.json; `npm ci --prefix testdata/mcp-client` installs it.
var mcpClientDir = filepath.Join("..", "testdata", "mcp-client")

// nodeClient returns node's path, skipping the test when node or the
// client's packages are missing, except under CI=true, where that fails.
func nodeClient(t *testing.T) string {
	t.Helper()
	missing := func(what string) {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is missing: install node 20 and run npm ci --prefix testdata/mcp-client", what)
		}
		t.Skipf("%s is missing, so the TypeScript client is not tried: install node 20 and run npm ci --prefix testdata/mcp-client", what)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node")
	}
	if _, err := os.Stat(filepath.Join(mcpClientDir, "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		missing("testdata/mcp-client/node_modules")
	}
	return node
}

// tsCall is one tool call as client.mjs reports it.
type tsCall struct {
	Name         string         `json:"name"`
	IsError      bool           `json:"isError"`
	Structured   map[string]any `json:"structured"`
	TextIsAnswer bool           `json:"textIsAnswer"`
	Text         string         `json:"text"`
}

type tsSession struct {
	Server struct{ Name string } `json:"server"`
	Tools  []string              `json:"tools"`
	Calls  []tsCall              `json:"calls"`
}

func TestTheOfficialTypeScriptClientUsesBothTransports(t *testing.T) {
	node := nodeClient(t)
	bin := filepath.Join(t.TempDir(), "sandtrap")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build ./web: %v\n%s", err, out)
	}
	campaign := demoCampaign(t)
	t.Setenv("SANDTRAP_TOKEN", "s3cret")
	base := startServe(t, campaign)
	waitIndexed(t, base, "s3cret")

	// Two results from the campaign file itself: one whose log holds NUL
	// and invalid UTF-8, and a failure the harness did not classify.
	db, err := sql.Open("sqlite", "file:"+campaign+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var (
		logRun, failRun                 string
		logID, failID                   int64
		log                             []byte
		errText, target, domain, status string
		exitCode                        sql.NullInt64
	)
	if err := db.QueryRow(`SELECT run_id, id, log FROM results WHERE instr(log, x'00') > 0 AND instr(log, x'ff') > 0 ORDER BY id LIMIT 1`).Scan(&logRun, &logID, &log); err != nil {
		t.Fatalf("finding a log with NUL and invalid UTF-8 in the demo: %v", err)
	}
	if err := db.QueryRow(`SELECT run_id, id, error, target, domain, status, exit_code FROM results
		WHERE status = 'failed' AND layer IS NULL AND instr(error, char(0)) = 0 ORDER BY id LIMIT 1`).Scan(&failRun, &failID, &errText, &target, &domain, &status, &exitCode); err != nil {
		t.Fatalf("finding a failure in the demo: %v", err)
	}
	wantTail := log[max(0, len(log)-16<<10):]
	const run, last = "2026-06-30-overnight", "2026-07-01-overnight"
	var modes struct {
		Modes []struct {
			ID string `json:"id"`
		} `json:"modes"`
	}
	apiJSON(t, base, "s3cret", "/api/runs/"+last+"/modes", &modes)
	mode := modes.Modes[0].ID

	lookup := map[string]any{"error": errText, "target": target, "domain": domain, "status": status}
	if exitCode.Valid {
		lookup["exit_code"] = exitCode.Int64
	}
	calls := []map[string]any{
		{"name": "list_runs", "arguments": map[string]any{}},
		{"name": "get_run", "arguments": map[string]any{"run": run}},
		{"name": "list_failure_modes", "arguments": map[string]any{"run": last, "limit": 1000}},
		{"name": "get_failure_mode", "arguments": map[string]any{"mode": mode}},
		{"name": "compare_runs", "arguments": map[string]any{"base": run, "head": last}},
		{"name": "get_result", "arguments": map[string]any{"run": logRun, "result": logID}},
		{"name": "get_result", "arguments": map[string]any{"run": failRun, "result": failID}},
		{"name": "find_mode_for_error", "arguments": lookup},
	}
	state := filepath.Join(t.TempDir(), "state.db")
	plan, _ := json.Marshal(map[string]any{
		"http":  map[string]any{"url": base + "/mcp", "token": "s3cret"},
		"stdio": map[string]any{"command": bin, "args": []string{"mcp", "--state", state, campaign}},
		"calls": calls,
	})
	cmd := exec.Command(node, filepath.Join(mcpClientDir, "client.mjs"), string(plan))
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("client.mjs: %v", err)
	}
	var got map[string]tsSession
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("client.mjs printed no JSON: %v\n%s", err, out)
	}

	// What the JSON API says, for the same questions.
	api := func(path, key string) any {
		var v map[string]any
		apiJSON(t, base, "s3cret", path, &v)
		if key == "" {
			return v
		}
		return v[key]
	}
	wants := []struct {
		call int
		key  string
		want any
	}{
		{0, "", api("/api/runs", "")},
		{1, "", api("/api/runs/"+run, "")},
		{2, "modes", api("/api/runs/"+last+"/modes", "modes")},
		{3, "mode", api("/api/modes/"+mode, "mode")},
		{3, "runs", api("/api/modes/"+mode, "runs")},
		{4, "", api("/api/compare?base="+run+"&head="+last+"&limit=100", "")},
	}
	allTools := append(slices.Clone(readTools), "file_mode", "triage_mode")
	slices.Sort(allTools)
	for _, transport := range []struct {
		name  string
		tools []string
	}{{"http", allTools}, {"stdio", readTools}} {
		t.Run("over "+transport.name, func(t *testing.T) {
			s, ok := got[transport.name]
			if !ok || len(s.Calls) != len(calls) {
				t.Fatalf("got %d calls, want %d", len(s.Calls), len(calls))
			}
			if s.Server.Name != "sandtrap" || !slices.Equal(s.Tools, transport.tools) {
				t.Errorf("got server %q with tools %v, want sandtrap with %v", s.Server.Name, s.Tools, transport.tools)
			}
			for _, c := range s.Calls {
				if c.IsError || !c.TextIsAnswer {
					t.Errorf("%s: got error %v, text content the same answer %v: %.300s", c.Name, c.IsError, c.TextIsAnswer, c.Text)
				}
			}
			for _, w := range wants {
				c := s.Calls[w.call]
				var g any = c.Structured
				if w.key != "" {
					g = c.Structured[w.key]
				}
				if !reflect.DeepEqual(g, w.want) {
					t.Errorf("%s: got %.400v\nwant the API's %.400v", c.Name, g, w.want)
				}
			}
			logged := s.Calls[5].Structured
			if tail := decode64(t, logged["log_tail_base64"].(string)); !bytes.Equal(tail, wantTail) {
				t.Errorf("got a log tail of %d bytes unlike the campaign's %d", len(tail), len(wantTail))
			}
			if logged["log_bytes"] != float64(len(log)) {
				t.Errorf("got log_bytes %v, want %d", logged["log_bytes"], len(log))
			}
			found, result := s.Calls[7].Structured, s.Calls[6].Structured
			if found["mode"] != result["mode"] || found["known"] != true {
				t.Errorf("got mode %v (known %v) for result %d's error, want its mode %v, known", found["mode"], found["known"], failID, result["mode"])
			}
		})
	}
}
