package triage

import (
	"regexp"
	"regexp/syntax"
	"strings"
)

// Gating the patterns. Go's regexp runs a whole automaton over a text for
// each pattern, and the rules' patterns are long case-insensitive
// alternations: on a message nobody has seen, most of classifying it was
// running patterns over texts that hold none of their words. A gate is a
// few lower-case strings one of which every match of a pattern holds,
// found by walking the pattern's syntax tree; a text that holds none of
// them is refused without running the pattern. The answer is the
// pattern's own either way.

// gate is the strings one of which every match holds; nil admits every
// text.
type gate []string

// minGateLen is the shortest string a gate keeps: shorter ones are in
// nearly every text, so they refuse nothing.
const minGateLen = 3

// splitGate returns the gate of the branches of re's alternation that
// have one, and a pattern of the branches that have none, or nil when
// every branch has one. A text the gate refuses matches re only if it
// matches that pattern. With no branch gated, both are nil: every text
// goes to re.
func splitGate(re *regexp.Regexp) (gate, *regexp.Regexp) {
	if re == nil {
		return nil, nil
	}
	parsed, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return nil, nil
	}
	top := parsed.Simplify()
	for top.Op == syntax.OpCapture {
		top = top.Sub[0]
	}
	if g := required(top); g != nil {
		return g, nil
	}
	if top.Op != syntax.OpAlternate {
		return nil, nil
	}
	var g gate
	var open []*syntax.Regexp
	for _, sub := range top.Sub {
		if s := required(sub); s != nil {
			g = append(g, s...)
		} else {
			open = append(open, sub)
		}
	}
	if g == nil {
		return nil, nil
	}
	rest := open[0]
	if len(open) > 1 {
		rest = &syntax.Regexp{Op: syntax.OpAlternate, Flags: top.Flags, Sub: open}
	}
	restRe, err := regexp.Compile(rest.String())
	if err != nil {
		return nil, nil
	}
	return g, restRe
}

// required returns strings one of which every match of re, a simplified
// tree (no OpRepeat), holds, lower case and ASCII, or nil when it knows
// none.
func required(re *syntax.Regexp) []string {
	switch re.Op {
	case syntax.OpLiteral:
		if lit := longestASCII(string(re.Rune)); len(lit) >= minGateLen {
			return []string{strings.ToLower(lit)}
		}
	case syntax.OpCapture, syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpConcat:
		// Any part's strings will do; the longest shortest string
		// refuses the most texts.
		var best []string
		for _, sub := range re.Sub {
			if s := required(sub); s != nil && (best == nil || shortestLen(s) > shortestLen(best)) {
				best = s
			}
		}
		return best
	case syntax.OpAlternate:
		var all []string
		for _, sub := range re.Sub {
			s := required(sub)
			if s == nil {
				return nil
			}
			all = append(all, s...)
		}
		return all
	}
	return nil
}

// longestASCII returns the longest run of ASCII characters in s: a
// non-ASCII letter may fold to another case of another length.
func longestASCII(s string) string {
	best, start := "", 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] >= 0x80 {
			if i-start > len(best) {
				best = s[start:i]
			}
			start = i + 1
		}
	}
	return best
}

func shortestLen(ss []string) int {
	n := len(ss[0])
	for _, s := range ss[1:] {
		n = min(n, len(s))
	}
	return n
}

// admits reports whether folded, a text as gateFold returns it, holds one
// of g's strings.
func (g gate) admits(folded string) bool {
	if g == nil {
		return true
	}
	for _, s := range g {
		if strings.Contains(folded, s) {
			return true
		}
	}
	return false
}

// gateFold folds text as the gates compare it: lower case, with the two
// letters outside ASCII that a case-insensitive pattern matches to ASCII
// ones (the Kelvin sign, which lower-cases to k, and the long s) made
// ASCII.
func gateFold(text string) string {
	folded := strings.ToLower(text)
	if strings.ContainsRune(folded, 'ſ') {
		folded = strings.ReplaceAll(folded, "ſ", "s")
	}
	return folded
}
