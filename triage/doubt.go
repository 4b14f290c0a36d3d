package triage

import (
	"bytes"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
)

// Doubted rules. Some rules read words that several causes print: "No
// such file or directory" is a file the sandbox lost, a fixture the test
// never shipped or a program that is not installed, and people label it
// each way about as often. Over the labelled development halves such a
// rule gives fewer than ruleTrust of the failures it decides their
// labelled class. The learned model, which reads every word of the error
// and the log, the tool's name among them, overrules a rule it doubts
// when it is sure of another class. The doubted rules are learned with
// the model (eval/cmd/trainguess), so each evaluation that leaves a set
// out doubts the rules by the other sets only.

// RuleRecord counts the labelled failures one rule decided and how many
// of them it gave their labelled class.
type RuleRecord struct {
	Decided int `json:"decided"`
	Right   int `json:"right"`
}

// ruleTrust is the share of its failures a rule must give their labelled
// class not to be doubted; minDoubtDocs how many it must have decided
// before its share says anything.
const (
	ruleTrust    = 0.9
	minDoubtDocs = 10
)

// minDoubtMargin is the margin, in natural log, by which the learned
// model must favour another class than a doubted rule's to overrule it.
// Scored by models trained on the other nine tenths of the labelled sets,
// a margin of 5 fixed more test-half records than 8 but broke twice as
// many development-half ones; 8 fixed the most development-half records.
const minDoubtMargin = 8.0

// notDoubted are the rules whose decision is not a reading of words: a
// credential shown to the agent is the finding whatever else failed.
var notDoubted = []string{SecretShownRule, ArtifactRule}

// RuleRecords classifies examples by the built-in rules, doubting none,
// and counts per deciding rule's By the failures it decided and those it
// gave their labelled class. Failures the harness labelled or that no rule
// decided are not counted.
func RuleRecords(examples []Example) map[string]RuleRecord {
	c := NewClassifierWith(nil, nil)
	out := map[string]RuleRecord{}
	for i := range examples {
		ex := &examples[i]
		cl := c.Classify(ex.Failure)
		if !strings.HasPrefix(cl.By, ruleBy) {
			continue
		}
		r := out[cl.By]
		r.Decided++
		if cl.Layer == ex.Layer && cl.Primitive == ex.Primitive {
			r.Right++
		}
		out[cl.By] = r
	}
	return out
}

// ruleBy starts the By of a failure a rule decided.
const ruleBy = "rule:"

// DoubtedRules returns, sorted, the By of the rules in records that
// decided at least minDoubtDocs failures and gave fewer than ruleTrust of
// them their labelled class.
func DoubtedRules(records map[string]RuleRecord) []string {
	var out []string
	for by, r := range records {
		if r.Decided >= minDoubtDocs && float64(r.Right) < ruleTrust*float64(r.Decided) && !slices.Contains(notDoubted, by) {
			out = append(out, by)
		}
	}
	slices.Sort(out)
	return out
}

// overruleDoubted returns the learned model's class for f when a rule it
// doubts decided out and it favours another class by minDoubtMargin, with
// at least one word of the message; out as it is otherwise. key is f's
// failure key; the model's answer is cached under it and a hash of the
// text it read.
func (c *Classifier) overruleDoubted(f *Failure, key string, out Classification) Classification {
	if !c.doubted[out.By] || len(bytes.TrimSpace(f.LogTail)) == 0 {
		return out
	}
	text := wholeText(f)
	h := fnv.New64a()
	h.Write([]byte(text))
	dkey := key + "\x00doubt\x00" + strconv.FormatUint(h.Sum64(), 16)
	if d, ok := c.cache.Load(dkey); ok {
		return d.(*decision).fallback
	}
	d := &decision{fallback: out}
	class, margin, words := c.model.Guess(featuresOf(text, nameParts(text), f))
	if class != "" && class != ModeGroup(out.Layer, out.Primitive) && margin >= minDoubtMargin && len(words) >= minLeaningWords {
		layer, primitive := splitGroup(class)
		d.fallback = Classification{Layer: layer, Primitive: primitive, By: GuessLearned + strings.Join(words, ",")}
	}
	if c.cached.Add(1) > maxCachedDecisions {
		c.cache.Clear()
		c.cached.Store(0)
	}
	c.cache.Store(dkey, d)
	return d.fallback
}

// doubtedBy returns the set of the By of the rules m doubts, less those of
// user's rules: a person's rule is never overruled.
func doubtedBy(m *WordModel, user []Rule) map[string]bool {
	if m == nil || len(m.Doubted) == 0 {
		return nil
	}
	set := map[string]bool{}
	for _, by := range m.Doubted {
		set[by] = true
	}
	for i := range user {
		delete(set, user[i].By())
	}
	return set
}
