package triage

import (
	"strings"
	"testing"
)

// Found by FuzzLoadConfig: problems that named no line.
func TestEveryConfigProblemNamesItsLine(t *testing.T) {
	tests := []struct {
		name, toml, want string
	}{
		{"an unknown dotted key in a rule", "[[rule]]\nname = \"a\"\nerror = \"x\"\nlayer = \"sandbox\"\nn.x = 1\n",
			`line 5: unknown key "rule.n.x"`},
		{"an unknown key written quoted and spaced", "[[rule]]\n\"name\" = \"a\"\nerror = \"x\"\nlayer = \"sandbox\"\n  bogus . 'x' = 1",
			`line 5: unknown key "rule.bogus.x"`},
		{"an unknown key in an inline table, on the line that holds it", "\nrule = [{name = \"a\", error = \"x\", layer = \"sandbox\", bogus = 1}]",
			`line 2: unknown key "rule.bogus"`},
		{"a problem of an inline rule, on the line of its array", "x_free = true\n\nrule = [{name = \"a\", layer = \"sandbox\"}]",
			`line 3: rule "a": matches every failure`},
		{"a [rule] table where [[rule]] tables belong", "# rules\n[rule]\nname = \"a\"",
			"line 2: rule is a table, where an array belongs"},
		{"a number where a name belongs", "[[rule]]\nname = 1", "line 2: rule.name is an integer, where a string belongs"},
		{"a string where exit codes belong", "[[rule]]\nexit_code = \"137\"", "line 2: rule.exit_code is a string, where an array belongs"},
		{"a number where a route's team belongs", "[[team]]\nname = \"x\"\n[[route]]\nteam = 3", "line 4: route.team is an integer, where a string belongs"},
		{"a rule of a table named in capitals, which the decoder reads as a rule", "\n[[Rule]]\nname = \"a\"", `line 2: rule "a": missing layer`},
		{"an alert of a table named in capitals", "\n\n[[Alert]]", `line 3: alert #1: name: missing`},
		{"a line end inside a string on the first line", "name = \"a\r\n", `line 1: strings cannot contain newlines`},
		{"a line end inside a string on a later line", "x = 1\r\nname = \"a\r\n", `line 2: strings cannot contain newlines`},
		{"an unknown table after a byte-order mark", "\ufeff[[rules]]\nname = \"a\"", `line 1: unknown key "rules"`},
		{"a problem of an inline alert, on the line of its array", "\nalert = [{name = \"x\"}]", `line 2: alert "x": has no destination`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseConfig("c.toml", []byte(tt.toml))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want it to say %q", err, tt.want)
			}
		})
	}
}
