package sandtrap

import "time"

// Triage statuses of a failure mode, in the order a mode moves through them.
const (
	TriageNew     = "new"
	TriageTriaged = "triaged"
	TriageFixed   = "fixed"
	TriageWontFix = "wont-fix"
	TriageTestBug = "test-bug"
)

// Facet names, in the order pages show them.
const (
	FacetStatus    = "status"
	FacetTarget    = "target"
	FacetDomain    = "domain"
	FacetLayer     = "layer"
	FacetPrimitive = "primitive"
	FacetMode      = "mode"
)

// Facets lists every facet name.
var Facets = []string{FacetStatus, FacetTarget, FacetDomain, FacetLayer, FacetPrimitive, FacetMode}

// StatusAll is the status filter that selects every result.
const StatusAll = "all"

// StatusOther is the status filter that selects every result whose status
// is none of passed, failed, error and skipped: the runs list's "Other".
const StatusOther = "other"

// ResultFilter selects results of a run. Empty fields match everything,
// except Status: empty means every failure (failed, error and other), and
// StatusAll means every result.
type ResultFilter struct {
	Status, Target, Domain, Layer, Primitive, Mode string
	Q                                              string    // case-insensitive text in the error or the test key
	From, To                                       time.Time // results started in [From, To); zero is open
	Limit, Offset                                  int
}

// Value returns the filter's value for a facet.
func (f ResultFilter) Value(facet string) string {
	switch facet {
	case FacetStatus:
		return f.Status
	case FacetTarget:
		return f.Target
	case FacetDomain:
		return f.Domain
	case FacetLayer:
		return f.Layer
	case FacetPrimitive:
		return f.Primitive
	case FacetMode:
		return f.Mode
	}
	return ""
}

// With returns f with one facet set to value ("" removes it), back on the
// first page.
func (f ResultFilter) With(facet, value string) ResultFilter {
	switch facet {
	case FacetStatus:
		f.Status = value
	case FacetTarget:
		f.Target = value
	case FacetDomain:
		f.Domain = value
	case FacetLayer:
		f.Layer = value
	case FacetPrimitive:
		f.Primitive = value
	case FacetMode:
		f.Mode = value
	}
	f.Offset = 0
	return f
}

// ResultRow is a result as lists show it, with its classification.
type ResultRow struct {
	Result
	Layer        string // the decided layer, "" for a result that did not fail
	Primitive    string
	ClassifiedBy string
	Mode         string
	Severity     string
}

// FacetValue is one value of a facet and how many results have it.
type FacetValue struct {
	Value string
	Count int
}

// ResultPage is one page of a filtered list, with the total and the facet
// counts. Each facet is counted with every filter but its own applied, so
// its other values stay visible and clickable.
type ResultPage struct {
	Total   int
	Results []ResultRow
	Facets  map[string][]FacetValue
}

// Occurrence is one failure of a mode, in the run it failed in.
type Occurrence struct {
	RunID string
	ResultRow
}

// Classification is how a failed result was classified, and its mode.
type Classification struct {
	Layer, Primitive, ClassifiedBy, Mode, Signature string
}
