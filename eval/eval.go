// Package eval measures how well sandtrap classifies and groups failures
// against a labelled set: per-class precision and recall, the adjusted Rand
// index and grouping accuracy of failure modes, and the error in their count.
//
// It is plain Go with no I/O besides LoadRecords and LoadLogs. Every metric
// takes two labelings of the same items, truth[i] and pred[i] for item i,
// and panics if they differ in length, which is a bug in the caller. Labels
// are opaque: "" is a label like any other.
package eval

import (
	"cmp"
	"crypto/sha256"
	"fmt"
	"slices"
)

// Score is how one class fared: Support items are truly of Class,
// Predicted were predicted as Class and Correct were both.
type Score struct {
	Class                       string
	Precision, Recall, F1       float64
	Support, Predicted, Correct int
}

// PerClass scores every class that appears in truth or pred, sorted by
// class, and returns the fraction of items predicted correctly. A ratio
// whose denominator is zero is 0, as with a class never predicted, so a
// class missing from one side scores 0 rather than NaN; accuracy of no
// items is 0.
func PerClass(truth, pred []string) (scores []Score, accuracy float64) {
	mustPair(truth, pred)
	byClass := map[string]*Score{}
	score := func(c string) *Score {
		s, ok := byClass[c]
		if !ok {
			s = &Score{Class: c}
			byClass[c] = s
		}
		return s
	}
	correct := 0
	for i := range truth {
		score(truth[i]).Support++
		score(pred[i]).Predicted++
		if truth[i] == pred[i] {
			score(truth[i]).Correct++
			correct++
		}
	}
	for _, s := range byClass {
		s.Precision = ratio(s.Correct, s.Predicted)
		s.Recall = ratio(s.Correct, s.Support)
		if s.Precision+s.Recall > 0 {
			s.F1 = 2 * s.Precision * s.Recall / (s.Precision + s.Recall)
		}
		scores = append(scores, *s)
	}
	slices.SortFunc(scores, func(a, b Score) int { return cmp.Compare(a.Class, b.Class) })
	return scores, ratio(correct, len(truth))
}

// AdjustedRandIndex is the adjusted Rand index of Hubert & Arabie (1985):
// the agreement of two groupings of the same items over all pairs of items,
// corrected for chance, so 1 is identical groupings, about 0 is what random
// labels score and negative is worse than chance. Label names do not
// matter, only which items share one.
//
// ARI = (index − expected) / (max − expected), where index is Σ C(n_ij, 2)
// over the contingency table, a = Σ C(a_i, 2) and b = Σ C(b_j, 2) over its
// rows and columns, expected = a·b / C(n, 2) and max = (a + b) / 2.
//
// The denominator is zero only when a = b = C(n, 2) (both one group), when
// a = b = 0 (both all singletons) or when n < 2 (no pairs). The groupings
// are then identical, and ARI is defined as 1. One group against all
// singletons is not such a case: it scores 0.
func AdjustedRandIndex(truth, pred []string) float64 {
	mustPair(truth, pred)
	cells, rows, cols := contingency(truth, pred)
	index, a, b, all := pairsIn(cells), pairsIn(rows), pairsIn(cols), pairs(len(truth))
	if all == 0 || (a == all && b == all) || (a == 0 && b == 0) {
		return 1
	}
	// In floating point: a·b overflows int64 at a few million items.
	expected := float64(a) * float64(b) / float64(all)
	maxIndex := float64(a+b) / 2
	return (float64(index) - expected) / (maxIndex - expected)
}

// GroupingAccuracy is the grouping accuracy of Zhu et al., "Tools and
// Benchmarks for Automated Log Parsing" (ICSE-SEIP 2019): the fraction of
// items whose predicted group holds exactly the items of their true group.
// Splitting a true group or merging it with another makes all of its items
// wrong. Of no items it is 0.
func GroupingAccuracy(truth, pred []string) float64 {
	mustPair(truth, pred)
	cells, rows, cols := contingency(truth, pred)
	// An item's groups are equal when its cell holds both of them whole.
	correct := 0
	for c, n := range cells {
		if n == rows[c.t] && n == cols[c.p] {
			correct += n
		}
	}
	return ratio(correct, len(truth))
}

// ModeCountError is |#distinct pred − #distinct truth| / #distinct truth:
// how far the number of predicted failure modes is from the true number,
// whichever way. Of no items it is 0.
func ModeCountError(truth, pred []string) float64 {
	mustPair(truth, pred)
	nt, np := distinct(truth), distinct(pred)
	if nt == 0 {
		return 0
	}
	return float64(max(nt, np)-min(nt, np)) / float64(nt)
}

// Half puts id in the "dev" or the "test" half of a labelled set: "dev"
// when the first byte of its SHA-256 is even. It depends on the id alone,
// so a record never moves between halves as records are added, and the
// test half stays held out from whoever tunes the rules on the dev half.
func Half(id string) string {
	if sha256.Sum256([]byte(id))[0]%2 == 0 {
		return "dev"
	}
	return "test"
}

func mustPair(truth, pred []string) {
	if len(truth) != len(pred) {
		panic(fmt.Sprintf("eval: %d true labels but %d predicted", len(truth), len(pred)))
	}
}

func ratio(num, den int) float64 {
	if den == 0 {
		return 0
	}
	return float64(num) / float64(den)
}

// cell is one entry of a contingency table: the items labelled t in truth
// and p in pred.
type cell struct{ t, p string }

// contingency counts the items of each cell, of each true label (rows) and
// of each predicted label (columns).
func contingency(truth, pred []string) (cells map[cell]int, rows, cols map[string]int) {
	cells, rows, cols = map[cell]int{}, map[string]int{}, map[string]int{}
	for i := range truth {
		cells[cell{truth[i], pred[i]}]++
		rows[truth[i]]++
		cols[pred[i]]++
	}
	return cells, rows, cols
}

// pairs is n choose 2.
func pairs(n int) int {
	return n * (n - 1) / 2
}

func pairsIn[K comparable](counts map[K]int) int {
	sum := 0
	for _, n := range counts {
		sum += pairs(n)
	}
	return sum
}

func distinct(labels []string) int {
	seen := map[string]bool{}
	for _, l := range labels {
		seen[l] = true
	}
	return len(seen)
}
