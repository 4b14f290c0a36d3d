package triage

import (
	"bytes"
	"slices"
	"strings"

	"sandtrap/drain"
)

// Restating by log. The harness's log holds the steps a failure ran and
// what its tools printed before the error: one cause, worded otherwise by
// another tool, was logged alike (the same calls, the same warnings),
// and two causes of one primitive were not. A new template joins the live
// template of its class whose first failure's log shares the most words
// with its own, when they share at least logLikeness of them (Jaccard).
// A mode has one severity, its template's: the new template joins the
// older when the older is rated at least as severe, and takes the older in
// (its id becomes an alias) when the older is rated less, so that one cause
// is rated as its worst wording says. Over the 263 blind sets' test
// halves, pairs of templates of one class logged this alike were one
// cause 19 times in 20. Two known causes join this way only when two tools
// printed them (see restatableBy): one tool logs alike around each of its
// errors (Playwright's call log around a DNS failure and around a refused
// proxy tunnel). Scored again on ten folds of the 1,007 blind sets with the
// class taken from a failure logged alike, the development halves' ARI
// was 0.7848 at 0.3, 0.7878 at 0.35, 0.7886 at 0.4, 0.7872 at 0.5 and 0.7804
// at 0.6.
const logLikeness = 0.4

// logWordsMax caps the words a template keeps of its first failure's log.
const logWordsMax = 128

// LogWords returns the distinct words of the end of a failure's log (its
// last wholeWindow bytes), lower-cased and sorted. Digits split words and
// runs of hex are dropped, so that counts, times, ids and hashes do not
// make two runs of one step differ; words shorter than three letters say
// little. Of more than logWordsMax, those logged last are kept.
func LogWords(log []byte) []string {
	window := log[max(0, len(log)-wholeWindow):]
	fields := bytes.FieldsFunc(window, func(r rune) bool { return !logWordByte(r) })
	seen := map[string]bool{}
	var words []string
	for i := len(fields) - 1; i >= 0 && len(words) < logWordsMax; i-- {
		if len(fields[i]) >= 8 && allHex(fields[i]) {
			continue
		}
		parts := bytes.FieldsFunc(fields[i], func(r rune) bool { return r >= '0' && r <= '9' })
		for j := len(parts) - 1; j >= 0 && len(words) < logWordsMax; j-- {
			w := strings.ToLower(strings.Trim(string(parts[j]), "._-"))
			if len(w) >= 3 && !seen[w] {
				seen[w] = true
				words = append(words, w)
			}
		}
	}
	slices.Sort(words)
	return words
}

func logWordByte(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '.' || r == '-'
}

func allHex(b []byte) bool {
	for _, c := range b {
		if !isHex(c) {
			return false
		}
	}
	return true
}

// loggedMostAlike returns the live template of group, eligible to be
// restated by a new one (see restatableBy), whose first failure's log is
// most alike to logWords (LogWords) and at least logLikeness alike; of two
// as alike, the older.
func (g *Grouper) loggedMostAlike(group string, logWords []string, eligible func(id string) bool) (*drain.Template, bool) {
	return g.mostAlikeIn(&g.logs, group, logWords, logLikeness, eligible)
}

// mostAlikeIn returns the live template of group in x, eligible, whose
// words share the most of their union with words (Jaccard), and at least
// least of it; of two as alike, the older.
func (g *Grouper) mostAlikeIn(x *wordIndex, group string, words []string, least float64, eligible func(id string) bool) (*drain.Template, bool) {
	shared := map[string]int{}
	for _, w := range words {
		for _, id := range x.ids[group][w] {
			shared[id]++
		}
	}
	var (
		best      *drain.Template
		bestShare float64
	)
	for id, n := range shared {
		share := float64(n) / float64(len(words)+len(x.wordsOf[id])-n)
		if share < least || share < bestShare {
			continue
		}
		t, live := g.miner.Get(id)
		if !live || !eligible(id) || share == bestShare && best != nil && t.Seq > best.Seq {
			continue
		}
		best, bestShare = t, share
	}
	return best, best != nil
}

// Taking the class of a failure logged alike. A guess reads a failure's
// words and its log, but a rule that placed another failure logged almost
// the same words read that failure's error precisely: the same steps and
// tool output around two errors are one cause, worded otherwise. A guessed
// failure whose log shares at least loggedClassLikeness of its words
// (Jaccard) with the first failure's log of a template a rule, a known
// cause or the harness placed takes that template's class, and the
// restatements by log most often join it to that mode.
const loggedClassLikeness = 0.6

// loggedAlike ends the By of a failure that took the class of one logged
// alike.
const loggedAlike = "like a failure logged alike"

// loggedClass returns the class of the decided live template (see
// Grouper.decidedLogs) whose first failure's log is most alike to log,
// when cl is a guess or unclassified and the two logs share at least
// loggedClassLikeness of their words; of two as alike, the older.
func (g *Grouper) loggedClass(cl Classification, log []byte) (string, bool) {
	if !weakClassification(cl) || len(g.decidedLogs.wordsOf) == 0 || len(bytes.TrimSpace(log)) == 0 {
		return "", false
	}
	words := LogWords(log)
	if len(words) == 0 {
		return "", false
	}
	t, ok := g.mostAlikeIn(&g.decidedLogs, decidedGroup, words, loggedClassLikeness, func(string) bool { return true })
	if !ok {
		return "", false
	}
	return t.Group, true
}

// ratedAtLeast reports whether the signature of template t is rated
// severity or worse.
func (g *Grouper) ratedAtLeast(t *drain.Template, severity string) bool {
	layer, primitive := splitGroup(t.Group)
	theirs, _ := Severity(layer, primitive, g.text(t.ID))
	return SeverityRank(theirs) <= SeverityRank(severity)
}

// toolOf returns the tool that printed a signature: the leading word of
// its last line, up to a space or a colon, lower-cased and without digits
// (page.goto, permissionerror, curl, npm).
func toolOf(signature string) string {
	sig := strings.TrimSpace(signature)
	last := strings.TrimSpace(sig[strings.LastIndexByte(sig, '\n')+1:])
	if end := strings.IndexAny(last, " \t:"); end >= 0 {
		last = last[:end]
	}
	return strings.ToLower(strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return -1
		}
		return r
	}, last))
}
