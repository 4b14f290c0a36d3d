package triage

import (
	_ "embed"
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

// TrainSeverityModel learns the severity model from examples outside the
// test layer, each read as the mode signature the classifier gives it
// with guess, the guess model it will run with.
func TrainSeverityModel(examples []Example, guess *WordModel) *WordModel {
	c := NewClassifierWith(nil, guess)
	return learnWords([]string{classCritical, classNotCritical}, func(yield func(string, []string)) {
		for _, ex := range examples {
			if ex.Layer == sandtrap.LayerTest {
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

// severityFeatures returns what the severity model reads of a mode: the
// distinct words of its signature and of the names in it, and its layer and
// primitive, for how often people rate a primitive's failures critical
// differs tenfold. Unlike the guess model's, the words keep the short
// common ones: "was", "not", "been" and "were" are how reports of lost data
// read. A signature's variable parts are masked already.
func severityFeatures(layer, primitive, signature string) []string {
	words := wordsOf(strings.ToLower(signature+"\n"+nameParts(signature)), func(string) bool { return true })
	return append(words, "layer="+layer, "primitive="+primitive)
}

// readsCritical reports whether m rates the mode of this layer, primitive
// and signature critical, and the words that leaned most that way: at
// least one must, for a primitive alone makes no failure critical.
func readsCritical(m *WordModel, layer, primitive, signature string) (bool, []string) {
	class, margin, words := m.Guess(severityFeatures(layer, primitive, signature))
	return class == classCritical && margin > minCriticalLogOdds && len(words) > 0, words
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
