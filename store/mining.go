package store

import (
	"context"
	"slices"

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
// sets each one's mode. It returns the templates the batch created or
// changed. Callers hold groupMu until the batch is applied, so that a
// batch of another file cannot absorb a template between the two.
func (s *Store) assignModes(rows []classified) map[string]*templateChange {
	changes := map[string]*templateChange{}
	for i := range rows {
		c := &rows[i]
		if !c.failure {
			continue
		}
		// A failure no rule decided takes the class of the template its
		// signature joins, so that one cause is not split by its guesses.
		cl := s.grouper.Settle(triage.Classification{Layer: c.layer, Primitive: c.prim, By: c.by, Signature: c.sig})
		c.layer, c.prim, c.by = cl.Layer, cl.Primitive, cl.By
		a := s.grouper.AssignClassified(cl)
		c.modeID = a.ModeID
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
		if rows[i].failure {
			rows[i].modeID = s.grouper.Resolve(rows[i].modeID)
		}
	}
	return changes
}

// applyTemplates puts the templates a batch changed into the mode table:
// a generalised template's mode shows its new signature, and an absorbed
// one resolves to its absorber. Callers hold mu for writing.
func (s *Store) applyTemplates(changes map[string]*templateChange) {
	recompute := false
	for id, ch := range changes {
		if m, ok := s.modeIdx[id]; ok && s.modes[m].Signature != ch.t.Template {
			s.modes[m].Signature = ch.t.Template
			s.eff[m] = s.effectiveOf(m)
			recompute = true
		}
		s.unsavedTemplates[id] = ch.t
		for _, gone := range ch.absorbed {
			s.aliases[gone] = id
			delete(s.unsavedTemplates, gone)
			s.unsavedAliases[gone] = id
			recompute = true
		}
	}
	if recompute {
		s.recomputeEffective()
	}
}

// modeIndex returns the index of mode id, following aliases to the mode
// that absorbed it. Callers hold mu.
func (s *Store) modeIndex(id string) (int32, bool) {
	if i, ok := s.modeIdx[id]; ok {
		return i, true
	}
	seen := map[string]bool{}
	for next := s.aliases[id]; next != "" && !seen[next]; next = s.aliases[next] {
		seen[next] = true
		if i, ok := s.modeIdx[next]; ok {
			return i, true
		}
	}
	return 0, false
}

// resolveRoot follows a mode id through people's merges and then through
// aliases: a person's merge wins over what the miner did. Callers hold mu.
func (s *Store) resolveRoot(id string) string {
	next := func(id string) string {
		if into := s.decisions[id].MergedInto; into != "" {
			return into
		}
		return s.aliases[id]
	}
	// A person's merge and the miner's alias can point at each other (A
	// merged into B, then A absorbing B): every member of such a cycle
	// resolves to its smallest id, so they show as one mode.
	seen := map[string]int{}
	var path []string
	for cur := id; cur != ""; cur = next(cur) {
		if i, ok := seen[cur]; ok {
			return slices.Min(path[i:])
		}
		seen[cur] = len(path)
		path = append(path, cur)
	}
	return path[len(path)-1]
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
	s.mu.Lock()
	for a, t := range aliases {
		s.aliases[a] = t
	}
	s.recomputeEffective()
	s.mu.Unlock()
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
