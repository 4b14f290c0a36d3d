package triage

import (
	_ "embed"
	"regexp"
	"slices"
	"strings"
	"sync"

	"sandtrap"
)

// Learned severity. What makes a failure critical (data lost or cut
// without an error, a check let through, a secret shown) is said in
// words no list of phrasings keeps up with: each campaign's tools say
// "gone after the restart", "bypassed", "reported success" their own way.
// The severity model is a WordModel of two classes over the words of mode
// signatures, learned from how people rated the labelled failures'
// development halves (eval/cmd/trainguess). It only ever raises a mode to
// critical, after the refinements of severityRefinements, which name
// phrasings and may lower; a person's severity beats both.

// Classes of the severity model.
const (
	classCritical    = "critical"
	classNotCritical = "not-critical"
)

// minCriticalLogOdds is the natural-log odds above which the model rates
// a mode critical. Chosen by leaving each labelled set out in turn and
// rating its test half with a model of the others' development halves
// (docs/classification.md): at 8 the modes it adds are critical more often
// than the rules' own critical modes are; lower, each critical mode it adds
// comes with two or more false ones.
const minCriticalLogOdds = 8.0

// TrainSeverityModel learns the severity model from the examples outside
// the test layer that people rated, each read as the mode the classifier c
// makes of it: c must run the guess model and the rules the severity model
// will be used with.
func TrainSeverityModel(examples []Example, c *Classifier) *WordModel {
	return learnWords([]string{classCritical, classNotCritical}, func(yield func(string, []string)) {
		for _, ex := range examples {
			if ex.Layer == sandtrap.LayerTest || ex.Severity == "" {
				continue
			}
			class := classNotCritical
			if ex.Severity == sandtrap.SeverityCritical {
				class = classCritical
			}
			cl := c.Classify(ex.Failure)
			yield(class, severityFeatures(cl.Layer, cl.Primitive, cl.ModeSignature()))
		}
	})
}

// maskPlaceholder is a mask the normaliser put in a signature's variable
// parts: <n>, <name>, <path>, <*>.
var maskPlaceholder = regexp.MustCompile(`<[a-z_*]+>`)

// severityFeatures returns what the severity model reads of a mode: the
// distinct words of its signature and of the names in it, without the
// masks of its variable parts, and its class, layer and primitive in one,
// for how often people rate a primitive's failures critical differs
// tenfold. Unlike the guess model's, the words keep the short common ones:
// "was", "not", "been" and "were" are how reports of lost data read.
func severityFeatures(layer, primitive, signature string) []string {
	text := maskPlaceholder.ReplaceAllString(signature, " ")
	words := wordsOf(strings.ToLower(text+"\n"+nameParts(text)), func(string) bool { return true })
	if succeededWords.MatchString(text) && damagedWords.MatchString(text) {
		words = append(words, succeededButDamaged)
	}
	return append(words, "class="+ModeGroup(layer, primitive))
}

// succeededButDamaged is the feature of a signature that says both that
// its operation succeeded and that its data came out cut, empty or
// corrupted: silent loss, which neither word says alone. 10 of the 12
// blind records that say both were rated critical.
const succeededButDamaged = "succeeded-but-damaged"

// succeededWords and damagedWords are the two halves of
// succeededButDamaged.
var (
	succeededWords = regexp.MustCompile(`(?i)\b(success|successful|successfully|succeeded|completed)\b`)
	damagedWords   = regexp.MustCompile(`(?i)truncat|corrupt|\bempty\b|\b0 bytes\b|zero bytes|incomplete|\bcut\b|\blost\b|\bmissing\b|\bdropped\b|\bpartial\b`)
)

// minCriticalWordDocs is how many critical failures must have held a word
// for it to count as leaning critical: with ten times as many other
// failures, a word seen once in each leans critical by chance.
const minCriticalWordDocs = 2

// readsCritical reports whether m rates the mode of this layer, primitive
// and signature critical, and the words that leaned most that way: one
// that critical failures held at least minCriticalWordDocs times must, for
// a class alone makes no failure critical.
func readsCritical(m *WordModel, layer, primitive, signature string) (bool, []string) {
	class, margin, words := m.Guess(severityFeatures(layer, primitive, signature))
	if class != classCritical || margin <= minCriticalLogOdds {
		return false, words
	}
	critical := slices.Index(m.Classes, classCritical)
	return slices.ContainsFunc(words, func(w string) bool { return m.Words[w][critical] >= minCriticalWordDocs }), words
}

// severityModelJSON is the model eval/cmd/trainguess trained from the
// labelled sets' development halves.
//
//go:embed severity_model.json
var severityModelJSON []byte

// SeverityModel returns the model that rates a mode critical from the
// words of its signature, its layer and its primitive.
var SeverityModel = sync.OnceValue(func() *WordModel { return embeddedModel("severity_model.json", severityModelJSON) })

// learnedCriticalReason is the severity reason of a mode the model rates
// critical, with the words that decided.
func learnedCriticalReason(words []string) string {
	return "critical: reads like the failures people rated critical (" + strings.Join(words, ", ") + ")"
}
