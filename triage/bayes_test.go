package triage

import (
	"fmt"
	"strings"
	"testing"
)

// trainOn trains a word model on code-interpreter failures of domain,
// each a layer, a primitive and an error.
func trainOn(domain string, labelled ...[3]string) *WordModel {
	examples := make([]Example, len(labelled))
	for i, l := range labelled {
		examples[i] = Example{Failure: Failure{Target: "code-interpreter", Domain: domain, Error: l[2]}, Layer: l[0], Primitive: l[1]}
	}
	return TrainWordModel(examples)
}

func TestWordModelGuessesTheClassWhoseWordsAMessageHolds(t *testing.T) {
	m := trainOn("builds",
		[3]string{"sandbox", "storage-persistence", "kubelet: Unable to mount volumes for pod: timeout"},
		[3]string{"sandbox", "storage-persistence", "kubelet MountVolume failed for volume data"},
		[3]string{"sandbox", "memory", "kubelet evicted the pod: memory pressure"},
		[3]string{"sandbox", "memory", "container killed: memory limit reached"},
		[3]string{"test", "harness", "fixture setup failed in conftest"},
		[3]string{"test", "harness", "fixture teardown failed"},
	)
	tests := []struct {
		name, msg, want string
	}{
		{"words of one class decide", "kubelet could not mount volume cache", "sandbox/storage-persistence"},
		{"another class's words decide for it", "worker killed over its memory limit", "sandbox/memory"},
		{"the harness's words", "error in fixture setup", "test/harness"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Failure{Target: "code-interpreter", Domain: "builds", Error: tt.msg}
			got, margin, words := m.Guess(guessFeatures(&f))
			if got != tt.want || margin <= 0 || len(words) == 0 {
				t.Errorf("got %s by %.2f on %v, want %s by a positive margin on some words", got, margin, words, tt.want)
			}
		})
	}
}

func TestTheLearnedModelLeansOnlyWithTheHarnessLogBehindIt(t *testing.T) {
	// No word of these messages is a stem of memory or of protocol, so a
	// guess from them is sure or only leans.
	m := trainOn("data-analysis",
		[3]string{"sandbox", "memory", "gateway answer empty"},
		[3]string{"sandbox", "memory", "gateway answer empty again"},
		[3]string{"sandbox", "memory", "gateway went quiet"},
		[3]string{"interface", "protocol", "frame header invalid"},
		[3]string{"interface", "protocol", "frame header garbled"},
		[3]string{"interface", "protocol", "frame trailer garbled"},
	)
	none := Classification{Layer: "unclassified", By: ByNone}
	tests := []struct {
		name, msg, log string
		wantBy         string // the By's prefix
		wantPrimitive  string
	}{
		{"an error whose words name its primitive is a learned guess", "gateway answer empty: out of memory", "", GuessBy + "learned:", "memory"},
		{"an error of the model's words alone, with a log, is a lean", "gateway answer empty", "step 3 call=run_code exit=1", GuessLeaning, "memory"},
		{"the same error with no log is left unclassified", "gateway answer empty", "", ByNone, ""},
		{"a log of blank lines is no log", "gateway answer empty", " \n\n", ByNone, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Failure{Target: "code-interpreter", Domain: "data-analysis", Error: tt.msg, LogTail: []byte(tt.log)}
			cl, _ := guessByModel(m, &f, tt.msg, none)
			if !strings.HasPrefix(cl.By, tt.wantBy) || cl.Primitive != tt.wantPrimitive {
				t.Errorf("got %s/%s by %q, want %q by %q…", cl.Layer, cl.Primitive, cl.By, tt.wantPrimitive, tt.wantBy)
			}
		})
	}
}

func TestANulByteGuessedFromALoneLineMustBeNamedThere(t *testing.T) {
	// Thousands of ValueErrors of NUL bytes make a sure guess (a margin
	// above minUnnamedMargin) of any ValueError.
	var labelled [][3]string
	for i := range 3000 {
		labelled = append(labelled, [3]string{"interface", "null-byte", fmt.Sprintf("ValueError: embedded null byte in value %d", i)})
	}
	m := trainOn("data-analysis", append(labelled,
		[3]string{"sandbox", "memory", "worker killed over its memory limit"},
		[3]string{"sandbox", "memory", "container killed: memory limit reached"})...)
	none := Classification{Layer: "unclassified", By: ByNone}
	tests := []struct {
		name, msg, log string
		wantBy         string // the By's prefix
	}{
		{"a lone ValueError that names no NUL is left unclassified", "ValueError: could not convert string to float: 'N/A'", "", ByNone},
		{"a lone ValueError that names one is a learned guess", "ValueError: embedded null byte", "", GuessBy + "learned:"},
		{"the same unnamed ValueError with a log behind it is still guessed", "ValueError: could not convert string to float: 'N/A'", "step 2 call=read_csv exit=1", GuessBy},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Failure{Target: "code-interpreter", Domain: "data-analysis", Error: tt.msg, LogTail: []byte(tt.log)}
			cl, _ := guessByModel(m, &f, tt.msg, none)
			if !strings.HasPrefix(cl.By, tt.wantBy) || tt.wantBy != ByNone && cl.Primitive != "null-byte" {
				t.Errorf("got %s/%s by %q, want by %q… (null-byte when guessed)", cl.Layer, cl.Primitive, cl.By, tt.wantBy)
			}
		})
	}
}

func TestTheShippedModelLeavesAProgramsOwnErrorUnclassified(t *testing.T) {
	c := NewClassifier(nil)
	tests := []struct {
		name, msg string
		// want is the class of a learned guess; empty, no guess.
		want string
	}{
		// A blind test-half message (realworld490) no rule reads; the
		// models never learned it.
		{"a store's own words for a full disk are guessed storage's", "Error: disk path full (cmd.StorageErr)", "sandbox/storage-persistence"},
		{"a program's own ValueError names no primitive", "ValueError: could not convert string to float: 'N/A'", ""},
		{"a line that names no word of the primitive the model leans to is not guessed", "Report generated successfully.", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cl := c.Classify(Failure{Target: "code-interpreter", Domain: "builds", Status: "failed", Error: tt.msg})
			guessed := strings.HasPrefix(cl.By, GuessBy+"learned:")
			if guessed != (tt.want != "") || guessed && cl.Layer+"/"+cl.Primitive != tt.want {
				t.Errorf("got %s/%s by %q, want a learned guess of %q (empty: none)", cl.Layer, cl.Primitive, cl.By, tt.want)
			}
		})
	}
}

func TestASureGuessSpeaksForAFailureWordedAsAReport(t *testing.T) {
	var labelled [][3]string
	for i := range 40 {
		labelled = append(labelled,
			[3]string{"interface", "message-size", fmt.Sprintf("the streamed body of part %d ended early, the gap stayed zero-filled and the download returned successfully", i)},
			[3]string{"sandbox", "network-egress", fmt.Sprintf("could not resolve registry host %d", i)})
	}
	c := NewClassifierWith(nil, trainOn("builds", labelled...))
	cl := c.Classify(Failure{Target: "code-interpreter", Domain: "builds", Status: "failed", LogTail: []byte("step=download part=7"),
		Error: "The streamed body ended early, so the gap stays zero-filled and the download returns successfully."})
	if got, want := cl.Layer+"/"+cl.Primitive, "interface/message-size"; got != want || !strings.HasPrefix(cl.By, GuessBy+"learned:") {
		t.Errorf("got %s by %q, want %s by a learned guess", got, cl.By, want)
	}
}

func TestNamePartsSplitsTheNamesErrorsAreMadeOf(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"an exception class in camelCase", "selenium.common.exceptions.InvalidSessionIdException: gone", "Invalid Session Id Exception"},
		{"an error constant in snake case", "deployment FUNCTION_INVOCATION_TIMEOUT", "FUNCTION INVOCATION TIMEOUT"},
		{"a run of capitals before a word", "HTTPError: 429", "HTTP Error"},
		{"plain words have no parts", "the kernel died", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := strings.Join(strings.Fields(nameParts(tt.text)), " "); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestASureModelOverrulesTheStemsButNotAnUnsureOne(t *testing.T) {
	var labelled [][3]string
	for i := range 30 {
		labelled = append(labelled,
			[3]string{"sandbox", "storage-persistence", fmt.Sprintf("kubelet attachvolume csi driver failed for pvc claim on node %d", i)},
			[3]string{"sandbox", "network-egress", fmt.Sprintf("could not resolve registry host %d", i)})
	}
	m := trainOn("builds", labelled...)
	tests := []struct {
		name, msg     string
		wantOverruled bool
		wantPrimitive string
	}{
		{"the model sure of its own words overrules the stems' words",
			"kubelet attachvolume csi driver failed for pvc claim on node: timed out connecting to host via proxy", true, "storage-persistence"},
		{"the model without its words leaves the stems' guess",
			"timed out connecting to host via proxy", false, "network-egress"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Failure{Target: "code-interpreter", Domain: "builds", Error: tt.msg}
			stems, _ := guess(tt.msg, Classification{Layer: "unclassified", By: ByNone})
			if stems.Primitive != "network-egress" {
				t.Fatalf("the stems guessed %s/%s, want sandbox/network-egress", stems.Layer, stems.Primitive)
			}
			got, _, overruled := surerModel(m, &f, tt.msg, stems)
			if overruled != tt.wantOverruled || got.Primitive != tt.wantPrimitive {
				t.Errorf("got %s (overruled %v), want %s (overruled %v)", got.Primitive, overruled, tt.wantPrimitive, tt.wantOverruled)
			}
		})
	}
}
