package store

import (
	"context"
	"sort"
	"strings"
	"unicode/utf8"

	"sandtrap"
	"sandtrap/store/campaign"
	"sandtrap/store/internal/sqlitex"
)

// ListRuns returns every run of every served file, oldest first, with its
// counts.
func (s *Store) ListRuns(ctx context.Context) ([]sandtrap.Run, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]sandtrap.Run, 0, len(s.order))
	for _, id := range s.order {
		out = append(out, s.runOf(id, s.runs[id]))
	}
	return out, nil
}

// FindRun returns one run by its public id.
func (s *Store) FindRun(ctx context.Context, id string) (sandtrap.Run, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	ri, ok := s.runs[id]
	if !ok {
		return sandtrap.Run{}, sandtrap.Errorf(sandtrap.ENOTFOUND, "run %q not found", id)
	}
	return s.runOf(id, ri), nil
}

// FindRuns returns the runs that f selects, newest first, with their
// counts, paged by f.Limit and f.Offset, and how many it selects in all. It
// reads the runs in memory, never a file, and counts only the page's runs.
func (s *Store) FindRuns(ctx context.Context, f sandtrap.RunFilter) (sandtrap.RunPage, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var page sandtrap.RunPage
	f.Offset = max(0, f.Offset)
	if selectsEvery(f) {
		// The page is a slice of the order, counted by its length.
		page.Total = len(s.order)
		end := len(s.order) - f.Offset
		start := 0
		if f.Limit > 0 {
			start = max(0, end-f.Limit)
		}
		for i := end - 1; i >= start; i-- {
			page.Runs = append(page.Runs, s.runOf(s.order[i], s.runs[s.order[i]]))
		}
		return page, nil
	}
	for i := len(s.order) - 1; i >= 0; i-- {
		id := s.order[i]
		ri := s.runs[id]
		r := s.runHead(id, ri)
		if !f.Match(r) {
			continue
		}
		if page.Total >= f.Offset && (f.Limit == 0 || len(page.Runs) < f.Limit) {
			r.Counts = ri.counts(s.names)
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
func (s *Store) RunTrails(ctx context.Context, ids []string, n int) (map[string][]sandtrap.Run, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	n = max(0, n)
	want := make(map[string]bool, len(ids))
	for _, id := range ids {
		want[id] = true
	}
	built := map[int]sandtrap.Run{}
	out := make(map[string][]sandtrap.Run, len(ids))
	for i, id := range s.order {
		if !want[id] {
			continue
		}
		trail := make([]sandtrap.Run, 0, n)
		for j := max(0, i-n+1); j <= i; j++ {
			r, ok := built[j]
			if !ok {
				r = s.runOf(s.order[j], s.runs[s.order[j]])
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
func (s *Store) RunModeCounts(ctx context.Context, ids []string) (map[string]int, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make(map[string]int, len(ids))
	for _, id := range ids {
		if _, done := out[id]; done {
			continue
		}
		if ri, ok := s.runs[id]; ok {
			out[id] = len(s.modesIn(ri))
		}
	}
	return out, nil
}

// runOf builds the domain run. Callers hold mu.
func (s *Store) runOf(id string, ri *runIndex) sandtrap.Run {
	r := s.runHead(id, ri)
	r.Counts = ri.counts(s.names)
	return r
}

// runHead is the domain run without its counts, which take a walk over
// its breakdown. Callers hold mu.
func (s *Store) runHead(id string, ri *runIndex) sandtrap.Run {
	m, known := ri.src.meta[ri.rawID]
	r := sandtrap.Run{ID: id, RawID: ri.rawID, Source: ri.src.label, Name: m.Name}
	if !known || r.Name == "" {
		r.Name = ri.rawID
	}
	r.StartedAt = sqlitex.ParseTime(m.StartedAt)
	if m.FinishedAt.Valid {
		r.FinishedAt = sqlitex.ParseTime(m.FinishedAt.String)
		if r.FinishedAt.IsZero() {
			// A finished_at that does not parse still means the run ended.
			r.FinishedAt = r.StartedAt
		}
	}
	r.Planned = int(m.Planned.Int64)
	r.Notes = m.Notes.String
	return r
}

// RunSource reports the state of the file a run comes from.
func (s *Store) RunSource(ctx context.Context, runID string) (sandtrap.SourceStatus, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	ri, ok := s.runs[runID]
	if !ok {
		return sandtrap.SourceStatus{}, sandtrap.Errorf(sandtrap.ENOTFOUND, "run %q not found", runID)
	}
	return sandtrap.SourceStatus{Label: ri.src.label, Path: ri.src.path, Fault: ri.src.fault, Progress: ri.src.progress}, nil
}

// Sources reports the state of every served file.
func (s *Store) Sources(ctx context.Context) []sandtrap.SourceStatus {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]sandtrap.SourceStatus, 0, len(s.sources))
	for _, src := range s.sources {
		out = append(out, sandtrap.SourceStatus{Label: src.label, Path: src.path, Fault: src.fault, Progress: src.progress})
	}
	return out
}

// Breakdown returns a run's results counted by target, domain, status and
// failure mode, with each mode's layer and primitive.
func (s *Store) Breakdown(ctx context.Context, runID string) ([]sandtrap.Cell, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	ri, ok := s.runs[runID]
	if !ok {
		return nil, sandtrap.Errorf(sandtrap.ENOTFOUND, "run %q not found", runID)
	}
	out := make([]sandtrap.Cell, 0, len(ri.cube))
	for k, n := range ri.cube {
		c := sandtrap.Cell{
			Target: s.names.value(kindTarget, k.target),
			Domain: s.names.value(kindDomain, k.domain),
			Status: s.names.value(kindStatus, k.status),
			N:      n,
		}
		if k.mode >= 0 {
			e := &s.eff[k.mode]
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

// FindResults returns a page of a run's results that match f, newest first.
func (s *Store) FindResults(ctx context.Context, runID string, f sandtrap.ResultFilter) (sandtrap.ResultPage, error) {
	if f.Limit <= 0 {
		f.Limit = 50
	}
	if f.Offset < 0 {
		f.Offset = 0
	}
	var (
		page  sandtrap.ResultPage
		ids   []int64
		fails map[int64]failure
		file  *campaign.File
	)
	err := s.withRun(ctx, runID, func(ri *runIndex, d *runData) error {
		page, ids, fails = s.pageOf(d, f)
		file = ri.src.file
		return nil
	})
	if err != nil {
		return sandtrap.ResultPage{}, err
	}

	details, err := file.ResultsByID(ctx, ids)
	if err != nil {
		// The campaign file may be busy, gone or replaced: the index still
		// knows enough to list the failures.
		details = map[int64]sandtrap.Result{}
	}
	for i := range page.Results {
		r := &page.Results[i]
		if d, ok := details[r.ID]; ok {
			d.RunID = runID
			r.Result = d
		} else if fl, ok := fails[r.ID]; ok {
			r.Test, r.Error, r.HasError = fl.test, fl.err, true
		}
	}
	return page, nil
}

// filter walks every row of a run once, newest first, counting the facets
// and calling visit for each row that matches f. A run may have a million
// rows, so the loop deals only in codes and indexes: facets by their
// position in sandtrap.Facets, values by their codes, modes by their index. Callers
// hold mu.
func (s *Store) filter(d *runData, f sandtrap.ResultFilter, visit func(r *row, fl *failure)) map[string][]sandtrap.FacetValue {
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
			statuses := s.names.values[kindStatus]
			c.codes = make([]bool, len(statuses)+1)
			for code := range c.codes {
				c.codes[code] = isOtherStatus(s.names.value(kindStatus, uint16(code)))
			}
		} else if i <= byDomain {
			if code, ok := s.names.lookup(codeKinds[i], val); ok {
				c.code = int64(code)
			}
		} else {
			c.modes = make([]bool, len(s.modes))
			for m := range c.modes {
				e := &s.eff[m]
				c.modes[m] = [3]string{e.Layer, e.Primitive, e.ID}[i-byLayer] == val
			}
		}
		checks = append(checks, c)
	}
	var codeCounts [3][]int
	for i, kind := range codeKinds {
		codeCounts[i] = make([]int, len(s.names.values[kind])+1)
	}
	var modeCounts [3][]int
	for i := range modeCounts {
		modeCounts[i] = make([]int, len(s.modes))
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
				m[s.names.value(kind, uint16(code))] += n
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
			e := &s.eff[mode]
			if v := [3]string{e.Layer, e.Primitive, e.ID}[i]; v != "" {
				m[v] += n
			}
		}
		counts[sandtrap.Facets[byLayer+i]] = m
	}
	return toFacets(counts)
}

// pageOf collects one page of the rows filter visits. Callers hold mu.
func (s *Store) pageOf(d *runData, f sandtrap.ResultFilter) (sandtrap.ResultPage, []int64, map[int64]failure) {
	var (
		page  sandtrap.ResultPage
		ids   []int64
		fails = map[int64]failure{}
		skip  = f.Offset
	)
	page.Facets = s.filter(d, f, func(r *row, fl *failure) {
		page.Total++
		if skip > 0 {
			skip--
			return
		}
		if len(page.Results) >= f.Limit {
			return
		}
		res := sandtrap.ResultRow{Result: sandtrap.Result{ID: r.id, Status: s.names.value(kindStatus, r.status),
			Target: s.names.value(kindTarget, r.target), Domain: s.names.value(kindDomain, r.domain)}}
		if fl != nil {
			e := &s.eff[fl.mode]
			res.Layer, res.Primitive, res.Mode, res.ClassifiedBy = e.Layer, e.Primitive, e.ID, s.byOf(fl)
			res.Severity = e.Severity
			fails[r.id] = *fl
		}
		page.Results = append(page.Results, res)
		ids = append(ids, r.id)
	})
	return page, ids, fails
}

// byOf says who classified a failure: a person when one reclassified its
// mode, else the harness or the rule that did. Callers hold mu.
func (s *Store) byOf(fl *failure) string {
	if fl == nil {
		return ""
	}
	if by := s.eff[fl.mode].ClassifiedBy; by != "" {
		return by
	}
	return s.names.value(kindBy, fl.by)
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

// FindResult returns one result of a run with its classification.
func (s *Store) FindResult(ctx context.Context, runID string, id int64) (sandtrap.Result, sandtrap.Classification, error) {
	var (
		cl    sandtrap.Classification
		file  *campaign.File
		rawID string
	)
	err := s.withRun(ctx, runID, func(ri *runIndex, d *runData) error {
		file, rawID = ri.src.file, ri.rawID
		i := sort.Search(len(d.rows), func(i int) bool { return d.rows[i].id >= id })
		if i < len(d.rows) && d.rows[i].id == id && d.rows[i].fail >= 0 {
			fl := d.fails[d.rows[i].fail]
			e := &s.eff[fl.mode]
			cl = sandtrap.Classification{Layer: e.Layer, Primitive: e.Primitive, ClassifiedBy: s.byOf(&fl), Mode: e.ID, Signature: s.modes[fl.mode].Signature}
		}
		return nil
	})
	if err != nil {
		return sandtrap.Result{}, sandtrap.Classification{}, err
	}

	r, resRun, err := file.Result(ctx, id)
	if err != nil {
		return r, cl, err
	}
	if resRun != rawID {
		return r, cl, sandtrap.Errorf(sandtrap.ENOTFOUND, "result %d is not in run %q", id, runID)
	}
	r.RunID = runID
	return r, cl, nil
}

// resultFile returns the campaign file that holds result id of the run, or
// not found when the result is not the run's. It asks the file, not the
// index: a file replaced at its path is open before its index is reset, and
// the same id there may be another run's.
func (s *Store) resultFile(ctx context.Context, runID string, id int64) (*campaign.File, error) {
	s.mu.RLock()
	ri, ok := s.runs[runID]
	if !ok {
		s.mu.RUnlock()
		return nil, sandtrap.Errorf(sandtrap.ENOTFOUND, "run %q not found", runID)
	}
	file, rawID := ri.src.file, ri.rawID
	s.mu.RUnlock()
	resRun, err := file.RunOf(ctx, id)
	if err != nil {
		return nil, err
	}
	if resRun != rawID {
		return nil, sandtrap.Errorf(sandtrap.ENOTFOUND, "result %d is not in run %q", id, runID)
	}
	return file, nil
}

// fileOf returns the campaign file of a run.
func (s *Store) fileOf(runID string) (*campaign.File, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	ri, ok := s.runs[runID]
	if !ok {
		return nil, sandtrap.Errorf(sandtrap.ENOTFOUND, "run %q not found", runID)
	}
	return ri.src.file, nil
}

// ResultLog returns up to limit bytes of a result's log and the log's size.
func (s *Store) ResultLog(ctx context.Context, runID string, id int64, limit int64) ([]byte, int64, error) {
	f, err := s.resultFile(ctx, runID, id)
	if err != nil {
		return nil, 0, err
	}
	return f.ResultLog(ctx, id, limit)
}

// ResultLogTail returns the last n bytes of a result's log: where a long
// log that the page cuts says why it failed.
func (s *Store) ResultLogTail(ctx context.Context, runID string, id int64, n int64) ([]byte, error) {
	f, err := s.resultFile(ctx, runID, id)
	if err != nil {
		return nil, err
	}
	return f.ResultLogTail(ctx, id, n)
}

// Artifacts lists the artifacts of a result of the run, with their
// digests checked.
func (s *Store) Artifacts(ctx context.Context, runID string, resultID int64) ([]sandtrap.Artifact, error) {
	f, err := s.resultFile(ctx, runID, resultID)
	if err != nil {
		return nil, err
	}
	return f.Artifacts(ctx, resultID)
}

// ArtifactData returns one artifact of a result with its bytes.
func (s *Store) ArtifactData(ctx context.Context, runID string, resultID, artifactID int64) (sandtrap.Artifact, []byte, error) {
	f, err := s.resultFile(ctx, runID, resultID)
	if err != nil {
		return sandtrap.Artifact{}, nil, err
	}
	return f.ArtifactData(ctx, resultID, artifactID)
}

// Steps lists the MCP tool calls of a result of the run, in order.
func (s *Store) Steps(ctx context.Context, runID string, resultID int64) ([]sandtrap.Step, error) {
	f, err := s.resultFile(ctx, runID, resultID)
	if err != nil {
		return nil, err
	}
	return f.Steps(ctx, resultID)
}

// FindModes returns the listed failure modes, keyed by id; unknown ids are
// left out.
func (s *Store) FindModes(ctx context.Context, ids []string) (map[string]sandtrap.Mode, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make(map[string]sandtrap.Mode, len(ids))
	for _, id := range ids {
		if m, ok := s.modeOf(id, false); ok {
			out[id] = m
		}
	}
	return out, nil
}
