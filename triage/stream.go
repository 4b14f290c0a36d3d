package triage

import (
	"slices"
	"strings"

	"sandtrap"
)

// Orders of the cross-run view of modes.
const (
	SortLastSeen = "last-seen" // the latest seen first
	SortFailures = "failures"  // the most failures first
	SortSeverity = "severity"  // the most severe first
)

// Sorts lists the orders, the default first.
func Sorts() []string { return []string{SortLastSeen, SortFailures, SortSeverity} }

// ModeQuery narrows the cross-run view of modes: each set field must match.
type ModeQuery struct {
	Text      string // in the id, title or signature, any case
	Layer     string
	Primitive string
	Status    string
	Owner     string
	Severity  string
}

// Fields a ModeQuery filters on, as FacetCounts names them.
const (
	FieldLayer     = "layer"
	FieldPrimitive = "primitive"
	FieldSeverity  = "severity"
	FieldStatus    = "status"
	FieldOwner     = "owner"
)

// Fields lists the filter fields in the order pages show them.
func Fields() []string {
	return []string{FieldSeverity, FieldStatus, FieldLayer, FieldPrimitive, FieldOwner}
}

// Value is the query's value of field.
func (q ModeQuery) Value(field string) string {
	switch field {
	case FieldLayer:
		return q.Layer
	case FieldPrimitive:
		return q.Primitive
	case FieldSeverity:
		return q.Severity
	case FieldStatus:
		return q.Status
	case FieldOwner:
		return q.Owner
	}
	return ""
}

// With is q with field set to v.
func (q ModeQuery) With(field, v string) ModeQuery {
	switch field {
	case FieldLayer:
		q.Layer = v
	case FieldPrimitive:
		q.Primitive = v
	case FieldSeverity:
		q.Severity = v
	case FieldStatus:
		q.Status = v
	case FieldOwner:
		q.Owner = v
	}
	return q
}

func valueOf(m *sandtrap.ModeSummary, field string) string {
	switch field {
	case FieldLayer:
		return m.Layer
	case FieldPrimitive:
		return m.Primitive
	case FieldSeverity:
		return m.Severity
	case FieldStatus:
		return m.Status
	case FieldOwner:
		return m.Owner
	}
	return ""
}

// Match reports whether m passes every filter of q. Owner is m's owner
// as the page shows it, chosen or routed.
func (q ModeQuery) Match(m *sandtrap.ModeSummary) bool {
	return q.matchExcept(m, "")
}

// matchExcept is Match without the filter on field.
func (q ModeQuery) matchExcept(m *sandtrap.ModeSummary, field string) bool {
	for _, f := range Fields() {
		if f != field && q.Value(f) != "" && q.Value(f) != valueOf(m, f) {
			return false
		}
	}
	if q.Text == "" {
		return true
	}
	t := strings.ToLower(q.Text)
	return strings.Contains(strings.ToLower(m.ID), t) || strings.Contains(strings.ToLower(m.Title), t) ||
		strings.Contains(strings.ToLower(m.Signature), t)
}

// Select returns the modes that q matches, in the order by; modes come
// latest seen first and stay so among equals.
func Select(modes []sandtrap.ModeSummary, q ModeQuery, by string) []sandtrap.ModeSummary {
	var out []sandtrap.ModeSummary
	for i := range modes {
		if q.Match(&modes[i]) {
			out = append(out, modes[i])
		}
	}
	switch by {
	case SortFailures:
		slices.SortStableFunc(out, func(a, b sandtrap.ModeSummary) int { return b.Failures - a.Failures })
	case SortSeverity:
		slices.SortStableFunc(out, func(a, b sandtrap.ModeSummary) int { return SeverityRank(a.Severity) - SeverityRank(b.Severity) })
	}
	return out
}

// FacetCount is one value of a field and how many modes have it.
type FacetCount struct {
	Value string
	Count int
}

// FacetCounts counts, for each field, the values of the modes that match
// q's other filters, so that each value says what choosing it would show:
// the most common first.
func FacetCounts(modes []sandtrap.ModeSummary, q ModeQuery) map[string][]FacetCount {
	out := map[string][]FacetCount{}
	for _, field := range Fields() {
		counts := map[string]int{}
		for i := range modes {
			if v := valueOf(&modes[i], field); v != "" && q.matchExcept(&modes[i], field) {
				counts[v]++
			}
		}
		list := make([]FacetCount, 0, len(counts))
		for v, n := range counts {
			list = append(list, FacetCount{v, n})
		}
		slices.SortFunc(list, func(a, b FacetCount) int {
			if a.Count != b.Count {
				return b.Count - a.Count
			}
			return strings.Compare(a.Value, b.Value)
		})
		out[field] = list
	}
	return out
}

// Trends a mode's recent failures can take.
const (
	TrendNew     = "new"     // first seen in the newer half of the recent runs
	TrendBack    = "back"    // seen long ago, then not, now again
	TrendRising  = "rising"  // more failures a run in the newer half
	TrendFalling = "falling" // fewer
	TrendSteady  = "steady"
	TrendGone    = "gone" // in the older half only
	TrendQuiet   = "quiet"
)

// trendRatio is how much the newer half's failures a run must differ from
// the older half's to count as rising or falling.
const trendRatio = 1.5

// Trend says how a mode moved over the recent runs: recent holds its
// failures in each, oldest first, and runs is how many runs it failed in
// at all, so that a mode seen before the window comes back rather than
// appears. The newer half of the window is set against the older half,
// per run.
func Trend(recent []int, runs int) string {
	older, newer := recent[:len(recent)/2], recent[len(recent)/2:]
	sum := func(xs []int) (n, seen int) {
		for _, x := range xs {
			n += x
			if x > 0 {
				seen++
			}
		}
		return n, seen
	}
	o, oSeen := sum(older)
	n, nSeen := sum(newer)
	switch {
	case o == 0 && n == 0:
		return TrendQuiet
	case o == 0 && runs > oSeen+nSeen:
		return TrendBack
	case o == 0:
		return TrendNew
	case n == 0:
		return TrendGone
	}
	oRate, nRate := float64(o)/float64(len(older)), float64(n)/float64(len(newer))
	switch {
	case nRate >= oRate*trendRatio:
		return TrendRising
	case nRate*trendRatio <= oRate:
		return TrendFalling
	}
	return TrendSteady
}
