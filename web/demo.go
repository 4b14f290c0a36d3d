package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"sandtrap/demo"
	"sandtrap/store/campaign"
)

// runDemo writes the demo campaign, and with --live keeps appending to an
// unfinished run the way concurrent sub-agents would.
func runDemo(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "demo.db", "campaign file to write")
	seed := fs.Int64("seed", 1, "random seed; the same seed writes the same campaign")
	results := fs.Int("results", 1000, "results per finished run")
	live := fs.Bool("live", false, "then append to an unfinished run until it is done or interrupted")
	rate := fs.Float64("rate", 4, "with --live: results per second")
	planned := fs.Int("planned", 1000, "with --live: results the live run plans")
	writers := fs.Int("writers", 4, "with --live: concurrent writer connections")
	fs.Usage = func() {
		fmt.Fprintln(stderr, commandUsage("demo"))
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return usageError{err.Error()}
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Sprintf("demo takes no arguments, got %q", fs.Args())}
	}
	if *results < 100 {
		return usageError{"--results must be at least 100, so that every failure mode of the demo fits"}
	}
	if _, err := os.Stat(*out); errors.Is(err, os.ErrNotExist) {
		sum, err := demo.Write(ctx, *out, demo.Options{Seed: *seed, Results: *results})
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, sum)
	} else if err != nil {
		return err
	} else if !*live {
		return fmt.Errorf("demo: %s already exists; remove it or choose another --out", *out)
	}
	if !*live {
		return nil
	}
	fmt.Fprintf(stdout, "appending to a live run in %s at %.1f results/s until %d results or Ctrl-C\n", *out, *rate, *planned)
	return demo.Live(ctx, *out, demo.LiveOptions{Seed: *seed, Planned: *planned, Rate: *rate, Writers: *writers})
}

// runInitDB writes an empty campaign database.
func runInitDB(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("init-db", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprintln(stderr, commandUsage("init-db")) }
	if err := fs.Parse(args); err != nil {
		return usageError{err.Error()}
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, commandUsage("init-db"))
		return usageError{"init-db needs exactly one file"}
	}
	if err := campaign.Create(ctx, fs.Arg(0)); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote an empty campaign database to %s\n", fs.Arg(0))
	return nil
}
