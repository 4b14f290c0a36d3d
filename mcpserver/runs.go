package mcpserver

import (
	"context"
	"net/url"
	"strconv"
	"strings"

	"sandtrap"
	"sandtrap/handlers"
)

// NoInput is the input of a tool that takes none.
type NoInput struct{}

// RunsInput filters and pages list_runs as the parameters of GET /api/runs
// do.
type RunsInput struct {
	Q      string `json:"q,omitempty" jsonschema:"only runs with this text in their id, name or notes (any case)"`
	Source string `json:"source,omitempty" jsonschema:"only runs of the campaign file with this label"`
	From   string `json:"from,omitempty" jsonschema:"only runs started on or after this day (UTC), as 2026-07-01"`
	To     string `json:"to,omitempty" jsonschema:"only runs started on or before this day (UTC), as 2026-07-01"`
	State  string `json:"state,omitempty" jsonschema:"only live or only finished runs"`
	Page   int    `json:"page,omitempty" jsonschema:"which page, 1 (the newest runs) unless given"`
	Per    int    `json:"per,omitempty" jsonschema:"runs a page, at most 500; 50 unless given"`
}

func (t *tools) listRuns(ctx context.Context, in RunsInput) (handlers.APIRunPage, error) {
	v := url.Values{}
	for _, kv := range [][2]string{{"q", in.Q}, {"source", in.Source}, {"from", in.From}, {"to", in.To}, {"state", in.State}} {
		if kv[1] != "" {
			v.Set(kv[0], kv[1])
		}
	}
	for _, kv := range []struct {
		name string
		n    int
	}{{"page", in.Page}, {"per", in.Per}} {
		if kv.n != 0 {
			v.Set(kv.name, strconv.Itoa(kv.n))
		}
	}
	return handlers.ListRunsPage(ctx, t.Runs, v)
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
