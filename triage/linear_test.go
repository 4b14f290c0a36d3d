package triage

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
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
	a, errA := json.Marshal(first)
	b, errB := json.Marshal(second)
	if errA != nil || errB != nil || !bytes.Equal(a, b) {
		t.Errorf("got two different models from the same examples (%v, %v)", errA, errB)
	}
}

func TestEachTrainingOrderVisitsEveryExampleOnceAndTheOrdersDiffer(t *testing.T) {
	const n = 50
	want := make([]int, n)
	for i := range want {
		want[i] = i
	}
	seen := map[string]uint64{}
	for seed := range uint64(linearOrders) {
		order := trainingOrder(n, seed)
		if got := slices.Sorted(slices.Values(order)); !slices.Equal(got, want) {
			t.Fatalf("seed %d: got order %v, want each of 0 to %d once", seed, order, n-1)
		}
		key := fmt.Sprint(order)
		if other, dup := seen[key]; dup {
			t.Errorf("got the same order for seeds %d and %d, want an order of its own for each", other, seed)
		}
		seen[key] = seed
	}
}

func TestTheRegressionIsTheAverageOfItsOrders(t *testing.T) {
	docs := [][]string{{"killed", "rss"}, {"seconds", "limit"}, {"killed"}, {"limit"}, {"killed", "limit"}, {"rss", "seconds"}}
	classes := []int{0, 1, 0, 1, 0, 0}
	m := &WordModel{
		Classes: []string{"sandbox/memory", "sandbox/cpu-time"},
		Words:   map[string][]int{"killed": {3, 0}, "rss": {2, 0}, "seconds": {1, 1}, "limit": {1, 2}},
	}
	m.trainLinear(func(yield func(class string, features []string)) {
		for i, d := range docs {
			yield(m.Classes[classes[i]], d)
		}
	})
	// The words in the order trainLinear first meets them.
	words := []string{"killed", "rss", "seconds", "limit"}
	examples := make([]linearExample, len(docs))
	for i, d := range docs {
		examples[i].class = classes[i]
		for _, w := range d {
			examples[i].words = append(examples[i].words, slices.Index(words, w))
		}
	}
	weights := make([]float64, len(words)*2)
	bias := make([]float64, 2)
	var firstWeights []float64
	for seed := range uint64(linearOrders) {
		w, b := fitLinear(examples, len(words), 2, trainingOrder(len(examples), seed))
		firstWeights = append(firstWeights, w[0])
		for i := range w {
			weights[i] += w[i] / linearOrders
		}
		for c := range b {
			bias[c] += b[c] / linearOrders
		}
	}
	for j, w := range words {
		if got, want := m.Weights[w], roundAll(weights[j*2:(j+1)*2]); !slices.Equal(got, want) {
			t.Errorf("got weights %v for %q, want the orders' average %v", got, w, want)
		}
	}
	if got, want := m.Bias, roundAll(bias); !slices.Equal(got, want) {
		t.Errorf("got bias %v, want the orders' average %v", got, want)
	}
	if slices.Min(firstWeights) == slices.Max(firstWeights) {
		t.Errorf("got the same weight %v from every order, want orders that differ, or the average shows nothing", firstWeights[0])
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

func TestARegressionWhoseWeightsDoNotFitItsClassesGuessesNothing(t *testing.T) {
	tests := []struct {
		name string
		m    *WordModel
	}{
		{"no biases", &WordModel{Classes: []string{"sandbox/memory", "test/harness"}, Weights: map[string][]float64{"killed": {1, 0}}}},
		{"a word with one weight", &WordModel{Classes: []string{"sandbox/memory", "test/harness"}, Bias: []float64{0, 0}, Weights: map[string][]float64{"killed": {1}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.m.consistent(); err == nil || !strings.Contains(err.Error(), "for 2 classes") {
				t.Errorf("got %v, want an error naming the classes", err)
			}
			if class, _, _ := tt.m.Guess([]string{"killed"}); tt.name == "no biases" && class != "" {
				t.Errorf("got class %q, want none", class)
			}
		})
	}
}

func TestATieBetweenTheModelsClassesOverrulesNoRule(t *testing.T) {
	// conftest and fixtures pull the two classes equally: no margin.
	tied := &WordModel{
		Classes: []string{"test/harness", "sandbox/storage-persistence"},
		Bias:    []float64{0, 0},
		Weights: map[string][]float64{"fixtures": {0, 1}, "conftest": {1, 0}},
		Rules:   map[string]RuleRecord{"rule:storage-persistence": {Decided: 100, Right: 50}},
	}
	f := Failure{Status: "failed", Error: "FileNotFoundError: [Errno 2] No such file or directory: 'data/input.csv'", LogTail: []byte("collected by conftest from fixtures")}
	cl := NewClassifierWith(nil, tied).Classify(f)
	if got, want := cl.Layer+"/"+cl.Primitive, "sandbox/storage-persistence"; got != want || cl.By != "rule:storage-persistence" {
		t.Errorf("got %s by %s, want %s by the rule", got, cl.By, want)
	}
}
