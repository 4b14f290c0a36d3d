package triage

import (
	"math"
	"reflect"
	"testing"
)

func TestTrainingTheRegressionTwiceGivesTheSameModel(t *testing.T) {
	labelled := [][3]string{
		{"sandbox", "network-egress", "curl: (7) Failed to connect to proxy port 3128"},
		{"sandbox", "network-egress", "proxy tunnel failed to connect"},
		{"sandbox", "memory", "worker killed over its memory limit"},
		{"sandbox", "memory", "memory limit reached, worker killed"},
		{"test", "harness", "fixture setup failed in conftest"},
		{"test", "harness", "conftest fixture teardown failed"},
	}
	first, second := trainOn("builds", labelled...), trainOn("builds", labelled...)
	if first.Weights == nil || first.Words != nil {
		t.Fatalf("got weights for %d words and counts for %d, want weights and no counts", len(first.Weights), len(first.Words))
	}
	if !reflect.DeepEqual(first, second) {
		t.Errorf("got two different models from the same examples")
	}
}

func TestTheRegressionsMarginIsItsLogOddsAndItsWordsThoseThatFavourIt(t *testing.T) {
	m := &WordModel{
		Classes: []string{"sandbox/memory", "sandbox/cpu-time", "test/harness"},
		Bias:    []float64{0.5, 0, -0.5},
		Weights: map[string][]float64{
			"killed":          {1, 0.5, 0},
			"limit":           {0.2, 0.6, 0},
			"rss":             {1.5, 0, 0},
			"domain=training": {3, 0, 0},
		},
	}
	class, margin, words := m.Guess([]string{"killed", "limit", "rss", "unknown", "domain=training"})
	if want := "sandbox/memory"; class != want {
		t.Errorf("got class %s, want %s", class, want)
	}
	// memory: 0.5+1+0.2+1.5+3 = 6.2; cpu-time: 0+0.5+0.6 = 1.1.
	if want := 5.1; math.Abs(margin-want) > 1e-9 {
		t.Errorf("got margin %.3f, want %.3f", margin, want)
	}
	// The domain favours memory most but is no word of the message.
	if want := []string{"rss", "killed"}; !reflect.DeepEqual(words, want) {
		t.Errorf("got words %v, want %v", words, want)
	}
}
