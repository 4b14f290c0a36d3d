package triage

import (
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
)

func TestAGateNamesTheStringsEveryMatchHolds(t *testing.T) {
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
			var got gate
			if p := splitGate(regexp.MustCompile(tt.pattern)); p != nil && p.rest == nil {
				got = p.gate()
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("the gate of %q got %q, want %q", tt.pattern, got, tt.want)
			}
		})
	}
}

func TestTopBranchesSplitsOnlyTheOutermostAlternation(t *testing.T) {
	tests := []struct {
		name, pattern string
		flags         string
		want          []string
		ok            bool
	}{
		{"bars at the top split", `(?i)no space left|ENOSPC`, "(?i)", []string{"no space left", "ENOSPC"}, true},
		{"a bar in a group does not", `(connection (refused|reset))|timed out`, "", []string{"(connection (refused|reset))", "timed out"}, true},
		{"a bar in a class or escaped does not", `[|]x|a\|b|[]|]y`, "", []string{"[|]x", `a\|b`, "[]|]y"}, true},
		{"a class of a POSIX class keeps its bracket", `[[:alpha:]|]+|z`, "", []string{"[[:alpha:]|]+", "z"}, true},
		{"a pattern without bars is one branch", `Killed by signal`, "", []string{"Killed by signal"}, true},
		{"a first group with flags and a body is a group", `(?i:enospc)|no space left`, "", []string{"(?i:enospc)", "no space left"}, true},
		{"a first named group is a group", `(?P<code>ENOSPC)|no space left`, "", []string{"(?P<code>ENOSPC)", "no space left"}, true},
		{"flags set after the start are not followed", `a|(?i)b|c`, "", nil, false},
		{"quoted text is not followed", `\Qa|b\E|c`, "", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			flags, got, ok := topBranches(tt.pattern)
			if ok != tt.ok || flags != tt.flags || !slices.Equal(got, tt.want) {
				t.Errorf("topBranches(%q) got %q %q %v, want %q %q %v", tt.pattern, flags, got, ok, tt.flags, tt.want, tt.ok)
			}
			if !ok {
				return
			}
			// Split and joined again, the branches are the pattern.
			re := regexp.MustCompile(tt.pattern)
			for _, text := range []string{"no space left", "ENOSPC", "connection reset", "|x", "a|b", "]y", "ab|", "Killed by signal", "zz", "nothing"} {
				if got, want := splitMatches(re, text), re.MatchString(text); got != want {
					t.Errorf("on %q: got %v through the branches, want %v", text, got, want)
				}
			}
		})
	}
}

// splitMatches matches text through re's gated branches, or re whole when
// it has none.
func splitMatches(re *regexp.Regexp, text string) bool {
	r := Rule{ErrorRegex: re, errorGated: splitGate(re)}
	return r.errorMatches(text, gateFold(text))
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
			p := splitGate(re)
			if p == nil {
				t.Fatalf("got no gate for %q, want one", tt.pattern)
			}
			if !p.match(tt.text, gateFold(tt.text)) {
				t.Errorf("got the gate %q refusing %q, which its pattern matches", p.gate(), tt.text)
			}
		})
	}
}

// TestGatesNeverRefuseATextTheirPatternMatches runs every built-in rule's
// pattern over labelled messages as the classifier reads them whole (their
// suspect lines, and the ends of the error and the log): through its gated
// branches, a rule must match exactly the texts its pattern matches, and
// name the line where the pattern's leftmost match starts.
func TestGatesNeverRefuseATextTheirPatternMatches(t *testing.T) {
	// Every eighth message, so that make test stays quick: running every
	// pattern over a text its gate refuses is what the gates save (every
	// fourth took 100 s of the suite's time at 32,000 labelled records).
	// FuzzGatesAdmitWhatTheirPatternsMatch covers any text under make fuzz.
	// Each distinct text is read once and folded once (the sets repeat
	// messages), and the rules run in parallel.
	var texts, foldedTexts []string
	seen := map[string]bool{}
	for i, f := range labelledFailures(t) {
		if text := wholeText(&f); i%8 == 0 && !seen[text] {
			seen[text] = true
			texts = append(texts, text)
			foldedTexts = append(foldedTexts, gateFold(text))
		}
	}
	c := NewClassifier(nil)
	var gated, refused atomic.Int64
	t.Run("every gated rule", func(t *testing.T) {
		for _, r := range c.rules {
			if r.errorGated == nil {
				continue
			}
			gated.Add(1)
			t.Run(r.Name, func(t *testing.T) {
				t.Parallel()
				g := r.errorGated.gate()
				for i, text := range texts {
					folded := foldedTexts[i]
					if !g.admits(folded) {
						refused.Add(1)
					}
					got, want := r.errorMatches(text, folded), r.ErrorRegex.MatchString(text)
					if got != want {
						t.Errorf("on %q: got a match %v through its gate, want %v", text, got, want)
					}
					if got && want {
						if line, wantLine := r.errorLine(text, folded), lineAt(text, r.ErrorRegex.FindStringIndex(text)); line != wantLine {
							t.Errorf("on %q: got the line %q through its branches, want %q", text, line, wantLine)
						}
					}
				}
			})
		}
	})
	if gated.Load() == 0 || refused.Load() == 0 {
		t.Errorf("got %d gated rules refusing %d texts, want gates that refuse", gated.Load(), refused.Load())
	}
	t.Logf("%d of %d built-in rules gated; %d of %d texts refused without running their whole patterns", gated.Load(), len(builtinRules), refused.Load(), gated.Load()*int64(len(texts)))
}

func FuzzGatesAdmitWhatTheirPatternsMatch(f *testing.F) {
	c := NewClassifier(nil)
	for _, r := range c.rules {
		if r.errorGated == nil {
			continue
		}
		for _, s := range r.errorGated.gate() {
			f.Add(strings.ToUpper(s) + " failed")
		}
	}
	f.Add("\u212Ailled by \u017Feccomp")
	f.Fuzz(func(t *testing.T, text string) {
		folded := gateFold(text)
		for _, r := range c.rules {
			if r.ErrorRegex == nil {
				continue
			}
			if got, want := r.errorMatches(text, folded), r.ErrorRegex.MatchString(text); got != want {
				t.Errorf("rule %s on %q: got a match %v through its gate, want %v", r.Name, text, got, want)
			}
		}
	})
}

func TestSplitGateKeepsTheBranchesWithoutStringsAsAPatternOfTheirOwn(t *testing.T) {
	re := regexp.MustCompile(`(?i)no space left|Ã[¤¥]|\\x00`)
	p := splitGate(re)
	if p == nil {
		t.Fatal("got no gated branches, want two")
	}
	if want := (gate{"no space left", "\\x00"}); !slices.Equal(p.gate(), want) {
		t.Errorf("got gate %q, want %q", p.gate(), want)
	}
	if p.rest == nil {
		t.Fatal("got no pattern for the branch without strings, want one")
	}
	tests := []struct {
		text string
		want bool
	}{
		{"Ã¤ where ä was meant", true},
		{"write failed: No space left on device", true},
		{"a plain message", false},
	}
	for _, tt := range tests {
		r := Rule{ErrorRegex: re, errorGated: p}
		if got := r.errorMatches(tt.text, gateFold(tt.text)); got != tt.want {
			t.Errorf("errorMatches(%q) got %v, want %v", tt.text, got, tt.want)
		}
	}
}

// gate returns the strings of every gated branch: a text that holds none
// of them matches p only if it matches p.rest.
func (p *gatedPattern) gate() gate {
	var g gate
	for _, b := range p.branches {
		g = append(g, b.gate...)
	}
	return g
}
