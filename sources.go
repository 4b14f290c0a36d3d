package sandtrap

import "time"

// SourceStatus is what a page needs to know about the campaign file behind
// a run.
type SourceStatus struct {
	Label    string
	Path     string
	Fault    string // why the file cannot be read right now, "" when it can
	Progress Progress
}

// Progress tells how far the first read of a campaign file has come.
type Progress struct {
	Reading bool
	Read    int64 // results read so far in this pass
	Total   int64 // results to read in this pass, estimated from the ids
	Started time.Time
}
