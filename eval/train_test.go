package eval

import (
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
	if got, want := triage.GuessModel(), TrainGuess(examples); !reflect.DeepEqual(got, want) {
		t.Error("triage/guess_model.json differs from the model the labelled sets train: run go run ./eval/cmd/trainguess")
	}
	if got, want := triage.SeverityModel(), triage.TrainSeverityModel(examples, triage.NewClassifier(nil)); !reflect.DeepEqual(got, want) {
		t.Error("triage/severity_model.json differs from the model the labelled sets train: run go run ./eval/cmd/trainguess")
	}
}
