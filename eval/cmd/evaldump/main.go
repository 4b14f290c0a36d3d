// Command evaldump prints, for each record of the labelled sets named on
// its command line, what sandtrap decides beside what the labeller said,
// one JSON object per line: the set, the record's id and half, its cause,
// the true and the decided layer/primitive, what decided it, the mode and
// its template, and both severities. testdata/eval/blind/bound.py and
// cats.py read its output. With -folds N, each set is decided by models
// trained on the sets outside its fold, as `sandtrap eval --folds N`
// scores it: what the models carry to a campaign they never saw.
//
//	go run ./eval/cmd/evaldump testdata/eval/realworld*.jsonl > dump.jsonl
//	go run ./eval/cmd/evaldump -folds 10 testdata/eval/realworld*.jsonl > held-out.jsonl
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"sandtrap/eval"
	"sandtrap/triage"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "evaldump:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("evaldump", flag.ContinueOnError)
	folds := fs.Int("folds", 0, "decide each set with models trained on the sets outside its fold, the i-th file in fold i mod `n`")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	var sets []eval.LabelledSet
	for _, path := range fs.Args() {
		records, err := eval.LoadRecords(path)
		if err != nil {
			return err
		}
		sets = append(sets, eval.LabelledSet{Name: strings.TrimSuffix(filepath.Base(path), ".jsonl"), Records: records})
	}
	decided, err := decide(sets, *folds)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(os.Stdout)
	for k, set := range sets {
		for i, r := range set.Records {
			o := decided[k][i]
			cause := r.Cause
			if cause == "" {
				cause = r.Mode
			}
			if err := enc.Encode(map[string]string{"set": set.Name, "id": r.ID, "half": eval.Half(r.ID), "cause": cause,
				"want": r.Layer + "/" + r.Primitive, "got": o.Layer + "/" + o.Primitive, "by": o.By,
				"mode": o.Mode, "tpl": o.Template, "sev": o.Severity, "wsev": r.Severity, "err": first(r.Error, 300)}); err != nil {
				return err
			}
		}
	}
	return nil
}

// decide returns the outcomes of every set's records: by models trained
// outside each set's fold when folds is not 0, else by the committed ones.
func decide(sets []eval.LabelledSet, folds int) ([][]eval.Outcome, error) {
	if folds != 0 {
		return eval.DecideFoldsOut(nil, sets, folds)
	}
	c := triage.NewClassifier(nil)
	out := make([][]eval.Outcome, len(sets))
	for k, set := range sets {
		out[k] = eval.Decide(c, set.Records)
	}
	return out, nil
}

// first returns s cut to at most n bytes.
func first(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
