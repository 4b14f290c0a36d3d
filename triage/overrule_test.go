package triage

import (
	"math"
	"regexp"
	"strings"
	"testing"
)

// withoutRecords returns a copy of m that knows no rule's record, and so
// overrules none.
func withoutRecords(m *WordModel) *WordModel {
	c := *m
	c.Rules = nil
	return &c
}

func TestOverruleMargin(t *testing.T) {
	tests := []struct {
		name   string
		record RuleRecord
		want   float64
	}{
		{"a rule with an empty record is taken to be right 9 times in 10", RuleRecord{}, overruleMargin + math.Log(9)},
		{"a rule right half the time yields at the bare margin", RuleRecord{Decided: 1000, Right: 500}, overruleMargin + math.Log(509.0/501)},
		{"a rule right 960 times in 1,000 needs a far surer model", RuleRecord{Decided: 1000, Right: 960}, overruleMargin + math.Log(969.0/41)},
		{"a rule mostly wrong yields to a model less sure than the margin", RuleRecord{Decided: 100, Right: 10}, overruleMargin + math.Log(19.0/91)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.record.OverruleMargin(); math.Abs(got-tt.want) > 1e-9 {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestAShownSecretAndTheHarnesssFiguresAreNeverOverruled(t *testing.T) {
	m := &WordModel{Rules: map[string]RuleRecord{SecretShownRule: {Decided: 50, Right: 1}, LimitReachedRule: {Decided: 50, Right: 1}, CountsRule: {Decided: 50, Right: 1}, "rule:a": {Decided: 50, Right: 1}}}
	got := overruleMargins(m, nil)
	if _, ok := got["rule:a"]; !ok || len(got) != 1 {
		t.Errorf("got margins for %v, want rule:a's only", got)
	}
}

func TestASparedRuleIsNeverOverruled(t *testing.T) {
	tests := []struct {
		name string
		by   string
		want bool
	}{
		{"a download's hash mismatch is spared", "rule:download-hash-mismatch", false},
		{"a missing accelerator is spared", "rule:no-hardware-virtualization", false},
		{"a broad rule with the same record still yields", "rule:protocol", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &WordModel{Rules: map[string]RuleRecord{tt.by: {Decided: 50, Right: 25}}}
			_, got := overruleMargins(m, nil)[tt.by]
			if got != tt.want {
				t.Errorf("%s has a margin: got %v, want %v", tt.by, got, tt.want)
			}
		})
	}
}

func TestARuleRightAlmostAlwaysIsNeverOverruled(t *testing.T) {
	m := &WordModel{Rules: map[string]RuleRecord{"rule:sure": {Decided: 1000, Right: 990}, "rule:unsure": {Decided: 1000, Right: 900}}}
	got := overruleMargins(m, nil)
	if _, ok := got["rule:sure"]; ok {
		t.Errorf("got a margin for a rule right 990 times in 1,000, want none")
	}
	if _, ok := got["rule:unsure"]; !ok {
		t.Errorf("got no margin for a rule right 900 times in 1,000, want one")
	}
}

func TestRuleRecordsCountWhatEachRuleGaveItsFailures(t *testing.T) {
	log := []byte("step=3 tool=run_code exit=1")
	examples := []Example{
		{Failure: Failure{Status: "failed", Error: "OSError: [Errno 28] No space left on device", LogTail: log}, Layer: "sandbox", Primitive: "storage-persistence"},
		{Failure: Failure{Status: "failed", Error: "FileNotFoundError: [Errno 2] No such file or directory: 'expected.json'", LogTail: log}, Layer: "test", Primitive: "harness"},
		{Failure: Failure{Status: "failed", Error: "the run went quietly", LogTail: log}, Layer: "test", Primitive: "harness"},
		{Failure: Failure{Status: "failed", Error: "No space left on device", LogTail: log, HarnessLayer: "sandbox", HarnessPrimitive: "storage-persistence"}, Layer: "sandbox", Primitive: "storage-persistence"},
		// Without the harness's log a failure is never overruled, so it
		// says nothing of how far to trust the rule.
		{Failure: Failure{Status: "failed", Error: "OSError: [Errno 28] No space left on device"}, Layer: "sandbox", Primitive: "storage-persistence"},
	}
	got := RuleRecords(examples)
	if want := (map[string]RuleRecord{"rule:storage-persistence": {Decided: 2, Right: 1}}); len(got) != len(want) || got["rule:storage-persistence"] != want["rule:storage-persistence"] {
		t.Errorf("got %v, want %v", got, want)
	}
}

// sureOfFixtures returns a model that weighs "fixtures" and "conftest"
// heavily towards the test's own failures, and a storage rule right 9
// times in 10.
func sureOfFixtures() *WordModel {
	return &WordModel{
		Classes: []string{"sandbox/storage-persistence", "test/harness"},
		Bias:    []float64{0, 0},
		Weights: map[string][]float64{"fixtures": {-2, 2}, "conftest": {-2, 2}},
		Rules:   map[string]RuleRecord{"rule:storage-persistence": {Decided: 100, Right: 90}},
	}
}

func TestTheModelOverrulesARuleWhenSurerThanItsRecord(t *testing.T) {
	sure := sureOfFixtures()
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
		{"a rule right 9 times in 10 yields to a model far surer of another class", sure, nil,
			Failure{Status: "failed", Error: missing, LogTail: []byte(log)}, "test/harness", GuessLearned},
		{"a rule the model has no record of keeps its decision", withoutRecords(sure), nil,
			Failure{Status: "failed", Error: missing, LogTail: []byte(log)}, "sandbox/storage-persistence", "rule:storage-persistence"},
		{"a lone error line, without the harness's log, keeps the rule's decision", sure, nil,
			Failure{Status: "failed", Error: missing + " in conftest fixtures"}, "sandbox/storage-persistence", "rule:storage-persistence"},
		{"the harness's layer stands", sure, nil,
			Failure{Status: "failed", Error: missing, LogTail: []byte(log), HarnessLayer: "sandbox"}, "sandbox/storage-persistence", ByHarness},
		{"a person's rule of the same name is never overruled", sure,
			[]Rule{{Name: "storage-persistence", ErrorRegex: regexp.MustCompile(`No such file`), Layer: "sandbox", Primitive: "storage-persistence"}},
			Failure{Status: "failed", Error: missing, LogTail: []byte(log)}, "sandbox/storage-persistence", "rule:storage-persistence"},
		{"a model less sure than the margin keeps the rule's decision", &WordModel{Classes: sure.Classes, Bias: sure.Bias, Weights: map[string][]float64{"conftest": {-0.5, 0.5}}, Rules: sure.Rules}, nil,
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

func TestAFailuresClassDoesNotDependOnTheFailureBeforeIt(t *testing.T) {
	sure := sureOfFixtures()
	marked := []Rule{{Name: "marked", ErrorRegex: regexp.MustCompile(`went quietly`), LogRegex: regexp.MustCompile(`MARKER`), Layer: "sandbox", Primitive: "cpu-time"}}
	tests := []struct {
		name  string
		model *WordModel
		user  []Rule
		a, b  Failure
	}{
		{"the model reads each failure's own log", sure, nil,
			Failure{Status: "failed", Error: "FileNotFoundError: [Errno 2] No such file or directory: 'data/input.csv'", LogTail: []byte("collected by conftest from fixtures")},
			Failure{Status: "failed", Error: "FileNotFoundError: [Errno 2] No such file or directory: 'data/input.csv'", LogTail: []byte("step=2 tool=run_code")}},
		{"a rule's log regex reads lines the whole reading does not hash", withoutRecords(sure), marked,
			Failure{Status: "failed", Error: "exit status 1", LogTail: []byte("MARKER\nstep=2 tool=run_code\nthe run went quietly")},
			Failure{Status: "failed", Error: "exit status 1", LogTail: []byte("nothing\nstep=2 tool=run_code\nthe run went quietly")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			first := NewClassifierWith(tt.user, tt.model)
			aFirst, bSecond := first.Classify(tt.a), first.Classify(tt.b)
			second := NewClassifierWith(tt.user, tt.model)
			bFirst, aSecond := second.Classify(tt.b), second.Classify(tt.a)
			if aFirst.By != aSecond.By || aFirst.Primitive != aSecond.Primitive {
				t.Errorf("got %s by %s first and %s by %s after the other, want the same", aFirst.Primitive, aFirst.By, aSecond.Primitive, aSecond.By)
			}
			if bFirst.By != bSecond.By || bFirst.Primitive != bSecond.Primitive {
				t.Errorf("got %s by %s first and %s by %s after the other, want the same", bFirst.Primitive, bFirst.By, bSecond.Primitive, bSecond.By)
			}
			if aFirst.By == bFirst.By {
				t.Errorf("got both failures decided by %s, want their logs to decide them apart", aFirst.By)
			}
		})
	}
}
