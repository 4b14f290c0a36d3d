package handlers

import (
	"cmp"
	"fmt"
	"net/http"

	"github.com/go-chi/chi/v5"

	"sandtrap"
	"sandtrap/compare"
	"sandtrap/format"
	"sandtrap/paths"
	"sandtrap/triage"
	"sandtrap/views"
)

// compareTargets serves GET /runs/{run}/targets: the run's targets in
// aligned columns. ?diff=1 hides the rows where the targets agree.
func (h *Handler) compareTargets(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	run, err := h.runs.FindRun(ctx, chi.URLParam(r, "run"))
	if err != nil {
		return err
	}
	cells, err := h.runs.Breakdown(ctx, run.ID)
	if err != nil {
		return err
	}
	modes, err := h.runs.FindModes(ctx, modeIDs(cells))
	if err != nil {
		return err
	}
	src, err := h.runs.RunSource(ctx, run.ID)
	if err != nil {
		return err
	}
	p := targetsPage(run.ID, compare.CompareTargets(cells), modes, r.URL.Query().Get("diff") == "1")
	if p.Run, err = h.runHeader(ctx, run); err != nil {
		return err
	}
	p.Notices = sourceNotices([]sandtrap.SourceStatus{src})
	p.Shell = withRun(h.shell(ctx, "Targets · "+run.Name, "runs", []views.Crumb{
		{Label: "Runs", Href: "/"}, {Label: run.Name, Href: paths.Run(run.ID)}, {Label: "targets side by side"}}), run)
	return render(w, r, views.TargetsSideBySide(p))
}

// targetsPage builds the page's view model. Every chart lists the same
// rows in every column, so that a row reads straight across.
func targetsPage(run string, t compare.Targets, modes map[string]sandtrap.Mode, diffOnly bool) views.TargetsPage {
	p := views.TargetsPage{DiffOnly: diffOnly, Targets: t.Names, LayerLegend: layerLegend, ToggleHref: paths.Targets(run) + "?diff=1"}
	if diffOnly {
		p.ToggleHref = paths.Targets(run)
	}
	switch len(t.Names) {
	case 0:
		p.Empty = "No results in this run yet."
		return p
	case 1:
		p.Empty = "Every result of this run is on " + t.Names[0] + ": there is no other target to set it beside."
	}
	hidden := 0
	keep := func(rows []compare.Row) []compare.Row {
		if !diffOnly {
			return rows
		}
		var out []compare.Row
		for _, r := range rows {
			if r.Agree {
				hidden++
				continue
			}
			out = append(out, r)
		}
		return out
	}
	layers, primitives, domains, modeRows := keep(t.ByLayer), keep(t.ByPrimitive), keep(t.ByDomain), keep(t.Modes)
	if diffOnly {
		p.Hidden = fmt.Sprintf("%s where the targets agree %s hidden.", format.PluralOf(hidden, "row", "rows"), map[bool]string{true: "is", false: "are"}[hidden == 1])
	}

	for i, name := range t.Names {
		cnt := t.Counts[i]
		f := sandtrap.ResultFilter{Target: name}
		col := views.TargetSide{
			Name: name, Href: paths.Failures(run, f), PassRate: views.FormatPct(cnt.PassRate()),
			Total:    views.Link{Text: views.FormatInt(cnt.Total), Href: paths.Failures(run, sandtrap.ResultFilter{Target: name, Status: sandtrap.StatusAll})},
			Failures: countLinkTo(run, f, cnt.Failures()),
		}
		col.ByLayer = targetBars(run, name, i, layers, sandtrap.FacetLayer, func(l string) string { return "ly-" + layerClass(l) })
		col.ByPrimitive = targetBars(run, name, i, primitives, sandtrap.FacetPrimitive, func(pr string) string { return "ly-" + layerClass(triage.LayerOf(pr)) })
		col.ByDomain = targetBars(run, name, i, domains, sandtrap.FacetDomain, func(string) string { return "st-failed" })
		p.Scale = max(p.Scale, columnMax(layers, i), columnMax(primitives, i))
		p.DomainScale = max(p.DomainScale, columnMax(domains, i))
		p.Columns = append(p.Columns, col)
	}

	for _, row := range modeRows {
		m := modes[row.Key]
		title := cmp.Or(m.Title, row.Key)
		if only := row.Only(); only >= 0 {
			f := sandtrap.ResultFilter{Target: t.Names[only], Mode: row.Key}
			p.Columns[only].Only = append(p.Columns[only].Only, views.ModeRow{
				ID: row.Key, Title: title, Signature: m.Signature, Layer: m.Layer, Primitive: m.Primitive,
				Severity: m.Severity, Count: countLinkTo(run, f, row.Failures[only]), Href: paths.Mode(row.Key),
			})
			continue
		}
		shared := views.SharedModeRow{ID: row.Key, Href: paths.Mode(row.Key), Title: title, Severity: m.Severity}
		for i, n := range row.Failures {
			shared.Counts = append(shared.Counts, countLinkTo(run, sandtrap.ResultFilter{Target: t.Names[i], Mode: row.Key}, n))
		}
		p.Shared = append(p.Shared, shared)
	}
	return p
}

// targetBars is one target's column of a chart: one bar per row, zero
// where the target has no failures there, each linking to its failures.
func targetBars(run, target string, col int, rows []compare.Row, facet string, class func(string) string) []views.Bar {
	bars := make([]views.Bar, 0, len(rows))
	for _, r := range rows {
		label := r.Key
		f := sandtrap.ResultFilter{Target: target}.With(facet, r.Key)
		if r.Key == "" {
			label = "(none)"
			f = sandtrap.ResultFilter{Target: target}
		}
		href := paths.Failures(run, f)
		bars = append(bars, views.Bar{Label: label, Href: href,
			Segments: []views.Segment{{Class: class(r.Key), Value: r.Failures[col], Label: "failures", Href: href}}})
	}
	return bars
}

// layerClass is the colour of a layer; a value outside the vocabulary
// looks unclassified.
func layerClass(layer string) string {
	switch layer {
	case sandtrap.LayerInterface, sandtrap.LayerSandbox, sandtrap.LayerTest:
		return layer
	}
	return sandtrap.LayerUnclassified
}

func columnMax(rows []compare.Row, col int) int {
	m := 0
	for _, r := range rows {
		m = max(m, r.Failures[col])
	}
	return m
}
