package store

import (
	"context"

	"sandtrap/store/campaign"
	"sandtrap/store/state"
	"sandtrap/triage"
)

// The index is saved to the state as it is read (state.Chunks): this file
// turns the in-memory index into what the state saves, and back.

// matchClassifier makes sure the saved index was built by the classifier
// the store has now; when it was not, every campaign file is read again.
func (s *Store) matchClassifier(ctx context.Context) error {
	reread, err := s.state.Chunks().MatchClassifier(ctx, s.opts.Classifier.Fingerprint())
	if err != nil {
		return err
	}
	if reread > 0 && s.opts.Logf != nil {
		s.opts.Logf("the classification rules changed since the index was built: reading %d campaign file(s) again", reread)
	}
	return nil
}

// loadState reads the names, the modes and, for each source whose file is
// still the one indexed before, its runs' counts. Their rows stay in the
// state until a page needs them.
func (s *Store) loadState(ctx context.Context) error {
	chunks := s.state.Chunks()
	names, err := chunks.Names(ctx)
	if err != nil {
		return err
	}
	for _, n := range names {
		s.names.load(n.Kind, n.Code, n.Value)
	}
	modes, err := chunks.Modes(ctx)
	if err != nil {
		return err
	}
	for _, m := range modes {
		s.modeIdx[m.ID] = int32(len(s.modes))
		s.modes = append(s.modes, mode(m))
	}
	for _, src := range s.sources {
		if err := s.loadSource(ctx, src); err != nil {
			return err
		}
	}
	return nil
}

// loadSource restores src's index from the state, or clears it when the
// file is no longer the one that was indexed (replaced or shrunk).
func (s *Store) loadSource(ctx context.Context, src *source) error {
	saved, known, err := s.state.Chunks().Source(ctx, src.path)
	if err != nil {
		return err
	}
	src.id = saved.ID
	if !known {
		return nil
	}
	src.device, src.inode, src.lastID, src.lastKey = saved.Device, saved.Inode, saved.LastID, saved.LastKey
	same, err := s.sameFile(ctx, src)
	if err != nil {
		return err
	}
	if !same {
		return s.resetSource(ctx, src)
	}
	counts, err := s.readCounts(ctx, src)
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.addCounts(src, counts)
	s.mu.Unlock()
	return nil
}

// sameFile reports whether src's file is still the one its watermark points
// into: same identity, and the row at the watermark is still the same row.
func (s *Store) sameFile(ctx context.Context, src *source) (bool, error) {
	now, err := campaign.StampOf(src.path)
	if err != nil {
		return false, nil
	}
	if src.lastID == 0 {
		return true, nil
	}
	if src.device != 0 && (now.Device != src.device || now.Inode != src.inode) {
		return false, nil
	}
	key, found, err := src.file.ResultKeyOf(ctx, src.lastID)
	if err != nil || !found {
		return false, err
	}
	return key == src.lastKey, nil
}

// resetSource forgets everything indexed from src, in memory and in state,
// so that it is read again from its first row.
func (s *Store) resetSource(ctx context.Context, src *source) error {
	if err := s.state.Chunks().Clear(ctx, src.id); err != nil {
		return errorf("resetting %s: %w", src.path, err)
	}
	s.mu.Lock()
	src.lastID, src.lastKey, src.device, src.inode = 0, "", 0, 0
	src.cursors, src.pending, src.caughtUp = campaign.EvidenceCursors{}, nil, false
	src.runs = map[string]*runIndex{}
	s.publicIDs()
	s.mu.Unlock()
	return nil
}

// reloadSource replaces src's index in memory with what the state holds,
// after a read that could not be saved. It reads the state first, holding
// no lock, and then swaps the runs in under a short write lock: pages never
// wait on the reads.
func (s *Store) reloadSource(ctx context.Context, src *source) error {
	lastID, lastKey, err := s.state.Chunks().Watermark(ctx, src.id)
	var counts []state.Count
	if err == nil {
		counts, err = s.readCounts(ctx, src)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	src.runs = map[string]*runIndex{}
	if err == nil {
		src.lastID, src.lastKey = lastID, lastKey
		s.addCounts(src, counts)
	}
	for id := range src.meta {
		if src.runs[id] == nil {
			src.runs[id] = newRunIndex(src, id)
		}
	}
	s.publicIDs()
	if err != nil {
		return errorf("reloading the index of %s: %w", src.path, err)
	}
	return nil
}

// readCounts reads the saved counts of src, holding no lock.
func (s *Store) readCounts(ctx context.Context, src *source) ([]state.Count, error) {
	var counts []state.Count
	if err := s.state.Chunks().Counts(ctx, src.id, func(c state.Count) { counts = append(counts, c) }); err != nil {
		return nil, errorf("loading counts of %s: %w", src.path, err)
	}
	return counts, nil
}

// addCounts puts saved counts into src's runs; a run that has none yet
// gets an index whose rows stay in the state until a page needs them.
// Callers hold mu for writing.
func (s *Store) addCounts(src *source, counts []state.Count) {
	for _, n := range counts {
		ri := src.runs[n.RunID]
		if ri == nil {
			ri = newRunIndex(src, n.RunID)
			ri.data = nil
			src.runs[n.RunID] = ri
		}
		ri.n += n.N
		ri.saved = ri.n
		c := cell{target: s.names.code(kindTarget, n.Target), domain: s.names.code(kindDomain, n.Domain),
			status: s.names.code(kindStatus, n.Status), mode: -1}
		if n.ModeID != "" {
			c.mode = s.modeIdx[n.ModeID]
		}
		ri.cube[c] += n.N
		ri.tally.add(c, n.N)
	}
}

// loadRun reads one run's rows and failures back from the state, without
// holding mu while it reads: every row and failure a pass saved, each
// failed row linked to its failure. n is how many rows the run has, so
// that they take no more memory than they need.
func (s *Store) loadRun(ctx context.Context, src *source, rawID string, n int) (*runData, error) {
	d := &runData{rows: make([]row, 0, n)}
	err := s.state.Chunks().RunRows(ctx, src.id, rawID, func(data []byte) {
		for off := 0; off+rowSize <= len(data); off += rowSize {
			d.rows = append(d.rows, decodeRow(data[off:]))
		}
	})
	if err != nil {
		return nil, errorf("loading the rows of run %q of %s: %w", rawID, src.path, err)
	}
	if err := s.loadFailures(ctx, src, rawID, d); err != nil {
		return nil, err
	}
	return d, nil
}

// loadFailures reads a run's failures into d and links each failed row to
// its failure; both are in id order.
func (s *Store) loadFailures(ctx context.Context, src *source, rawID string, d *runData) error {
	list, err := s.state.Chunks().RunFailures(ctx, src.id, rawID)
	if err != nil {
		return errorf("loading failures of run %q of %s: %w", rawID, src.path, err)
	}
	d.fails = make([]failure, 0, len(list))
	s.mu.RLock()
	for _, sf := range list {
		m, ok := s.modeIdx[sf.ModeID]
		if !ok {
			s.mu.RUnlock()
			return errorf("the index of %s is inconsistent: unknown mode %q", src.path, sf.ModeID)
		}
		by, ok := s.names.lookup(kindBy, sf.By)
		if !ok {
			s.mu.RUnlock()
			return errorf("the index of %s is inconsistent: unknown classifier %q", src.path, sf.By)
		}
		d.addFailure(failure{id: sf.ID, test: sf.Test, err: sf.Err, mode: m, by: by, attempt: sf.Attempt})
	}
	s.mu.RUnlock()
	j := 0
	for i := range d.rows {
		for j < len(d.fails) && d.fails[j].id < d.rows[i].id {
			j++
		}
		if j < len(d.fails) && d.fails[j].id == d.rows[i].id {
			d.rows[i].fail = int32(j)
		}
	}
	return nil
}

// batch is what one indexing pass adds, to be persisted in one transaction.
type batch struct {
	rows    map[*runIndex]int // per run, how many rows it had before the batch
	fails   map[*runIndex]int // per run with new failures, how many it had before
	cube    map[*runIndex]map[cell]int
	lastID  int64
	lastKey string
}

// packed is a batch made ready for the state under the store's lock: what
// it saves, and the names, modes and templates not saved yet that go with
// it, so that a pass may go on adding rows while it is written.
type packed struct {
	b     *batch
	save  state.Save
	added []nameEntry
	modes []mode
	// rows is how many rows each run of the batch has once it is saved.
	rows map[*runIndex]int
}

// pack takes what b saves from the index; a read-only store saves nothing.
// Callers hold mu for writing.
func (s *Store) pack(src *source, b *batch) *packed {
	p := &packed{b: b, rows: map[*runIndex]int{}}
	if s.opts.ReadOnly {
		return p
	}
	sv := state.Save{SourceID: src.id, Path: src.path, LastID: b.lastID, LastKey: b.lastKey, From: src.lastID}
	p.added, p.modes = s.names.added, s.unsavedModes
	s.names.added, s.unsavedModes = nil, nil
	sv.Templates, sv.Aliases = s.unsavedTemplates, s.unsavedAliases
	s.unsavedTemplates, s.unsavedAliases = map[string]triage.SavedTemplate{}, map[string]string{}
	for _, e := range p.added {
		sv.Names = append(sv.Names, state.Name{Kind: e.kind, Code: e.code, Value: e.value})
	}
	for _, m := range p.modes {
		sv.Modes = append(sv.Modes, state.Mode(m))
	}
	for ri, before := range b.rows {
		rows := ri.data.rows // not evicted: the state lacks some of them
		p.rows[ri] = len(rows)
		for c := before / chunkRows; c*chunkRows < len(rows); c++ {
			end := min((c+1)*chunkRows, len(rows))
			buf := make([]byte, 0, (end-c*chunkRows)*rowSize)
			for _, r := range rows[c*chunkRows : end] {
				buf = appendRow(buf, r)
			}
			sv.Rows = append(sv.Rows, state.RowChunk{RunID: ri.rawID, Chunk: c, Data: buf})
		}
	}
	sv.Failures = s.failChunks(b.fails)
	for ri, cells := range b.cube {
		for c, n := range cells {
			modeID := ""
			if c.mode >= 0 {
				modeID = s.modes[c.mode].ID
			}
			sv.Counts = append(sv.Counts, state.Count{RunID: ri.rawID, Target: s.names.value(kindTarget, c.target),
				Domain: s.names.value(kindDomain, c.domain), Status: s.names.value(kindStatus, c.status), ModeID: modeID, N: n})
		}
	}
	p.save = sv
	return p
}

// persist saves a packed batch to the state in one transaction
// (state.Chunks.Save), holding no lock while it writes. The names, modes
// and templates it carried are unsaved again if it fails.
func (s *Store) persist(ctx context.Context, src *source, p *packed) error {
	now, _ := campaign.StampOf(src.path)
	sv := p.save
	sv.Device, sv.Inode = now.Device, now.Inode
	if err := s.state.Chunks().Save(ctx, sv); err != nil {
		s.mu.Lock()
		s.names.added = append(p.added, s.names.added...)
		s.unsavedModes = append(p.modes, s.unsavedModes...)
		for id, t := range sv.Templates {
			if _, newer := s.unsavedTemplates[id]; !newer {
				s.unsavedTemplates[id] = t
			}
		}
		for a, t := range sv.Aliases {
			if _, newer := s.unsavedAliases[a]; !newer {
				s.unsavedAliases[a] = t
			}
		}
		s.mu.Unlock()
		return err
	}
	s.mu.Lock()
	src.device, src.inode = now.Device, now.Inode
	s.mu.Unlock()
	return nil
}

// failChunks lists, for each run of fails, the chunks its new failures
// fall in, the last one partly saved before included. Callers hold mu; the
// chunks are packed without it.
func (s *Store) failChunks(fails map[*runIndex]int) []state.FailureChunks {
	var out []state.FailureChunks
	for ri, before := range fails {
		rc := state.FailureChunks{RunID: ri.rawID, First: before / state.FailChunk}
		fails := ri.data.fails // not evicted: the state lacks some of them
		for c := rc.First; c*state.FailChunk < len(fails); c++ {
			part := fails[c*state.FailChunk : min((c+1)*state.FailChunk, len(fails))]
			list := make([]state.Failure, len(part))
			for i, f := range part {
				list[i] = state.Failure{ID: f.id, Test: f.test, Err: f.err, ModeID: s.modes[f.mode].ID,
					By: s.names.value(kindBy, f.by), Attempt: f.attempt}
			}
			rc.Chunks = append(rc.Chunks, list)
		}
		out = append(out, rc)
	}
	return out
}
