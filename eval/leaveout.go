package eval

import (
	"fmt"
	"io"
	"runtime"
	"sync"

	"sandtrap"
	"sandtrap/triage"
)

// Leaving each set out. The guess and severity models learn from the
// development halves of every labelled set, so a set's test half shares
// its causes with what they learned. Left out, a set is scored by models
// trained on the other sets only: what they would do on the next
// campaign's causes. The rules were still written from every set's
// development half; this measures what the models carry, not the rules.

// LabelledSet is one file of labelled records.
type LabelledSet struct {
	Name    string
	Records []Record
}

// LeftOut is the test half of one set scored by models trained without
// the set.
type LeftOut struct {
	SetReport
	// Critical and CriticalFound count the truly critical records and
	// those rated critical; FalseCritical the records people rated
	// otherwise that were rated critical (a record with no severity label
	// counts in neither).
	Critical, CriticalFound, FalseCritical int
}

// LeaveEachOut scores the test half of every set in sets that has one
// with a classifier of the user's rules and a guess and a severity model
// trained on the development halves of the other sets. Sets are scored
// concurrently, one per CPU. It needs two sets or more.
func LeaveEachOut(user []triage.Rule, sets []LabelledSet) ([]LeftOut, error) {
	return LeaveFoldsOut(user, sets, len(sets))
}

// LeaveFoldsOut is LeaveEachOut with the sets dealt into folds (the i-th
// set into fold i mod folds): each set is scored by models trained on the
// development halves of the sets outside its fold. Ten folds train ten
// pairs of models where leaving each of 450 sets out trains 450, and
// still score every set with models that never saw it. It needs 2 to
// len(sets) folds: with one, no set would be left out of anything.
func LeaveFoldsOut(user []triage.Rule, sets []LabelledSet, folds int) ([]LeftOut, error) {
	decided, err := DecideFoldsOut(user, sets, folds)
	if err != nil {
		return nil, err
	}
	out := make([]LeftOut, len(sets))
	for k, set := range sets {
		out[k] = scoreTestHalf(set, decided[k])
	}
	return out, nil
}

// DecideFoldsOut decides every record of every set, as one campaign per
// set, with the models LeaveFoldsOut scores it by: trained on the
// development halves of the sets outside its fold. The outcomes of
// sets[k] are out[k], in its records' order.
func DecideFoldsOut(user []triage.Rule, sets []LabelledSet, folds int) ([][]Outcome, error) {
	if folds < 2 || folds > len(sets) {
		return nil, fmt.Errorf("eval: %d folds of %d sets: need 2 to as many folds as sets", folds, len(sets))
	}
	out := make([][]Outcome, len(sets))
	// What the rules do to each set's development half does not depend
	// on the model: it is counted once, and summed over the others.
	rules := make([]map[string]triage.RuleRecord, len(sets))
	var wg sync.WaitGroup
	slots := make(chan struct{}, runtime.GOMAXPROCS(0))
	for k := range sets {
		wg.Go(func() {
			slots <- struct{}{}
			defer func() { <-slots }()
			rules[k] = triage.RuleRecords(TrainingExamples(sets[k].Records))
		})
	}
	wg.Wait()
	for fold := range folds {
		wg.Go(func() {
			slots <- struct{}{}
			defer func() { <-slots }()
			outside := func(i int) bool { return i%folds != fold }
			c, severity := trainOutside(user, sets, rules, outside)
			for k := fold; k < len(sets); k += folds {
				out[k] = DecideWith(c, severity, sets[k].Records)
			}
		})
	}
	wg.Wait()
	return out, nil
}

// trainOutside returns a classifier of the user's rules with a guess model,
// and a severity model, trained on the development halves of the sets
// outside says are outside the fold, with the rules' records summed over
// those sets.
func trainOutside(user []triage.Rule, sets []LabelledSet, rules []map[string]triage.RuleRecord, outside func(int) bool) (*triage.Classifier, *triage.WordModel) {
	var others []Record
	for i, s := range sets {
		if outside(i) {
			others = append(others, s.Records...)
		}
	}
	examples := TrainingExamples(others)
	c := triage.NewClassifierWith(user, TrainGuessWith(examples, recordsOutside(rules, outside)))
	return c, triage.TrainSeverityModel(examples, c)
}

// recordsOutside sums the rules' records of the sets outside says are
// outside the fold.
func recordsOutside(rules []map[string]triage.RuleRecord, outside func(int) bool) map[string]triage.RuleRecord {
	out := map[string]triage.RuleRecord{}
	for i, set := range rules {
		if !outside(i) {
			continue
		}
		for by, r := range set {
			sum := out[by]
			sum.Decided, sum.Right = sum.Decided+r.Decided, sum.Right+r.Right
			out[by] = sum
		}
	}
	return out
}

// scoreTestHalf scores the test half of set by outcomes, the decisions on
// all its records read as one campaign, as the main report reads it.
func scoreTestHalf(set LabelledSet, outcomes []Outcome) LeftOut {
	var half []Record
	var halfOut []Outcome
	for i, r := range set.Records {
		if Half(r.ID) == "test" {
			half, halfOut = append(half, r), append(halfOut, outcomes[i])
		}
	}
	lo := LeftOut{SetReport: Evaluate(set.Name, half, halfOut)}
	for i, r := range half {
		rated := halfOut[i].Severity == sandtrap.SeverityCritical
		switch {
		case r.Severity == sandtrap.SeverityCritical:
			lo.Critical++
			if rated {
				lo.CriticalFound++
			}
		case rated && r.Severity != "":
			lo.FalseCritical++
		}
	}
	return lo
}

// WriteLeftOut writes one line per set left out and the pooled figures.
func WriteLeftOut(w io.Writer, reps []LeftOut) {
	if len(reps) == 0 {
		return
	}
	fmt.Fprintln(w, "== each set left out: its test half, by guess and severity models trained on other sets' development halves only")
	fmt.Fprintf(w, "%-40s  %7s  %6s  %9s  %13s  %14s  %6s\n", "set", "records", "layer", "primitive", "critical", "false critical", "ARI")
	var n, layer, primitive, critical, found, falseCritical int
	for _, r := range reps {
		fmt.Fprintf(w, "%-40s  %7d  %6.3f  %9.3f  %13s  %14d  %6.3f\n", r.Name, r.Records, r.LayerAccuracy, r.PrimitiveAccuracy,
			fmt.Sprintf("%d of %d", r.CriticalFound, r.Critical), r.FalseCritical, r.ARI)
		n += r.Records
		layer += correct(r.Layer)
		primitive += correct(r.Primitive)
		critical, found, falseCritical = critical+r.Critical, found+r.CriticalFound, falseCritical+r.FalseCritical
	}
	recall := "(no critical record)"
	if critical > 0 {
		recall = fmt.Sprintf("(%.3f)", float64(found)/float64(critical))
	}
	fmt.Fprintf(w, "%-40s  %7d  %6.3f  %9.3f  %13s  %14d\n\n", "all", n, float64(layer)/float64(max(n, 1)), float64(primitive)/float64(max(n, 1)),
		fmt.Sprintf("%d of %d %s", found, critical, recall), falseCritical)
}

// correct counts the records scores found in their true class.
func correct(scores []Score) int {
	n := 0
	for _, s := range scores {
		n += s.Correct
	}
	return n
}
