package views

// ModeStreamPage is /modes: every failure mode seen across the runs, like
// an issue stream, filtered, ordered and paged.
type ModeStreamPage struct {
	Shell      Shell
	Summary    string // "42 failure modes across 3,000 runs"
	Action     string // where the search form goes
	Query      string
	Hidden     []HiddenInput // the other filters, kept when searching
	Facets     []FacetView
	Active     []ActiveFilter
	ClearHref  string
	JSONHref   string
	Sorts      []SortLink
	Rows       []StreamRow
	Empty      bool
	Range      string // "1–50 of 120"
	PageText   string // "page 1 of 3"
	First      string // links to the other pages; "" where there is none
	Prev       string
	Next       string
	Last       string
	RecentRuns int // how many runs the trends span
}

// SortLink is one order a list can take, marked when in force.
type SortLink struct {
	Label, Href string
	Active      bool
}

// StreamRow is one failure mode of /modes.
type StreamRow struct {
	ID          string
	Href        string
	Title       string
	Signature   string
	Severity    string
	Reason      string
	Layer       string
	Primitive   string
	LastRun     Link // the last run it failed in, to its failures there
	LastSeen    string
	Failures    string
	Runs        string // "in 2,800 runs"
	Trend       string // "rising"
	TrendText   string // "↑ rising"
	Spark       TrendBars
	Status      string
	Owner       string
	OwnerRouted bool // the routes chose the owner, not a person
	TicketKey   string
	TicketURL   string
	TicketState string
}
