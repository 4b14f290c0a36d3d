package triage

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Learned guessing. The stems of primitiveWords speak only when a message
// leans clearly one way, and most messages of a cause no rule names lean
// no way they know. WordModel learns which words go with which primitive
// from messages people labelled, tools' words the stems never listed
// ("kubelet", "webdriver", "gunicorn"): the guess model as a logistic
// regression (linear.go), the severity model as naive Bayes over the words
// of labelled failures (Manning, Raghavan and Schütze, "Introduction to
// Information Retrieval", ch. 13, the Bernoulli model, counting only the
// words present). Both are trained on the development halves of the
// labelled sets only (eval/cmd/trainguess), so that the test halves still
// measure them, and the guess speaks last: after every rule and after the
// stems.

// WordModel guesses a class from words: by naive Bayes from the counts,
// per class, of the labelled failures and of the failures holding each
// word, or by logistic regression from a weight per word and class.
type WordModel struct {
	// Classes are "layer/primitive".
	Classes []string `json:"classes"`
	// Docs is the number of failures of each class.
	Docs []int `json:"docs,omitempty"`
	// Words holds, for each word seen in at least minWordDocs failures,
	// how many failures of each class hold it.
	Words map[string][]int `json:"words,omitempty"`
	// Weights and Bias, when set, make the model a logistic regression
	// (linear.go): per word, a weight for each class, and each class's
	// score starts at its bias. Words and Docs are then left out.
	Weights map[string][]float64 `json:"weights,omitempty"`
	Bias    []float64            `json:"bias,omitempty"`
	// Rules holds, per built-in rule's By, what the rule did to the
	// failures the model learned from: how sure the model must be to
	// overrule it (see RuleRecord.OverruleMargin).
	Rules map[string]RuleRecord `json:"rules,omitempty"`
}

// Example is a labelled failure to learn from.
type Example struct {
	Failure          Failure
	Layer, Primitive string
	Severity         string
}

// minWordDocs is how many failures must hold a word for the model to
// keep it: a word seen once says more of its message than of its class.
const minWordDocs = 2

// Smoothing of the word likelihoods: (n + wordPrior) / (docs + 2·wordPrior).
const wordPrior = 0.3

// minLeaningWords is how many of its words must favour a guess: a class
// that only the target, the domain or the exit code favours is no guess
// from the message.
const minLeaningWords = 1

// minBayesMargin is how much likelier, in natural log, the guessed class
// must be than the next one.
const minBayesMargin = 0.0

// minUnnamedMargin is the margin, in natural log, above which the model
// is sure of a primitive the message names no word of. Below it the guess
// is only a lean (see GuessLeaning): chance words can lead there, such as
// a user name in sshd's "Invalid user <name>", or a program's own
// "ValueError: could not convert", which leans to NUL bytes because the
// model saw "ValueError: embedded null byte" often. The margin is the
// regression's log odds of its class over the next: at 2 (odds of 7 to
// 1), scored with ten folds of the labelled sets, the leans were right
// 0.422 of the time and the sure guesses 0.771 (at 1: 0.337 and 0.766; at
// 3: 0.460 and 0.767), and the primitive accuracy barely moved.
const minUnnamedMargin = 2.0

// TrainWordModel learns, from examples in valid classes, a WordModel that
// guesses by logistic regression (linear.go) over the words naive Bayes
// would keep.
func TrainWordModel(examples []Example) *WordModel {
	var classes []string
	for _, layer := range []string{"interface", "sandbox", "test"} {
		for _, p := range primitivesByLayer[layer] {
			classes = append(classes, ModeGroup(layer, p))
		}
	}
	features := make([][]string, len(examples))
	for i := range examples {
		features[i] = guessFeatures(&examples[i].Failure)
	}
	docs := func(yield func(class string, features []string)) {
		for i, ex := range examples {
			yield(ModeGroup(ex.Layer, ex.Primitive), features[i])
		}
	}
	// The counts choose the words the regression reads, then go: the
	// regression alone guesses.
	m := learnWords(classes, docs)
	m.trainLinear(docs)
	m.Words, m.Docs = nil, nil
	return m
}

// learnWords counts the documents each of classes holds and, for each word
// that at least minWordDocs of them hold, how many of each class hold it.
// docs yields each labelled document's class and distinct words; one of
// no class in classes is skipped.
func learnWords(classes []string, docs func(yield func(class string, features []string))) *WordModel {
	m := &WordModel{Classes: classes, Docs: make([]int, len(classes)), Words: map[string][]int{}}
	index := map[string]int{}
	for i, c := range classes {
		index[c] = i
	}
	counts := map[string][]int{}
	docs(func(class string, features []string) {
		c, ok := index[class]
		if !ok {
			return
		}
		m.Docs[c]++
		for _, w := range features {
			if counts[w] == nil {
				counts[w] = make([]int, len(classes))
			}
			counts[w][c]++
		}
	})
	for w, n := range counts {
		total := 0
		for _, v := range n {
			total += v
		}
		if total >= minWordDocs {
			m.Words[w] = n
		}
	}
	return m
}

// guessFeatures returns the distinct words a failure is guessed from: the
// lower-case constant words of its suspect lines (runs of letters and
// underscores, 3 to 25 long, without stop words) and its target, domain
// and exit code.
func guessFeatures(f *Failure) []string {
	text := wholeText(f)
	return featuresOf(text, nameParts(text), f)
}

// featuresOf is guessFeatures of text, the failure's suspect lines, and
// parts, the nameParts of text.
func featuresOf(text, parts string, f *Failure) []string {
	out := append(constantWordsOf(text, parts), "target="+f.Target, "domain="+f.Domain)
	if f.ExitCode != nil {
		out = append(out, "exit="+strconv.FormatInt(*f.ExitCode, 10))
	}
	return out
}

// constantWordsOf returns the distinct lower-case constant words of text
// and of parts, its nameParts: runs of letters and underscores, 3 to 25
// long, without stop words.
func constantWordsOf(text, parts string) []string {
	// Only the constant words: a host, a path, a user or a number varies
	// between the failures of one cause, and a guess that followed them
	// would split the cause over primitives.
	lower := constantWords(strings.ToLower(text)) + " " + constantWords(strings.ToLower(parts))
	return wordsOf(lower, func(w string) bool { return !guessStopWords[w] })
}

// wordsOf returns the distinct runs of letters and underscores of lower,
// trimmed of underscores, 3 to 25 long, that keep accepts.
func wordsOf(lower string, keep func(string) bool) []string {
	seen := map[string]bool{}
	var out []string
	for i := 0; i < len(lower); {
		if !isWordLetter(lower[i]) {
			i++
			continue
		}
		j := i
		for j < len(lower) && isWordLetter(lower[j]) {
			j++
		}
		if w := strings.Trim(lower[i:j], "_"); len(w) >= 3 && len(w) <= 25 && !seen[w] && keep(w) {
			seen[w] = true
			out = append(out, w)
		}
		i = j
	}
	return out
}

func isWordLetter(c byte) bool { return c >= 'a' && c <= 'z' || c == '_' }

// nameParts returns the words inside the names of text, one line of them:
// the last part of a dotted name (selenium.common.exceptions.X), and the
// words of camelCase and snake_case, which exception classes and error
// constants are made of (InvalidSessionIdException, FUNCTION_INVOCATION_TIMEOUT).
func nameParts(text string) string {
	var b strings.Builder
	for _, tok := range strings.Fields(text) {
		core := strings.Trim(tok, `'"`+"`()[]{},;:.!")
		if dottedName(core) {
			core = core[strings.LastIndexByte(core, '.')+1:]
		}
		if !strings.ContainsAny(core, "_ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
			continue
		}
		for i := 0; i < len(core); i++ {
			c := core[i]
			switch {
			case c == '_' || c == '-':
				b.WriteByte(' ')
				continue
			case i > 0 && isUpper(c) && (!isUpper(core[i-1]) || i+1 < len(core) && !isUpper(core[i+1]) && isLetter(core[i+1])):
				// A capital after a small letter, or the last capital
				// of a run before small letters (HTTPError: HTTP Error).
				b.WriteByte(' ')
			}
			b.WriteByte(c)
		}
		b.WriteByte(' ')
	}
	return b.String()
}

var guessStopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`the and for with from was are this that not you your has have had but can could
		will would into when then than there their its been being were which what while where who how why all any some
		more most other such only own same too very just also use used using line file error errors failed`) {
		m[w] = true
	}
	return m
}()

// Guess returns the class whose words features hold likeliest, the margin
// in natural log over the next class, and the words that most favoured it.
func (m *WordModel) Guess(features []string) (class string, margin float64, words []string) {
	if m == nil || len(m.Classes) < 2 {
		return "", 0, nil
	}
	if m.Weights != nil {
		return m.guessLinear(features)
	}
	total := 0
	for _, d := range m.Docs {
		total += d
	}
	if total == 0 {
		return "", 0, nil
	}
	scores := make([]float64, len(m.Classes))
	for c, d := range m.Docs {
		scores[c] = math.Log((float64(d) + wordPrior) / (float64(total) + wordPrior*float64(len(m.Classes))))
	}
	var known []string
	for _, w := range features {
		n, ok := m.Words[w]
		if !ok {
			continue
		}
		known = append(known, w)
		for c, d := range m.Docs {
			scores[c] += m.likelihood(n[c], d)
		}
	}
	best, second := topTwo(scores)
	// The words that most favoured the guess over the runner-up, for
	// people to judge it by.
	words = leaningWords(known, func(i int) float64 {
		n := m.Words[known[i]]
		return m.likelihood(n[best], m.Docs[best]) - m.likelihood(n[second], m.Docs[second])
	})
	return m.Classes[best], scores[best] - scores[second], words
}

// leaningWords returns the three words of known that favour a guess most,
// by favour(i) of the i-th word, leaving out those that favour it not at
// all and the target, domain and exit code (key=value features), which
// are no words of the message.
func leaningWords(known []string, favour func(i int) float64) []string {
	type lean struct {
		word string
		by   float64
	}
	var leans []lean
	for i, w := range known {
		if strings.Contains(w, "=") {
			continue
		}
		if by := favour(i); by > 0 {
			leans = append(leans, lean{w, by})
		}
	}
	slices.SortStableFunc(leans, func(a, b lean) int {
		switch {
		case a.by > b.by:
			return -1
		case a.by < b.by:
			return 1
		}
		return strings.Compare(a.word, b.word)
	})
	var words []string
	for i := 0; i < len(leans) && i < 3; i++ {
		words = append(words, leans[i].word)
	}
	return words
}

func (m *WordModel) likelihood(n, docs int) float64 {
	return math.Log((float64(n) + wordPrior) / (float64(docs) + 2*wordPrior))
}

// guessModelJSON is the model eval/cmd/trainguess trained from the
// labelled sets' development halves.
//
//go:embed guess_model.json
var guessModelJSON []byte

// GuessModel returns the model that guesses the failures neither a rule nor
// the stems decide.
var GuessModel = sync.OnceValue(func() *WordModel { return embeddedModel("guess_model.json", guessModelJSON) })

// embeddedModel decodes a model embedded from file; a model that does not
// decode, or whose weights do not fit its classes, is a broken build.
func embeddedModel(file string, b []byte) *WordModel {
	var m WordModel
	if err := json.Unmarshal(b, &m); err != nil {
		panic("triage: " + file + ": " + err.Error())
	}
	if err := m.consistent(); err != nil {
		panic("triage: " + file + ": " + err.Error())
	}
	return &m
}

// consistent reports a model whose biases or weights do not hold one
// number per class.
func (m *WordModel) consistent() error {
	if m.Weights == nil {
		return nil
	}
	if len(m.Bias) != len(m.Classes) {
		return fmt.Errorf("%d biases for %d classes", len(m.Bias), len(m.Classes))
	}
	for w, ws := range m.Weights {
		if len(ws) != len(m.Classes) {
			return fmt.Errorf("word %q: %d weights for %d classes", w, len(ws), len(m.Classes))
		}
	}
	return nil
}

// minStemsOverrule is the margin, in natural log, by which the learned
// model must favour another class than the stems' guess to overrule it.
// The model knows the words of the tools that print them; the stems only
// words people listed. Scored with ten folds of the labelled sets (each
// tenth by a model trained on the other nine tenths' development halves),
// margins of 0 and 1 gave the same primitive accuracy over their test
// halves within 8 records (0.8595 and 0.8592, against 0.8588 at 2 and
// 0.8578 at 3); 1 leaves the stems' guess where the model is barely surer
// (the stems kept 864 records, 0.860 right, against 788 at 0).
const minStemsOverrule = 1.0

// surerModel returns the learned model m's class for text, the suspect
// lines of f, when stems guessed another and m favours its own by at
// least minStemsOverrule with one of its words; ok is false otherwise.
func surerModel(m *WordModel, f *Failure, text string, stems Classification) (cl Classification, words []string, ok bool) {
	if !strings.HasPrefix(stems.By, GuessBy) {
		return stems, nil, false
	}
	class, margin, words := m.Guess(featuresOf(text, nameParts(text), f))
	if class == "" || margin < minStemsOverrule || len(words) < minLeaningWords || class == ModeGroup(stems.Layer, stems.Primitive) {
		return stems, nil, false
	}
	layer, primitive := splitGroup(class)
	return Classification{Layer: layer, Primitive: primitive, By: GuessLearned + strings.Join(words, ",")}, words, true
}

// guessByModel classifies f by the learned model m and returns the words
// that leaned its way, or none as it is and no words when m favours no
// class. A failure in a campaign has a cause, and a wrong lean costs no
// more than none; a lean says so in its By.
func guessByModel(m *WordModel, f *Failure, text string, none Classification) (Classification, []string) {
	parts := nameParts(text)
	lower := strings.ToLower(text + "\n" + parts)
	class, margin, words := m.Guess(featuresOf(text, parts, f))
	if class == "" || margin <= minBayesMargin || len(words) < minLeaningWords {
		return none, nil
	}
	layer, primitive := splitGroup(class)
	how := GuessLearned
	// A NUL byte guessed from a lone error line must be named there: the
	// development halves' "ValueError: embedded null byte" made any lone
	// ValueError a NUL byte ("could not convert string to float: 'N/A'").
	lone := len(bytes.TrimSpace(f.LogTail)) == 0
	if (margin < minUnnamedMargin || lone && primitive == "null-byte") && !slices.ContainsFunc(primitiveWords[primitive], func(w string) bool { return hasStem(lower, w) }) {
		if lone {
			// A lone error line leans on chance words: sshd's user
			// names, a workflow's own ValueError. The harness's log
			// names the step, the tool and its arguments.
			return none, nil
		}
		how = GuessLeaning
	}
	return Classification{Layer: layer, Primitive: primitive, By: how + strings.Join(words, ",")}, words
}
