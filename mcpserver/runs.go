package mcpserver

import (
	"context"
	"strings"

	"sandtrap"
	"sandtrap/handlers"
)

// NoInput is the input of a tool that takes none.
type NoInput struct{}

// RunList is every run, as GET /api/runs lists them.
type RunList struct {
	Runs []handlers.APIRun `json:"runs" jsonschema:"every run, oldest first"`
}

func (t *tools) listRuns(ctx context.Context, _ NoInput) (RunList, error) {
	runs, err := t.Runs.ListRuns(ctx)
	if err != nil {
		return RunList{}, err
	}
	out := RunList{Runs: make([]handlers.APIRun, 0, len(runs))}
	for _, r := range runs {
		out.Runs = append(out.Runs, handlers.ToAPIRun(r))
	}
	return out, nil
}

// RunInput names a run.
type RunInput struct {
	Run string `json:"run" jsonschema:"the run's id, as list_runs gives it"`
}

func (t *tools) getRun(ctx context.Context, in RunInput) (handlers.APIRunDetail, error) {
	run, err := t.Runs.FindRun(ctx, in.Run)
	if err != nil {
		return handlers.APIRunDetail{}, err
	}
	cells, err := t.Runs.Breakdown(ctx, run.ID)
	if err != nil {
		return handlers.APIRunDetail{}, err
	}
	return handlers.ToAPIRunDetail(run, cells), nil
}

// CompareInput names the two runs to compare.
type CompareInput struct {
	Base  string `json:"base" jsonschema:"the run compared against, usually the older"`
	Head  string `json:"head" jsonschema:"the run compared, usually the newer"`
	Limit int    `json:"limit,omitempty" jsonschema:"most tests listed in each group; 100 unless given. The test counts count them all"`
}

// Test lists are capped, as GET /api/compare caps them, but lower by
// default: an agent reads every line it is given.
const (
	compareTests    = 100
	maxCompareTests = 1_000_000
)

func (t *tools) compareRuns(ctx context.Context, in CompareInput) (handlers.APIComparison, error) {
	base, head := strings.TrimSpace(in.Base), strings.TrimSpace(in.Head)
	if base == "" || head == "" {
		return handlers.APIComparison{}, sandtrap.Errorf(sandtrap.EINVALID, "name both runs, base and head")
	}
	limit := in.Limit
	if limit == 0 {
		limit = compareTests
	}
	if limit < 1 || limit > maxCompareTests {
		return handlers.APIComparison{}, sandtrap.Errorf(sandtrap.EINVALID, "limit must be from 1 to %d, not %d", maxCompareTests, in.Limit)
	}
	c, err := t.Compare.Compare(ctx, base, head, limit)
	if err != nil {
		return handlers.APIComparison{}, err
	}
	return handlers.ToAPIComparison(c), nil
}
