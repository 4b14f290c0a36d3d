package store

import (
	"context"
	"strings"

	"sandtrap"
	"sandtrap/triage"
)

// loadDecisions reads every triage decision into the index.
func (s *Store) loadDecisions(ctx context.Context) error {
	decisions, err := s.state.Decisions().All(ctx)
	if err != nil {
		return err
	}
	s.ix.SetDecisions(decisions)
	return nil
}

// validateTriage refuses values outside the vocabulary, naming them.
func validateTriage(t sandtrap.Triage) error {
	if t.Layer != nil || t.Primitive != nil {
		if t.Layer == nil || t.Primitive == nil {
			return sandtrap.Errorf(sandtrap.EINVALID, "reclassifying needs both a layer and a primitive")
		}
		if *t.Layer != "" && !triage.ValidLayer(*t.Layer) {
			return sandtrap.Errorf(sandtrap.EINVALID, "unknown layer %q: use one of %s", *t.Layer, strings.Join(triage.Layers(), ", "))
		}
		if *t.Layer != "" && *t.Primitive != "" && !triage.ValidPrimitive(*t.Layer, *t.Primitive) {
			return sandtrap.Errorf(sandtrap.EINVALID, "primitive %q is not one of layer %s: use one of %s", *t.Primitive, *t.Layer, strings.Join(triage.Primitives(*t.Layer), ", "))
		}
	}
	if t.Severity != nil && *t.Severity != "" && triage.SeverityRank(*t.Severity) == len(triage.Severities()) {
		return sandtrap.Errorf(sandtrap.EINVALID, "unknown severity %q: use one of %s", *t.Severity, strings.Join(triage.Severities(), ", "))
	}
	if t.Status != nil && !triage.ValidStatus(*t.Status) {
		return sandtrap.Errorf(sandtrap.EINVALID, "unknown status %q: use one of %s", *t.Status, strings.Join(triage.Statuses(), ", "))
	}
	if t.Title != nil && len(*t.Title) > 300 {
		return sandtrap.Errorf(sandtrap.EINVALID, "a title has at most 300 bytes, this one has %d", len(*t.Title))
	}
	return nil
}

// UpdateMode applies a triage change to a mode (the root of its merges)
// and records it in the history, with who acts in ctx. The last write of each field wins.
func (s *Store) UpdateMode(ctx context.Context, id string, t sandtrap.Triage) (sandtrap.Mode, error) {
	if err := s.writable(); err != nil {
		return sandtrap.Mode{}, err
	}
	if err := validateTriage(t); err != nil {
		return sandtrap.Mode{}, err
	}
	root, err := s.ix.Root(id)
	if err != nil {
		return sandtrap.Mode{}, err
	}
	if err := s.state.Decisions().Update(ctx, root, t); err != nil {
		return sandtrap.Mode{}, err
	}
	return s.reloadDecisions(ctx, root)
}

// MergeMode merges the mode from into the mode into: from's failures are
// shown, counted and triaged as into's from then on, in every run.
func (s *Store) MergeMode(ctx context.Context, from, into string) (sandtrap.Mode, error) {
	return s.MergeModes(ctx, []string{from}, into)
}

// MergeModes merges every mode of from into the mode into, in one
// transaction: all of them or none. A mode already one with into is left
// as it is, unless it is the only one asked for.
func (s *Store) MergeModes(ctx context.Context, from []string, into string) (sandtrap.Mode, error) {
	if err := s.writable(); err != nil {
		return sandtrap.Mode{}, err
	}
	intoRoot, err := s.ix.Root(into)
	if err != nil {
		return sandtrap.Mode{}, err
	}
	roots := make([]string, len(from))
	for i, f := range from {
		if roots[i], err = s.ix.Root(f); err != nil {
			return sandtrap.Mode{}, err
		}
	}
	if len(from) == 1 && roots[0] == intoRoot {
		return sandtrap.Mode{}, sandtrap.Errorf(sandtrap.ECONFLICT, "%s and %s are already one mode", from[0], into)
	}
	if intoRoot, err = s.state.Decisions().Merge(ctx, from, roots, into, intoRoot); err != nil {
		return sandtrap.Mode{}, err
	}
	return s.reloadDecisions(ctx, intoRoot)
}

// SplitMode takes a member back out of the mode it was merged into; it
// becomes a mode of its own again, keeping its own decisions.
func (s *Store) SplitMode(ctx context.Context, member string) (sandtrap.Mode, error) {
	if err := s.writable(); err != nil {
		return sandtrap.Mode{}, err
	}
	if !s.ix.HasMode(member) {
		return sandtrap.Mode{}, sandtrap.Errorf(sandtrap.ENOTFOUND, "failure mode %q not found", member)
	}
	if err := s.state.Decisions().Split(ctx, member); err != nil {
		return sandtrap.Mode{}, err
	}
	return s.reloadDecisions(ctx, member)
}

// AddNote appends a note to a mode, naming who acts in ctx: notes are never
// overwritten.
func (s *Store) AddNote(ctx context.Context, id, body string) error {
	if err := s.writable(); err != nil {
		return err
	}
	body = strings.TrimSpace(body)
	if body == "" {
		return sandtrap.Errorf(sandtrap.EINVALID, "a note cannot be empty")
	}
	if len(body) > 10_000 {
		return sandtrap.Errorf(sandtrap.EINVALID, "a note has at most 10,000 bytes, this one has %d", len(body))
	}
	root, err := s.ix.Root(id)
	if err != nil {
		return err
	}
	return s.state.Decisions().AddNote(ctx, root, body)
}

// ModeNotes returns a mode's notes, oldest first, including those left on
// modes merged into it.
func (s *Store) ModeNotes(ctx context.Context, m sandtrap.Mode) ([]sandtrap.Note, []sandtrap.Event, error) {
	return s.state.Decisions().Notes(ctx, m.ID, m.Members)
}

// reloadDecisions rereads the decisions after a change and returns the
// mode id as it now stands.
func (s *Store) reloadDecisions(ctx context.Context, id string) (sandtrap.Mode, error) {
	if err := s.refreshDecisions(ctx); err != nil {
		return sandtrap.Mode{}, err
	}
	return s.FindMode(ctx, id)
}

// refreshDecisions rereads every decision and hands them to the index.
// Refreshes take turns, so that an older read never replaces a newer one.
func (s *Store) refreshDecisions(ctx context.Context) error {
	s.reloadMu.Lock()
	defer s.reloadMu.Unlock()
	decisions, err := s.state.Decisions().All(ctx)
	if err != nil {
		return err
	}
	s.ix.SetDecisions(decisions)
	if s.opts.OnChange != nil {
		s.opts.OnChange(Change{Triage: true})
	}
	return nil
}

// writable refuses every change when the store serves read-only.
func (s *Store) writable() error {
	if s.opts.ReadOnly {
		return sandtrap.Errorf(sandtrap.EFORBIDDEN, "sandtrap is serving read-only (--read-only): triage changes are refused")
	}
	return nil
}
