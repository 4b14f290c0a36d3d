// Package views holds the templ components that render sandtrap's pages.
// Components receive flat view models built by the handlers: no queries and
// no business decisions happen here.
package views

// Shell is what every page's frame needs: the title, where the user stands,
// and the run picker in the top bar.
type Shell struct {
	Title       string
	Breadcrumbs []Crumb
	Nav         string // active top-bar section: "runs", "modes", "compare", "teams"
	CurrentRun  *RunPick
	ModesHref   string     // the top bar's Modes: the queue of the current run, else of the newest
	Picker      PickerList // the run picker's list before a search: the most recent runs
	PickerHref  string     // where the picker's search fetches the runs it finds
	DatastarSrc string     // URL of the Datastar bundle
	CSSSrc      string     // URL of the stylesheet (content-hashed)
}

// Crumb is one step of the breadcrumb; the last one has no Href.
type Crumb struct {
	Label string
	Href  string
}

// RunPick is a run as the picker shows it.
type RunPick struct {
	ID       string
	Name     string
	Href     string
	Live     bool
	PassRate string // "88.1%"
}

// PickerList is what the run picker lists under its search box: the most
// recent runs, or the runs a search finds.
type PickerList struct {
	Heading  string // "Recent runs", "3 runs match"
	Runs     []RunPick
	Current  string // id of the run the page is about, marked in the list
	Empty    string // said when Runs is empty
	MoreHref string // the runs list, with the search, for what the list leaves out
	MoreText string
}

// Bar is one row of a horizontal bar chart: a label and stacked segments on
// a scale shared by every bar of the chart.
type Bar struct {
	Label    string
	Href     string // where the label links
	Segments []Segment
}

// Segment is one coloured part of a bar. Class names the colour semantics:
// "st-passed", "st-failed", "st-error", "st-skipped", "st-other",
// "sev-critical", "sev-high", "sev-medium", "sev-low",
// "ly-interface", "ly-sandbox", "ly-test", "ly-unclassified".
type Segment struct {
	Class string
	Value int
	Label string // legend text, e.g. "failed"
	Href  string
}

// Heatmap is a grid of counts, for example domain × primitive.
type Heatmap struct {
	ID       string
	RowTitle string
	ColTitle string
	Rows     []string
	Cols     []string
	Cells    [][]HeatCell // Cells[row][col]
	Max      int
}

// HeatCell is one cell of a heatmap.
type HeatCell struct {
	Value int
	Href  string
	Title string // tooltip, e.g. "file-io × encoding: 7 failures"
}

// Legend is a colour key shown beside a chart.
type Legend struct {
	Class string
	Label string
}

// Option is one choice of a select.
type Option struct {
	Value, Label string
	Selected     bool
}
