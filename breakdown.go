package sandtrap

import "sort"

// Cell is one coordinate of a run's breakdown and how many results sit there.
// Layer, Primitive and Mode are empty for results that did not fail.
type Cell struct {
	Target    string
	Domain    string
	Status    string
	Layer     string
	Primitive string
	Mode      string
	N         int
}

// Tally sums cells into counts per key; cells for which key returns "" are
// left out.
func Tally(cells []Cell, key func(Cell) string) map[string]Counts {
	out := map[string]Counts{}
	for _, c := range cells {
		k := key(c)
		if k == "" {
			continue
		}
		cnt := out[k]
		cnt.Add(c.Status, c.N)
		out[k] = cnt
	}
	return out
}

// TallyFailures sums the failures among cells per pair of keys, as a
// heatmap needs: rows[rowKey][colKey].
func TallyFailures(cells []Cell, rowKey, colKey func(Cell) string) map[string]map[string]int {
	out := map[string]map[string]int{}
	for _, c := range cells {
		if !IsFailure(c.Status) {
			continue
		}
		r, k := rowKey(c), colKey(c)
		if out[r] == nil {
			out[r] = map[string]int{}
		}
		out[r][k] += c.N
	}
	return out
}

// Total sums the counts of every cell.
func Total(cells []Cell) Counts {
	var c Counts
	for _, cell := range cells {
		c.Add(cell.Status, cell.N)
	}
	return c
}

// SortedKeys returns the keys of m ordered by failures, most first, then by
// name, so charts put the worst on top.
func SortedKeys(m map[string]Counts) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		fi, fj := m[keys[i]].Failures(), m[keys[j]].Failures()
		if fi != fj {
			return fi > fj
		}
		return keys[i] < keys[j]
	})
	return keys
}
