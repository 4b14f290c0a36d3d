package triage

import (
	"math"
	"strings"

	"sandtrap"
)

// Restating by likeness. Tools print one cause in sentences of their own
// ("websocket: close 1009 (message too big)" and "ConnectionClosedError:
// code = 1009 (message too big), no reason"): their words sit in other
// places and are too few for restateShare, but the rare ones are shared.
// A new template restates the live template of its class whose words are
// most alike to its own, when the cosine of their tf-idf vectors reaches
// likenessThreshold; a word weighs more the fewer of the run's templates
// use it. Two known causes never restate each other: each names one cause
// on purpose. Only a failure a rule placed restates by likeness: one placed
// by its words alone shares them with other events of its class (Loghub's
// OpenSSH "Invalid user webmaster" and "Failed password for invalid user
// webmaster" are two), and measured that way the real system logs' grouping
// accuracy fell from 0.931 to 0.890.
const likenessThreshold = 0.25

// likeness indexes the words of every template's signature, for
// mostAlike.
type likeness struct {
	// templates counts the templates created or restored so far, and
	// users the templates that used each word: a word's rarity.
	templates int
	users     map[string]int
	byWord    map[string]map[string][]string // group → word → live template ids
	wordsOf   map[string][]string
	known     map[string]bool
}

func newLikeness() likeness {
	return likeness{users: map[string]int{}, byWord: map[string]map[string][]string{}, wordsOf: map[string][]string{}, known: map[string]bool{}}
}

// signatureWords returns the distinct lower-cased words of a signature's
// constant tokens, as templateWords does for a template, but from the
// whole signature: a known cause's template is one token, and its
// signature is its title and what the tool printed.
func signatureWords(signature string) []string {
	fields := strings.Fields(signature)
	kept := fields[:0:0]
	for i, tok := range fields {
		prev := ""
		if i > 0 {
			prev = fields[i-1]
		}
		if !variableToken(tok, prev) {
			kept = append(kept, tok)
		}
	}
	words := templateWords(kept)
	out := words[:0]
	for _, w := range words {
		if w != "known" {
			out = append(out, w)
		}
	}
	return out
}

// count notes the words of a template that was just created or restored.
func (l *likeness) count(words []string) {
	l.templates++
	for _, w := range words {
		l.users[w]++
	}
}

// add indexes a live template of group.
func (l *likeness) add(group, id string, words []string, known bool) {
	if l.byWord[group] == nil {
		l.byWord[group] = map[string][]string{}
	}
	for _, w := range words {
		l.byWord[group][w] = append(l.byWord[group][w], id)
	}
	l.wordsOf[id], l.known[id] = words, known
}

// remove takes a template that stopped being live out of the index.
func (l *likeness) remove(group, id string) {
	for _, w := range l.wordsOf[id] {
		ids := l.byWord[group][w]
		for i, other := range ids {
			if other == id {
				l.byWord[group][w] = append(ids[:i:i], ids[i+1:]...)
				break
			}
		}
	}
	delete(l.wordsOf, id)
	delete(l.known, id)
}

// weights returns the unit tf-idf vector of a template's words.
func (l *likeness) weights(words []string) map[string]float64 {
	v := make(map[string]float64, len(words))
	var norm float64
	for _, w := range words {
		x := math.Log(float64(l.templates+1) / (float64(l.users[w]) + 0.5))
		v[w] = x
		norm += x * x
	}
	norm = math.Sqrt(norm)
	for w := range v {
		v[w] /= norm
	}
	return v
}

// mostAlike returns the live template of group, other than self, that
// words restate by likeness, and whether there is one; eligible says which
// candidates may be taken.
func (l *likeness) mostAlike(group, self string, words []string, known bool, eligible func(id string) bool) (string, bool) {
	if len(words) == 0 || strings.HasPrefix(group, sandtrap.LayerUnclassified+"/") {
		return "", false
	}
	mine := l.weights(words)
	seen := map[string]bool{self: true}
	best, bestSim := "", 0.0
	for _, w := range words {
		for _, id := range l.byWord[group][w] {
			if seen[id] {
				continue
			}
			seen[id] = true
			if known && l.known[id] || !eligible(id) {
				continue
			}
			theirs := l.weights(l.wordsOf[id])
			var sim float64
			for _, ow := range l.wordsOf[id] {
				sim += theirs[ow] * mine[ow]
			}
			// A tie goes to the first found, so the answer never
			// depends on the order of a map.
			if sim > bestSim {
				best, bestSim = id, sim
			}
		}
	}
	return best, bestSim >= likenessThreshold
}

// isKnownCause reports a signature that names a known cause.
func isKnownCause(signature string) bool {
	_, _, ok := KnownCauseOf(signature)
	return ok
}

var GuessedThreshold = 1.1
