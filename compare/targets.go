package compare

import (
	"cmp"
	"slices"
	"strings"

	"sandtrap"
)

// Targets is one run's targets side by side: each facet's values as rows,
// with one column of failures per target.
type Targets struct {
	Names       []string          // the targets, by name
	Counts      []sandtrap.Counts // each target's results, in Names order
	ByLayer     []Row
	ByPrimitive []Row
	ByDomain    []Row
	Modes       []Row // keyed by failure mode id
}

// Row is one value of a facet across the targets.
type Row struct {
	Key      string
	Failures []int // per target, in Names order
	// Agree is set when the targets fail there alike: none of them does,
	// or all do at failure rates within a factor of two of each other.
	Agree bool
}

// Only returns the index of the one target with failures in the row, or
// -1 when several or none have them.
func (r Row) Only() int {
	only := -1
	for i, n := range r.Failures {
		if n == 0 {
			continue
		}
		if only >= 0 {
			return -1
		}
		only = i
	}
	return only
}

// CompareTargets lays a run's breakdown out target by target.
func CompareTargets(cells []sandtrap.Cell) Targets {
	byTarget := sandtrap.Tally(cells, func(c sandtrap.Cell) string { return c.Target })
	var t Targets
	for name := range byTarget {
		t.Names = append(t.Names, name)
	}
	slices.Sort(t.Names)
	column := make(map[string]int, len(t.Names))
	for i, name := range t.Names {
		column[name] = i
		t.Counts = append(t.Counts, byTarget[name])
	}
	rows := func(key func(sandtrap.Cell) string) []Row {
		by := map[string][]int{}
		for _, c := range cells {
			if !sandtrap.IsFailure(c.Status) {
				continue
			}
			k := key(c)
			if by[k] == nil {
				by[k] = make([]int, len(t.Names))
			}
			by[k][column[c.Target]] += c.N
		}
		out := make([]Row, 0, len(by))
		for k, failures := range by {
			out = append(out, Row{Key: k, Failures: failures, Agree: agree(failures, t.Counts)})
		}
		slices.SortFunc(out, func(a, b Row) int {
			return cmp.Or(cmp.Compare(sum(b.Failures), sum(a.Failures)), strings.Compare(a.Key, b.Key))
		})
		return out
	}
	t.ByLayer = rows(func(c sandtrap.Cell) string { return c.Layer })
	t.ByPrimitive = rows(func(c sandtrap.Cell) string { return c.Primitive })
	t.ByDomain = rows(func(c sandtrap.Cell) string { return c.Domain })
	t.Modes = rows(func(c sandtrap.Cell) string { return c.Mode })
	return t
}

// agree reports whether targets fail alike: by rate rather than by count,
// since one target may run three times as many tests as another.
func agree(failures []int, totals []sandtrap.Counts) bool {
	lo, hi := -1.0, 0.0
	zero := 0
	for i, n := range failures {
		ran := totals[i].Total - totals[i].Skipped
		if n == 0 || ran <= 0 {
			zero++
			continue
		}
		rate := float64(n) / float64(ran)
		if lo < 0 || rate < lo {
			lo = rate
		}
		hi = max(hi, rate)
	}
	switch zero {
	case len(failures):
		return true
	case 0:
		return hi <= 2*lo
	}
	return false
}

func sum(ns []int) int {
	total := 0
	for _, n := range ns {
		total += n
	}
	return total
}
