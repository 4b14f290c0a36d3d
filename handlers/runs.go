package handlers

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"sandtrap"
	"sandtrap/format"
	"sandtrap/paths"
	"sandtrap/views"
)

// listRuns serves GET /: a page of the runs, newest first, filtered by the
// query's q, source, from, to and state, paged by page and per.
func (h *Handler) listRuns(w http.ResponseWriter, r *http.Request) error {
	q, err := parseRunsQuery(r.URL.Query(), sourceLabels(h.runs.Sources(r.Context())))
	if err != nil {
		return err
	}
	p, _, err := h.runsPage(r.Context(), q)
	if err != nil {
		return err
	}
	return render(w, r, views.RunsList(p))
}

// Page sizes of the runs list.
const (
	defaultPer = 50
	maxPer     = 500
)

// runsQuery is what a URL of the runs list asks for: a filter, and which
// page of what it selects. From and To are the dates as given, for the form.
type runsQuery struct {
	Filter    sandtrap.RunFilter
	From, To  string
	Page, Per int
}

// dateLayout is how the runs list's from and to are written.
const dateLayout = "2006-01-02"

// parseRunsQuery reads the runs list's parameters. sources are the labels
// of the served files, which source must name. A bad parameter is refused
// by name; the page is checked against the total later, by pageCount.
func parseRunsQuery(v url.Values, sources []string) (runsQuery, error) {
	q := runsQuery{Page: 1, Per: defaultPer}
	q.Filter.Q = strings.TrimSpace(v.Get("q"))
	if s := v.Get("page"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return q, sandtrap.Errorf(sandtrap.EINVALID, "page must be a whole number of 1 or more, not %q", s)
		}
		q.Page = n
	}
	if s := v.Get("per"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > maxPer {
			return q, sandtrap.Errorf(sandtrap.EINVALID, "per must be a whole number from 1 to %d, not %q", maxPer, s)
		}
		q.Per = n
	}
	switch state := v.Get("state"); state {
	case "", sandtrap.RunLive, sandtrap.RunFinished:
		q.Filter.State = state
	default:
		return q, sandtrap.Errorf(sandtrap.EINVALID, "state must be %q or %q, not %q", sandtrap.RunLive, sandtrap.RunFinished, state)
	}
	if src := v.Get("source"); src != "" {
		if !slices.Contains(sources, src) {
			return q, sandtrap.Errorf(sandtrap.EINVALID, "source must be the label of a served campaign file (%s), not %q", strings.Join(sources, ", "), src)
		}
		q.Filter.Source = src
	}
	for _, p := range []struct {
		name string
		text *string
		at   *time.Time
		days int // the day after a to date ends it
	}{{"from", &q.From, &q.Filter.From, 0}, {"to", &q.To, &q.Filter.To, 1}} {
		s := strings.TrimSpace(v.Get(p.name))
		if s == "" {
			continue
		}
		t, err := time.Parse(dateLayout, s)
		if err != nil {
			return q, sandtrap.Errorf(sandtrap.EINVALID, "%s must be a date like 2026-07-01, not %q", p.name, s)
		}
		*p.text, *p.at = s, t.AddDate(0, 0, p.days)
	}
	if q.From != "" && q.To != "" && q.From > q.To {
		return q, sandtrap.Errorf(sandtrap.EINVALID, "from (%s) must not be after to (%s)", q.From, q.To)
	}
	return q, nil
}

// pageCount is how many pages total runs fill at per a page: always at
// least one, so that an empty list has its first page. A page past the
// last is refused by name.
func pageCount(total, page, per int) (int, error) {
	pages := max(1, (total+per-1)/per)
	if page > pages {
		return pages, sandtrap.Errorf(sandtrap.EINVALID, "page must be from 1 to %s, the last page of %s at %d a page, not %d",
			views.FormatInt(pages), format.PluralOf(total, "run", "runs"), per, page)
	}
	return pages, nil
}

// runsHref is the URL at path of q's filters on page; defaults are left out
// so that URLs stay short and stable.
func runsHref(path string, q runsQuery, page int) string {
	v := url.Values{}
	for _, kv := range [][2]string{{"q", q.Filter.Q}, {"source", q.Filter.Source}, {"from", q.From}, {"to", q.To}, {"state", q.Filter.State}} {
		if kv[1] != "" {
			v.Set(kv[0], kv[1])
		}
	}
	if q.Per != defaultPer {
		v.Set("per", strconv.Itoa(q.Per))
	}
	if page > 1 {
		v.Set("page", strconv.Itoa(page))
	}
	if len(v) == 0 {
		return path
	}
	return path + "?" + v.Encode()
}

// findRuns reads the page of runs q asks for, and how many pages there are.
func findRuns(ctx context.Context, runs RunFinder, q runsQuery) (sandtrap.RunPage, int, error) {
	f := q.Filter
	f.Offset, f.Limit = (q.Page-1)*q.Per, q.Per
	page, err := runs.FindRuns(ctx, f)
	if err != nil {
		return page, 0, err
	}
	pages, err := pageCount(page.Total, q.Page, q.Per)
	return page, pages, err
}

// runsPage gathers a page of the runs list; live says whether it still
// changes: a run on it is live, or a file is being read for the first time.
func (h *Handler) runsPage(ctx context.Context, q runsQuery) (p views.RunsPage, live bool, err error) {
	page, pages, err := findRuns(ctx, h.runs, q)
	if err != nil {
		return p, false, err
	}
	p = views.RunsPage{Shell: h.shell(ctx, "Runs", "runs", []views.Crumb{{Label: "Runs"}}), JSONHref: runsHref("/api/runs", q, q.Page)}
	sources := h.runs.Sources(ctx)
	p.Notices = sourceNotices(sources)
	for _, src := range sources {
		live = live || src.Progress.Reading
	}
	p.Form = runsForm(q, sourceLabels(sources))
	p.Pager = runsPager(q, len(page.Runs), page.Total, pages)
	if len(page.Runs) == 0 && p.Form.ClearHref != "" {
		p.Empty, p.EmptyAction, p.EmptyHref = "No runs match these filters.", "Clear the filters", p.Form.ClearHref
	}
	ids := make([]string, len(page.Runs))
	for i, run := range page.Runs {
		ids[i] = run.ID
		live = live || run.Live()
	}
	trails, err := h.runs.RunTrails(ctx, ids, trendRuns)
	if err != nil {
		return p, false, err
	}
	var trailIDs []string
	for _, trail := range trails {
		for _, run := range trail {
			trailIDs = append(trailIDs, run.ID)
		}
	}
	modes, err := h.runs.RunModeCounts(ctx, trailIDs)
	if err != nil {
		return p, false, err
	}
	now := h.now()
	for _, run := range page.Runs {
		row := runRow(run, now)
		trail := trails[run.ID]
		withTrends(&row, trail, modes)
		if len(trail) > 1 {
			row.CompareHref = paths.Compare(trail[len(trail)-2].ID, run.ID)
		}
		p.Rows = append(p.Rows, row)
	}
	if live {
		p.Stream = runsHref("/live", q, q.Page)
	}
	return p, live, nil
}

// runsForm is the runs list's filter form as q fills it. The source choice
// is offered only when more than one file is served.
func runsForm(q runsQuery, sources []string) views.RunsForm {
	f := views.RunsForm{Q: q.Filter.Q, From: q.From, To: q.To}
	for _, o := range [][2]string{{"", "live or finished"}, {sandtrap.RunLive, "live"}, {sandtrap.RunFinished, "finished"}} {
		f.States = append(f.States, views.Option{Value: o[0], Label: o[1], Selected: o[0] == q.Filter.State})
	}
	if len(sources) > 1 {
		f.Sources = append(f.Sources, views.Option{Value: "", Label: "every file", Selected: q.Filter.Source == ""})
		for _, src := range sources {
			f.Sources = append(f.Sources, views.Option{Value: src, Label: src, Selected: src == q.Filter.Source})
		}
	}
	if q.Per != defaultPer {
		f.Hidden = append(f.Hidden, views.HiddenInput{Name: "per", Value: strconv.Itoa(q.Per)})
	}
	if q.Filter.Q != "" || q.Filter.Source != "" || q.From != "" || q.To != "" || q.Filter.State != "" {
		f.ClearHref = runsHref("/", runsQuery{Per: q.Per}, 1)
	}
	return f
}

// runsPager says which runs a page shows and links to the others: newer
// pages come first, the oldest run is on the last.
func runsPager(q runsQuery, n, total, pages int) views.Pager {
	p := views.Pager{Page: fmt.Sprintf("page %s of %s", views.FormatInt(q.Page), views.FormatInt(pages))}
	offset := (q.Page - 1) * q.Per
	if n == 0 {
		p.Range = "showing 0 of " + format.PluralOf(total, "run", "runs")
	} else {
		p.Range = fmt.Sprintf("showing %s–%s of %s", views.FormatInt(offset+1), views.FormatInt(offset+n), format.PluralOf(total, "run", "runs"))
	}
	if q.Page > 1 {
		p.First, p.Newer = runsHref("/", q, 1), runsHref("/", q, q.Page-1)
	}
	if q.Page < pages {
		p.Older, p.Last = runsHref("/", q, q.Page+1), runsHref("/", q, pages)
	}
	return p
}

// sourceLabels are the labels of the served files, in serving order.
func sourceLabels(srcs []sandtrap.SourceStatus) []string {
	out := make([]string, len(srcs))
	for i, s := range srcs {
		out[i] = s.Label
	}
	return out
}

// trendRuns is how many runs a row's sparklines reach back over.
const trendRuns = 10

// withTrends adds the pass rate and the failure-mode count of a row's
// trail, the runs up to and ending with its own, oldest first; modes
// counts each run's failure modes.
func withTrends(row *views.RunRow, trail []sandtrap.Run, modes map[string]int) {
	for _, run := range trail {
		row.PassTrend = append(row.PassTrend, run.Counts.PassRate())
		// A live run's point is not final: its modes can only grow.
		soFar := ""
		if run.Live() {
			soFar = " so far (live)"
		}
		row.PassTrendLabels = append(row.PassTrendLabels, run.Name+": "+views.FormatPct(run.Counts.PassRate())+" passed"+soFar)
		row.ModeTrend = append(row.ModeTrend, float64(modes[run.ID]))
		row.ModeTrendLabels = append(row.ModeTrendLabels, run.Name+": "+format.PluralOf(modes[run.ID], "failure mode", "failure modes")+soFar)
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
func sourceNotices(srcs []sandtrap.SourceStatus) []views.Notice {
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
