package index

import (
	"context"
	"slices"
	"sort"
	"time"

	"sandtrap/triage"
)

// The index has one writer, the store: it adds the served files, their
// runs and their classified results, and hands over people's decisions.
// Each method below does its work under the write lock and no I/O; the
// store reads whatever they take first, holding none of the index's locks.

// AddSource adds a campaign file, with no runs yet, shown under label.
// Labels are unique among the sources.
func (ix *Index) AddSource(label string) *Source {
	src := &Source{label: label, runs: map[string]*run{}, meta: map[string]RunMeta{}}
	ix.mu.Lock()
	ix.sources = append(ix.sources, src)
	ix.mu.Unlock()
	return src
}

// SetRuns makes runs the rows of src's runs table; a run it has not seen
// yet starts with no results.
func (ix *Index) SetRuns(src *Source, runs []RunMeta) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	src.meta = make(map[string]RunMeta, len(runs))
	for _, r := range runs {
		src.meta[r.ID] = r
		if src.runs[r.ID] == nil {
			src.runs[r.ID] = newRun(src, r.ID)
		}
	}
	ix.publicIDs()
}

// publicIDs recomputes every run's public id: the harness's id where it is
// unique among the served files, LABEL:ID where it is not. Callers hold mu
// for writing.
func (ix *Index) publicIDs() {
	count := map[string]int{}
	for _, src := range ix.sources {
		for id := range src.runs {
			count[id]++
		}
	}
	ix.runs = map[string]*run{}
	ix.runsVersion++
	type ordered struct {
		id      string
		started string
	}
	var all []ordered
	for _, src := range ix.sources {
		for id, ri := range src.runs {
			pub := id
			if count[id] > 1 {
				pub = src.label + ":" + id
			}
			ix.runs[pub] = ri
			all = append(all, ordered{pub, src.meta[id].StartedAt})
		}
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].started != all[j].started {
			// A run whose row is not read yet is one being written now:
			// the newest, not the oldest.
			if all[i].started == "" || all[j].started == "" {
				return all[j].started == ""
			}
			return all[i].started < all[j].started
		}
		return all[i].id < all[j].id
	})
	ix.order = ix.order[:0]
	for _, o := range all {
		ix.order = append(ix.order, o.id)
	}
}

// PublicIDs returns the public ids of src's runs rawIDs, in their order.
func (ix *Index) PublicIDs(src *Source, rawIDs []string) []string {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	out := make([]string, 0, len(rawIDs))
	for _, id := range rawIDs {
		out = append(out, ix.publicID(src, id))
	}
	return out
}

// SourceRuns returns the public ids of every run of src.
func (ix *Index) SourceRuns(src *Source) []string {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	out := make([]string, 0, len(src.runs))
	for id := range src.runs {
		out = append(out, ix.publicID(src, id))
	}
	return out
}

// publicID returns the public id of a run of src. Callers hold mu.
func (ix *Index) publicID(src *Source, rawID string) string {
	for _, other := range ix.sources {
		if other != src {
			if _, ok := other.runs[rawID]; ok {
				return src.label + ":" + rawID
			}
		}
	}
	return rawID
}

// Entry is one result of a campaign file, classified and mined, as the
// index takes it in.
type Entry struct {
	RunID                  string
	ID                     int64
	Test                   string
	Status, Target, Domain string
	At                     uint32 // started_at in Unix seconds, 0 when unknown
	Attempt                int32
	// Failure says the result failed; the fields below are its failure's.
	Failure                     bool
	Error                       string // as much of it as the index keeps
	ModeID                      string
	Layer, Primitive, Signature string
	By                          string // what classified it
	// Context is the failure's triage.RunContext and Log its log's tail,
	// for mining; the index keeps neither.
	Context string
	Log     []byte
}

// Mined is what mining a batch changed in the failure-mode templates.
type Mined struct {
	// Templates are the templates the batch created or changed, by the
	// id of their mode: a mode's signature is its template.
	Templates map[string]string
	// Absorbed maps the id of each template a batch absorbed to the one
	// that absorbed it.
	Absorbed map[string]string
}

// Batch is what a pass appends between two saves, for Pack.
type Batch struct {
	rows  map[*run]int // per run, how many rows it had before the batch
	fails map[*run]int // per run with new failures, how many it had before
	cube  map[*run]map[cell]int
}

// NewBatch returns an empty batch.
func NewBatch() *Batch {
	return &Batch{rows: map[*run]int{}, fails: map[*run]int{}, cube: map[*run]map[cell]int{}}
}

// Appended says what Append added.
type Appended struct {
	Results  int
	NewModes []string // ids of the modes first seen
}

// Append adds entries, in id order, to src's runs and to batch b, and puts
// what mining changed into the mode table. The runs they add to must be
// pinned (Pin), so that none is evicted meanwhile. upto is the last id the
// pass reads: with the run's planned count it sizes a growing run. changed
// collects the harness's ids of the runs that grew.
func (ix *Index) Append(src *Source, entries []Entry, mined Mined, upto int64, b *Batch, changed map[string]bool) Appended {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	var out Appended
	defer ix.applyTemplates(mined)
	now := time.Now()
	for i := range entries {
		e := &entries[i]
		ri := src.runs[e.RunID]
		if ri == nil {
			ri = newRun(src, e.RunID)
			src.runs[e.RunID] = ri
			ix.publicIDs()
		}
		d := ri.data // loaded: Pin paged it in
		ix.touch(ri)
		if _, ok := b.rows[ri]; !ok {
			b.rows[ri] = len(d.rows)
			changed[e.RunID] = true
		}
		r := row{
			id:       e.ID,
			at:       e.At,
			testHash: hashTest(e.Test),
			status:   ix.names.code(kindStatus, e.Status),
			target:   ix.names.code(kindTarget, e.Target),
			domain:   ix.names.code(kindDomain, e.Domain),
			fail:     -1,
		}
		k := cell{target: r.target, domain: r.domain, status: r.status, mode: -1}
		if e.Failure {
			m, ok := ix.modeIdx[e.ModeID]
			if !ok {
				m = int32(len(ix.modes))
				sig := e.Signature
				if t, ok := mined.Templates[e.ModeID]; ok {
					sig = t
				}
				nm := Mode{ID: e.ModeID, Layer: e.Layer, Primitive: e.Primitive, Signature: sig, FirstSeen: now}
				ix.modes = append(ix.modes, nm)
				ix.modeIdx[e.ModeID] = m
				ix.eff = append(ix.eff, ix.effectiveOf(m))
				if ix.isMergeTarget(e.ModeID) {
					ix.recomputeEffective()
				}
				ix.unsavedModes = append(ix.unsavedModes, nm)
				out.NewModes = append(out.NewModes, e.ModeID)
			}
			f := failure{id: e.ID, test: e.Test, err: e.Error, mode: m, by: ix.names.code(kindBy, e.By), attempt: e.Attempt}
			if _, ok := b.fails[ri]; !ok {
				b.fails[ri] = len(d.fails)
			}
			r.fail = d.addFailure(f)
			k.mode = m
		}
		if len(d.rows) == cap(d.rows) {
			d.rows = slices.Grow(d.rows, expectedRows(src.meta[e.RunID], len(d.rows), upto-e.ID+1))
		}
		d.rows = append(d.rows, r)
		ri.n++
		if _, seen := ri.cube[k]; !seen {
			ix.cells++
		}
		ri.cube[k]++
		ri.tally.add(k, 1)
		if b.cube[ri] == nil {
			b.cube[ri] = map[cell]int{}
		}
		b.cube[ri][k]++
		out.Results++
	}
	return out
}

// expectedRows is how many more rows a run that holds have rows is likely
// to get, of the left results this pass reads: as many as the harness
// planned, when it said. Growing a run of a million rows in steps copied
// it a dozen times, into fresh memory each time.
func expectedRows(run RunMeta, have int, left int64) int {
	if run.Planned <= int64(have) {
		return 1
	}
	return int(min(run.Planned-int64(have), left))
}

// applyTemplates puts the templates a batch changed into the mode table:
// a generalised template's mode shows its new signature, and an absorbed
// one resolves to its absorber. Callers hold mu for writing.
func (ix *Index) applyTemplates(mined Mined) {
	recompute := false
	for id, t := range mined.Templates {
		if m, ok := ix.modeIdx[id]; ok && ix.modes[m].Signature != t {
			ix.modes[m].Signature = t
			ix.eff[m] = ix.effectiveOf(m)
			recompute = true
		}
	}
	for gone, into := range mined.Absorbed {
		ix.aliases[gone] = into
		// What people decided on the absorbed mode follows it now, as
		// the state carries it over when it saves the alias.
		if d, ok := ix.decisions[gone]; ok {
			ix.decisions[into] = ix.decisions[into].CarriedFrom(d, into)
			delete(ix.decisions, gone)
		}
		recompute = true
	}
	if recompute {
		ix.recomputeEffective()
	}
}

// AddAliases records that each mode id of aliases resolves to another, as
// saved templates or a carry-over say.
func (ix *Index) AddAliases(aliases map[string]string) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	for a, t := range aliases {
		ix.aliases[a] = t
	}
	ix.recomputeEffective()
}

// SetDecisions replaces people's decisions, by mode id, and applies them
// to every mode.
func (ix *Index) SetDecisions(decisions map[string]triage.Decision) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.decisions = decisions
	ix.recomputeEffective()
}

// Load puts back the names and modes a store saved: what Pack handed out
// before, in any order.
func (ix *Index) Load(names []Name, modes []Mode) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	for _, n := range names {
		ix.names.load(n.Kind, n.Code, n.Value)
	}
	for _, m := range modes {
		ix.modeIdx[m.ID] = int32(len(ix.modes))
		ix.modes = append(ix.modes, m)
	}
	ix.recomputeEffective()
}

// AddCounts puts saved counts into src's runs; a run that has none yet
// gets an index whose rows stay saved until a page needs them.
func (ix *Index) AddCounts(src *Source, counts []Count) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.addCounts(src, counts)
	ix.publicIDs()
}

// addCounts is AddCounts. Callers hold mu for writing.
func (ix *Index) addCounts(src *Source, counts []Count) {
	for _, n := range counts {
		ri := src.runs[n.RunID]
		if ri == nil {
			ri = newRun(src, n.RunID)
			ri.data = nil
			src.runs[n.RunID] = ri
		}
		ri.n += n.N
		ri.saved = ri.n
		c := cell{target: ix.names.code(kindTarget, n.Target), domain: ix.names.code(kindDomain, n.Domain),
			status: ix.names.code(kindStatus, n.Status), mode: -1}
		if n.ModeID != "" {
			c.mode = ix.modeIdx[n.ModeID]
		}
		if _, seen := ri.cube[c]; !seen {
			ix.cells++
		}
		ri.cube[c] += n.N
		ri.tally.add(c, n.N)
	}
}

// ResetSource forgets every run of src, to read its file again from the
// start.
func (ix *Index) ResetSource(src *Source) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	src.runs = map[string]*run{}
	ix.publicIDs()
}

// ReloadSource replaces src's runs with the saved counts, after a pass
// that could not be saved: every run of its runs table is kept, with no
// rows if none were saved.
func (ix *Index) ReloadSource(src *Source, counts []Count) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	src.runs = map[string]*run{}
	ix.addCounts(src, counts)
	for id := range src.meta {
		if src.runs[id] == nil {
			src.runs[id] = newRun(src, id)
		}
	}
	ix.publicIDs()
}

// Pinned are runs a pass pinned in memory, to append to.
type Pinned struct{ runs []*run }

// Pin pages in the evicted runs of src that entries add to and pins them,
// so that none is evicted before Append has added the rows; Unpin releases
// them. The rows are read through the pager with no lock held.
func (ix *Index) Pin(ctx context.Context, src *Source, entries []Entry) (Pinned, error) {
	ix.mu.Lock()
	var pinned, evicted []*run
	counted := map[*run]int{} // how many rows each evicted run has
	seen := map[string]bool{}
	for i := range entries {
		id := entries[i].RunID
		if seen[id] {
			continue
		}
		seen[id] = true
		if ri := src.runs[id]; ri != nil {
			ri.pins++
			pinned = append(pinned, ri)
			if ri.data == nil {
				evicted = append(evicted, ri)
				counted[ri] = ri.n
			}
		}
	}
	ix.mu.Unlock()
	p := Pinned{pinned}
	for _, ri := range evicted {
		d, err := ix.loadRun(ctx, src, ri.rawID, counted[ri])
		if err == nil && len(d.rows) != counted[ri] {
			err = inconsistent(src, ri.rawID, len(d.rows), counted[ri])
		}
		if err != nil {
			ix.Unpin(p)
			return Pinned{}, err
		}
		ix.mu.Lock()
		if ri.data == nil {
			ri.data = d
		}
		ix.mu.Unlock()
	}
	return p, nil
}

// Unpin releases runs Pin pinned.
func (ix *Index) Unpin(p Pinned) {
	ix.mu.Lock()
	for _, ri := range p.runs {
		ri.pins--
	}
	ix.mu.Unlock()
}

// inconsistent is the error of a run whose saved rows are not as many as
// its counts say.
func inconsistent(src *Source, rawID string, saved, counted int) error {
	return errorf("the saved index of %s is inconsistent: run %q has %d rows saved, %d counted", src.label, rawID, saved, counted)
}

// runOfID returns public run id. Callers hold mu.
func (ix *Index) runOfID(id string) (*run, error) {
	ri, ok := ix.runs[id]
	if !ok {
		return nil, runNotFound(id)
	}
	return ri, nil
}

// Locate returns the source of run id and the run's id in it.
func (ix *Index) Locate(id string) (*Source, string, error) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	ri, err := ix.runOfID(id)
	if err != nil {
		return nil, "", err
	}
	return ri.src, ri.rawID, nil
}
