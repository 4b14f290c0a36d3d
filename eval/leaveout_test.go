package eval

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"sandtrap/triage"
)

// idsIn returns n record ids with prefix that fall in half.
func idsIn(prefix, half string, n int) []string {
	var out []string
	for i := 0; len(out) < n; i++ {
		if id := fmt.Sprintf("%s-%d", prefix, i); Half(id) == half {
			out = append(out, id)
		}
	}
	return out
}

// labelled makes records of one message and label with the ids given.
func labelled(ids []string, msg, layer, primitive, severity string) []Record {
	var out []Record
	for _, id := range ids {
		out = append(out, Record{ID: id, Target: "code-interpreter", Domain: "builds", Error: msg,
			Layer: layer, Primitive: primitive, Severity: severity, Cause: primitive})
	}
	return out
}

// teachAndProbe returns a set whose development half labels "zorblax
// heap" memory, and a set of that message's test-half records only.
func teachAndProbe() (teach, probe LabelledSet) {
	teach = LabelledSet{Name: "teach", Records: labelled(idsIn("teach", "dev", 4), "zorblax heap", "sandbox", "memory", "high")}
	probe = LabelledSet{Name: "probe", Records: labelled(idsIn("probe", "test", 2), "zorblax heap", "sandbox", "memory", "critical")}
	return teach, probe
}

func TestLeaveEachOutScoresASetWithModelsThatNeverSawIt(t *testing.T) {
	// "zorblax heap" is memory's only in teach's development half, and
	// "glimmerfault socket" is network egress's only in self's.
	teach, probe := teachAndProbe()
	self := LabelledSet{Name: "self", Records: append(
		labelled(idsIn("self", "dev", 4), "glimmerfault socket", "sandbox", "network-egress", "high"),
		labelled(idsIn("self-held", "test", 2), "glimmerfault socket", "sandbox", "network-egress", "high")...)}
	reps, err := LeaveEachOut(nil, []LabelledSet{teach, probe, self})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(reps), 3; got != want {
		t.Fatalf("got %d reports, want %d", got, want)
	}
	tests := []struct {
		name          string
		rep           LeftOut
		wantRecords   int
		wantPrimitive float64
		wantCritical  int
	}{
		{"a set without a test half scores nothing", reps[0], 0, 0, 0},
		{"a set is guessed from what the other sets taught", reps[1], 2, 1, 2},
		{"a set's own development half teaches nothing about its test half", reps[2], 2, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.rep.Records != tt.wantRecords || tt.rep.PrimitiveAccuracy != tt.wantPrimitive || tt.rep.Critical != tt.wantCritical {
				t.Errorf("got %d records, primitive accuracy %v, %d critical; want %d, %v, %d",
					tt.rep.Records, tt.rep.PrimitiveAccuracy, tt.rep.Critical, tt.wantRecords, tt.wantPrimitive, tt.wantCritical)
			}
		})
	}
	t.Run("the same test half is guessed once its own development half is learned", func(t *testing.T) {
		var all []Record
		for _, s := range []LabelledSet{teach, probe, self} {
			all = append(all, s.Records...)
		}
		examples := TrainingExamples(all)
		guess := TrainGuess(examples)
		held := self.Records[4:]
		rep := Evaluate("self", held, DecideWith(triage.NewClassifierWith(nil, guess), triage.TrainSeverityModel(examples, triage.NewClassifierWith(nil, guess)), held))
		if got, want := rep.PrimitiveAccuracy, 1.0; got != want {
			t.Errorf("got primitive accuracy %v, want %v", got, want)
		}
	})
	var b bytes.Buffer
	WriteLeftOut(&b, reps)
	for _, want := range []string{"each set left out", "probe", "self", "all"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("got report %q, want it to name %q", b.String(), want)
		}
	}
}

func TestLeavingFoldsOutScoresEverySetWithModelsThatNeverSawIt(t *testing.T) {
	// "zorblax heap" is memory's in teach's development half and network
	// egress's, three times as often, in self's; probe and self are dealt
	// into one fold and teach into the other.
	teach, probe := teachAndProbe()
	self := LabelledSet{Name: "self", Records: append(
		labelled(idsIn("self", "dev", 12), "zorblax heap", "sandbox", "network-egress", "high"),
		labelled(idsIn("self-held", "test", 2), "zorblax heap", "sandbox", "memory", "high")...)}
	reps, err := LeaveFoldsOut(nil, []LabelledSet{probe, teach, self}, 2)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name          string
		rep           LeftOut
		wantRecords   int
		wantPrimitive float64
	}{
		{"a set is guessed from the other fold, not from a set of its own that says otherwise", reps[0], 2, 1},
		{"a set's own development half teaches nothing about its test half", reps[2], 2, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.rep.Records != tt.wantRecords || tt.rep.PrimitiveAccuracy != tt.wantPrimitive {
				t.Errorf("got %d records, primitive accuracy %v; want %d, %v", tt.rep.Records, tt.rep.PrimitiveAccuracy, tt.wantRecords, tt.wantPrimitive)
			}
		})
	}
}

func TestFoldsThatLeaveNothingOutAreRefused(t *testing.T) {
	sets := []LabelledSet{{Name: "a"}, {Name: "b"}}
	for _, folds := range []int{-1, 0, 1, 3} {
		t.Run(fmt.Sprintf("%d folds of 2 sets", folds), func(t *testing.T) {
			if _, err := LeaveFoldsOut(nil, sets, folds); err == nil || !strings.Contains(err.Error(), "need 2 to as many folds as sets") {
				t.Errorf("got error %v, want one saying how many folds are needed", err)
			}
		})
	}
}

func TestASetLeftOutIsNotInTheRulesRecords(t *testing.T) {
	// Each set's records come with the harness's log, as only those are
	// counted; the disk full is the storage rule's in every set, and only
	// the left-out set calls it the test's.
	set := func(name, layer, primitive string) []Record {
		rs := labelled(idsIn(name, "dev", 3), "OSError: [Errno 28] No space left on device", layer, primitive, "high")
		for i := range rs {
			rs[i].Log = "step=1 tool=run_code exit=1"
		}
		return rs
	}
	sets := []LabelledSet{
		{Name: "a", Records: set("a", "sandbox", "storage-persistence")},
		{Name: "b", Records: set("b", "test", "harness")},
		{Name: "c", Records: set("c", "sandbox", "storage-persistence")},
	}
	var rules []map[string]triage.RuleRecord
	for _, s := range sets {
		rules = append(rules, triage.RuleRecords(TrainingExamples(s.Records)))
	}
	got := recordsOutside(rules, func(i int) bool { return i != 1 })
	want := triage.RuleRecords(TrainingExamples(append(slices.Clone(sets[0].Records), sets[2].Records...)))
	if !maps.Equal(got, want) {
		t.Errorf("got %v without the second set, want %v", got, want)
	}
	if r := got["rule:storage-persistence"]; r.Decided != 6 || r.Right != 6 {
		t.Errorf("got %+v for the storage rule, want 6 decided and 6 right", r)
	}
}
