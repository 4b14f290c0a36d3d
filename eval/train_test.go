package eval

import (
	"math"
	"path/filepath"
	"reflect"
	"testing"

	"sandtrap/triage"
)

func TestTheCommittedModelsAreTrainedFromTheDevelopmentHalves(t *testing.T) {
	var paths []string
	for _, p := range GuessTrainingSets {
		paths = append(paths, filepath.Join("..", p))
	}
	records, err := LoadRecords(paths...)
	if err != nil {
		t.Fatal(err)
	}
	examples := TrainingExamples(records)
	for _, ex := range examples {
		if Half(ex.Failure.Test) != "dev" {
			t.Fatalf("got %s among the examples, want only development halves", ex.Failure.Test)
		}
	}
	if got, want := len(examples), 0; got == want {
		t.Fatal("got no examples, want the development halves")
	}
	if got, want := triage.GuessModel(), TrainGuess(examples); !modelsAlike(got, want) {
		t.Error("triage/guess_model.json differs from the model the labelled sets train: run go run ./eval/cmd/trainguess")
	}
	if got, want := triage.SeverityModel(), triage.TrainSeverityModel(examples, triage.NewClassifier(nil)); !reflect.DeepEqual(got, want) {
		t.Error("triage/severity_model.json differs from the model the labelled sets train: run go run ./eval/cmd/trainguess")
	}
}

// weightStep is how far a retrained regression's weight may lie from the
// committed one: one rounding step (weights are kept to thousandths) and
// a little, since math.Exp is assembly on some platforms and may flip a
// rounding there.
const weightStep = 0.0015

// modelsAlike reports whether two models are equal but for their
// regression's weights and biases, which may differ by weightStep.
func modelsAlike(a, b *triage.WordModel) bool {
	close := func(x, y []float64) bool {
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if math.Abs(x[i]-y[i]) > weightStep {
				return false
			}
		}
		return true
	}
	if len(a.Weights) != len(b.Weights) || !close(a.Bias, b.Bias) {
		return false
	}
	for w, x := range a.Weights {
		if !close(x, b.Weights[w]) {
			return false
		}
	}
	a2, b2 := *a, *b
	a2.Weights, a2.Bias, b2.Weights, b2.Bias = nil, nil, nil, nil
	return reflect.DeepEqual(a2, b2)
}
