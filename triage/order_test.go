package triage

import (
	"strconv"
	"testing"
)

// TestADecisionDoesNotDependOnWhichFailureCameFirst holds the rules to the
// Classifier's contract: a decision is cached per failure key, so a rule
// must read only what the key keeps. Two labelled messages of one key
// that a rule told apart by a masked part would be decided by whichever
// came first.
func TestADecisionDoesNotDependOnWhichFailureCameFirst(t *testing.T) {
	all := labelledFailures(t)
	// Messages that differ only where the normaliser might mask: the
	// DevTools port tells a browser not running from a refusing proxy.
	fs := []Failure{
		{Status: "failed", Error: "Error: connect ECONNREFUSED 127.0.0.1:3128"},
		{Status: "failed", Error: "Error: connect ECONNREFUSED 127.0.0.1:9222"},
		{Status: "failed", Error: "Error: connect ECONNREFUSED [::1]:3128"},
		{Status: "failed", Error: "Error: connect ECONNREFUSED [::1]:9222"},
	}
	for i := 0; i < len(all); i += 2 { // half of them keeps make test quick
		fs = append(fs, all[i])
	}
	first := NewClassifier(nil)
	keys := map[string][]int{}
	decided := make([]Classification, len(fs))
	for i, f := range fs {
		decided[i] = first.Classify(f)
		key := decided[i].Signature + "\x00" + f.Target + "\x00" + f.Domain
		if f.ExitCode != nil {
			key += "\x00" + strconv.FormatInt(*f.ExitCode, 10)
		}
		keys[key] = append(keys[key], i)
	}
	reversed := NewClassifier(nil)
	shared := 0
	for _, idx := range keys {
		if len(idx) < 2 {
			continue
		}
		shared++
		for k := len(idx) - 1; k >= 0; k-- {
			i := idx[k]
			got, want := reversed.Classify(fs[i]), decided[i]
			if got.Layer != want.Layer || got.Primitive != want.Primitive || got.Cause != want.Cause {
				t.Errorf("%.120q: got %s/%s %s read last, want %s/%s %s as read first",
					fs[i].Error, got.Layer, got.Primitive, got.Cause, want.Layer, want.Primitive, want.Cause)
			}
		}
	}
	if shared == 0 {
		t.Fatal("no two labelled messages share a failure key; the test checks nothing")
	}
}
