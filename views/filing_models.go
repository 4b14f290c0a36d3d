package views

// TicketView is a mode's ticket and its latest filing.
type TicketView struct {
	Key, URL, State, Tracker, Team string
	// Filing is the latest filing's state while it is unfinished or
	// failed (pending, sending, retrying, failed); "" when none is.
	Filing string
	Error  string // the tracker's own words, when the last filing failed
}

// FilingForm is "File to TEAM" on a mode's page, with the ticket it would
// write.
type FilingForm struct {
	Action       string
	MarkdownHref string
	Owner        string
	Tracker      string
	Routed       bool // the owner comes from the routes, not from a person
	Teams        []Option
	Title        string
	Body         string
	Error        string
	ReadOnly     bool
}

// Progress is how far a batch of filings has come.
type Progress struct {
	Done, Total int // modes tried so far, and to try
	Filed       int // of those tried, the ones whose ticket was written
	Lines       []string
}

// TeamsPage is /teams: each team, its routes and its queue.
type TeamsPage struct {
	Shell   Shell
	RunName string
	Teams   []TeamView
	Alerts  AlertsView
}

// TeamView is one team.
type TeamView struct {
	Name        string
	Tracker     string
	TrackerText string // the tracker as people read it
	About       string // what the team is for, when its routes do not say
	Destination string // repo, project or URL
	Labels      string
	Routes      []string
	Owned       int
	Filed       int
	Open        int
	Fixed       int
	Modes       []TeamMode
}

// TeamMode is a mode in a team's queue.
type TeamMode struct {
	ID, Title, Href, Severity, Status string
	TicketKey, TicketURL, TicketState string
}
