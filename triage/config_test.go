package triage

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const goodConfig = `
# Classification rules for our proxy.
[[rule]]
name = "corp-proxy"
error = 'ProxyError|407 Proxy Authentication'
log = 'proxy\.corp'
exit_code = [1, 137]
target = ["code-interpreter"]
domain = ["package-install"]
status = ["failed"]
tool = ["run_code"]
layer = "sandbox"
primitive = "network-egress"

[[rule]]
name = "checker-bugs"
error = '^AssertionError'
layer = "test"
`

func TestLoadConfig(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sandtrap.toml")
	if err := os.WriteFile(path, []byte(goodConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := LoadConfig(path)
	if err != nil {
		t.Fatalf("LoadConfig: %v", err)
	}
	if got, want := len(cfg.Rules), 2; got != want {
		t.Fatalf("got %d rules, want %d", got, want)
	}
	r := cfg.Rules[0]
	checks := []struct {
		name      string
		got, want any
	}{
		{"name", r.Name, "corp-proxy"},
		{"error regex", r.ErrorRegex.String(), "ProxyError|407 Proxy Authentication"},
		{"log regex", r.LogRegex.String(), `proxy\.corp`},
		{"exit codes", len(r.ExitCodes), 2},
		{"targets", r.Targets[0], "code-interpreter"},
		{"tools", r.Tools[0], "run_code"},
		{"layer", r.Layer, "sandbox"},
		{"primitive", r.Primitive, "network-egress"},
		{"a layer-only rule", cfg.Rules[1].Primitive, ""},
		{"no log regex", cfg.Rules[1].LogRegex == nil, true},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, c.got, c.want)
		}
	}
}

func TestLoadConfigOfAMissingFile(t *testing.T) {
	_, err := LoadConfig(filepath.Join(t.TempDir(), "nope.toml"))
	if err == nil || !strings.Contains(err.Error(), "nope.toml") {
		t.Errorf("got %v, want an error naming the file", err)
	}
}

func TestParseConfigRefusesBadFiles(t *testing.T) {
	rule := func(body string) string { return "[[rule]]\n" + body + "\n" }
	valid := "name = \"ok\"\nerror = 'x'\nlayer = \"sandbox\"\n"
	tests := []struct {
		name  string
		toml  string
		wants []string
	}{
		{"a TOML syntax error gives its line", "[[rule]]\nname = \"a\"\nerror = 'unterminated\n", []string{"rules.toml", "line 3"}},
		{"a type error names the key", rule("name = \"a\"\nexit_code = \"137\"\nlayer = \"sandbox\""), []string{"rules.toml", "exit_code"}},
		{"an unknown key in a rule", rule(valid + "exitcode = [137]"), []string{"line 5", `unknown key "rule.exitcode"`}},
		{"an unknown top-level table", "[[teams]]\nname = \"infra\"\n" + rule(valid), []string{"line 1", `unknown key "teams"`}},
		{"a team without a tracker names the team and its line", rule(valid) + "\n[[team]]\nname = \"infra\"\n", []string{"line 7", `team "infra"`, "tracker"}},
		{"a route to an unknown team names it", rule(valid) + "\n[[route]]\nlayer = \"sandbox\"\nteam = \"ghosts\"\n", []string{"line 7", "ghosts"}},
		{"a missing name", rule("error = 'x'\nlayer = \"sandbox\""), []string{"line 1", "rule #1: missing name"}},
		{"a bad name", rule("name = \"a b\"\nerror = 'x'\nlayer = \"sandbox\""), []string{`rule "a b"`, "letters, digits"}},
		{"a built-in name", rule("name = \"memory\"\nerror = 'x'\nlayer = \"sandbox\""), []string{`rule "memory"`, "built-in"}},
		{"a duplicate name", rule(valid) + "\n" + rule(valid), []string{"line 7", `rule "ok": duplicate name, first used at line 1`}},
		{"a missing layer", rule("name = \"a\"\nerror = 'x'"), []string{`rule "a": missing layer`}},
		{"a layer outside the vocabulary", rule("name = \"a\"\nerror = 'x'\nlayer = \"sandbx\""), []string{`layer "sandbx" is not one of interface, sandbox, test`}},
		{"unclassified is not a rule's layer", rule("name = \"a\"\nerror = 'x'\nlayer = \"unclassified\""), []string{`layer "unclassified" is not one of`}},
		{"a primitive of another layer", rule("name = \"a\"\nerror = 'x'\nlayer = \"interface\"\nprimitive = \"memory\""), []string{`primitive "memory" is not a interface primitive`}},
		{"an error regex that does not compile", rule("name = \"a\"\nerror = '(unclosed'\nlayer = \"sandbox\""), []string{`rule "a": error regex does not compile`, "missing closing )"}},
		{"a log regex that does not compile", rule("name = \"a\"\nlog = '[z-a]'\nlayer = \"sandbox\""), []string{`rule "a": log regex does not compile`}},
		{"a regex too long", rule("name = \"a\"\nerror = '" + strings.Repeat("a", 1001) + "'\nlayer = \"sandbox\""), []string{`rule "a": error regex is 1001 characters long; the limit is 1000`}},
		{"a rule that matches everything", rule("name = \"a\"\nlayer = \"sandbox\""), []string{`rule "a": matches every failure`}},
		{"every problem is reported", rule("name = \"a\"\nerror = '('\nlayer = \"nope\""), []string{"error regex does not compile", `layer "nope"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := ParseConfig("rules.toml", []byte(tt.toml))
			if err == nil {
				t.Fatalf("got config %+v, want an error", cfg)
			}
			for _, want := range tt.wants {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not contain %q", err, want)
				}
			}
		})
	}
}

func TestParseConfigOfAnEmptyFile(t *testing.T) {
	cfg, err := ParseConfig("empty.toml", nil)
	if err != nil {
		t.Fatalf("ParseConfig: %v", err)
	}
	if len(cfg.Rules) != 0 {
		t.Errorf("got %d rules, want none", len(cfg.Rules))
	}
}

func TestConfiguredRulesClassify(t *testing.T) {
	cfg, err := ParseConfig("rules.toml", []byte(goodConfig))
	if err != nil {
		t.Fatal(err)
	}
	c := NewClassifier(cfg.Rules)
	got := c.Classify(Failure{Target: "browser", Error: "AssertionError: boom"})
	if want := (Classification{Layer: "test", Primitive: "harness", By: "rule:checker-bugs", Signature: "AssertionError: boom"}); got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
}
