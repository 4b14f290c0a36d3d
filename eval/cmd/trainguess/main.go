// Command trainguess trains the model that guesses what no rule decides
// from the development halves of the labelled sets, and writes it as
// JSON. Run it from the module's root:
//
//	go run ./eval/cmd/trainguess -o triage/guess_model.json
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
	out := flag.String("o", "triage/guess_model.json", "where to write the model")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "trainguess:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	records, err := eval.LoadRecords(eval.GuessTrainingSets...)
	if err != nil {
		return err
	}
	b, err := json.Marshal(triage.TrainWordModel(eval.TrainingExamples(records)))
	if err != nil {
		return err
	}
	return os.WriteFile(out, append(b, '\n'), 0o644)
}
