package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"sandtrap/filing"
	"sandtrap/mcpserver"
	"sandtrap/store"
	"sandtrap/triage"
)

// mcpConfig is what mcp's flags say.
type mcpConfig struct {
	state, config string
	campaigns     []string
}

func parseMCP(args []string, stderr io.Writer) (mcpConfig, error) {
	var c mcpConfig
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.state, "state", "sandtrap-state.db", "sandtrap's own state file, so that triage (merges, fixed marks, owners, tickets) counts; read, never written")
	fs.StringVar(&c.config, "config", "", "TOML file with classification rules, teams and routes, as serve uses")
	fs.Usage = func() {
		fmt.Fprintln(stderr, commandUsage("mcp"))
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return c, usageError{err.Error()}
	}
	c.campaigns = fs.Args()
	if len(c.campaigns) == 0 {
		fs.Usage()
		return c, usageError{"mcp needs at least one campaign file"}
	}
	return c, nil
}

// runMCP serves the MCP tools over stdin and stdout until the client
// closes stdin or ctx ends. It reads the campaign files as compare does,
// read-only on a private copy of the state, and keeps following them, so
// a live run stays current. stdout carries the protocol only; progress
// goes to stderr.
func runMCP(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	c, err := parseMCP(args, stderr)
	if err != nil {
		return err
	}
	var cfg triage.Config
	if c.config != "" {
		loaded, err := triage.LoadConfig(c.config)
		if err != nil {
			return err
		}
		cfg = *loaded
	}
	logger := slog.New(slog.NewTextHandler(stderr, nil))
	st, err := store.Open(ctx, store.Options{StatePath: c.state, Campaigns: c.campaigns, Classifier: triage.NewClassifier(cfg.Rules), ReadOnly: true,
		Logf: func(format string, args ...any) { logger.Info(fmt.Sprintf(format, args...)) }})
	if err != nil {
		return err
	}
	defer st.Close()
	st.Start(ctx)
	if err := st.WaitIndexed(ctx); err != nil {
		return err
	}
	// Without a token there is no triage or filing: the state is read-only.
	srv := mcpserver.New(mcpserver.Config{Runs: st, Modes: st, Results: st, Compare: st, Tickets: st,
		Facts: filing.Facts(st, ""), Owners: cfg.Owners.Ownership(), Logger: logger})
	return srv.Run(ctx, &mcp.IOTransport{Reader: io.NopCloser(stdin), Writer: nopWriteCloser{stdout}})
}

// nopWriteCloser leaves closing stdout to the process's end.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
