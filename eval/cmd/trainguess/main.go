// Command trainguess trains, from the development halves of the labelled
// sets, the model that guesses what no rule decides and the model that
// rates a mode critical from its signature, and writes them as JSON. Run
// it from the module's root:
//
//	go run ./eval/cmd/trainguess
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"sandtrap/eval"
	"sandtrap/triage"
)

func main() {
	guessOut := flag.String("guess", "triage/guess_model.json", "where to write the guess model")
	severityOut := flag.String("severity", "triage/severity_model.json", "where to write the severity model")
	flag.Parse()
	if err := run(*guessOut, *severityOut); err != nil {
		fmt.Fprintln(os.Stderr, "trainguess:", err)
		os.Exit(1)
	}
}

func run(guessOut, severityOut string) error {
	records, err := eval.LoadRecords(eval.GuessTrainingSets...)
	if err != nil {
		return err
	}
	examples := eval.TrainingExamples(records)
	guess := eval.TrainGuess(examples)
	// The severity model reads signatures as the classifier will sign
	// them, and a guess chooses the line a signature is taken from.
	if err := write(guessOut, guess); err != nil {
		return err
	}
	return write(severityOut, triage.TrainSeverityModel(examples, triage.NewClassifierWith(nil, guess)))
}

func write(path string, m *triage.WordModel) error {
	b, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}
