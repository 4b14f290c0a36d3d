// Package reports reads the test reports that other tools write (JUnit XML,
// CTRF JSON) into neutral results that can become the rows of one campaign
// run. It does no I/O beyond the reader it is given: attachments are named by
// their paths, for the caller to read.
package reports

import (
	"fmt"
	"time"
)

// Statuses of the campaign-database contract that results are mapped onto.
// A report's status outside these is kept as it is.
const (
	StatusPassed  = "passed"
	StatusFailed  = "failed"
	StatusError   = "error"
	StatusSkipped = "skipped"
)

// Report is what one test report says.
type Report struct {
	Tool     string    // the tool that wrote the report, when it says
	Started  time.Time // zero when the report does not say
	Finished time.Time // zero when the report does not say
	Results  []Result  // one per attempt, in the report's order
}

// Result is one attempt at one test.
type Result struct {
	Test     string // the test's key, unique within its report
	Suite    string // the suite it belongs to, the domain when nothing else says
	Status   string // passed, failed, error, skipped, or the report's own word
	Attempt  int    // 1 for the first try, counted within the report
	Flaky    bool   // the report says the test passed only after failing
	Started  time.Time
	Duration *time.Duration // nil when the report does not say
	Error    string         // the failure's message, then its details; empty when none
	Log      []byte         // the test's output, each stream under a label
	Props    Props
	// Attachments are files the report names; Data is set for the ones it
	// carries inline.
	Attachments []Attachment
	Steps       []Step
}

// Props are the campaign columns a report can fill in per test, from JUnit
// properties or CTRF extra fields. Empty means the report does not say.
type Props struct {
	Target, Domain, Layer, Primitive, Worker, Title string
}

// set fills the property called name, and reports whether it is one.
func (p *Props) set(name, value string) bool {
	switch name {
	case "target":
		p.Target = value
	case "domain":
		p.Domain = value
	case "layer":
		p.Layer = value
	case "primitive":
		p.Primitive = value
	case "worker":
		p.Worker = value
	case "title":
		p.Title = value
	default:
		return false
	}
	return true
}

// under fills what p does not say from outer, the properties of an
// enclosing suite.
func (p Props) under(outer Props) Props {
	if p.Target == "" {
		p.Target = outer.Target
	}
	if p.Domain == "" {
		p.Domain = outer.Domain
	}
	if p.Layer == "" {
		p.Layer = outer.Layer
	}
	if p.Primitive == "" {
		p.Primitive = outer.Primitive
	}
	if p.Worker == "" {
		p.Worker = outer.Worker
	}
	if p.Title == "" {
		p.Title = outer.Title
	}
	return p
}

// Attachment is a file that belongs to a result.
type Attachment struct {
	Name      string
	MediaType string
	Path      string // as the report writes it: relative to the report's folder, absolute, or a file: URI
	Data      []byte // the bytes, when the report carries them inline
	Field     string // where the report names it, e.g. results.tests[3].attachments[0]
}

// Step is one step of a test.
type Step struct {
	Name   string
	Status string
}

// Error is a report that cannot be read, with where in it the trouble is:
// a line for XML, a field path such as results.tests[3].status for JSON.
type Error struct {
	Line  int    // 1-based; 0 when not known
	Field string // empty when not known
	Msg   string
}

// Error says where the trouble is, then what it is.
func (e *Error) Error() string {
	switch {
	case e.Line > 0 && e.Field != "":
		return fmt.Sprintf("line %d: %s: %s", e.Line, e.Field, e.Msg)
	case e.Line > 0:
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	case e.Field != "":
		return e.Field + ": " + e.Msg
	}
	return e.Msg
}

// joinError puts a failure's message first and its details (a traceback,
// a stack) after it, keeping both.
func joinError(message, details string) string {
	switch {
	case message == "":
		return details
	case details == "":
		return message
	}
	return message + "\n" + details
}

// appendSection adds one labelled stream to a log, so that a reader can
// tell standard output from standard error.
func appendSection(log []byte, label string, data []byte) []byte {
	log = append(log, "--- "+label+" ---\n"...)
	log = append(log, data...)
	if len(data) > 0 && data[len(data)-1] != '\n' {
		log = append(log, '\n')
	}
	return log
}
