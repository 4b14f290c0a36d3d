// Command evaldump prints, for each record of the labelled sets named on
// its command line, what sandtrap decides beside what the labeller said,
// one JSON object per line: the set, the record's id and half, its cause,
// the true and the decided layer/primitive, what decided it, the mode and
// its template, and both severities. testdata/eval/blind/bound.py and
// cats.py read its output.
//
//	go run ./eval/cmd/evaldump testdata/eval/realworld*.jsonl > dump.jsonl
package main

import (
	"encoding/json"
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

func run(paths []string) error {
	c := triage.NewClassifier(nil)
	enc := json.NewEncoder(os.Stdout)
	for _, path := range paths {
		records, err := eval.LoadRecords(path)
		if err != nil {
			return err
		}
		outcomes := eval.Decide(c, records)
		set := strings.TrimSuffix(filepath.Base(path), ".jsonl")
		for i, r := range records {
			o := outcomes[i]
			cause := r.Cause
			if cause == "" {
				cause = r.Mode
			}
			if err := enc.Encode(map[string]string{"set": set, "id": r.ID, "half": eval.Half(r.ID), "cause": cause,
				"want": r.Layer + "/" + r.Primitive, "got": o.Layer + "/" + o.Primitive, "by": o.By,
				"mode": o.Mode, "tpl": o.Template, "sev": o.Severity, "wsev": r.Severity, "err": first(r.Error, 300)}); err != nil {
				return err
			}
		}
	}
	return nil
}

// first returns s cut to at most n bytes.
func first(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
