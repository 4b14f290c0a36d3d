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
	"strings"
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

// synopses are each command's line of the usage text, with every flag.
var synopses = []struct{ command, line string }{
	{"serve", "serve [--addr 127.0.0.1:8080] [--state FILE] [--config FILE] [--read-only] [--public-url URL]\n" +
		"        [--token-env SANDTRAP_TOKEN] [--poll 20ms] [--memory-limit 200] [--index-memory 96]\n" +
		"        [--ingest FILE [--ingest-max-body 32MiB]]\n" +
		"        [--auth-proxy-header X-Forwarded-Email --trusted-proxy CIDR[,CIDR...]] [CAMPAIGN.db...]"},
	{"demo", "demo [--out FILE] [--seed N] [--results N] [--live [--rate N] [--planned N] [--writers N]]"},
	{"init-db", "init-db FILE"},
	{"compare", "compare [--state FILE] [--config FILE] [--format text|markdown|json]\n" +
		"        [--fail-on new-modes|regressions] [--limit 50] CAMPAIGN.db... BASE HEAD"},
	{"eval", "eval [--config FILE] [--logs DIR] [--leave-one-out | --folds N] [-v] LABELLED.jsonl..."},
	{"import", "import --format junit|ctrf --into CAMPAIGN.db [--run ID] [--name NAME] [--target T] [--domain D] FILE..."},
	{"mcp", "mcp [--state FILE] [--config FILE] CAMPAIGN.db..."},
}

// usage is the command line's help.
var usage = func() string {
	var b strings.Builder
	b.WriteString("usage: sandtrap <command> [flags]\n\ncommands:\n")
	for _, s := range synopses {
		b.WriteString("  " + s.line + "\n")
	}
	b.WriteString("\nRun \"sandtrap <command> -h\" for a command's flags.")
	return b.String()
}()

// commandUsage is the first line of a command's -h: its synopsis.
func commandUsage(command string) string {
	for _, s := range synopses {
		if s.command == command {
			return "usage: sandtrap " + s.line
		}
	}
	return "usage: sandtrap " + command
}

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
