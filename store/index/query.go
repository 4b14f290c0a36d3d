package index

import (
	"context"
	"sort"
	"strings"
	"unicode/utf8"

	"sandtrap"
)

// ListRuns returns every run of every served file, oldest first, with its
// counts.
func (ix *Index) ListRuns(ctx context.Context) ([]sandtrap.Run, error) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	out := make([]sandtrap.Run, 0, len(ix.order))
	for _, id := range ix.order {
		out = append(out, ix.runOf(id, ix.runs[id]))
	}
	return out, nil
}

// FindRun returns one run by its public id.
func (ix *Index) FindRun(ctx context.Context, id string) (sandtrap.Run, error) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	ri, ok := ix.runs[id]
	if !ok {
		return sandtrap.Run{}, sandtrap.Errorf(sandtrap.ENOTFOUND, "run %q not found", id)
	}
	return ix.runOf(id, ri), nil
}

// FindRuns returns the runs that f selects, newest first, with their
// counts, paged by f.Limit and f.Offset, and how many it selects in all. It
// reads the runs in memory, never a file, and counts only the page's runs.
func (ix *Index) FindRuns(ctx context.Context, f sandtrap.RunFilter) (sandtrap.RunPage, error) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	var page sandtrap.RunPage
	f.Offset = max(0, f.Offset)
	if selectsEvery(f) {
		// The page is a slice of the order, counted by its length.
		page.Total = len(ix.order)
		end := len(ix.order) - f.Offset
		start := 0
		if f.Limit > 0 {
			start = max(0, end-f.Limit)
		}
		for i := end - 1; i >= start; i-- {
			page.Runs = append(page.Runs, ix.runOf(ix.order[i], ix.runs[ix.order[i]]))
		}
		return page, nil
	}
	for i := len(ix.order) - 1; i >= 0; i-- {
		id := ix.order[i]
		ri := ix.runs[id]
		r := ix.runHead(id, ri)
		if !f.Match(r) {
			continue
		}
		if page.Total >= f.Offset && (f.Limit == 0 || len(page.Runs) < f.Limit) {
			r.Counts = ri.counts(ix.names)
			page.Runs = append(page.Runs, r)
		}
		page.Total++
	}
	return page, nil
}

// selectsEvery reports whether f has no condition besides its paging.
func selectsEvery(f sandtrap.RunFilter) bool {
	f.Limit, f.Offset = 0, 0
	return f == sandtrap.RunFilter{}
}

// RunTrails returns, for each of ids, up to n runs ending with it in start
// order, oldest first: the history a row of the runs list draws its trends
// from. Ids that are not served are left out.
func (ix *Index) RunTrails(ctx context.Context, ids []string, n int) (map[string][]sandtrap.Run, error) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	n = max(0, n)
	want := make(map[string]bool, len(ids))
	for _, id := range ids {
		want[id] = true
	}
	built := map[int]sandtrap.Run{}
	out := make(map[string][]sandtrap.Run, len(ids))
	for i, id := range ix.order {
		if !want[id] {
			continue
		}
		trail := make([]sandtrap.Run, 0, n)
		for j := max(0, i-n+1); j <= i; j++ {
			r, ok := built[j]
			if !ok {
				r = ix.runOf(ix.order[j], ix.runs[ix.order[j]])
				built[j] = r
			}
			trail = append(trail, r)
		}
		out[id] = trail
	}
	return out, nil
}

// RunModeCounts returns how many failure modes each of ids has, merges
// applied. Ids that are not served are left out.
func (ix *Index) RunModeCounts(ctx context.Context, ids []string) (map[string]int, error) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	out := make(map[string]int, len(ids))
	for _, id := range ids {
		if _, done := out[id]; done {
			continue
		}
		if ri, ok := ix.runs[id]; ok {
			out[id] = len(ix.modesIn(ri))
		}
	}
	return out, nil
}

// runOf builds the domain run. Callers hold mu.
func (ix *Index) runOf(id string, ri *run) sandtrap.Run {
	r := ix.runHead(id, ri)
	r.Counts = ri.counts(ix.names)
	return r
}

// runHead is the domain run without its counts, which take a walk over
// its breakdown. Callers hold mu.
func (ix *Index) runHead(id string, ri *run) sandtrap.Run {
	m, known := ri.src.meta[ri.rawID]
	r := sandtrap.Run{ID: id, RawID: ri.rawID, Source: ri.src.label, Name: m.Name}
	if !known || r.Name == "" {
		r.Name = ri.rawID
	}
	r.StartedAt = m.Started
	if m.Finished {
		r.FinishedAt = m.FinishedAt
	}
	r.Planned = int(m.Planned)
	r.Notes = m.Notes
	return r
}

// Breakdown returns a run's results counted by target, domain, status and
// failure mode, with each mode's layer and primitive.
func (ix *Index) Breakdown(ctx context.Context, runID string) ([]sandtrap.Cell, error) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	ri, ok := ix.runs[runID]
	if !ok {
		return nil, sandtrap.Errorf(sandtrap.ENOTFOUND, "run %q not found", runID)
	}
	out := make([]sandtrap.Cell, 0, len(ri.cube))
	for k, n := range ri.cube {
		c := sandtrap.Cell{
			Target: ix.names.value(kindTarget, k.target),
			Domain: ix.names.value(kindDomain, k.domain),
			Status: ix.names.value(kindStatus, k.status),
			N:      n,
		}
		if k.mode >= 0 {
			e := &ix.eff[k.mode]
			c.Layer, c.Primitive, c.Mode = e.Layer, e.Primitive, e.ID
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return cellLess(out[i], out[j]) })
	return out, nil
}

func cellLess(a, b sandtrap.Cell) bool {
	if a.Target != b.Target {
		return a.Target < b.Target
	}
	if a.Domain != b.Domain {
		return a.Domain < b.Domain
	}
	if a.Status != b.Status {
		return a.Status < b.Status
	}
	return a.Mode < b.Mode
}

// isOtherStatus reports whether status counts as "other", as Counts.Add
// counts it.
func isOtherStatus(status string) bool {
	switch status {
	case sandtrap.StatusPassed, sandtrap.StatusFailed, sandtrap.StatusError, sandtrap.StatusSkipped:
		return false
	}
	return true
}

// ResultsPage returns a page of a run's results that match f, newest
// first, as the index knows them: the campaign file of src, which it
// returns, has the rest. A failure carries its test and error as the index
// keeps them.
func (ix *Index) ResultsPage(ctx context.Context, runID string, f sandtrap.ResultFilter) (sandtrap.ResultPage, *Source, error) {
	if f.Limit <= 0 {
		f.Limit = 50
	}
	if f.Offset < 0 {
		f.Offset = 0
	}
	var (
		page sandtrap.ResultPage
		src  *Source
	)
	err := ix.withRun(ctx, runID, func(ri *run, d *runData) error {
		page = ix.pageOf(d, f)
		src = ri.src
		return nil
	})
	if err != nil {
		return sandtrap.ResultPage{}, nil, err
	}
	return page, src, nil
}

// filter walks every row of a run once, newest first, counting the facets
// and calling visit for each row that matches f. A run may have a million
// rows, so the loop deals only in codes and indexes: facets by their
// position in sandtrap.Facets, values by their codes, modes by their index. Callers
// hold mu.
func (ix *Index) filter(d *runData, f sandtrap.ResultFilter, visit func(r *row, fl *failure)) map[string][]sandtrap.FacetValue {
	const (
		byStatus = iota
		byTarget
		byDomain
		byLayer
		byPrimitive
		byMode
	)
	codeKinds := [3]string{kindStatus, kindTarget, kindDomain}
	// check is one filter in force: the code it wants, or for the facets
	// that follow from the mode, which modes it accepts.
	type check struct {
		facet int
		code  int64  // -1 when no row can have the value
		codes []bool // by code, when the filter accepts several
		modes []bool
	}
	var checks []check
	for i, name := range sandtrap.Facets {
		val := f.Value(name)
		if val == "" || (name == sandtrap.FacetStatus && val == sandtrap.StatusAll) {
			continue
		}
		c := check{facet: i, code: -1}
		if name == sandtrap.FacetStatus && val == sandtrap.StatusOther {
			statuses := ix.names.values[kindStatus]
			c.codes = make([]bool, len(statuses)+1)
			for code := range c.codes {
				c.codes[code] = isOtherStatus(ix.names.value(kindStatus, uint16(code)))
			}
		} else if i <= byDomain {
			if code, ok := ix.names.lookup(codeKinds[i], val); ok {
				c.code = int64(code)
			}
		} else {
			c.modes = make([]bool, len(ix.modes))
			for m := range c.modes {
				e := &ix.eff[m]
				c.modes[m] = [3]string{e.Layer, e.Primitive, e.ID}[i-byLayer] == val
			}
		}
		checks = append(checks, c)
	}
	var codeCounts [3][]int
	for i, kind := range codeKinds {
		codeCounts[i] = make([]int, len(ix.names.values[kind])+1)
	}
	var modeCounts [3][]int
	for i := range modeCounts {
		modeCounts[i] = make([]int, len(ix.modes))
	}
	count := func(facet int, r *row, fl *failure) {
		switch facet {
		case byStatus:
			codeCounts[0][r.status]++
		case byTarget:
			codeCounts[1][r.target]++
		case byDomain:
			codeCounts[2][r.domain]++
		default:
			if fl != nil {
				modeCounts[facet-byLayer][fl.mode]++
			}
		}
	}
	q := strings.TrimSpace(f.Q)
	failuresOnly := f.Status == ""
	from, to := uint32(0), uint32(1<<32-1)
	if !f.From.IsZero() {
		from = uint32(max(f.From.Unix(), 0))
	}
	if !f.To.IsZero() {
		to = uint32(max(f.To.Unix(), 0))
	}
	timed := !f.From.IsZero() || !f.To.IsZero()
	for i := len(d.rows) - 1; i >= 0; i-- {
		r := &d.rows[i]
		var fl *failure
		if r.fail >= 0 {
			fl = &d.fails[r.fail]
		}
		if q != "" && (fl == nil || !(containsFold(fl.err, q) || containsFold(fl.test, q))) {
			continue
		}
		if timed && (r.at < from || r.at >= to) {
			continue
		}
		// missed counts the filters this row fails; a row that fails only
		// one still counts in that filter's facet.
		missed, missedFacet := 0, 0
		if failuresOnly && fl == nil {
			missed, missedFacet = 1, byStatus
		}
		for _, c := range checks {
			var ok bool
			switch c.facet {
			case byStatus:
				if c.codes != nil {
					ok = c.codes[r.status]
				} else {
					ok = int64(r.status) == c.code
				}
			case byTarget:
				ok = int64(r.target) == c.code
			case byDomain:
				ok = int64(r.domain) == c.code
			default:
				ok = fl != nil && c.modes[fl.mode]
			}
			if !ok {
				missed++
				missedFacet = c.facet
			}
		}
		switch missed {
		case 0:
			for facet := byStatus; facet <= byMode; facet++ {
				count(facet, r, fl)
			}
			visit(r, fl)
		case 1:
			count(missedFacet, r, fl)
		}
	}
	counts := map[string]map[string]int{}
	for i, kind := range codeKinds {
		m := map[string]int{}
		for code, n := range codeCounts[i] {
			if n > 0 {
				m[ix.names.value(kind, uint16(code))] += n
			}
		}
		counts[sandtrap.Facets[i]] = m
	}
	for i, list := range modeCounts {
		m := map[string]int{}
		for mode, n := range list {
			if n == 0 {
				continue
			}
			e := &ix.eff[mode]
			if v := [3]string{e.Layer, e.Primitive, e.ID}[i]; v != "" {
				m[v] += n
			}
		}
		counts[sandtrap.Facets[byLayer+i]] = m
	}
	return toFacets(counts)
}

// pageOf collects one page of the rows filter visits. Callers hold mu.
func (ix *Index) pageOf(d *runData, f sandtrap.ResultFilter) sandtrap.ResultPage {
	var (
		page sandtrap.ResultPage
		skip = f.Offset
	)
	page.Facets = ix.filter(d, f, func(r *row, fl *failure) {
		page.Total++
		if skip > 0 {
			skip--
			return
		}
		if len(page.Results) >= f.Limit {
			return
		}
		res := sandtrap.ResultRow{Result: sandtrap.Result{ID: r.id, Status: ix.names.value(kindStatus, r.status),
			Target: ix.names.value(kindTarget, r.target), Domain: ix.names.value(kindDomain, r.domain)}}
		if fl != nil {
			e := &ix.eff[fl.mode]
			res.Test, res.Error, res.HasError, res.Attempt = fl.test, fl.err, true, int(fl.attempt)
			res.Layer, res.Primitive, res.Mode, res.ClassifiedBy = e.Layer, e.Primitive, e.ID, ix.byOf(fl)
			res.Severity = e.Severity
		}
		page.Results = append(page.Results, res)
	})
	return page
}

// byOf says who classified a failure: a person when one reclassified its
// mode, else the harness or the rule that did. Callers hold mu.
func (ix *Index) byOf(fl *failure) string {
	if fl == nil {
		return ""
	}
	if by := ix.eff[fl.mode].ClassifiedBy; by != "" {
		return by
	}
	return ix.names.value(kindBy, fl.by)
}

// toFacets orders each facet's values by count, most first, then by value.
func toFacets(counts map[string]map[string]int) map[string][]sandtrap.FacetValue {
	out := make(map[string][]sandtrap.FacetValue, len(counts))
	for name, vals := range counts {
		list := make([]sandtrap.FacetValue, 0, len(vals))
		for v, n := range vals {
			list = append(list, sandtrap.FacetValue{Value: v, Count: n})
		}
		sort.Slice(list, func(i, j int) bool {
			if list[i].Count != list[j].Count {
				return list[i].Count > list[j].Count
			}
			return list[i].Value < list[j].Value
		})
		out[name] = list
	}
	return out
}

// containsFold reports whether sub is in s, ignoring case, without
// allocating: lists search thousands of errors per request.
func containsFold(s, sub string) bool {
	if sub == "" {
		return true
	}
	if len(sub) > len(s) {
		return false
	}
	if c := sub[0]; c < utf8.RuneSelf && foldsWithinASCII(c) {
		// Jump between the places where the first byte, in either case,
		// occurs: IndexByte scans far faster than decoding every rune.
		lo, up := lowerASCII(c), upperASCII(c)
		for i := 0; i+len(sub) <= len(s); i++ {
			j := strings.IndexByte(s[i:], lo)
			if up != lo {
				if k := strings.IndexByte(s[i:], up); k >= 0 && (j < 0 || k < j) {
					j = k
				}
			}
			if j < 0 {
				return false
			}
			i += j
			if hasPrefixFold(s[i:], sub) {
				return true
			}
		}
		return false
	}
	for i := 0; i+len(sub) <= len(s); i++ {
		if hasPrefixFold(s[i:], sub) {
			return true
		}
	}
	return false
}

// foldsWithinASCII reports whether an ASCII byte matches, ignoring case,
// only itself and its other ASCII case. K and S do not: Unicode folds them
// with the Kelvin sign and the long s too.
func foldsWithinASCII(c byte) bool { return c != 'k' && c != 'K' && c != 's' && c != 'S' }

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func upperASCII(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

func hasPrefixFold(s, prefix string) bool {
	for len(prefix) > 0 {
		if len(s) == 0 {
			return false
		}
		a, na := utf8.DecodeRuneInString(s)
		b, nb := utf8.DecodeRuneInString(prefix)
		if a != b && !strings.EqualFold(s[:na], prefix[:nb]) {
			return false
		}
		s, prefix = s[na:], prefix[nb:]
	}
	return true
}

// Classification returns how the index classified result id of a run (the
// zero classification when it did not fail or the run has no such row),
// with the run's source and its id there.
func (ix *Index) Classification(ctx context.Context, runID string, id int64) (sandtrap.Classification, *Source, string, error) {
	var (
		cl    sandtrap.Classification
		src   *Source
		rawID string
	)
	err := ix.withRun(ctx, runID, func(ri *run, d *runData) error {
		src, rawID = ri.src, ri.rawID
		i := sort.Search(len(d.rows), func(i int) bool { return d.rows[i].id >= id })
		if i < len(d.rows) && d.rows[i].id == id && d.rows[i].fail >= 0 {
			fl := d.fails[d.rows[i].fail]
			e := &ix.eff[fl.mode]
			cl = sandtrap.Classification{Layer: e.Layer, Primitive: e.Primitive, ClassifiedBy: ix.byOf(&fl), Mode: e.ID, Signature: ix.modes[fl.mode].Signature}
		}
		return nil
	})
	return cl, src, rawID, err
}

// FindModes returns the listed failure modes, keyed by id; unknown ids are
// left out.
func (ix *Index) FindModes(ctx context.Context, ids []string) (map[string]sandtrap.Mode, error) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	out := make(map[string]sandtrap.Mode, len(ids))
	for _, id := range ids {
		if m, ok := ix.modeOf(id, false); ok {
			out[id] = m
		}
	}
	return out, nil
}
