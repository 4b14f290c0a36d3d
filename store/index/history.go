package index

import (
	"cmp"
	"context"
	"slices"
	"time"

	"sandtrap"
)

// modeTally counts a run's results, and its failures per failure mode as
// the classifier made it, with the domains and targets they failed in. It
// grows with the run's breakdown, as rows are indexed or their counts
// loaded, so that a mode's history over thousands of runs reads these small
// tallies and never the rows or failures of the runs it does not show.
type modeTally struct {
	results int
	modes   map[int32]*modeCount
}

// modeCount is one mode's failures in one run.
type modeCount struct {
	n                int
	domains, targets []uint16 // codes it failed in, each once
}

// add counts n results of breakdown cell k.
func (t *modeTally) add(k cell, n int) {
	t.results += n
	if k.mode < 0 {
		return
	}
	if t.modes == nil {
		t.modes = map[int32]*modeCount{}
	}
	c := t.modes[k.mode]
	if c == nil {
		c = &modeCount{}
		t.modes[k.mode] = c
	}
	c.n += n
	if !slices.Contains(c.domains, k.domain) {
		c.domains = append(c.domains, k.domain)
	}
	if !slices.Contains(c.targets, k.target) {
		c.targets = append(c.targets, k.target)
	}
}

// count is how many failures the modes of members have in the run.
func (t *modeTally) count(members []int32) int {
	n := 0
	for _, m := range members {
		if c := t.modes[m]; c != nil {
			n += c.n
		}
	}
	return n
}

// History summarises every failure mode the served runs have, after
// merges, with its failures in each of the last recent runs.
func (ix *Index) History(ctx context.Context, recent int) (sandtrap.History, error) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.foldHistory("", recent), nil
}

// ModeHistory summarises one failure mode (after merges) across the runs
// served, as sandtrap.History does; a mode that no served run has comes back with
// no failures.
func (ix *Index) ModeHistory(ctx context.Context, id string, recent int) (sandtrap.History, error) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	i, ok := ix.modeIndex(id)
	if !ok {
		return sandtrap.History{}, sandtrap.Errorf(sandtrap.ENOTFOUND, "failure mode %q not found", id)
	}
	h := ix.foldHistory(ix.eff[i].ID, recent)
	if len(h.Modes) == 0 {
		h.Modes = []sandtrap.ModeSummary{{Mode: ix.effectiveMode(i), Recent: make([]int, len(h.Recent))}}
	}
	return h, nil
}

// foldHistory folds the tallies of every run, oldest first, into one summary
// per mode root, or only root's when it is set. Callers hold mu.
func (ix *Index) foldHistory(root string, recent int) sandtrap.History {
	h := sandtrap.History{Runs: len(ix.order)}
	first := max(0, len(ix.order)-max(recent, 0))
	type acc struct {
		sum               sandtrap.ModeSummary
		firstPos, lastPos int
		domains, targets  map[uint16]bool
	}
	byRoot := map[string]*acc{}
	for pos, id := range ix.order {
		ri := ix.runs[id]
		if pos >= first {
			h.Recent = append(h.Recent, ix.runCount(id, ri, 0))
		}
		for m, c := range ri.tally.modes {
			r := ix.eff[m].ID
			if root != "" && r != root {
				continue
			}
			a := byRoot[r]
			if a == nil {
				a = &acc{firstPos: pos, lastPos: -1, domains: map[uint16]bool{}, targets: map[uint16]bool{}}
				a.sum.Mode = ix.effectiveMode(m)
				a.sum.Recent = make([]int, len(ix.order)-first)
				byRoot[r] = a
			}
			if a.lastPos != pos {
				a.sum.Runs++
				a.lastPos = pos
				a.sum.Last.Count = 0
			}
			a.sum.Failures += c.n
			a.sum.Last.Count += c.n
			if pos == a.firstPos {
				a.sum.First.Count += c.n
			}
			if pos >= first {
				a.sum.Recent[pos-first] += c.n
			}
			for _, d := range c.domains {
				a.domains[d] = true
			}
			for _, t := range c.targets {
				a.targets[t] = true
			}
		}
	}
	accs := make([]*acc, 0, len(byRoot))
	for _, a := range byRoot {
		accs = append(accs, a)
	}
	slices.SortFunc(accs, func(a, b *acc) int {
		if a.lastPos != b.lastPos {
			return b.lastPos - a.lastPos
		}
		return cmp.Compare(a.sum.ID, b.sum.ID)
	})
	for _, a := range accs {
		sum := a.sum
		n := sum.First.Count
		sum.First = ix.runCount(ix.order[a.firstPos], ix.runs[ix.order[a.firstPos]], n)
		n = sum.Last.Count
		sum.Last = ix.runCount(ix.order[a.lastPos], ix.runs[ix.order[a.lastPos]], n)
		sum.Domains = ix.codeValues(kindDomain, a.domains)
		sum.Targets = ix.codeValues(kindTarget, a.targets)
		h.Modes = append(h.Modes, sum)
	}
	return h
}

// effectiveMode is mode m's root as people see it, even when the root is
// a mode no served file has. Callers hold mu.
func (ix *Index) effectiveMode(m int32) sandtrap.Mode {
	e := &ix.eff[m]
	if mode, ok := ix.modeOf(e.ID, false); ok {
		return mode
	}
	return sandtrap.Mode{ID: e.ID, Layer: e.Layer, Primitive: e.Primitive, Signature: e.Signature, ClassifiedBy: e.ClassifiedBy,
		Title: e.Title, Severity: e.Severity, SeverityReason: e.SeverityReason, Status: e.Status, Owner: e.Owner}
}

// codeValues names a set of codes of kind, sorted.
func (ix *Index) codeValues(kind string, codes map[uint16]bool) []string {
	out := make([]string, 0, len(codes))
	for c := range codes {
		out = append(out, ix.names.value(kind, c))
	}
	slices.Sort(out)
	return out
}

// runCount names run id with its start and results, and n as its count,
// without walking its breakdown. Callers hold mu.
func (ix *Index) runCount(id string, ri *run, n int) sandtrap.RunCount {
	m, known := ri.src.meta[ri.rawID]
	rc := sandtrap.RunCount{RunID: id, RunName: m.Name, StartedAt: m.Started, Count: n, Total: ri.tally.results}
	if !known || rc.RunName == "" {
		rc.RunName = ri.rawID
	}
	return rc
}

// members returns the modes, as the classifier made them, that people see
// as mode id after merges. Callers hold mu.
func (ix *Index) members(id string) ([]int32, bool) {
	i, ok := ix.modeIndex(id)
	if !ok {
		return nil, false
	}
	root := ix.eff[i].ID
	var out []int32
	for m := range ix.eff {
		if ix.eff[m].ID == root {
			out = append(out, int32(m))
		}
	}
	return out, true
}

// ModeRuns counts a mode's failures in every run that has one, oldest run
// first.
func (ix *Index) ModeRuns(ctx context.Context, id string) ([]sandtrap.RunCount, error) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	members, ok := ix.members(id)
	if !ok {
		return nil, sandtrap.Errorf(sandtrap.ENOTFOUND, "failure mode %q not found", id)
	}
	var out []sandtrap.RunCount
	for _, runID := range ix.order {
		ri := ix.runs[runID]
		if n := ri.tally.count(members); n > 0 {
			out = append(out, ix.runCount(runID, ri, n))
		}
	}
	return out, nil
}

// ModesBeside returns the other modes, after merges, of the last n runs
// that had mode id: the modes it may be one cause with.
func (ix *Index) ModesBeside(ctx context.Context, id string, n int) ([]sandtrap.Mode, error) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	members, ok := ix.members(id)
	if !ok {
		return nil, sandtrap.Errorf(sandtrap.ENOTFOUND, "failure mode %q not found", id)
	}
	self := ix.eff[members[0]].ID
	seen := map[string]bool{self: true}
	var out []sandtrap.Mode
	for j := len(ix.order) - 1; j >= 0 && n > 0; j-- {
		ri := ix.runs[ix.order[j]]
		if ri.tally.count(members) == 0 {
			continue
		}
		n--
		for m := range ri.tally.modes {
			if root := ix.eff[m].ID; !seen[root] {
				seen[root] = true
				out = append(out, ix.effectiveMode(m))
			}
		}
	}
	slices.SortFunc(out, func(a, b sandtrap.Mode) int { return cmp.Compare(a.ID, b.ID) })
	return out, nil
}

// seenRange fills in the first and last runs each mode was seen in, and
// whether ri is its first, from the table of where each mode was seen.
// Callers hold mu.
func (ix *Index) seenRange(stats map[string]*sandtrap.ModeStat, ri *run) {
	t := ix.seenTable()
	thisStart := ri.src.meta[ri.rawID].Started
	for m, seen := range t.modes {
		if seen.first < 0 {
			continue
		}
		st, ok := stats[ix.eff[m].ID]
		if !ok {
			continue
		}
		first, last := t.runs[seen.first], t.runs[seen.last]
		if st.FirstRun == "" || first.at.Before(st.FirstSeen) || first.at.Equal(st.FirstSeen) && seen.first < t.pos[st.FirstRun] {
			st.FirstRun, st.FirstSeen = first.id, first.at
		}
		if st.LastRun == "" || last.at.After(st.LastSeen) || last.at.Equal(st.LastSeen) && seen.last < t.pos[st.LastRun] {
			st.LastRun, st.LastSeen = last.id, last.at
		}
	}
	for _, st := range stats {
		st.NewInRun = !st.FirstSeen.Before(thisStart)
	}
}

// seen is where the failure modes, as the classifier made them, were seen
// across the runs served: computed once per change of the runs or of their
// breakdowns, so that a run's queue does not walk every run's tally.
type seen struct {
	// cells and version are ix.cells and ix.runsVersion when computed.
	cells, version int
	runs           []seenRun
	pos            map[string]int // position of each run, by public id
	modes          []modeSeen     // by mode index
}

// seenRun is a run of the table, in ix.order.
type seenRun struct {
	id string
	at time.Time
}

// modeSeen is the position, in ix.order, of the first and the last run a
// mode failed in: the earliest start, and the latest, the first of the
// runs that tie. -1 when no run has it.
type modeSeen struct{ first, last int }

// unreadStart stands for the start of a run whose row is not read yet.
var unreadStart = time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC)

// seenTable returns the table of where each mode was seen, computing it
// when the runs or their breakdowns changed since. Callers hold mu.
func (ix *Index) seenTable() *seen {
	ix.seenMu.Lock()
	defer ix.seenMu.Unlock()
	if t := ix.seen; t != nil && t.cells == ix.cells && t.version == ix.runsVersion && len(t.modes) == len(ix.modes) {
		return t
	}
	t := &seen{cells: ix.cells, version: ix.runsVersion, runs: make([]seenRun, len(ix.order)), pos: make(map[string]int, len(ix.order)),
		modes: make([]modeSeen, len(ix.modes))}
	for m := range t.modes {
		t.modes[m] = modeSeen{-1, -1}
	}
	for pos, id := range ix.order {
		ri := ix.runs[id]
		at := ri.src.meta[ri.rawID].Started
		if at.IsZero() {
			// Its row is not read yet: a run being written now, after
			// every run whose start is known.
			at = unreadStart
		}
		t.runs[pos] = seenRun{id, at}
		t.pos[id] = pos
		for m := range ri.tally.modes {
			ms := &t.modes[m]
			if ms.first < 0 {
				*ms = modeSeen{pos, pos}
				continue
			}
			if at.Before(t.runs[ms.first].at) {
				ms.first = pos
			}
			if at.After(t.runs[ms.last].at) {
				ms.last = pos
			}
		}
	}
	ix.seen = t
	return t
}

// Occurrence is a failure of a mode in one run, as the index knows it: the
// campaign file of Source has the rest.
type Occurrence struct {
	sandtrap.Occurrence
	Source *Source
}

// ModeFailures returns a page of a mode's failures across every run,
// newest run first, and how many there are. The runs' tallies say which
// runs the page falls in; only those runs' rows are read.
func (ix *Index) ModeFailures(ctx context.Context, id string, limit, offset int) ([]Occurrence, int, error) {
	// The tallies say which runs the page falls in, and how far into each.
	type span struct {
		runID string
		skip  int
	}
	ix.mu.RLock()
	members, ok := ix.members(id)
	if !ok {
		ix.mu.RUnlock()
		return nil, 0, sandtrap.Errorf(sandtrap.ENOTFOUND, "failure mode %q not found", id)
	}
	var spans []span
	total, wanted := 0, 0
	for j := len(ix.order) - 1; j >= 0; j-- {
		runID := ix.order[j]
		n := ix.runs[runID].tally.count(members)
		if n == 0 || total+n <= offset || wanted >= limit {
			total += n
			continue
		}
		skip := max(0, offset-total)
		total += n
		spans = append(spans, span{runID, skip})
		wanted += n - skip
	}
	ix.mu.RUnlock()

	// Only those runs' rows are read, paged back in if they were evicted.
	var out []Occurrence
	for _, sp := range spans {
		skip := sp.skip
		err := ix.withRun(ctx, sp.runID, func(ri *run, d *runData) error {
			for k := len(d.rows) - 1; k >= 0 && len(out) < limit; k-- {
				r := &d.rows[k]
				if r.fail < 0 {
					continue
				}
				fl := &d.fails[r.fail]
				if !slices.Contains(members, fl.mode) {
					continue
				}
				if skip > 0 {
					skip--
					continue
				}
				e := &ix.eff[fl.mode]
				out = append(out, Occurrence{Source: ri.src, Occurrence: sandtrap.Occurrence{RunID: sp.runID, ResultRow: sandtrap.ResultRow{
					Result: sandtrap.Result{ID: r.id, Test: fl.test, Error: fl.err, HasError: true, Attempt: int(fl.attempt),
						Status: ix.names.value(kindStatus, r.status), Target: ix.names.value(kindTarget, r.target), Domain: ix.names.value(kindDomain, r.domain)},
					Layer: e.Layer, Primitive: e.Primitive, Mode: e.ID, ClassifiedBy: ix.byOf(fl), Severity: e.Severity,
				}}})
			}
			return nil
		})
		if err != nil {
			return nil, 0, err
		}
	}
	return out, total, nil
}

// RunsBefore names up to n runs that started before run id, the latest
// first, with their results; with id empty, the last n runs. It reads no
// breakdown, so it costs the same whatever the history.
func (ix *Index) RunsBefore(ctx context.Context, id string, n int) ([]sandtrap.RunCount, error) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	end := len(ix.order)
	if id != "" {
		end = slices.Index(ix.order, id)
		if end < 0 {
			return nil, sandtrap.Errorf(sandtrap.ENOTFOUND, "run %q not found", id)
		}
	}
	out := make([]sandtrap.RunCount, 0, min(n, end))
	for j := end - 1; j >= 0 && len(out) < n; j-- {
		out = append(out, ix.runCount(ix.order[j], ix.runs[ix.order[j]], 0))
	}
	return out, nil
}
