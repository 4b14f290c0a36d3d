package store

import (
	"context"

	"sandtrap/store/index"
	"sandtrap/triage"
)

// Failure modes are the templates a triage.Grouper mines from signatures.
// The grouper is stateful and its answers depend on the order it sees
// signatures, so it runs on one goroutine at a time, in row order, after
// the failures of a batch were classified on every core.

// templateChange is what mining a batch changed in one template.
type templateChange struct {
	t        triage.SavedTemplate
	created  bool
	absorbed []string
}

// assignModes mines the classified failures of a batch, in row order, and
// sets each one's mode. It returns what the batch changed in the
// templates, for the index, and keeps it to be saved. Callers hold groupMu
// until the batch is appended, so that a batch of another file cannot
// absorb a template between the two.
func (s *Store) assignModes(rows []index.Entry) index.Mined {
	changes := map[string]*templateChange{}
	for i := range rows {
		c := &rows[i]
		if !c.Failure {
			continue
		}
		// A failure no rule decided takes the class of the template its
		// signature joins, so that one cause is not split by its guesses.
		cl := s.grouper.Settle(triage.Classification{Layer: c.Layer, Primitive: c.Primitive, By: c.By, Signature: c.Signature, Context: c.Context}, c.Log)
		c.Layer, c.Primitive, c.By = cl.Layer, cl.Primitive, cl.By
		a := s.grouper.AssignClassified(cl, c.Log)
		c.ModeID = a.ModeID
		if !a.Created && !a.Changed && len(a.Absorbed) == 0 {
			continue
		}
		ch := changes[a.ModeID]
		if ch == nil {
			ch = &templateChange{}
			changes[a.ModeID] = ch
		}
		ch.t, ch.created = a.Template, ch.created || a.Created
		ch.absorbed = append(ch.absorbed, a.Absorbed...)
		for _, gone := range a.Absorbed {
			// An absorbed template of this batch is an alias now.
			if prev := changes[gone]; prev != nil {
				ch.created = ch.created || prev.created
				ch.absorbed = append(ch.absorbed, prev.absorbed...)
				delete(changes, gone)
			}
		}
	}
	// A failure mined before its template was absorbed in the same batch
	// follows the alias.
	for i := range rows {
		if rows[i].Failure {
			rows[i].ModeID = s.grouper.Resolve(rows[i].ModeID)
		}
	}
	mined := index.Mined{Templates: make(map[string]string, len(changes)), Absorbed: map[string]string{}}
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, ch := range changes {
		mined.Templates[id] = ch.t.Template
		s.unsavedTemplates[id] = ch.t
		for _, gone := range ch.absorbed {
			mined.Absorbed[gone] = id
			delete(s.unsavedTemplates, gone)
			s.unsavedAliases[gone] = id
		}
	}
	return mined
}

// loadTemplates restores the saved templates and aliases into the grouper,
// so that new failures match them first and keep their ids.
func (s *Store) loadTemplates(ctx context.Context) error {
	templates, pending, err := s.state.Templates().Load(ctx)
	if err != nil {
		return err
	}
	for _, t := range templates {
		s.grouper.Restore(t)
	}
	s.carryPending = pending
	return s.loadAliases(ctx)
}

// loadAliases reads the saved aliases into the grouper and the mode table,
// at start and again after a carry-over wrote some.
func (s *Store) loadAliases(ctx context.Context) error {
	aliases, err := s.state.Templates().Aliases(ctx)
	if err != nil {
		return err
	}
	s.groupMu.Lock()
	for a, t := range aliases {
		s.grouper.RestoreAlias(a, t)
	}
	s.groupMu.Unlock()
	s.ix.AddAliases(aliases)
	return nil
}

// carryOver moves people's decisions from the modes of the old classifier
// to the new modes of the same failures, once every file that held such
// failures has been read again (see state.Templates.CarryOver).
func (s *Store) carryOver(ctx context.Context) error {
	s.mu.RLock()
	pending := s.carryPending && !s.opts.ReadOnly
	var reading []int64
	for _, src := range s.sources {
		// A file read to its end, or one that cannot be read, holds
		// nothing more to wait for.
		if !src.caughtUp && src.fault == "" {
			reading = append(reading, src.id)
		}
	}
	s.mu.RUnlock()
	if !pending {
		return nil
	}
	moved, done, err := s.state.Templates().CarryOver(ctx, reading)
	if err != nil || !done {
		return err
	}
	s.mu.Lock()
	s.carryPending = false
	s.mu.Unlock()
	if moved > 0 && s.opts.Logf != nil {
		s.opts.Logf("carried people's decisions on %d failure mode(s) over to the modes the new classifier gives their failures", moved)
	}
	if err := s.loadAliases(ctx); err != nil {
		return err
	}
	return s.refreshDecisions(ctx)
}
