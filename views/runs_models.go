package views

import "sandtrap"

// RunsPage is a page of the runs list.
type RunsPage struct {
	Shell    Shell
	Form     RunsForm
	Pager    Pager
	Rows     []RunRow
	Notices  []Notice
	JSONHref string // the same page from the JSON API
	// Empty, EmptyAction and EmptyHref say why no row is shown when
	// filters leave none, and how to clear them.
	Empty, EmptyAction, EmptyHref string
	Stream                        string // the live stream's URL while a run on the page is live
}

// RunsForm is the runs list's filter form, as the URL fills it.
type RunsForm struct {
	Q, From, To string   // From and To as YYYY-MM-DD
	States      []Option // live or finished
	Sources     []Option // the served files; empty when there is one
	Hidden      []HiddenInput
	ClearHref   string // the list without filters; "" when none is set
}

// Pager says which part of a paged list is shown and links to the rest,
// newest first. A link is "" on the page it would lead to.
type Pager struct {
	Range                     string // "showing 51–100 of 3,000 runs"
	Page                      string // "page 2 of 60"
	First, Newer, Older, Last string
}

// RunRow is one run in the runs list.
type RunRow struct {
	ID, Name, Href   string
	Source           string
	Started          string // "2026-06-30 22:00 UTC"
	Duration         string
	Live             bool
	Done, Planned    int // progress against planned; Planned 0 when unknown
	PassRate         string
	Total            string
	Passed, Failed   Link
	Errored, Skipped Link
	Other            Link
	Counts           sandtrap.Counts
	// Trends over the runs up to this one, oldest first, with a tooltip
	// per value.
	PassTrend, ModeTrend             []float64
	PassTrendLabels, ModeTrendLabels []string
	CompareHref                      string // this run against the one before; "" for the first run
}
