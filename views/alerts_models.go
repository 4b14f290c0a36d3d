package views

// AlertsView is the alerts section of /teams: each [[alert]] table and the
// latest sends. It names destinations by their variables, never their URLs.
type AlertsView struct {
	Off    string // why alerts are not sent, when they are not
	Alerts []AlertView
	Sends  []AlertSendView
}

// AlertView is one [[alert]] table.
type AlertView struct {
	Name        string
	Destination string // "Slack, URL in $SLACK_WEBHOOK_URL"
	Events      string
	Keeps       string // the severities and filters it keeps
}

// AlertSendView is one send of the outbox.
type AlertSendView struct {
	When      string
	Alert     string
	Event     string
	RunID     string
	RunHref   string
	ModeID    string // "" for run-finished
	ModeHref  string
	State     string
	Attempts  int
	LastError string
}
