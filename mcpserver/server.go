// Package mcpserver answers coding agents over the Model Context Protocol:
// the runs, failure modes, comparisons and results of the served campaigns,
// with the same ids and numbers as the JSON API, and with an access token
// the triage and filing of failure modes.
package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"sandtrap"
	"sandtrap/compare"
	"sandtrap/filing"
	"sandtrap/handlers"
	"sandtrap/store"
	"sandtrap/triage"
)

// Runs reads runs and their breakdowns.
type Runs interface {
	FindRuns(ctx context.Context, f sandtrap.RunFilter) (sandtrap.RunPage, error)
	Sources(ctx context.Context) []sandtrap.SourceStatus
	FindRun(ctx context.Context, id string) (sandtrap.Run, error)
	Breakdown(ctx context.Context, runID string) ([]sandtrap.Cell, error)
}

// Modes reads failure modes with their triage applied, and says which mode
// a failure would have.
type Modes interface {
	RunModes(ctx context.Context, runID string, f sandtrap.ResultFilter) ([]sandtrap.ModeStat, map[string][]sandtrap.FacetValue, error)
	FindMode(ctx context.Context, id string) (sandtrap.Mode, error)
	ModeRuns(ctx context.Context, id string) ([]sandtrap.RunCount, error)
	ModeHistory(ctx context.Context, id string, recent int) (sandtrap.History, error)
	ModeForFailure(ctx context.Context, f triage.Failure) (store.ModeLookup, error)
}

// Results reads one result and its evidence.
type Results interface {
	FindResult(ctx context.Context, runID string, id int64) (sandtrap.Result, sandtrap.Classification, error)
	ResultLogTail(ctx context.Context, runID string, id int64, n int64) ([]byte, error)
	Artifacts(ctx context.Context, runID string, resultID int64) ([]sandtrap.Artifact, error)
	ArtifactData(ctx context.Context, runID string, resultID, artifactID int64) (sandtrap.Artifact, []byte, error)
	Steps(ctx context.Context, runID string, resultID int64) ([]sandtrap.Step, error)
}

// Comparer compares two runs.
type Comparer interface {
	Compare(ctx context.Context, baseID, headID string, limit int) (compare.Comparison, error)
}

// Tickets reads the ticket a mode was filed as.
type Tickets interface {
	Ticket(ctx context.Context, modeID string) (filing.Stored, bool, error)
}

// Actions triage and file failure modes through the same checks as POST
// /api/modes/{mode}/triage and /file; the handlers implement them.
type Actions interface {
	TriageMode(ctx context.Context, id string, t handlers.TriageRequest) (handlers.APIMode, string, error)
	FileMode(ctx context.Context, id, team string) (handlers.APITicket, error)
}

// Config is what the tools read from, and what they may change.
type Config struct {
	Runs    Runs
	Modes   Modes
	Results Results
	Compare Comparer
	Tickets Tickets
	Facts   filing.FactsFunc // a mode's samples, reproducer and chosen owner
	Owners  filing.Ownership
	// Actions, when set, adds triage_mode and file_mode: serve sets it only
	// with an access token.
	Actions Actions
	// Ingest, when set, adds start_run, record_result and finish_run:
	// serve sets it with --ingest.
	Ingest Ingester
	Logger *slog.Logger
}

// tools holds what the tool handlers use.
type tools struct {
	Config
}

const instructions = `sandtrap triages the failures of agent-sandbox fuzz campaigns. Failures group into failure modes with stable ids (m-…) that stay the same across runs and campaign files. Start with list_runs, then get_run and list_failure_modes for a run; get_failure_mode tells a mode's samples and the quickest workflow that reproduces it; get_result shows one result's log tail, tool calls and artifacts, byte-exact as base64. find_mode_for_error says which mode a new error message belongs to and whether it is known or fixed. compare_runs says what changed between two runs.`

// New returns the MCP server with every tool; triage_mode and file_mode
// only when c.Actions is set.
func New(c Config) *mcp.Server {
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "sandtrap", Title: "sandtrap", Version: version()}, &mcp.ServerOptions{Instructions: instructions})
	t := &tools{c}
	read := func(title string) *mcp.ToolAnnotations {
		return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(false)}
	}
	add(t, s, &mcp.Tool{Name: "list_runs", Annotations: read("List runs"),
		Description: "The runs of the served campaign files, newest first, a page at a time, with their counts (total, passed, failed, errored, skipped, other), pass rate and whether each is still live. Filters find runs by text in their id, name or notes, campaign file, start day and state; total and pages say how many there are in all, and the next page (page + 1) reaches older runs. The same as GET /api/runs."},
		t.listRuns)
	add(t, s, &mcp.Tool{Name: "get_run", Annotations: read("Get a run"),
		Description: "One run with its counts by target, domain, layer and primitive (layer and primitive count failures only). The same as GET /api/runs/{run}."},
		t.getRun)
	add(t, s, &mcp.Tool{Name: "list_failure_modes", Annotations: read("List a run's failure modes"),
		Description: "A run's failure modes, worst first (severity, then blast radius), with their failures, tests, domains and targets in the run, triage status, owner and ticket. Filters narrow the run's failures (layer, primitive, target, domain) or the modes (severity, triage status). The same numbers as GET /api/runs/{run}/modes."},
		t.listModes)
	add(t, s, &mcp.Tool{Name: "get_failure_mode", Annotations: read("Get a failure mode"),
		Description: "One failure mode across every run: signature, title, layer, primitive, severity, triage status, owner, ticket, its failures in each run, sample failures and the quickest failing workflow to reproduce it. The id of a mode merged into another finds the other."},
		t.getMode)
	add(t, s, &mcp.Tool{Name: "find_mode_for_error", Annotations: read("Find the failure mode of an error"),
		Description: "Classifies a failure message exactly as sandtrap's indexer does and says its layer, primitive, severity, who classified it, its failure mode, whether that mode is known in the campaigns, its triage status (fixed or not) and its ticket."},
		t.findModeForError)
	add(t, s, &mcp.Tool{Name: "compare_runs", Annotations: read("Compare two runs"),
		Description: "Head run against base run: pass rate, failures and modes before and after; new, resolved, persisting and returned (marked fixed, failing again) failure modes; fixed, regressed, still-failing, added and removed tests; flaky tests and modes. The same as GET /api/compare."},
		t.compareRuns)
	add(t, s, &mcp.Tool{Name: "get_result", Annotations: read("Get a result"),
		Description: fmt.Sprintf("One result of a run: its fields, classification, error, the last %d KiB of its log, its MCP tool calls and its artifacts with their round-trip checks. Bytes come exact as base64 (log_tail_base64, request_base64, response_base64, data_base64) and as text with hidden characters made visible (NUL as ␀, invalid UTF-8 as U+FFFD).", logTailBytes>>10)},
		t.getResult)
	if c.Actions != nil {
		add(t, s, &mcp.Tool{Name: "triage_mode",
			Annotations: &mcp.ToolAnnotations{Title: "Triage a failure mode", IdempotentHint: true, DestructiveHint: new(false), OpenWorldHint: new(false)},
			Description: "Records a triage decision on a failure mode, as POST /api/modes/{mode}/triage does: its status, severity or owner, or a note. Give at least one; they apply in that order. Refused when sandtrap serves read-only."},
			t.triageMode)
		add(t, s, &mcp.Tool{Name: "file_mode",
			Annotations: &mcp.ToolAnnotations{Title: "File a failure mode", DestructiveHint: new(false), OpenWorldHint: new(true)},
			Description: "Files a failure mode to its owner's tracker (or a given team's), or comments on or reopens the ticket it already has, as POST /api/modes/{mode}/file does. Refused when sandtrap serves read-only."},
			t.fileMode)
	}
	if c.Ingest != nil {
		write := func(title string, idempotent bool) *mcp.ToolAnnotations {
			return &mcp.ToolAnnotations{Title: title, IdempotentHint: idempotent, DestructiveHint: new(false), OpenWorldHint: new(false)}
		}
		add(t, s, &mcp.Tool{Name: "start_run", Annotations: write("Start a run", true),
			Description: "Starts a run in the campaign file sandtrap writes (serve --ingest), as POST /api/ingest/runs does. Starting it again with the same fields is safe and says created false."},
			t.startRun)
		add(t, s, &mcp.Tool{Name: "record_result", Annotations: write("Record results", true),
			Description: "Records results of a started run, as POST /api/ingest/runs/{run}/results does: each result's test, target, domain and status, and its error, exit code, log (base64), artifacts and steps. Give each result a key unique within the run: a result whose key was recorded is counted as a duplicate, not written twice. The batch is checked whole; a mistake names its index and field and nothing is written."},
			t.recordResult)
		add(t, s, &mcp.Tool{Name: "finish_run", Annotations: write("Finish a run", true),
			Description: "Ends a run, as POST /api/ingest/runs/{run}/finish does; results for it are refused afterwards."},
			t.finishRun)
	}
	return s
}

// add registers a tool whose handler returns an answer or an error; an
// error reaches the agent as a tool error it can read and act on.
func add[In, Out any](t *tools, s *mcp.Server, tool *mcp.Tool, fn func(context.Context, In) (Out, error)) {
	mcp.AddTool(s, tool, func(ctx context.Context, _ *mcp.CallToolRequest, in In) (*mcp.CallToolResult, Out, error) {
		out, err := fn(ctx, in)
		if err != nil {
			var zero Out
			return nil, zero, t.toolError(tool.Name, err)
		}
		return nil, out, nil
	})
}

// toolError is err in the words of the JSON API's errors: its code and
// message. An internal error is logged, and its detail kept back.
func (t *tools) toolError(tool string, err error) error {
	code := sandtrap.ErrorCode(err)
	if code == sandtrap.EINTERNAL && !errors.Is(err, context.Canceled) {
		t.Logger.Error("mcp tool failed", "tool", tool, "err", err)
	}
	return fmt.Errorf("%s: %s", code, sandtrap.ErrorMessage(err))
}

// HTTPHandler serves s over Streamable HTTP. It is stateless: every tool
// answers within its own request, so there are no sessions to keep.
func HTTPHandler(s *mcp.Server) http.Handler {
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{
		Stateless:    true,
		JSONResponse: true,
		// The routes check the Host header against sandtrap's own list,
		// which also admits --public-url's host behind a proxy on loopback.
		DisableLocalhostProtection: true,
	})
}

// version is the module version the binary was built from.
func version() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
		return info.Main.Version
	}
	return "(devel)"
}
