package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"sandtrap/demo"
	"sandtrap/handlers"
)

const demoBase, demoHead = "2026-06-30-overnight", "2026-07-01-overnight"

// demoSignatures tells the demo's failure modes apart by how their
// signatures start: a known cause's signature, or the message's own. The
// demo does not write its mode keys into the campaign, and one key may
// print two causes (a digest mismatch and bad base64 padding), so a key can
// stand for several failure mode ids.
var demoSignatures = map[string][]string{
	"b64-corruption":          {"[known:transfer-digest-mismatch]", "[known:base64-invalid]"},
	"nul-truncation":          {"[known:nul-cut-payload]"},
	"mcp-size-limit":          {"MCP error -32600"},
	"jsonrpc-parse":           {"[known:jsonrpc-invalid-json]"},
	"path-traversal-accepted": {"[known:path-traversal-accepted]"},
	"site-packages-readonly":  {"[known:site-packages-not-writable]"},
	"files-vanish":            {"[known:file-missing]"},
	"browser-oom-tabs":        {"[known:browser-renderer-crashed]"},
	"training-oom":            {"[known:oom-killed]"},
	"cpu-timeout":             {"[known:cpu-time-limit]"},
	"spawn-denied":            {"java.io.IOException: Cannot run program", "Error: spawn"},
	"pip-egress":              {"[known:pip-index-unreachable]"},
	"browser-dns":             {"[known:dns-lookup-failed]"},
	"module-not-on-path":      {"[known:python-module-missing]"},
	"missing-shared-lib":      {"[known:shared-library-missing]"},
	"session-expired":         {"[known:sandbox-gone]"},
	"harness-assert":          {"AssertionError"},
	"harness-fixture":         {"[known:fixture-missing]"},
	"stream-closed":           {"MCP error -32603"},
	"disk-full":               {"[known:disk-full]"},
}

// demoKeys maps failure modes to the demo's mode keys by their signatures,
// sorted and without repeats; it fails on a signature no key explains.
func demoKeys(t *testing.T, modes []handlers.APIModeChange) []string {
	t.Helper()
	var out []string
	for _, m := range modes {
		key := ""
		for k, prefixes := range demoSignatures {
			for _, p := range prefixes {
				if strings.HasPrefix(m.Signature, p) {
					key = k
				}
			}
		}
		if key == "" {
			t.Errorf("mode %s has signature %q, which no demo mode explains", m.ID, m.Signature)
		}
		out = append(out, key)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

func testKeysOf(ts []handlers.APITest) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Key)
	}
	return sorted(out)
}

func modeIDs(ms []handlers.APIModeChange) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.ID)
	}
	return sorted(out)
}

// assertDemoChanges checks a comparison of the demo's two runs against what
// the demo generator changed between them.
func assertDemoChanges(t *testing.T, c handlers.APIComparison) {
	t.Helper()
	want := demo.Expected()
	tests := []struct {
		name      string
		got, want []string
	}{
		{"the new modes are the ones run 2 adds", demoKeys(t, c.NewModes), sorted(want.ModesAdded)},
		{"the resolved modes are the ones run 2 fixes", demoKeys(t, c.ResolvedModes), sorted(want.ModesFixed)},
		{"the persisting modes are the ones both runs have", demoKeys(t, c.PersistingModes), sorted(want.ModesKept)},
		{"no mode has returned without a fixed mark", modeIDs(c.ReturnedModes), nil},
		{"the fixed tests are the ones run 2 fixes", testKeysOf(c.FixedTests), sorted(want.TestsFixed)},
		{"the regressed tests are the ones run 2 breaks", testKeysOf(c.RegressedTests), sorted(want.TestsRegressed)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !slices.Equal(tt.got, tt.want) {
				t.Errorf("got %q, want %q", tt.got, tt.want)
			}
		})
	}
}

func compareCLI(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(context.Background(), append([]string{"compare"}, args...), &out, &errOut)
	return out.String(), err
}

func TestCompareNamesWhatTheDemoChanged(t *testing.T) {
	path := demoCampaign(t)
	state := filepath.Join(t.TempDir(), "state.db")

	out, err := compareCLI(t, "--state", state, "--format", "json", path, demoBase, demoHead)
	if err != nil {
		t.Fatalf("compare: %v", err)
	}
	var cli handlers.APIComparison
	if err := json.Unmarshal([]byte(out), &cli); err != nil {
		t.Fatalf("compare --format json wrote no JSON: %v", err)
	}
	t.Run("the CLI", func(t *testing.T) { assertDemoChanges(t, cli) })

	base := startServe(t, path)
	waitForDemo(t, base)
	resp, err := http.Get(base + "/api/compare?base=" + demoBase + "&head=" + demoHead)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var api handlers.APIComparison
	if err := json.Unmarshal(body, &api); err != nil {
		t.Fatalf("GET /api/compare: %v: %s", err, body)
	}
	t.Run("the API", func(t *testing.T) { assertDemoChanges(t, api) })

	resp, err = http.Get(base + "/compare?base=" + demoBase + "&head=" + demoHead)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	t.Run("the page names every changed mode in its group, and the fixed and regressed tests", func(t *testing.T) {
		for group, modes := range map[string][]handlers.APIModeChange{"new": api.NewModes, "resolved": api.ResolvedModes} {
			section := between(string(page), `data-testid="group-`+group+`"`, `</table>`)
			for _, m := range modes {
				if !strings.Contains(section, `data-mode-id="`+m.ID+`"`) {
					t.Errorf("got no %s row for mode %s in the page", group, m.ID)
				}
			}
			if got := strings.Count(section, `data-testid="mode-change-row"`); got != len(modes) {
				t.Errorf("got %d %s rows, want %d", got, group, len(modes))
			}
		}
		for group, keys := range map[string][]string{"tests-fixed": demo.Expected().TestsFixed, "tests-regressed": demo.Expected().TestsRegressed} {
			section := between(string(page), `data-testid="group-`+group+`"`, `</details>`)
			for _, k := range keys {
				if !strings.Contains(section, k) {
					t.Errorf("got no %s row for test %s in the page", group, k)
				}
			}
		}
	})

	md, err := compareCLI(t, "--state", state, "--format", "markdown", path, demoBase, demoHead)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("the markdown lists every changed mode and test", func(t *testing.T) {
		for _, m := range slices.Concat(cli.NewModes, cli.ResolvedModes) {
			if !strings.Contains(md, "`"+m.ID+"`") {
				t.Errorf("got markdown without mode %s", m.ID)
			}
		}
		for _, k := range slices.Concat(demo.Expected().TestsFixed, demo.Expected().TestsRegressed) {
			if !strings.Contains(md, "`"+k+"`") {
				t.Errorf("got markdown without test %s", k)
			}
		}
	})
}

// waitForDemo waits until the server has read both of the demo's runs.
func waitForDemo(t *testing.T, base string) {
	t.Helper()
	deadline := time.Now().Add(patience)
	for time.Now().Before(deadline) {
		var list struct {
			Runs []struct{ Total int } `json:"runs"`
		}
		if resp, err := http.Get(base + "/api/runs"); err == nil {
			json.NewDecoder(resp.Body).Decode(&list)
			resp.Body.Close()
		}
		if len(list.Runs) == 2 && list.Runs[0].Total == 1000 && list.Runs[1].Total == 1000 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("the server did not read the demo's two runs within %s", patience)
}

// between is the text of s from the first from to the next to after it.
func between(s, from, to string) string {
	_, rest, ok := strings.Cut(s, from)
	if !ok {
		return ""
	}
	section, _, _ := strings.Cut(rest, to)
	return section
}

func TestCompareGates(t *testing.T) {
	path := demoCampaign(t)
	state := filepath.Join(t.TempDir(), "state.db")
	tests := []struct {
		name       string
		args       []string
		wantGate   bool
		wantOutput string
	}{
		{"new modes fail the new-modes gate", []string{"--fail-on", "new-modes", path, demoBase, demoHead}, true, fmt.Sprintf("New failure modes (%d)", len(demo.Expected().ModesAdded))},
		{"regressed tests fail the regressions gate", []string{"--fail-on", "regressions", path, demoBase, demoHead}, true, "Regressed tests (4)"},
		{"comparing backwards turns the fixed tests into regressions", []string{"--fail-on", "regressions", path, demoHead, demoBase}, true, "Fixed tests (4)"},
		{"a run against itself is identical and passes every gate", []string{"--fail-on", "new-modes", path, demoHead, demoHead}, false, "identical"},
		{"without a gate nothing fails", []string{path, demoBase, demoHead}, false, "pass rate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := compareCLI(t, append([]string{"--state", state}, tt.args...)...)
			if got := errors.Is(err, errGate); got != tt.wantGate {
				t.Errorf("got error %v, want the gate to fail: %v", err, tt.wantGate)
			}
			var ue usageError
			if errors.As(err, &ue) {
				t.Errorf("got a usage error %v, want exit 1 or 0", err)
			}
			if !strings.Contains(out, tt.wantOutput) {
				t.Errorf("got output without %q:\n%s", tt.wantOutput, out)
			}
		})
	}
}

func TestCompareMistakesAreUsageErrors(t *testing.T) {
	path := demoCampaign(t)
	state := filepath.Join(t.TempDir(), "state.db")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"too few arguments", []string{path, demoBase}, "two run ids"},
		{"an unknown format", []string{"--format", "xml", path, demoBase, demoHead}, `unknown format "xml"`},
		{"an unknown gate", []string{"--fail-on", "everything", path, demoBase, demoHead}, `unknown gate "everything"`},
		{"an unknown run id", []string{"--state", state, path, "nope", demoHead}, `run "nope" not found; the runs are: ` + demoBase},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := compareCLI(t, tt.args...)
			var ue usageError
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want a usage error (exit 2) saying %q", err, tt.want)
			}
		})
	}
}
