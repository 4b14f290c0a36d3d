package triage

import (
	"strings"
	"testing"
)

func TestGuessFromWords(t *testing.T) {
	c := NewClassifier(nil)
	tests := []struct {
		name          string
		failure       Failure
		wantPrimitive string // "" when the failure must stay unclassified
	}{
		{"words of memory on an error no rule knows lean to memory",
			Failure{Error: "worker exhausted its heap while allocating the frame buffer; the allocator gave up and the process was killed"}, "memory"},
		{"words of the network lean to network egress",
			Failure{Error: "the registry host could not be reached: proxy handshake with the upstream socket broke"}, "network-egress"},
		{"a message that leans nowhere stays unclassified",
			Failure{Error: "the frobnicator wobbled at step 7"}, ""},
		{"the harness's own layer is never second-guessed",
			Failure{Error: "worker exhausted its heap while allocating; killed", HarnessLayer: "test"}, "harness"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cl := c.Classify(tt.failure)
			if cl.Primitive != tt.wantPrimitive {
				t.Fatalf("got %s/%s by %s, want primitive %q", cl.Layer, cl.Primitive, cl.By, tt.wantPrimitive)
			}
			guessed := strings.HasPrefix(cl.By, GuessBy)
			if wantGuess := tt.wantPrimitive != "" && tt.failure.HarnessLayer == ""; guessed != wantGuess {
				t.Errorf("got by %q, want a guess %v", cl.By, wantGuess)
			}
		})
	}
}

func TestTiedStemsLeaveTheDecisionToTheLearnedModel(t *testing.T) {
	// Two primitives' stems in equal measure decide nothing; the learned
	// model, which speaks after the stems, may still lean one way.
	msg := "heap memory and proxy host"
	if cl, words := guess(msg, Classification{Layer: "unclassified", By: ByNone}); cl.By != ByNone || len(words) != 0 {
		t.Fatalf("got the stems deciding %s/%s by %s, want no decision", cl.Layer, cl.Primitive, cl.By)
	}
	cl := NewClassifier(nil).Classify(Failure{Error: msg})
	if cl.By != ByNone && !strings.HasPrefix(cl.By, GuessBy+"learned:") {
		t.Errorf("got %s/%s by %s, want unclassified or the learned model's guess", cl.Layer, cl.Primitive, cl.By)
	}
}

func TestHasStem(t *testing.T) {
	tests := []struct {
		text, stem string
		want       bool
	}{
		{"allocating memory", "allocat", true},
		{"reallocation", "allocat", false},
		{"see https://x", "http", true},
		{"a \\x00 byte", "\\x00", true},
	}
	for _, tt := range tests {
		if got := hasStem(tt.text, tt.stem); got != tt.want {
			t.Errorf("hasStem(%q, %q) = %v, want %v", tt.text, tt.stem, got, tt.want)
		}
	}
}
