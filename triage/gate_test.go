package triage

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestGateOfNamesTheStringsEveryMatchHolds(t *testing.T) {
	tests := []struct {
		name, pattern string
		want          gate
	}{
		{"a literal is its own gate, in lower case", `(?i)Connection Refused`, gate{"connection refused"}},
		{"each branch of an alternation gives its strings", `(?i)ENOSPC|No space left`, gate{"enospc", "no space left"}},
		{"a concatenation gives its longest part", `exit (code|status) \d+: Killed by signal`, gate{": killed by signal"}},
		{"a repeated part is required once it must occur", `(?:abc){2,}x`, gate{"abc"}},
		{"a branch with no long string leaves no gate", `(?i)out of memory|\d+`, nil},
		{"an optional part cannot gate", `(?i)(timeout)?`, nil},
		{"a short literal cannot gate", `ab`, nil},
		{"letters outside ASCII are left out of the string", `(?i)Größe überschritten`, gate{"berschritten"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := gateOf(regexp.MustCompile(tt.pattern)); !slices.Equal(got, tt.want) {
				t.Errorf("gateOf(%q) got %q, want %q", tt.pattern, got, tt.want)
			}
		})
	}
}

func TestGateFoldLetsThroughWhatCaseInsensitivePatternsMatch(t *testing.T) {
	tests := []struct{ name, pattern, text string }{
		{"capitals", `(?i)killed`, "KILLED by the OOM killer"},
		{"the Kelvin sign a k matches", `(?i)killed`, "\u212Ailled"},
		{"the long s an s matches", `(?i)seccomp`, "\u017Feccomp"},
		{"a case-sensitive pattern", `MemoryError`, "raise MemoryError()"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			re := regexp.MustCompile(tt.pattern)
			if !re.MatchString(tt.text) {
				t.Fatalf("the pattern does not match %q", tt.text)
			}
			if !gateOf(re).admits(gateFold(tt.text)) {
				t.Errorf("got the gate %q refusing %q, which its pattern matches", gateOf(re), tt.text)
			}
		})
	}
}

// TestGatesNeverRefuseATextTheirPatternMatches runs every built-in rule's
// pattern over every labelled message as the classifier reads it whole (its
// suspect lines, and the ends of the error and the log): a gate may only
// refuse texts its pattern refuses.
func TestGatesNeverRefuseATextTheirPatternMatches(t *testing.T) {
	var texts []string
	for _, f := range labelledFailures(t) {
		texts = append(texts, wholeText(&f))
	}
	gated, refused := 0, 0
	for _, r := range builtinRules {
		g := gateOf(r.ErrorRegex)
		if g == nil {
			continue
		}
		gated++
		for _, text := range texts {
			admitted := g.admits(gateFold(text))
			if !admitted && r.ErrorRegex.MatchString(text) {
				t.Errorf("rule %s: got its gate refusing %q, which its pattern matches", r.Name, text)
			}
			if !admitted {
				refused++
			}
		}
	}
	if gated == 0 || refused == 0 {
		t.Errorf("got %d gated rules refusing %d texts, want gates that refuse", gated, refused)
	}
	t.Logf("%d of %d built-in rules gated; %d of %d texts refused without running their patterns", gated, len(builtinRules), refused, gated*len(texts))
}

// FuzzGatesAdmitWhatTheirPatternsMatch checks, on any text, that no rule's
// gate refuses a text its pattern matches. It starts from each gate's
// strings in capitals, so that mutations land near matches.
func FuzzGatesAdmitWhatTheirPatternsMatch(f *testing.F) {
	c := NewClassifier(nil)
	for _, r := range c.rules {
		for _, s := range r.errorGate {
			f.Add(strings.ToUpper(s) + " failed")
		}
	}
	f.Add("\u212Ailled by \u017Feccomp")
	f.Fuzz(func(t *testing.T, text string) {
		folded := gateFold(text)
		for _, r := range c.rules {
			if r.ErrorRegex != nil && !r.errorGate.admits(folded) && r.ErrorRegex.MatchString(text) {
				t.Errorf("rule %s: got its gate refusing %q, which its pattern matches", r.Name, text)
			}
		}
	})
}
