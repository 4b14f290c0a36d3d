package views

// ComparePage is run against run at /compare.
type ComparePage struct {
	Shell         Shell
	Form          CompareForm
	Base, Head    RunRef
	SwapHref      string
	JSONHref      string
	Empty         string // why there is nothing to compare, when there is not
	Identical     bool
	Stats         []Stat
	Returned      ModeGroup // shown first: modes marked fixed that are back
	ReturnedAlert string    // the banner that says so, when there are any
	ModeGroups    []ModeGroup
	TestStats     []Stat
	TestGroups    []TestGroup
	FlakyTests    TestGroup
	FlakyModes    []FlakyModeRow
	Deltas        []DeltaTable
}

// CompareForm picks the two runs: what is chosen, and the latest runs as
// suggestions; any other run is typed, or found through the runs list.
type CompareForm struct {
	Base, Head string
	Choices    []Option
	FindHref   string
}

// RunRef names a run and links to it.
type RunRef struct {
	ID, Name, Href string
}

// ModeGroup is one group of failure modes: returned, new, resolved or
// persisting.
type ModeGroup struct {
	ID    string // data-testid hook and anchor: "returned", "new", …
	Title string
	Note  string // what the group means
	Empty string // said when the group has no modes
	Rows  []ModeChangeRow
}

// ModeChangeRow is a failure mode in both runs.
type ModeChangeRow struct {
	ID          string
	Href        string
	Title       string
	Signature   string
	Severity    string
	Layer       string
	Primitive   string
	Status      string
	Base, Head  Link // counts, linking to the failures of the mode in each run
	Change      string
	ChangeClass string // "check-bad" when it got worse, "check-ok" when better
	Ticket      Link   // the mode's ticket, when it was filed
}

// TestGroup is one group of test keys: fixed, regressed, still failing,
// added, removed or flaky.
type TestGroup struct {
	ID      string
	Title   string
	Note    string
	Total   string
	Rows    []TestRow
	More    Link // to the JSON that lists every test, when the page lists fewer
	Open    bool // shown unfolded
	ShowWhy bool // a column says what each test did
}

// TestRow is one test key with its result in each run.
type TestRow struct {
	Key        string
	Base, Head Link // the last attempt's outcome, linking to its result
	Why        string
}

// FlakyModeRow is a failure mode that comes and goes.
type FlakyModeRow struct {
	ID, Href, Title, Severity, Why string
}

// DeltaTable is the change per value of one facet.
type DeltaTable struct {
	ID       string
	Title    string
	ShowRate bool // pass rates make sense for targets and domains only
	Rows     []DeltaRow
}

// DeltaRow is one value of a facet in both runs.
type DeltaRow struct {
	Label              string
	Base, Head         Link // failures, linking to them in each run
	Change             string
	ChangeClass        string
	BaseRate, HeadRate string
}

// TargetsPage is one run's targets side by side at /runs/{run}/targets.
type TargetsPage struct {
	Shell       Shell
	Run         RunHeader
	Notices     []Notice
	DiffOnly    bool
	ToggleHref  string // flips "differences only"
	Hidden      string // "12 rows where the targets agree are hidden"
	Columns     []TargetSide
	Scale       int      // fills the width of the layer and primitive charts of every column
	DomainScale int      // likewise for the domain charts
	Targets     []string // the columns' names, for the shared modes table
	Shared      []SharedModeRow
	LayerLegend []Legend
	Empty       string
}

// TargetSide is one target's column.
type TargetSide struct {
	Name        string
	Href        string
	PassRate    string
	Total       Link
	Failures    Link
	ByLayer     []Bar
	ByPrimitive []Bar
	ByDomain    []Bar
	Only        []ModeRow // modes found on this target alone
}

// SharedModeRow is a failure mode found on several targets, with its
// failures on each.
type SharedModeRow struct {
	ID, Href, Title, Severity string
	Counts                    []Link // per target, in TargetsPage.Targets order
}

// ariaBool writes a boolean ARIA state.
func ariaBool(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// checkGlyph shows a switch's state without relying on colour.
func checkGlyph(on bool) string {
	if on {
		return "☑"
	}
	return "☐"
}
