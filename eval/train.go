package eval

import "sandtrap/triage"

// GuessTrainingSets are the labelled sets, relative to the module's root,
// whose development halves the guess and severity models learn from.
var GuessTrainingSets = []string{
	"testdata/corpus/demo-modes.jsonl",
	"testdata/corpus/tools.jsonl",
	"testdata/eval/realworld.jsonl",
	"testdata/eval/realworld2.jsonl",
	"testdata/eval/realworld3.jsonl",
	"testdata/eval/realworld4.jsonl",
	"testdata/eval/realworld5.jsonl",
	"testdata/eval/realworld6.jsonl",
	"testdata/eval/realworld7.jsonl",
	"testdata/eval/realworld8.jsonl",
	"testdata/eval/realworld9.jsonl",
	"testdata/eval/realworld10.jsonl",
	"testdata/eval/realworld11.jsonl",
	"testdata/eval/realworld12.jsonl",
	"testdata/eval/realworld13.jsonl",
	"testdata/eval/realworld14.jsonl",
	"testdata/eval/realworld15.jsonl",
	"testdata/eval/realworld16.jsonl",
	"testdata/eval/realworld17.jsonl",
	"testdata/eval/realworld18.jsonl",
	"testdata/eval/realworld19.jsonl",
	"testdata/eval/realworld20.jsonl",
	"testdata/eval/realworld21.jsonl",
	"testdata/eval/realworld22.jsonl",
	"testdata/eval/realworld23.jsonl",
	"testdata/eval/realworld24.jsonl",
	"testdata/eval/realworld25.jsonl",
	"testdata/eval/realworld26.jsonl",
	"testdata/eval/realworld27.jsonl",
	"testdata/eval/realworld28.jsonl",
	"testdata/eval/realworld29.jsonl",
	"testdata/eval/realworld30.jsonl",
	"testdata/eval/realworld31.jsonl",
	"testdata/eval/realworld32.jsonl",
	"testdata/eval/realworld33.jsonl",
	"testdata/eval/realworld34.jsonl",
	"testdata/eval/realworld35.jsonl",
	"testdata/eval/realworld36.jsonl",
	"testdata/eval/realworld37.jsonl",
	"testdata/eval/realworld38.jsonl",
	"testdata/eval/realworld39.jsonl",
	"testdata/eval/realworld40.jsonl",
	"testdata/eval/realworld41.jsonl",
	"testdata/eval/realworld42.jsonl",
	"testdata/eval/realworld43.jsonl",
	"testdata/eval/realworld44.jsonl",
	"testdata/eval/realworld45.jsonl",
	"testdata/eval/realworld46.jsonl",
	"testdata/eval/realworld47.jsonl",
	"testdata/eval/realworld48.jsonl",
	"testdata/eval/realworld49.jsonl",
	"testdata/eval/realworld50.jsonl",
	"testdata/eval/realworld51.jsonl",
	"testdata/eval/realworld52.jsonl",
	"testdata/eval/realworld53.jsonl",
	"testdata/eval/realworld54.jsonl",
	"testdata/eval/realworld55.jsonl",
	"testdata/eval/realworld56.jsonl",
	"testdata/eval/realworld57.jsonl",
	"testdata/eval/realworld58.jsonl",
	"testdata/eval/realworld59.jsonl",
	"testdata/eval/realworld60.jsonl",
	"testdata/eval/realworld61.jsonl",
	"testdata/eval/realworld62.jsonl",
	"testdata/eval/realworld63.jsonl",
	"testdata/eval/realworld64.jsonl",
	"testdata/eval/realworld65.jsonl",
	"testdata/eval/realworld66.jsonl",
	"testdata/eval/realworld67.jsonl",
	"testdata/eval/realworld68.jsonl",
	"testdata/eval/realworld69.jsonl",
	"testdata/eval/realworld70.jsonl",
	"testdata/eval/realworld71.jsonl",
	"testdata/eval/realworld72.jsonl",
	"testdata/eval/realworld73.jsonl",
	"testdata/eval/realworld74.jsonl",
	"testdata/eval/realworld75.jsonl",
	"testdata/eval/realworld76.jsonl",
	"testdata/eval/realworld77.jsonl",
	"testdata/eval/realworld78.jsonl",
	"testdata/eval/realworld79.jsonl",
	"testdata/eval/realworld80.jsonl",
	"testdata/eval/realworld81.jsonl",
	"testdata/eval/realworld82.jsonl",
	"testdata/eval/realworld83.jsonl",
	"testdata/eval/realworld84.jsonl",
	"testdata/eval/realworld85.jsonl",
}

// TrainingExamples returns the records of the development half as
// examples to learn from: no test half's record is ever learned, so the
// test halves keep measuring the model.
func TrainingExamples(records []Record) []triage.Example {
	var out []triage.Example
	for _, r := range records {
		if Half(r.ID) != "dev" {
			continue
		}
		out = append(out, triage.Example{Failure: r.Failure(), Layer: r.Layer, Primitive: r.Primitive, Severity: r.Severity})
	}
	return out
}
