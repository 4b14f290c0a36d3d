package triage

import (
	"sort"
	"strings"

	"sandtrap/drain"
)

// MergeCandidate is a failure mode the queue shows, as SuggestMerges reads
// it.
type MergeCandidate struct {
	ID, Layer, Primitive, Signature string
	Count                           int
}

// MergeSuggestion is a set of modes that share a template but for one
// token: perhaps one cause that the miner kept apart because the token is
// a word it could not tell is a variable.
type MergeSuggestion struct {
	// Into is the mode with the most failures; the others would merge into
	// it.
	Into string
	// From are the other modes, most failures first.
	From []string
	// Template is the shared template with the differing token as
	// drain.Wildcard, and Tokens the token each mode has there, in the
	// order Into, From….
	Template string
	Tokens   []string
}

// SuggestMerges finds the modes of one layer and primitive whose templates
// have the same length and differ in exactly one position where both hold
// a constant that is not an anchor. The miner was not sure (half the
// positions agreeing is its bar, and an anchor or a short message can keep
// two apart); a person decides. A mode appears in one suggestion at most,
// the one that groups the most modes.
func SuggestMerges(modes []MergeCandidate) []MergeSuggestion {
	type member struct {
		c     MergeCandidate
		token string
	}
	buckets := map[string][]member{}
	for _, c := range modes {
		tokens := TemplateTokens(c.Signature)
		for i, tok := range tokens {
			if tok == drain.Wildcard || AnchorToken(tok) {
				continue
			}
			masked := append(append(append([]string{}, tokens[:i]...), drain.Wildcard), tokens[i+1:]...)
			if countConstants(masked) < 2 {
				continue // a template of wildcards says nothing in common
			}
			key := ModeGroup(c.Layer, c.Primitive) + "\x00" + strings.Join(masked, " ")
			buckets[key] = append(buckets[key], member{c, tok})
		}
	}
	keys := make([]string, 0, len(buckets))
	for k, ms := range buckets {
		if len(ms) >= 2 {
			keys = append(keys, k)
		}
	}
	// Bigger groups first, then by key, so the answer is stable.
	sort.Slice(keys, func(i, j int) bool {
		if a, b := len(buckets[keys[i]]), len(buckets[keys[j]]); a != b {
			return a > b
		}
		return keys[i] < keys[j]
	})
	used := map[string]bool{}
	var out []MergeSuggestion
	for _, k := range keys {
		var ms []member
		for _, m := range buckets[k] {
			if !used[m.c.ID] {
				ms = append(ms, m)
			}
		}
		if len(ms) < 2 {
			continue
		}
		sort.SliceStable(ms, func(i, j int) bool {
			if ms[i].c.Count != ms[j].c.Count {
				return ms[i].c.Count > ms[j].c.Count
			}
			return ms[i].c.ID < ms[j].c.ID
		})
		_, template, _ := strings.Cut(k, "\x00")
		s := MergeSuggestion{Into: ms[0].c.ID, Template: template}
		for i, m := range ms {
			used[m.c.ID] = true
			s.Tokens = append(s.Tokens, m.token)
			if i > 0 {
				s.From = append(s.From, m.c.ID)
			}
		}
		out = append(out, s)
	}
	return out
}

func countConstants(tokens []string) int {
	n := 0
	for _, t := range tokens {
		if t != drain.Wildcard {
			n++
		}
	}
	return n
}
