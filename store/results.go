package store

import "sandtrap"

// The result types are the root package's, shared with the handlers and
// the CLI; these names let the store's own code read as before.
type (
	ResultFilter = sandtrap.ResultFilter
	ResultRow    = sandtrap.ResultRow
	ResultPage   = sandtrap.ResultPage
	FacetValue   = sandtrap.FacetValue
	Occurrence   = sandtrap.Occurrence
)

// Facet names and status filters, as the root package defines them.
const (
	FacetStatus    = sandtrap.FacetStatus
	FacetTarget    = sandtrap.FacetTarget
	FacetDomain    = sandtrap.FacetDomain
	FacetLayer     = sandtrap.FacetLayer
	FacetPrimitive = sandtrap.FacetPrimitive
	FacetMode      = sandtrap.FacetMode
	StatusAll      = sandtrap.StatusAll
	StatusOther    = sandtrap.StatusOther
)

// Facets lists every facet name.
var Facets = sandtrap.Facets
