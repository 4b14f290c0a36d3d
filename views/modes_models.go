package views

// ModesPage is a run's failure-mode queue.
type ModesPage struct {
	Shell     Shell
	Run       RunHeader
	Notices   []Notice
	Facets    []FacetView
	Filters   []ActiveFilter
	ClearHref string
	JSONHref  string
	Rows      []QueueRow
	Summary   string // "18 modes · 4 critical · 2 new"
	Empty     bool
	Stream    string // the live stream's URL; "" when the run is over
	Outages   []Outage
	// FileCriticalHref files every untriaged critical mode; "" when
	// filing is off.
	FileCriticalHref string
	// Suggestions are modes that may be one cause, each with a one-click
	// merge; none when the state is read-only.
	Suggestions []MergeSuggestion
}

// MergeSuggestion is a set of modes that share a template but for one
// token, and the form that merges them.
type MergeSuggestion struct {
	Text     string // "These 3 modes share a template but for one token"
	Template string // the shared template, with <*> where they differ
	Modes    []SuggestedMode
	Action   string // where the merge form posts
	Into     string
	From     []string
}

// SuggestedMode is one mode of a merge suggestion.
type SuggestedMode struct {
	ID, Href, Title string
	Token           string // what this mode has where the others differ
}

// QueueRow is one failure mode in the queue.
type QueueRow struct {
	ID            string
	Href          string
	Title         string
	Signature     string
	Severity      string
	Reason        string
	Layer         string
	Primitive     string
	Count         Link
	Tests         string
	Domains       string // "file-io, ml-training +2"
	DomainsTitle  string
	Targets       string
	FirstSeen     string
	LastSeen      string
	Status        string
	Owner         string
	Deterministic bool
	New           bool // not seen in any earlier run
	Arrived       bool // appeared since the page was first shown
	TicketKey     string
	TicketURL     string
	TicketState   string
	InOutages     string // failures of the mode inside outage windows, left out of Count
}

// ModePage is one failure mode across every run.
type ModePage struct {
	Shell          Shell
	ID             string
	Title          string
	Signature      string
	Severity       string
	SeverityReason string
	Layer          string
	Primitive      string
	ClassifiedBy   string
	Status         string
	Owner          string
	Samples        [][]DiffPart
	Smallest       *Sample
	SampleNote     string // what the samples and the bars are drawn from: "the latest 200 failures"
	History        ModeHistory
	ByDomain       []Bar
	ByTarget       []Bar
	Occurrences    []Occurrence
	OccRange       string // "51–100 of 2,800"
	OccPage        string // "page 2 of 56"
	OccFirst       string // links to the other pages; "" where there is none
	OccPrev        string
	OccNext        string
	OccLast        string
	Triage         TriageForm
	Notes          []NoteView
	Events         []NoteView // the triage history
	Members        []Member
	Ticket         TicketView
	Filing         FilingForm
}

// ModeHistory is a mode across the runs: where it was first and last seen,
// how widely, and lately.
type ModeHistory struct {
	Failures   string // "2,800 failures"
	Runs       string // "in 2,800 of 3,000 runs"
	FirstSeen  RunSeen
	LastSeen   RunSeen
	Trend      string // "↑ rising"
	Spark      RunBars
	StreamHref string // every mode across the runs
}

// RunSeen is a run a mode was seen in, when, and how often there.
type RunSeen struct {
	Run   Link // empty when the mode is in no served run
	At    string
	Count string
}

// DiffPart is a piece of a sample message; Varies marks what differs
// between samples.
type DiffPart struct {
	Text   string
	Varies bool
}

// Sample is one failure shown as an example.
type Sample struct {
	Href     string
	Test     string
	Run      string
	Duration string
	Error    string
}

// Occurrence is one failure of a mode in the mode page's list.
type Occurrence struct {
	Href    string
	RunID   string
	RunHref string
	ID      int64
	Test    string
	Status  string
	Target  string
	Domain  string
	Error   string
}

// TriageForm is the triage panel: the current decision, the choices and
// the outcome of the last action.
type TriageForm struct {
	Action       string // the form's POST URL
	Layer        string
	Primitive    string
	Severity     string
	Status       string
	Title        string
	Owner        string
	Layers       []Option
	Primitives   []Option
	Severities   []Option
	Statuses     []Option
	MergeTargets []Option
	Message      string
	Error        string
	ReadOnly     bool
}

// NoteView is a note or a history entry: who, what, when. Who is "" for
// entries from before sandtrap kept names.
type NoteView struct {
	Who  string
	Text string
	At   string
}

// Member is a mode merged into this one.
type Member struct {
	ID   string
	Href string
	Self bool
}
