package store

import (
	"context"

	"sandtrap/store/campaign"
	"sandtrap/store/index"
	"sandtrap/store/state"
	"sandtrap/triage"
)

// The index is saved to the state as it is read (state.Chunks): this file
// turns what the index packs into what the state saves, and back.

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
	modes, err := chunks.Modes(ctx)
	if err != nil {
		return err
	}
	loadNames := make([]index.Name, len(names))
	for i, n := range names {
		loadNames[i] = index.Name(n)
	}
	loadModes := make([]index.Mode, len(modes))
	for i, m := range modes {
		loadModes[i] = index.Mode(m)
	}
	s.ix.Load(loadNames, loadModes)
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
	s.ix.AddCounts(src.ix, counts)
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
	s.mu.Unlock()
	s.ix.ResetSource(src.ix)
	return nil
}

// reloadSource replaces src's index in memory with what the state holds,
// after a read that could not be saved. It reads the state first, and then
// the index swaps the runs in under its write lock: pages never wait on
// the reads.
func (s *Store) reloadSource(ctx context.Context, src *source) error {
	lastID, lastKey, err := s.state.Chunks().Watermark(ctx, src.id)
	var counts []index.Count
	if err == nil {
		counts, err = s.readCounts(ctx, src)
	}
	if err == nil {
		s.mu.Lock()
		src.lastID, src.lastKey = lastID, lastKey
		s.mu.Unlock()
	}
	s.ix.ReloadSource(src.ix, counts)
	if err != nil {
		return errorf("reloading the index of %s: %w", src.path, err)
	}
	return nil
}

// readCounts reads the saved counts of src.
func (s *Store) readCounts(ctx context.Context, src *source) ([]index.Count, error) {
	var counts []index.Count
	if err := s.state.Chunks().Counts(ctx, src.id, func(c state.Count) { counts = append(counts, c) }); err != nil {
		return nil, errorf("loading counts of %s: %w", src.path, err)
	}
	return counts, nil
}

// pager reads the rows and failures of a run the index evicted back from
// the state.
type pager struct{ s *Store }

// RunRows calls each with every saved chunk of a run's rows, in order.
func (p pager) RunRows(ctx context.Context, source, rawID string, each func(chunk []byte)) error {
	src, err := p.s.sourceLabelled(source)
	if err != nil {
		return err
	}
	return p.s.state.Chunks().RunRows(ctx, src.id, rawID, each)
}

// RunFailures returns a run's saved failures, in id order.
func (p pager) RunFailures(ctx context.Context, source, rawID string) ([]index.Failure, error) {
	src, err := p.s.sourceLabelled(source)
	if err != nil {
		return nil, err
	}
	list, err := p.s.state.Chunks().RunFailures(ctx, src.id, rawID)
	if err != nil {
		return nil, err
	}
	out := make([]index.Failure, len(list))
	for i, f := range list {
		out[i] = index.Failure(f)
	}
	return out, nil
}

// sourceLabelled returns the source shown under label.
func (s *Store) sourceLabelled(label string) (*source, error) {
	for _, src := range s.sources {
		if src.label == label {
			return src, nil
		}
	}
	return nil, errorf("no campaign file is labelled %q", label)
}

// packed is a batch of the index made ready for the state, with the
// mining it carries, so that a pass may go on adding rows while it is
// written.
type packed struct {
	ix   *index.Packed // nil for a read-only store, which saves nothing
	save state.Save
}

// pack takes what b saves from the index and from mining; a read-only
// store saves nothing.
func (s *Store) pack(src *source, b *batch) *packed {
	p := &packed{}
	s.mu.Lock()
	p.save = state.Save{SourceID: src.id, Path: src.path, LastID: b.lastID, LastKey: b.lastKey, From: src.lastID}
	s.mu.Unlock()
	if s.opts.ReadOnly {
		return p
	}
	// Under groupMu, as a batch's modes go into the index and its
	// templates into unsavedTemplates under it: a mode is saved with its
	// template.
	s.groupMu.Lock()
	s.mu.Lock()
	p.save.Templates, p.save.Aliases = s.unsavedTemplates, s.unsavedAliases
	s.unsavedTemplates, s.unsavedAliases = map[string]triage.SavedTemplate{}, map[string]string{}
	s.mu.Unlock()
	p.ix = s.ix.Pack(b.ix, state.FailChunk)
	s.groupMu.Unlock()
	sv := &p.save
	sv.Names, sv.Modes, sv.Rows, sv.Failures, sv.Counts = p.ix.Names, p.ix.Modes, p.ix.Rows, p.ix.Failures, p.ix.Counts
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
		s.groupMu.Lock()
		defer s.groupMu.Unlock()
		s.ix.Unsaved(p.ix)
		s.mu.Lock()
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
