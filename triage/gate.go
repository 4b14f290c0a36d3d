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
// them is refused without running the pattern. Each branch of a pattern's
// alternation has a gate and an automaton of its own, so a text that one
// branch's words admit runs that branch alone, not the hundreds beside it.
// The answer is the pattern's own either way.

// gate is the strings one of which every match holds; nil admits every
// text.
type gate []string

// minGateLen is the shortest string a gate keeps: shorter ones are in
// nearly every text, so they refuse nothing.
const minGateLen = 3

// gatedPattern is a pattern split into the branches of its alternation
// that have a gate, each compiled alone, and a pattern of the branches
// that have none. It matches a text where one of them does.
type gatedPattern struct {
	branches []gatedBranch
	rest     *regexp.Regexp // nil when every branch has a gate
}

type gatedBranch struct {
	gate gate
	re   *regexp.Regexp
}

// splitGate returns re split into gated branches, or nil when no branch
// has a gate: then every text goes to re.
func splitGate(re *regexp.Regexp) *gatedPattern {
	if re == nil {
		return nil
	}
	flags, branches, ok := topBranches(re.String())
	if !ok || len(branches) == 1 {
		if g := requiredIn(re.String()); g != nil {
			return &gatedPattern{branches: []gatedBranch{{g, re}}}
		}
		return nil
	}
	// Each branch is compiled from its own source: printing a parsed
	// branch back folds the case of every class in it, which took half a
	// second for the built-in rules.
	p := &gatedPattern{}
	var open []string
	for _, b := range branches {
		g := requiredIn(flags + b)
		if g == nil {
			open = append(open, b)
			continue
		}
		branch, err := regexp.Compile(flags + b)
		if err != nil {
			return nil
		}
		p.branches = append(p.branches, gatedBranch{g, branch})
	}
	if p.branches == nil {
		return nil
	}
	if open != nil {
		var err error
		if p.rest, err = regexp.Compile(flags + "(?:" + strings.Join(open, "|") + ")"); err != nil {
			return nil
		}
	}
	return p
}

// requiredIn returns the strings one of which every match of pattern
// holds, or nil.
func requiredIn(pattern string) []string {
	parsed, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil
	}
	return required(parsed.Simplify())
}

// topBranches splits pattern at the bars of its outermost alternation,
// after a leading group of flags, which it returns to be put before each
// branch. It reports false for what it does not follow (flags set later
// at the top, quoted text), and then the pattern is one branch.
func topBranches(pattern string) (flags string, branches []string, ok bool) {
	rest := pattern
	if strings.HasPrefix(rest, "(?") {
		// A group of flags alone; a group that has flags and a body is
		// scanned like any group.
		if end := strings.IndexAny(rest, ":)"); end >= 0 && rest[end] == ')' && strings.Trim(rest[2:end], "imsU-") == "" {
			flags, rest = rest[:end+1], rest[end+1:]
		}
	}
	depth, inClass, from := 0, false, 0
	for i := 0; i < len(rest); i++ {
		switch c := rest[i]; {
		case c == '\\':
			if i+1 < len(rest) && rest[i+1] == 'Q' {
				return "", nil, false
			}
			i++
		case inClass:
			if c == '[' && i+1 < len(rest) && rest[i+1] == ':' {
				end := strings.Index(rest[i:], ":]")
				if end < 0 {
					return "", nil, false
				}
				i += end + 1
			} else if c == ']' {
				inClass = false
			}
		case c == '[':
			inClass = true
			// A ] first in a class, or after its ^, is a member.
			if i+1 < len(rest) && rest[i+1] == '^' {
				i++
			}
			if i+1 < len(rest) && rest[i+1] == ']' {
				i++
			}
		case c == '(':
			if depth == 0 && strings.HasPrefix(rest[i:], "(?") && !strings.HasPrefix(rest[i:], "(?:") && !strings.HasPrefix(rest[i:], "(?P") && !strings.HasPrefix(rest[i:], "(?<") {
				// Flags set here reach the branches after it.
				if end := strings.IndexAny(rest[i:], ":)"); end < 0 || rest[i+end] == ')' {
					return "", nil, false
				}
			}
			depth++
		case c == ')':
			depth--
		case c == '|' && depth == 0:
			branches = append(branches, rest[from:i])
			from = i + 1
		}
	}
	if depth != 0 || inClass {
		return "", nil, false
	}
	return flags, append(branches, rest[from:]), true
}

// match reports whether p matches text, whose gateFold is folded.
func (p *gatedPattern) match(text, folded string) bool {
	for _, b := range p.branches {
		if b.gate.admits(folded) && b.re.MatchString(text) {
			return true
		}
	}
	return p.rest != nil && p.rest.MatchString(text)
}

// start returns where in text p's leftmost match starts, or -1.
func (p *gatedPattern) start(text, folded string) int {
	first := -1
	note := func(re *regexp.Regexp) {
		if loc := re.FindStringIndex(text); loc != nil && (first < 0 || loc[0] < first) {
			first = loc[0]
		}
	}
	for _, b := range p.branches {
		if b.gate.admits(folded) {
			note(b.re)
		}
	}
	if p.rest != nil {
		note(p.rest)
	}
	return first
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
