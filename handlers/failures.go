package handlers

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"sandtrap"
	"sandtrap/filing"
	"sandtrap/format"
	"sandtrap/paths"
	"sandtrap/views"
)

// defaultLimit and maxLimit bound a page of results.
const (
	defaultLimit = paths.DefaultLimit
	maxLimit     = 500
)

// parseFilter reads a results filter from a query string, refusing values
// that cannot be right with a message that names them.
func parseFilter(q url.Values) (sandtrap.ResultFilter, error) {
	f := sandtrap.ResultFilter{
		Status: q.Get("status"), Target: q.Get("target"), Domain: q.Get("domain"),
		Layer: q.Get("layer"), Primitive: q.Get("primitive"), Mode: q.Get("mode"),
		Q: strings.TrimSpace(q.Get("q")), Limit: defaultLimit,
	}
	for _, p := range []struct {
		name string
		dst  *int
		max  int
	}{{"limit", &f.Limit, maxLimit}, {"offset", &f.Offset, 1 << 40}} {
		v := q.Get(p.name)
		if v == "" {
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return f, sandtrap.Errorf(sandtrap.EINVALID, "%s must be a whole number of 0 or more, not %q", p.name, v)
		}
		if n > p.max {
			return f, sandtrap.Errorf(sandtrap.EINVALID, "%s must be at most %d, not %d", p.name, p.max, n)
		}
		*p.dst = n
	}
	if f.Limit == 0 {
		f.Limit = defaultLimit
	}
	for _, p := range []struct {
		name string
		dst  *time.Time
	}{{"from", &f.From}, {"to", &f.To}} {
		v := q.Get(p.name)
		if v == "" {
			continue
		}
		t, err := time.Parse(time.RFC3339, v)
		if err != nil {
			return f, sandtrap.Errorf(sandtrap.EINVALID, "%s must be a time like 2026-07-01T02:14:00Z, not %q", p.name, v)
		}
		*p.dst = t
	}
	return f, nil
}

// listFailures serves GET /runs/{run}/failures: the filtered results of a
// run with facet counts.
func (h *Handler) listFailures(w http.ResponseWriter, r *http.Request) error {
	f, err := parseFilter(r.URL.Query())
	if err != nil {
		return err
	}
	p, _, err := h.failuresView(r.Context(), chi.URLParam(r, "run"), f)
	if err != nil {
		return err
	}
	return render(w, r, views.Failures(p))
}

// failuresView gathers a page of the failures list as it stands now.
func (h *Handler) failuresView(ctx context.Context, runID string, f sandtrap.ResultFilter) (views.FailuresPage, sandtrap.Run, error) {
	run, err := h.runs.FindRun(ctx, runID)
	if err != nil {
		return views.FailuresPage{}, run, err
	}
	page, err := h.results.FindResults(ctx, run.ID, f)
	if err != nil {
		return views.FailuresPage{}, run, err
	}
	src, err := h.runs.RunSource(ctx, run.ID)
	if err != nil {
		return views.FailuresPage{}, run, err
	}
	modes, err := h.runs.FindModes(ctx, append(facetModes(page.Facets), rowModes(page.Results)...))
	if err != nil {
		return views.FailuresPage{}, run, err
	}
	p := failuresPage(run, f, page, modes)
	if p.Run, err = h.runHeader(ctx, run); err != nil {
		return views.FailuresPage{}, run, err
	}
	p.Notices = sourceNotices([]sandtrap.SourceStatus{src})
	if changing(run, src) {
		p.Stream = paths.Stream(paths.Failures(run.ID, f), "/failures")
	}
	p.Shell = withRun(h.shell(ctx, "Failures · "+run.Name, "runs", []views.Crumb{
		{Label: "Runs", Href: "/"}, {Label: run.Name, Href: paths.Run(run.ID)}, {Label: "failures"}}), run)
	return p, run, nil
}

var facetTitles = map[string]string{
	sandtrap.FacetStatus: "Status", sandtrap.FacetTarget: "Target", sandtrap.FacetDomain: "Domain",
	sandtrap.FacetLayer: "Layer", sandtrap.FacetPrimitive: "Primitive", sandtrap.FacetMode: "Failure mode",
}

// maxFacetValues is how many values a facet lists; the rest are reachable
// by search and by the other facets.
const maxFacetValues = 30

// emptyFailures says why the failures list shows no row, and offers the
// way on: back to the first page, or off the filters.
func emptyFailures(run string, f sandtrap.ResultFilter, total int) (text, action, href string) {
	first := f
	first.Offset = 0
	switch {
	case total > 0:
		return fmt.Sprintf("This page is past the last of the %s matching results.", views.FormatInt(total)), "Go to the first page", paths.Failures(run, first)
	case first != sandtrap.ResultFilter{Limit: f.Limit}:
		return "No results match these filters.", "Clear the filters", paths.Failures(run, sandtrap.ResultFilter{})
	}
	return "No failures in this run.", "Show every result", paths.Failures(run, sandtrap.ResultFilter{Status: sandtrap.StatusAll})
}

// failuresPage builds the list's view model: facets whose values link to
// the list narrowed to them, the active filters, the rows and the pages.
func failuresPage(run sandtrap.Run, f sandtrap.ResultFilter, page sandtrap.ResultPage, modes map[string]sandtrap.Mode) views.FailuresPage {
	p := views.FailuresPage{
		Query:     f.Q,
		ClearHref: paths.Failures(run.ID, sandtrap.ResultFilter{}),
		JSONHref:  "/api/runs/" + url.PathEscape(run.ID) + "/results?" + paths.FilterQuery(f).Encode(),
	}
	if len(page.Results) == 0 {
		p.Empty, p.EmptyAction, p.EmptyHref = emptyFailures(run.ID, f, page.Total)
	}
	p.Facets, p.Filters = facetViews(f, page.Facets, modes, func(nf sandtrap.ResultFilter) string { return paths.Failures(run.ID, nf) })
	kept := f
	kept.Q, kept.Offset = "", 0
	for k, vs := range paths.FilterQuery(kept) {
		for _, v := range vs {
			p.Hidden = append(p.Hidden, views.HiddenInput{Name: k, Value: v})
		}
	}
	if !f.From.IsZero() || !f.To.IsZero() {
		untimed := f
		untimed.From, untimed.To, untimed.Offset = time.Time{}, time.Time{}, 0
		p.Filters = append(p.Filters, views.ActiveFilter{Facet: "time", Value: timeSpan(f.From, f.To), RemoveHref: paths.Failures(run.ID, untimed)})
	}
	if f.Q != "" {
		noQ := f
		noQ.Q, noQ.Offset = "", 0
		p.Filters = append(p.Filters, views.ActiveFilter{Facet: "search", Value: f.Q, RemoveHref: paths.Failures(run.ID, noQ)})
	}
	for _, res := range page.Results {
		row := failureRow(run.ID, res)
		if m, ok := modes[res.Mode]; ok {
			row.ModeTitle = m.Title
		}
		p.Rows = append(p.Rows, row)
	}
	p.Range = pageRange(f.Offset, len(page.Results), page.Total)
	if f.Offset > 0 {
		prev := f
		prev.Offset = max(0, f.Offset-f.Limit)
		p.Prev = paths.Failures(run.ID, prev)
	}
	if f.Offset+len(page.Results) < page.Total {
		next := f
		next.Offset = f.Offset + f.Limit
		p.Next = paths.Failures(run.ID, next)
	}
	return p
}

func pageRange(offset, n, total int) string {
	if n == 0 {
		return fmt.Sprintf("0 of %s", views.FormatInt(total))
	}
	return fmt.Sprintf("%s–%s of %s", views.FormatInt(offset+1), views.FormatInt(offset+n), views.FormatInt(total))
}

func failureRow(run string, r sandtrap.ResultRow) views.FailureRow {
	row := views.FailureRow{
		ID: r.ID, Href: paths.Result(run, r.ID), Test: r.Test, Title: r.Title, Status: r.Status,
		Target: r.Target, Domain: r.Domain, Layer: r.Layer, Primitive: r.Primitive, By: r.ClassifiedBy,
		Mode: r.Mode, Error: filing.FirstLine(redacted(r.Error)), Attempt: r.Attempt,
	}
	if r.Mode != "" {
		row.ModeHref = paths.Mode(r.Mode)
	}
	return row
}

// firstLine is the first non-empty line of a message, for one-line cells.

// facetViews lays out the facets: each value links, through href, to the
// list narrowed to it (or back out of it when selected), and each filter in
// force gets a chip that removes it. Modes are labelled by their titles.
func facetViews(f sandtrap.ResultFilter, facets map[string][]sandtrap.FacetValue, modes map[string]sandtrap.Mode, href func(sandtrap.ResultFilter) string) ([]views.FacetView, []views.ActiveFilter) {
	var out []views.FacetView
	var active []views.ActiveFilter
	for _, name := range sandtrap.Facets {
		fv := views.FacetView{Name: name, Title: facetTitles[name]}
		current := f.Value(name)
		values := facets[name]
		if len(values) > maxFacetValues {
			values = values[:maxFacetValues]
		}
		for _, v := range values {
			selected := v.Value == current
			next := v.Value
			if selected {
				next = ""
			}
			label := v.Value
			if m, ok := modes[v.Value]; ok && name == sandtrap.FacetMode {
				label = m.Title
			}
			fv.Values = append(fv.Values, views.FacetValueView{
				Value: v.Value, Label: label, Count: views.FormatInt(v.Count),
				Href: href(f.With(name, next)), Selected: selected,
			})
		}
		if name == sandtrap.FacetStatus && current != sandtrap.StatusAll {
			fv.Values = append(fv.Values, views.FacetValueView{Value: sandtrap.StatusAll, Label: "all results",
				Href: href(f.With(name, sandtrap.StatusAll))})
		}
		out = append(out, fv)
		if current != "" {
			active = append(active, views.ActiveFilter{Facet: name, Value: current, RemoveHref: href(f.With(name, ""))})
		}
	}
	return out, active
}

// facetModes lists the mode ids the mode facet shows.
func facetModes(facets map[string][]sandtrap.FacetValue) []string {
	var ids []string
	for i, v := range facets[sandtrap.FacetMode] {
		if i == maxFacetValues {
			break
		}
		ids = append(ids, v.Value)
	}
	return ids
}

// rowModes lists the modes of a page's rows.
func rowModes(rows []sandtrap.ResultRow) []string {
	var ids []string
	for _, r := range rows {
		if r.Mode != "" {
			ids = append(ids, r.Mode)
		}
	}
	return ids
}

// timeSpan names a time filter: "02:14–02:17 UTC on 2026-07-01".
func timeSpan(from, to time.Time) string {
	switch {
	case from.IsZero():
		return "before " + format.Time(to)
	case to.IsZero():
		return "from " + format.Time(from)
	case from.UTC().Format("2006-01-02") == to.UTC().Format("2006-01-02"):
		return from.UTC().Format("15:04") + "–" + to.UTC().Format("15:04") + " UTC on " + from.UTC().Format("2006-01-02")
	}
	return format.Time(from) + " – " + format.Time(to)
}
