package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"sandtrap/eval"
	"sandtrap/triage"
)

// runEval scores the classifier and the grouping on labelled sets: each
// JSONL file is reported whole and as its development and held-out halves,
// and the Loghub samples in --logs by their grouping.
func runEval(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	fs.SetOutput(stderr)
	configPath := fs.String("config", "", "TOML file with classification rules, as serve takes")
	logsDir := fs.String("logs", "", "folder of labelled system logs (<system>.jsonl of {content, event})")
	verbose := fs.Bool("v", false, "list the misclassified records")
	leaveOut := fs.Bool("leave-one-out", false, "also score each file's test half with guess and severity models trained on the other files only")
	folds := fs.Int("folds", 0, "also score each file's test half with models trained on the files outside its fold, the i-th file in fold i mod `n` (faster than --leave-one-out)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, commandUsage("eval"))
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return usageError{err.Error()}
	}
	if fs.NArg() == 0 && *logsDir == "" {
		fs.Usage()
		return usageError{"eval needs a labelled JSONL file or --logs"}
	}
	if *leaveOut && fs.NArg() < 2 {
		return usageError{"--leave-one-out needs at least two labelled files"}
	}
	if *folds != 0 && (*folds < 2 || *folds > fs.NArg()) {
		return usageError{fmt.Sprintf("--folds %d: needs 2 to as many folds as labelled files (%d)", *folds, fs.NArg())}
	}
	if *folds != 0 && *leaveOut {
		return usageError{"--folds and --leave-one-out are two ways to leave sets out: give one"}
	}
	var rules []triage.Rule
	if *configPath != "" {
		cfg, err := triage.LoadConfig(*configPath)
		if err != nil {
			return err
		}
		rules = cfg.Rules
	}
	c := triage.NewClassifier(rules)
	var sets []eval.LabelledSet
	for _, path := range fs.Args() {
		records, err := eval.LoadRecords(path)
		if err != nil {
			return err
		}
		sets = append(sets, eval.LabelledSet{Name: path, Records: records})
		outcomes := eval.Decide(c, records)
		halves := map[string][]int{}
		for i, r := range records {
			halves[eval.Half(r.ID)] = append(halves[eval.Half(r.ID)], i)
		}
		eval.WriteReport(stdout, eval.Evaluate(path, records, outcomes), *verbose)
		for _, half := range []string{"dev", "test"} {
			rs, outs := pick(records, halves[half]), pick(outcomes, halves[half])
			eval.WriteReport(stdout, eval.Evaluate(path+" ("+half+" half)", rs, outs), *verbose && half == "dev")
		}
	}
	if *leaveOut || *folds != 0 {
		var left []eval.LeftOut
		var err error
		if *leaveOut {
			left, err = eval.LeaveEachOut(rules, sets)
		} else {
			left, err = eval.LeaveFoldsOut(rules, sets, *folds)
		}
		if err != nil {
			return err
		}
		eval.WriteLeftOut(stdout, left)
	}
	if *logsDir != "" {
		logs, err := eval.LoadLogs(*logsDir)
		if err != nil {
			return err
		}
		eval.WriteLogReports(stdout, eval.EvaluateLogs(c, logs))
	}
	return ctx.Err()
}

func pick[T any](all []T, idx []int) []T {
	out := make([]T, len(idx))
	for i, j := range idx {
		out[i] = all[j]
	}
	return out
}
