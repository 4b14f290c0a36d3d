package handlers

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"time"

	"github.com/go-chi/chi/v5"

	"sandtrap"
	"sandtrap/format"
	"sandtrap/paths"
	"sandtrap/triage"
	"sandtrap/views"
)

// showRun serves GET /runs/{run}: the run's overview.
func (h *Handler) showRun(w http.ResponseWriter, r *http.Request) error {
	p, _, err := h.overviewPage(r.Context(), chi.URLParam(r, "run"))
	if err != nil {
		return err
	}
	return render(w, r, views.Overview(p))
}

// overviewPage gathers the overview of a run as it stands now.
func (h *Handler) overviewPage(ctx context.Context, runID string) (views.OverviewPage, sandtrap.Run, error) {
	run, err := h.runs.FindRun(ctx, runID)
	if err != nil {
		return views.OverviewPage{}, run, err
	}
	cells, err := h.runs.Breakdown(ctx, run.ID)
	if err != nil {
		return views.OverviewPage{}, run, err
	}
	modes, _, err := h.modes.RunModes(ctx, run.ID, sandtrap.ResultFilter{})
	if err != nil {
		return views.OverviewPage{}, run, err
	}
	src, err := h.runs.RunSource(ctx, run.ID)
	if err != nil {
		return views.OverviewPage{}, run, err
	}
	p := overview(run, cells, modes, h.now())
	if p.Run, err = h.runHeader(ctx, run); err != nil {
		return views.OverviewPage{}, run, err
	}
	minutes, windows, err := h.activity.RunTimeline(ctx, run.ID)
	if err != nil {
		return views.OverviewPage{}, run, err
	}
	p.Timeline = timelineView(run.ID, minutes, windows)
	p.Notices = sourceNotices([]sandtrap.SourceStatus{src})
	if changing(run, src) {
		p.Stream = paths.Run(run.ID) + "/live"
	}
	if run.Live() {
		if p.Banner, err = h.newModeBanners(ctx, run.ID); err != nil {
			return views.OverviewPage{}, run, err
		}
	}
	p.Shell = withRun(h.shell(ctx, run.Name, "runs", []views.Crumb{{Label: "Runs", Href: "/"}, {Label: run.Name}}), run)
	return p, run, nil
}

// changing reports whether a run's pages should follow it as it changes:
// while it is live, and while its file is first read.
func changing(run sandtrap.Run, src sandtrap.SourceStatus) bool {
	return run.Live() || src.Progress.Reading
}

func modeIDs(cells []sandtrap.Cell) []string {
	seen := map[string]bool{}
	var ids []string
	for _, c := range cells {
		if c.Mode != "" && !seen[c.Mode] {
			seen[c.Mode] = true
			ids = append(ids, c.Mode)
		}
	}
	return ids
}

// runHeader is the title block every page of a run shares; a live run's
// says how fast it goes and when it should end.
func (h *Handler) runHeader(ctx context.Context, run sandtrap.Run) (views.RunHeader, error) {
	now := h.now()
	hd := runHeaderOf(run, now)
	if !run.Live() {
		return hd, nil
	}
	a, err := h.activity.RunActivity(ctx, run.ID, now)
	if err != nil {
		return hd, err
	}
	quiet := time.Duration(0)
	if !a.LastAt.IsZero() {
		quiet = now.Sub(a.LastAt)
	}
	hd.LiveText = liveText(a.PerMinute, run.Planned-run.Counts.Total, quiet)
	return hd, nil
}

// runHeaderOf is the part of the title block that needs only the run.
func runHeaderOf(run sandtrap.Run, now time.Time) views.RunHeader {
	c := run.Counts
	hd := views.RunHeader{
		ID: run.ID, Name: run.Name, Live: run.Live(), Notes: run.Notes, Source: run.Source,
		Headline: headline(c),
		Started:  format.Time(run.StartedAt), Duration: formatRunDuration(run, now),
		Done: c.Total, Planned: run.Planned,
		Links: []views.Link{{Text: "failure modes", Href: paths.Modes(run.ID, sandtrap.ResultFilter{})},
			{Text: "failures", Href: paths.Failures(run.ID, sandtrap.ResultFilter{})}},
	}
	if !run.Live() {
		hd.FinishedText = "finished " + format.Time(run.FinishedAt)
	}
	return hd
}

// staleAfter is how long a live run may go without a result before the
// indicator says the harness may have stopped.
const staleAfter = 10 * time.Minute

// liveText is the live indicator: "live · 12 results/min · ETA 14 min", or
// how long the run has been quiet when its harness seems to have stopped.
func liveText(perMinute float64, remaining int, quiet time.Duration) string {
	if quiet > staleAfter {
		return "live, but no results for " + views.FormatDuration(quiet.Round(time.Minute))
	}
	if perMinute <= 0 {
		return "live · waiting for results"
	}
	text := fmt.Sprintf("live · %s results/min", formatRate(perMinute))
	if remaining > 0 {
		eta := time.Duration(float64(remaining) / perMinute * float64(time.Minute))
		text += " · ETA " + views.FormatDuration(eta.Round(time.Minute))
	}
	return text
}

func formatRate(perMinute float64) string {
	if perMinute < 10 {
		return fmt.Sprintf("%.1f", perMinute)
	}
	return views.FormatInt(int(perMinute + 0.5))
}

// newModeWindow is how long a new failure mode stays announced.
const newModeWindow = 15 * time.Minute

// newModeBanners announces the failure modes that a live run found for the
// first time in the campaign, in the last minutes.
func (h *Handler) newModeBanners(ctx context.Context, runID string) ([]views.Notice, error) {
	now := h.now()
	fresh, err := h.activity.NewModesSince(ctx, runID, now.Add(-newModeWindow))
	if err != nil {
		return nil, err
	}
	var out []views.Notice
	for i, m := range fresh {
		if i == 3 {
			break
		}
		ago := now.Sub(m.FirstAt).Round(time.Second)
		out = append(out, views.Notice{Kind: "new",
			Text: fmt.Sprintf("New failure mode: %s (%s), first seen %s ago.", m.Title, m.Severity, views.FormatDuration(max(ago, time.Second))),
			Link: views.Link{Text: "Open it →", Href: paths.Mode(m.ID)}})
	}
	return out, nil
}

// headline sums a run up in words: "88.1% passed — 119 failures".
func headline(c sandtrap.Counts) string {
	if c.Total == 0 {
		return "No results yet"
	}
	f := c.Failures()
	noun := "failures"
	if f == 1 {
		noun = "failure"
	}
	return fmt.Sprintf("%s passed — %s %s", views.FormatPct(c.PassRate()), views.FormatInt(f), noun)
}

// overview builds the overview's view model from a run's breakdown.
func overview(run sandtrap.Run, cells []sandtrap.Cell, modes []sandtrap.ModeStat, now time.Time) views.OverviewPage {
	c := sandtrap.Total(cells)
	run.Counts = c
	p := views.OverviewPage{
		Run:          runHeaderOf(run, now),
		FailuresHref: paths.Failures(run.ID, sandtrap.ResultFilter{}),
		ModesHref:    paths.Modes(run.ID, sandtrap.ResultFilter{}),
		StatusLegend: statusLegend,
		LayerLegend:  layerLegend,
	}
	top := topModes(run.ID, modes)
	critical := 0
	for _, m := range top {
		if m.Severity == sandtrap.SeverityCritical {
			critical++
		}
	}
	p.Stats = []views.Stat{
		{Label: "Results", Value: views.FormatInt(c.Total), Sub: plannedSub(run), Href: paths.Failures(run.ID, sandtrap.ResultFilter{Status: sandtrap.StatusAll})},
		{Label: "Passed", Value: views.FormatPct(c.PassRate()), Sub: views.FormatInt(c.Passed) + " passed", Href: paths.Failures(run.ID, sandtrap.ResultFilter{Status: sandtrap.StatusPassed}), Class: "st-passed"},
		{Label: "Failures", Value: views.FormatInt(c.Failures()), Sub: fmt.Sprintf("%s failed · %s error · %s other", views.FormatInt(c.Failed), views.FormatInt(c.Errored), views.FormatInt(c.Other)), Href: p.FailuresHref, Class: "st-failed"},
		{Label: "Failure modes", Value: views.FormatInt(len(top)), Sub: "distinct root causes", Href: paths.Modes(run.ID, sandtrap.ResultFilter{})},
		{Label: "Critical modes", Value: views.FormatInt(critical), Sub: "silent corruption, loss or a hole", Class: "sev-critical", Href: paths.Modes(run.ID, sandtrap.ResultFilter{})},
		{Label: "Duration", Value: formatRunDuration(run, now), Sub: "started " + format.Time(run.StartedAt)},
	}
	if c.Skipped > 0 {
		p.Stats[0].Sub += fmt.Sprintf(" · %s skipped", views.FormatInt(c.Skipped))
	}
	if len(top) > 10 {
		top = top[:10]
	}
	p.TopModes = top

	p.Targets, p.TargetMax = targetColumns(run.ID, cells)
	p.ByDomain = statusBars(run.ID, cells, sandtrap.FacetDomain, func(c sandtrap.Cell) string { return c.Domain })
	p.ByLayer = statusBars(run.ID, cells, sandtrap.FacetLayer, func(c sandtrap.Cell) string { return c.Layer })
	p.ByPrimitive = statusBars(run.ID, cells, sandtrap.FacetPrimitive, func(c sandtrap.Cell) string { return c.Primitive })
	p.Heatmap = domainPrimitiveHeatmap(run.ID, cells)
	return p
}

func plannedSub(run sandtrap.Run) string {
	if run.Planned > 0 {
		return fmt.Sprintf("of %s planned", views.FormatInt(run.Planned))
	}
	return "planned count unknown"
}

var statusLegend = []views.Legend{
	{Class: "st-failed", Label: "failed"}, {Class: "st-error", Label: "error"}, {Class: "st-other", Label: "other"},
}

var layerLegend = []views.Legend{
	{Class: "ly-interface", Label: "interface"}, {Class: "ly-sandbox", Label: "sandbox"},
	{Class: "ly-test", Label: "test"}, {Class: "ly-unclassified", Label: "unclassified"},
}

// statusBars draws the failures per value of one facet, split by status,
// worst first. Every bar and segment links to exactly its failures.
func statusBars(run string, cells []sandtrap.Cell, facet string, key func(sandtrap.Cell) string) []views.Bar {
	byKey := sandtrap.Tally(cells, func(c sandtrap.Cell) string {
		if !sandtrap.IsFailure(c.Status) {
			return ""
		}
		if k := key(c); k != "" {
			return k
		}
		return "(none)"
	})
	var bars []views.Bar
	for _, k := range sandtrap.SortedKeys(byKey) {
		cnt := byKey[k]
		value := k
		if k == "(none)" {
			value = ""
		}
		base := sandtrap.ResultFilter{}.With(facet, value)
		bar := views.Bar{Label: k, Href: paths.Failures(run, base)}
		for _, s := range []struct {
			status, class string
			n             int
		}{
			{sandtrap.StatusFailed, "st-failed", cnt.Failed},
			{sandtrap.StatusError, "st-error", cnt.Errored},
			{"", "st-other", cnt.Other},
		} {
			if s.n == 0 {
				continue
			}
			f := base
			f.Status = s.status
			label := s.status
			if label == "" {
				label = "other"
				f.Status = ""
			}
			bar.Segments = append(bar.Segments, views.Segment{Class: s.class, Value: s.n, Label: label, Href: paths.Failures(run, f)})
		}
		bars = append(bars, bar)
	}
	return bars
}

// targetColumns lays the targets side by side with one scale for all.
func targetColumns(run string, cells []sandtrap.Cell) ([]views.TargetColumn, int) {
	byTarget := sandtrap.Tally(cells, func(c sandtrap.Cell) string { return c.Target })
	names := make([]string, 0, len(byTarget))
	for t := range byTarget {
		names = append(names, t)
	}
	sort.Strings(names)
	var cols []views.TargetColumn
	scale := 0
	for _, t := range names {
		cnt := byTarget[t]
		var own []sandtrap.Cell
		for _, c := range cells {
			if c.Target == t {
				own = append(own, c)
			}
		}
		f := sandtrap.ResultFilter{Target: t}
		col := views.TargetColumn{
			Name: t, Href: paths.Failures(run, f), PassRate: views.FormatPct(cnt.PassRate()),
			Total:    views.Link{Text: views.FormatInt(cnt.Total), Href: paths.Failures(run, sandtrap.ResultFilter{Target: t, Status: sandtrap.StatusAll})},
			Failures: views.Link{Text: views.FormatInt(cnt.Failures()), Href: paths.Failures(run, f)},
		}
		byLayer := sandtrap.Tally(own, func(c sandtrap.Cell) string {
			if !sandtrap.IsFailure(c.Status) {
				return ""
			}
			return c.Layer
		})
		for _, l := range []string{sandtrap.LayerInterface, sandtrap.LayerSandbox, sandtrap.LayerTest, sandtrap.LayerUnclassified} {
			n := byLayer[l].Failures()
			lf := sandtrap.ResultFilter{Target: t, Layer: l}
			col.ByLayer = append(col.ByLayer, views.Bar{Label: l, Href: paths.Failures(run, lf),
				Segments: []views.Segment{{Class: "ly-" + l, Value: n, Label: l, Href: paths.Failures(run, lf)}}})
			scale = max(scale, n)
		}
		cols = append(cols, col)
	}
	return cols, scale
}

// domainPrimitiveHeatmap counts failures per domain and primitive; each
// cell links to its failures.
func domainPrimitiveHeatmap(run string, cells []sandtrap.Cell) views.Heatmap {
	grid := sandtrap.TallyFailures(cells, func(c sandtrap.Cell) string { return c.Domain }, func(c sandtrap.Cell) string { return c.Primitive })
	h := views.Heatmap{ID: "heat-domain-primitive", RowTitle: "domain", ColTitle: "primitive"}
	domains := sandtrap.Tally(cells, func(c sandtrap.Cell) string { return c.Domain })
	h.Rows = sandtrap.SortedKeys(domains)
	seen := map[string]bool{}
	for _, row := range grid {
		for col := range row {
			seen[col] = true
		}
	}
	h.Cols = orderPrimitives(seen)
	for _, d := range h.Rows {
		row := make([]views.HeatCell, len(h.Cols))
		for j, p := range h.Cols {
			n := grid[d][p]
			label := p
			if label == "" {
				label = "(none)"
			}
			row[j] = views.HeatCell{Value: n, Title: fmt.Sprintf("%s × %s: %s failures", d, label, views.FormatInt(n))}
			if n > 0 {
				row[j].Href = paths.Failures(run, sandtrap.ResultFilter{Domain: d, Primitive: p})
			}
			h.Max = max(h.Max, n)
		}
		h.Cells = append(h.Cells, row)
	}
	for i, c := range h.Cols {
		if c == "" {
			h.Cols[i] = "(none)"
		}
	}
	return h
}

// orderPrimitives puts the vocabulary's primitives first, in its order, then
// any others by name, then the empty one.
func orderPrimitives(seen map[string]bool) []string {
	var out []string
	known := map[string]bool{}
	for _, l := range triage.Layers() {
		for _, p := range triage.Primitives(l) {
			known[p] = true
			if seen[p] {
				out = append(out, p)
			}
		}
	}
	var rest []string
	for p := range seen {
		if !known[p] && p != "" {
			rest = append(rest, p)
		}
	}
	sort.Strings(rest)
	out = append(out, rest...)
	if seen[""] {
		out = append(out, "")
	}
	return out
}

// topModes lists a run's failure modes as the queue ranks them; failures
// of an outage window are not in them.
func topModes(run string, modes []sandtrap.ModeStat) []views.ModeRow {
	modes = slices.Clone(modes)
	triage.Rank(modes)
	rows := make([]views.ModeRow, 0, len(modes))
	for _, m := range modes {
		rows = append(rows, views.ModeRow{
			ID: m.ID, Title: m.Title, Signature: m.Signature,
			Layer: m.Layer, Primitive: m.Primitive, Severity: m.Severity, Reason: m.SeverityReason,
			Count: views.Link{Text: views.FormatInt(m.Count), Href: paths.Failures(run, sandtrap.ResultFilter{Mode: m.ID})}, Href: paths.Mode(m.ID),
		})
	}
	return rows
}
