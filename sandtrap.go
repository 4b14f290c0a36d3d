// Package sandtrap holds the domain types shared by the store, the triage
// logic, the HTTP handlers and the views: runs, results, their counts, and
// the error type that carries an application code.
package sandtrap

import (
	"errors"
	"fmt"
	"time"
)

// Statuses in the campaign-database contract. Any other value is kept as it
// is and counted as "other".
const (
	StatusPassed  = "passed"
	StatusFailed  = "failed"
	StatusError   = "error"
	StatusSkipped = "skipped"
)

// Layers a failure can belong to.
const (
	LayerInterface    = "interface"
	LayerSandbox      = "sandbox"
	LayerTest         = "test"
	LayerUnclassified = "unclassified"
)

// Severities, from worst to mildest.
const (
	SeverityCritical = "critical"
	SeverityHigh     = "high"
	SeverityMedium   = "medium"
	SeverityLow      = "low"
)

// Run is one campaign run. ID is the public id, unique across every served
// file; RawID is the id as the harness wrote it.
type Run struct {
	ID         string
	RawID      string
	Source     string // label of the campaign file the run comes from
	Name       string
	StartedAt  time.Time
	FinishedAt time.Time // zero while the run is live
	Planned    int       // 0 when unknown
	Notes      string
	Counts     Counts
}

// Live reports whether the run is still going.
func (r Run) Live() bool { return r.FinishedAt.IsZero() }

// Duration is how long the run took, or has taken so far until now.
func (r Run) Duration(now time.Time) time.Duration {
	if r.Live() {
		return now.Sub(r.StartedAt)
	}
	return r.FinishedAt.Sub(r.StartedAt)
}

// Counts tallies results by status class.
type Counts struct {
	Total   int `json:"total"`
	Passed  int `json:"passed"`
	Failed  int `json:"failed"`
	Errored int `json:"errored"`
	Skipped int `json:"skipped"`
	Other   int `json:"other"`
}

// Add counts n results of the given status.
func (c *Counts) Add(status string, n int) {
	c.Total += n
	switch status {
	case StatusPassed:
		c.Passed += n
	case StatusFailed:
		c.Failed += n
	case StatusError:
		c.Errored += n
	case StatusSkipped:
		c.Skipped += n
	default:
		c.Other += n
	}
}

// Failures is every result that neither passed nor was skipped.
func (c Counts) Failures() int { return c.Failed + c.Errored + c.Other }

// PassRate is passed / (total − skipped), as a fraction; 0 when nothing ran.
func (c Counts) PassRate() float64 {
	ran := c.Total - c.Skipped
	if ran <= 0 {
		return 0
	}
	return float64(c.Passed) / float64(ran)
}

// IsFailure reports whether a status counts as a failure.
func IsFailure(status string) bool {
	return status != StatusPassed && status != StatusSkipped
}

// Result is one row of the campaign's results table.
type Result struct {
	ID         int64
	RunID      string // public run id
	Test       string
	Target     string
	Domain     string
	Title      string
	Status     string
	StartedAt  string
	DurationMS int64 // -1 when unknown
	ExitCode   *int64
	Error      string
	HasError   bool
	Layer      string // the harness's own classification, if any
	Primitive  string
	Worker     string
	Attempt    int
	LogSize    int64
	Problems   []string // values the harness wrote that could not be read
}

// Artifact is a file a workflow uploaded or downloaded.
type Artifact struct {
	ID             int64
	ResultID       int64
	Name           string
	MediaType      string
	Size           int64
	SHA256         string // of Data, computed by sandtrap
	ExpectedSHA256 string
}

// Step is one MCP tool call of a workflow.
type Step struct {
	ID         int64
	ResultID   int64
	Seq        int
	Tool       string
	Request    []byte
	Response   []byte
	Error      string
	DurationMS int64
}

// Error codes, mapped to HTTP statuses by the handlers.
const (
	ECONFLICT    = "conflict"
	EFORBIDDEN   = "forbidden"
	EINTERNAL    = "internal"
	EINVALID     = "invalid"
	ENOTFOUND    = "not_found"
	ETOOLARGE    = "too_large" // a request body over its limit
	EUNAVAILABLE = "unavailable"
	EUPSTREAM    = "upstream" // a service sandtrap calls, such as a tracker, refused
)

// Error is an application error with a code and a message meant for users.
type Error struct {
	Code    string
	Message string
}

// Error returns the message alone: it is written for people, and the
// command line already says "sandtrap:" in front of it.
func (e *Error) Error() string { return e.Message }

// Errorf returns an Error with the given code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of the first Error in err's chain, or EINTERNAL.
func ErrorCode(err error) string {
	var e *Error
	if err == nil {
		return ""
	} else if errors.As(err, &e) {
		return e.Code
	}
	return EINTERNAL
}

// ErrorMessage returns the user-facing message of the first Error in err's
// chain; internal errors get a generic message so no detail leaks.
func ErrorMessage(err error) string {
	var e *Error
	if err == nil {
		return ""
	} else if errors.As(err, &e) {
		return e.Message
	}
	return "Internal error."
}

// Mode is a failure mode: failures with one root cause, with every triage
// decision applied. Its ID is stable across runs and files.
type Mode struct {
	ID             string
	Layer          string
	Primitive      string
	Signature      string
	ClassifiedBy   string // "human" when a person reclassified it, else "" (each failure says)
	Title          string
	Severity       string
	SeverityReason string
	Status         string // new, triaged, fixed, wont-fix, test-bug
	Owner          string
	Members        []string // the ids merged into this mode, itself first
	FirstSeen      time.Time
}

// Note is a remark a person left on a failure mode.
type Note struct {
	Body      string
	Who       string // as Actor names them; "" for notes from before names were kept
	CreatedAt time.Time
}

// Event is one entry of a failure mode's triage history.
type Event struct {
	What      string
	Who       string // as Actor names them; "" for entries from before names were kept
	CreatedAt time.Time
}

// ModeStat is a failure mode within one run: how often, where, and whether
// it always fails the same tests.
type ModeStat struct {
	Mode
	Count         int
	Tests         int
	Domains       map[string]int
	Targets       map[string]int
	Statuses      map[string]int
	FirstRun      string // public id of the first run it was seen in
	FirstSeen     time.Time
	LastRun       string
	LastSeen      time.Time
	Deterministic bool // no test of the mode passed in the run, on any attempt
	NewInRun      bool // not seen in any earlier run
}

// ModeSummary is a failure mode across every run served: how often, in
// how many runs, where it was first and last seen, and lately.
type ModeSummary struct {
	Mode
	Failures int
	Runs     int      // runs it failed in
	First    RunCount // the first run it failed in, with its failures there
	Last     RunCount
	Recent   []int    // its failures in each of the last runs, oldest first
	Domains  []string // every domain it failed in
	Targets  []string
}

// RunCount is how often something happened in one run.
type RunCount struct {
	RunID     string
	RunName   string
	StartedAt time.Time
	Count     int
	Total     int // results in the run
}

// History summarises failure modes across the served runs.
type History struct {
	Runs int // how many runs are served
	// Recent are the last runs, oldest first, each with its results in
	// Total; each mode's Recent counts its failures in them.
	Recent []RunCount
	Modes  []ModeSummary // the latest seen first
}
