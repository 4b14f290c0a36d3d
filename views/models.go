package views

import "sandtrap/logview"

// Link is a number or label that leads to the rows behind it.
type Link struct {
	Text string
	Href string
}

// Notice is a banner: a fault, a live state, a reading progress.
type Notice struct {
	Kind string // "info", "warn", "new"
	Text string
	Link Link
}

// OverviewPage is one run's overview.
type OverviewPage struct {
	Shell        Shell
	Run          RunHeader
	Notices      []Notice
	Stats        []Stat
	Targets      []TargetColumn
	TargetMax    int
	ByDomain     []Bar
	ByLayer      []Bar
	ByPrimitive  []Bar
	Heatmap      Heatmap
	TopModes     []ModeRow
	StatusLegend []Legend
	LayerLegend  []Legend
	FailuresHref string
	ModesHref    string
	TargetsHref  string
	Stream       string   // the live stream's URL; "" when the run is over
	Banner       []Notice // new failure modes, the run's end
	Timeline     Timeline
}

// RunHeader is the title block of a run's pages.
type RunHeader struct {
	ID, Name string
	Headline string // "88.1% passed — 119 failures"
	Live     bool
	Started  string
	Duration string
	Notes    string
	Source   string
	Done     int
	Planned  int
	// LiveText is the live indicator: "live · 12 results/min · ETA 14 min".
	LiveText     string
	FinishedText string // "finished 2026-07-01 05:08 UTC"
	Links        []Link // related views: targets, comparison
}

// Stat is one headline card.
type Stat struct {
	Label, Value, Sub, Href, Class string
}

// TargetColumn is one target in the aligned side-by-side view.
type TargetColumn struct {
	Name     string
	Href     string
	PassRate string
	Total    Link
	Failures Link
	ByLayer  []Bar
	ByDomain []Bar
}

// ModeRow is a failure mode in a table.
type ModeRow struct {
	ID        string
	Title     string
	Signature string
	Layer     string
	Primitive string
	Severity  string
	Reason    string
	Count     Link
	Href      string
}

// FailuresPage is the filtered list of a run's results.
type FailuresPage struct {
	Shell     Shell
	Run       RunHeader
	Notices   []Notice
	Query     string
	Hidden    []HiddenInput // the other filters, kept when searching
	Filters   []ActiveFilter
	Facets    []FacetView
	Rows      []FailureRow
	Range     string // "1–50 of 119"
	Prev      string
	Next      string
	ClearHref string
	JSONHref  string
	// Empty says why no row shows, with a way on; "" when rows show.
	Empty, EmptyAction, EmptyHref string
	Stream                        string // the live stream's URL; "" when the run is over
}

// HiddenInput keeps a filter in a GET form.
type HiddenInput struct{ Name, Value string }

// ActiveFilter is a filter in force, with the link that removes it.
type ActiveFilter struct {
	Facet, Value, RemoveHref string
}

// FacetView is one facet with its values.
type FacetView struct {
	Name   string
	Title  string
	Values []FacetValueView
}

// FacetValueView is one value of a facet with its count.
type FacetValueView struct {
	Value    string
	Label    string
	Count    string
	Href     string
	Selected bool
}

// FailureRow is one result in the failures list.
type FailureRow struct {
	ID        int64
	Href      string
	Test      string
	Title     string
	Status    string
	Target    string
	Domain    string
	Layer     string
	Primitive string
	By        string
	Mode      string
	ModeHref  string
	ModeTitle string
	Error     string
	Attempt   int
	Duration  string
	New       bool // arrived since the page was first shown
}

// ResultPage is one result.
type ResultPage struct {
	Shell    Shell
	Run      RunHeader
	ID       int64
	Test     string
	Title    string
	Status   string
	Fields   []Field
	Error    []logview.Span
	HasError bool
	// Unclassified says why there is no classification to show; "" when
	// there is one.
	Unclassified string
	Layer        string
	Primitive    string
	By           string
	Mode         string
	ModeHref     string
	Signature    string
	Log          logview.Log
	LogTail      logview.Log // the end of a log too long to show whole
	LogTailBytes int64
	LogHref      string
	LogSize      string
	Artifacts    []ArtifactView
	Steps        []StepView
	BackHref     string
	Problems     []string // unreadable values of the row
	// SecretNotice says that credentials were cut from the error and the
	// log as shown here; "" when none were.
	SecretNotice string
}

// Field is one labelled value of a result.
type Field struct {
	Label string
	Value []logview.Span
	Href  string
	Mono  bool
}

// ArtifactView is one artifact with its checks.
type ArtifactView struct {
	ID          int64
	Name        []logview.Span
	MediaType   string
	Size        string
	Href        string
	Inline      bool // an image the page shows
	SHA256      string
	Expected    string
	Check       string // "ok", "mismatch", "" when there is nothing to check
	DiffOffset  string // first differing offset against the artifact that has the expected digest
	DiffAgainst string
	Damage      string // how the round trip damaged the bytes, in words, or ""
	Hex         []logview.HexRow
	HexMore     bool
}

// StepView is one MCP tool call.
type StepView struct {
	Seq      int
	Tool     string
	Duration string
	Error    []logview.Span
	HasError bool
	Request  Payload
	Response Payload
}

// Payload is a request or response shown as text or as hex.
type Payload struct {
	Size    string
	Text    logview.Log
	IsText  bool
	Hex     []logview.HexRow
	HexMore bool
	Empty   bool
}

// ErrorPage is shown for every error a page can meet.
type ErrorPage struct {
	Shell   Shell
	Status  int
	Title   string
	Message string
	Runs    []RunPick // offered when a run was not found
}
