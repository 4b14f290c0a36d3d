package triage

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// undoubting returns a copy of m that doubts no rule.
func undoubting(m *WordModel) *WordModel {
	c := *m
	c.Doubted = nil
	return &c
}

func TestDoubtedRules(t *testing.T) {
	tests := []struct {
		name    string
		records map[string]RuleRecord
		want    []string
	}{
		{"a rule right nine times in ten is trusted",
			map[string]RuleRecord{"rule:a": {Decided: 10, Right: 9}}, nil},
		{"a rule right eight times in ten is doubted",
			map[string]RuleRecord{"rule:a": {Decided: 10, Right: 8}}, []string{"rule:a"}},
		{"a rule that decided too few failures to say is trusted",
			map[string]RuleRecord{"rule:a": {Decided: 9, Right: 0}}, nil},
		{"a shown secret is the finding however often people saw another cause",
			map[string]RuleRecord{SecretShownRule: {Decided: 50, Right: 10}}, nil},
		{"the doubted rules come sorted",
			map[string]RuleRecord{"rule:b": {Decided: 20, Right: 1}, "rule:a": {Decided: 20, Right: 2}, "rule:c": {Decided: 20, Right: 20}}, []string{"rule:a", "rule:b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := DoubtedRules(tt.records); !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestRuleRecordsCountWhatEachRuleGaveItsFailures(t *testing.T) {
	examples := []Example{
		{Failure: Failure{Status: "failed", Error: "OSError: [Errno 28] No space left on device"}, Layer: "sandbox", Primitive: "storage-persistence"},
		{Failure: Failure{Status: "failed", Error: "FileNotFoundError: [Errno 2] No such file or directory: 'expected.json'"}, Layer: "test", Primitive: "harness"},
		{Failure: Failure{Status: "failed", Error: "the run went quietly"}, Layer: "test", Primitive: "harness"},
		{Failure: Failure{Status: "failed", Error: "No space left on device", HarnessLayer: "sandbox", HarnessPrimitive: "storage-persistence"}, Layer: "sandbox", Primitive: "storage-persistence"},
	}
	got := RuleRecords(examples)
	if want := (map[string]RuleRecord{"rule:storage-persistence": {Decided: 2, Right: 1}}); len(got) != len(want) || got["rule:storage-persistence"] != want["rule:storage-persistence"] {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestTheModelOverrulesARuleItDoubtsWhenSure(t *testing.T) {
	// A model that has seen "fixture" and "conftest" only in the test's
	// own failures.
	sure := &WordModel{
		Classes: []string{"sandbox/storage-persistence", "test/harness"},
		Docs:    []int{500, 500},
		Words:   map[string][]int{"fixtures": {0, 500}, "conftest": {0, 500}},
		Doubted: []string{"rule:storage-persistence"},
	}
	const missing = "FileNotFoundError: [Errno 2] No such file or directory: 'data/input.csv'"
	const log = "collected by conftest from fixtures"
	tests := []struct {
		name   string
		model  *WordModel
		user   []Rule
		f      Failure
		want   string
		wantBy string
	}{
		{"a doubted rule yields to a model sure of another class", sure, nil,
			Failure{Status: "failed", Error: missing, LogTail: []byte(log)}, "test/harness", GuessLearned},
		{"a rule the model does not doubt keeps its decision", undoubting(sure), nil,
			Failure{Status: "failed", Error: missing, LogTail: []byte(log)}, "sandbox/storage-persistence", "rule:storage-persistence"},
		{"a lone error line, without the harness's log, keeps the rule's decision", sure, nil,
			Failure{Status: "failed", Error: missing + " in conftest fixtures"}, "sandbox/storage-persistence", "rule:storage-persistence"},
		{"the harness's layer stands", sure, nil,
			Failure{Status: "failed", Error: missing, LogTail: []byte(log), HarnessLayer: "sandbox"}, "sandbox/storage-persistence", ByHarness},
		{"a person's rule of the same name is never overruled", sure,
			[]Rule{{Name: "storage-persistence", ErrorRegex: regexp.MustCompile(`No such file`), Layer: "sandbox", Primitive: "storage-persistence"}},
			Failure{Status: "failed", Error: missing, LogTail: []byte(log)}, "sandbox/storage-persistence", "rule:storage-persistence"},
		{"a model less sure than the margin keeps the rule's decision", &WordModel{Classes: sure.Classes, Docs: sure.Docs, Words: map[string][]int{"conftest": {0, 500}}, Doubted: sure.Doubted}, nil,
			Failure{Status: "failed", Error: missing, LogTail: []byte(log)}, "sandbox/storage-persistence", "rule:storage-persistence"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cl := NewClassifierWith(tt.user, tt.model).Classify(tt.f)
			if got := cl.Layer + "/" + cl.Primitive; got != tt.want || !strings.HasPrefix(cl.By, tt.wantBy) {
				t.Errorf("got %s by %s, want %s by %s", got, cl.By, tt.want, tt.wantBy)
			}
		})
	}
}
