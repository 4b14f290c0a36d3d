package handlers

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"sandtrap"
	"sandtrap/format"
	"sandtrap/paths"
	"sandtrap/store"
	"sandtrap/views"
)

// listRuns serves GET /: every run with its progress and counts.
func (h *Handler) listRuns(w http.ResponseWriter, r *http.Request) error {
	p, _, err := h.runsPage(r.Context())
	if err != nil {
		return err
	}
	return render(w, r, views.RunsList(p))
}

// runsPage gathers the runs list; live says whether it still changes: a
// run is live, or a file is being read for the first time.
func (h *Handler) runsPage(ctx context.Context) (p views.RunsPage, live bool, err error) {
	runs, err := h.runs.ListRuns(ctx)
	if err != nil {
		return p, false, err
	}
	p = views.RunsPage{Shell: h.shell(ctx, "Runs", "runs", []views.Crumb{{Label: "Runs"}})}
	sources := h.runs.Sources(ctx)
	p.Notices = sourceNotices(sources)
	for _, src := range sources {
		live = live || src.Progress.Reading
	}
	modes := make([]int, len(runs))
	for i, run := range runs {
		cells, err := h.runs.Breakdown(ctx, run.ID)
		if err != nil {
			return p, false, err
		}
		modes[i] = len(modeIDs(cells))
		live = live || run.Live()
	}
	now := h.now()
	for i := len(runs) - 1; i >= 0; i-- {
		row := runRow(runs[i], now)
		withTrends(&row, runs[:i+1], modes[:i+1])
		if i > 0 {
			row.CompareHref = paths.Compare(runs[i-1].ID, runs[i].ID)
		}
		p.Rows = append(p.Rows, row)
	}
	if live {
		p.Stream = "/live"
	}
	return p, live, nil
}

// trendRuns is how many runs a row's sparklines reach back over.
const trendRuns = 10

// withTrends adds the pass rate and the failure-mode count of the last
// runs, ending with the row's own, oldest first.
func withTrends(row *views.RunRow, runs []sandtrap.Run, modes []int) {
	start := max(0, len(runs)-trendRuns)
	for i := start; i < len(runs); i++ {
		run := runs[i]
		row.PassTrend = append(row.PassTrend, run.Counts.PassRate())
		// A live run's point is not final: its modes can only grow.
		soFar := ""
		if run.Live() {
			soFar = " so far (live)"
		}
		row.PassTrendLabels = append(row.PassTrendLabels, run.Name+": "+views.FormatPct(run.Counts.PassRate())+" passed"+soFar)
		row.ModeTrend = append(row.ModeTrend, float64(modes[i]))
		row.ModeTrendLabels = append(row.ModeTrendLabels, run.Name+": "+format.PluralOf(modes[i], "failure mode", "failure modes")+soFar)
	}
}

// runRow is a run as the runs list shows it; each count links to its rows.
func runRow(run sandtrap.Run, now time.Time) views.RunRow {
	c := run.Counts
	return views.RunRow{
		ID: run.ID, Name: run.Name, Href: paths.Run(run.ID), Source: run.Source,
		Started:  format.Time(run.StartedAt),
		Duration: formatRunDuration(run, now),
		Live:     run.Live(),
		Done:     c.Total, Planned: run.Planned,
		PassRate: views.FormatPct(c.PassRate()),
		Total:    views.FormatInt(c.Total),
		Passed:   countLink(run.ID, sandtrap.StatusPassed, c.Passed),
		Failed:   countLink(run.ID, sandtrap.StatusFailed, c.Failed),
		Errored:  countLink(run.ID, sandtrap.StatusError, c.Errored),
		Skipped:  countLink(run.ID, sandtrap.StatusSkipped, c.Skipped),
		Other:    countLink(run.ID, sandtrap.StatusOther, c.Other),
		Counts:   c,
	}
}

// countLink links a status count to the results with that status.
func countLink(run, status string, n int) views.Link {
	return countLinkTo(run, sandtrap.ResultFilter{Status: status}, n)
}

func formatRunDuration(run sandtrap.Run, now time.Time) string {
	if run.StartedAt.IsZero() {
		return "—"
	}
	d := run.Duration(now)
	if d < 0 {
		return "—"
	}
	if run.Live() {
		return views.FormatDuration(d) + " so far"
	}
	return views.FormatDuration(d)
}

// sourceNotices turns the state of the served files into banners: a file
// that cannot be read, and the first read of a big file.
func sourceNotices(srcs []store.SourceStatus) []views.Notice {
	var out []views.Notice
	for _, s := range srcs {
		if s.Fault != "" {
			out = append(out, views.Notice{Kind: "warn", Text: s.Fault})
		}
		if p := s.Progress; p.Reading && p.Total > 0 {
			out = append(out, views.Notice{Kind: "info", Text: fmt.Sprintf("Reading %s: %s of about %s results (%.0f%%). The numbers grow as it reads.",
				s.Label, views.FormatInt(int(p.Read)), views.FormatInt(int(p.Total)), 100*float64(p.Read)/float64(p.Total))})
		}
	}
	return out
}
