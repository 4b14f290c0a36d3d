package handlers

import (
	"context"
	"net/http"
	"net/url"
	"time"

	"github.com/go-chi/chi/v5"

	"sandtrap"
)

// APIRun is a run as the JSON API and the MCP tools return it.
type APIRun struct {
	ID         string  `json:"id"`
	Name       string  `json:"name"`
	Source     string  `json:"source"`
	StartedAt  string  `json:"started_at"`
	FinishedAt *string `json:"finished_at"`
	Planned    *int    `json:"planned"`
	Notes      string  `json:"notes,omitempty"`
	sandtrap.Counts
	PassRate float64 `json:"pass_rate"`
	Live     bool    `json:"live"`
}

// ToAPIRun is r as the API writes it.
func ToAPIRun(r sandtrap.Run) APIRun {
	out := APIRun{ID: r.ID, Name: r.Name, Source: r.Source, Notes: r.Notes, Counts: r.Counts,
		PassRate: r.Counts.PassRate(), Live: r.Live()}
	if !r.StartedAt.IsZero() {
		out.StartedAt = r.StartedAt.UTC().Format(time.RFC3339)
	}
	if !r.Live() {
		s := r.FinishedAt.UTC().Format(time.RFC3339)
		out.FinishedAt = &s
	}
	if r.Planned > 0 {
		out.Planned = &r.Planned
	}
	return out
}

// APIRunPage is a page of runs as GET /api/runs and the MCP list_runs
// return it: newest first, with the links to the pages around it.
type APIRunPage struct {
	Runs  []APIRun `json:"runs"`
	Total int      `json:"total"` // runs the filters select, over every page
	Page  int      `json:"page"`
	Per   int      `json:"per"`
	Pages int      `json:"pages"`
	// Next leads to older runs and Prev to newer ones; each is left out
	// where there is no such page.
	Next string `json:"next,omitempty"`
	Prev string `json:"prev,omitempty"`
}

// apiListRuns serves GET /api/runs: a page of the runs, newest first, with
// the runs list's parameters.
func (h *Handler) apiListRuns(r *http.Request) (any, error) {
	return ListRunsPage(r.Context(), h.runs, r.URL.Query())
}

// RunFinder finds pages of the served runs.
type RunFinder interface {
	FindRuns(ctx context.Context, f sandtrap.RunFilter) (sandtrap.RunPage, error)
	Sources(ctx context.Context) []sandtrap.SourceStatus
}

// ListRunsPage answers GET /api/runs, and the MCP list_runs, for the query
// v: q, source, from, to, state, page and per, as the runs list reads them.
func ListRunsPage(ctx context.Context, runs RunFinder, v url.Values) (APIRunPage, error) {
	q, err := parseRunsQuery(v, sourceLabels(runs.Sources(ctx)))
	if err != nil {
		return APIRunPage{}, err
	}
	page, pages, err := findRuns(ctx, runs, q)
	if err != nil {
		return APIRunPage{}, err
	}
	out := APIRunPage{Runs: make([]APIRun, 0, len(page.Runs)), Total: page.Total, Page: q.Page, Per: q.Per, Pages: pages}
	for _, run := range page.Runs {
		out.Runs = append(out.Runs, ToAPIRun(run))
	}
	if q.Page < pages {
		out.Next = runsHref("/api/runs", q, q.Page+1)
	}
	if q.Page > 1 {
		out.Prev = runsHref("/api/runs", q, q.Page-1)
	}
	return out, nil
}

// APIRunDetail is a run with its breakdowns.
type APIRunDetail struct {
	APIRun
	ByTarget    map[string]sandtrap.Counts `json:"by_target"`
	ByDomain    map[string]sandtrap.Counts `json:"by_domain"`
	ByLayer     map[string]sandtrap.Counts `json:"by_layer"`
	ByPrimitive map[string]sandtrap.Counts `json:"by_primitive"`
}

// apiShowRun serves GET /api/runs/{run}.
func (h *Handler) apiShowRun(r *http.Request) (any, error) {
	run, err := h.runs.FindRun(r.Context(), chi.URLParam(r, "run"))
	if err != nil {
		return nil, err
	}
	cells, err := h.runs.Breakdown(r.Context(), run.ID)
	if err != nil {
		return nil, err
	}
	return ToAPIRunDetail(run, cells), nil
}

// ToAPIRunDetail is run with its breakdown cells tallied by target, domain,
// layer and primitive. by_layer and by_primitive count failures only, since
// only failures have a layer.
func ToAPIRunDetail(run sandtrap.Run, cells []sandtrap.Cell) APIRunDetail {
	return APIRunDetail{
		APIRun:      ToAPIRun(run),
		ByTarget:    sandtrap.Tally(cells, func(c sandtrap.Cell) string { return c.Target }),
		ByDomain:    sandtrap.Tally(cells, func(c sandtrap.Cell) string { return c.Domain }),
		ByLayer:     sandtrap.Tally(cells, func(c sandtrap.Cell) string { return c.Layer }),
		ByPrimitive: sandtrap.Tally(cells, func(c sandtrap.Cell) string { return c.Primitive }),
	}
}

// apiResult is a result as the JSON API lists it.
type apiResult struct {
	ID           int64   `json:"id"`
	Test         string  `json:"test"`
	Title        string  `json:"title,omitempty"`
	Target       string  `json:"target"`
	Domain       string  `json:"domain"`
	Status       string  `json:"status"`
	Error        *string `json:"error"`
	Layer        string  `json:"layer"`
	Primitive    string  `json:"primitive"`
	ClassifiedBy string  `json:"classified_by"`
	Mode         string  `json:"mode"`
	Severity     string  `json:"severity"`
	Attempt      int     `json:"attempt"`
}

// apiListResults serves GET /api/runs/{run}/results with the same filters
// as the failures list.
func (h *Handler) apiListResults(r *http.Request) (any, error) {
	run, err := h.runs.FindRun(r.Context(), chi.URLParam(r, "run"))
	if err != nil {
		return nil, err
	}
	f, err := parseFilter(r.URL.Query())
	if err != nil {
		return nil, err
	}
	page, err := h.results.FindResults(r.Context(), run.ID, f)
	if err != nil {
		return nil, err
	}
	out := make([]apiResult, 0, len(page.Results))
	for _, res := range page.Results {
		out = append(out, toAPIResult(res))
	}
	return map[string]any{"total": page.Total, "offset": f.Offset, "limit": f.Limit, "results": out}, nil
}
