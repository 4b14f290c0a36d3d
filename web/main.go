// Command sandtrap serves the triage dashboard for agent-sandbox fuzz
// campaigns, writes the demo campaign and empty campaign databases, imports
// the test reports of other tools, compares runs for CI, and answers coding
// agents over MCP.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		var ue usageError
		if errors.As(err, &ue) {
			fmt.Fprintln(os.Stderr, "sandtrap:", err)
			os.Exit(2)
		}
		fmt.Fprintln(os.Stderr, "sandtrap:", err)
		os.Exit(1)
	}
}

// usageError is a mistake in the command line; it exits with status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

const usage = `usage: sandtrap <command> [flags]

commands:
  serve [--addr 127.0.0.1:8080] [--state FILE] [--config FILE] [--public-url URL] [--read-only]
        [--ingest FILE [--ingest-max-body 32MiB]] CAMPAIGN.db...
  demo [--out FILE] [--seed N] [--results N] [--live]
  init-db FILE
  compare [--state FILE] [--format text|markdown|json] [--fail-on new-modes|regressions] CAMPAIGN.db... BASE HEAD
  eval [--config FILE] [--logs DIR] [-v] LABELLED.jsonl...
  import --format junit|ctrf --into CAMPAIGN.db [--run ID] [--name NAME] [--target T] [--domain D] FILE...
  mcp [--state FILE] [--config FILE] CAMPAIGN.db...

Run "sandtrap <command> -h" for a command's flags.`

// run dispatches to a command.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprintln(stderr, usage)
		return usageError{"no command given"}
	}
	switch args[0] {
	case "serve":
		return runServe(ctx, args[1:], stdout, stderr)
	case "demo":
		return runDemo(ctx, args[1:], stdout, stderr)
	case "init-db":
		return runInitDB(ctx, args[1:], stdout, stderr)
	case "compare":
		return runCompare(ctx, args[1:], stdout, stderr)
	case "eval":
		return runEval(ctx, args[1:], stdout, stderr)
	case "import":
		return runImport(ctx, args[1:], stdout, stderr)
	case "mcp":
		return runMCP(ctx, args[1:], os.Stdin, stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprintln(stdout, usage)
		return nil
	}
	fmt.Fprintln(stderr, usage)
	return usageError{fmt.Sprintf("unknown command %q", args[0])}
}
