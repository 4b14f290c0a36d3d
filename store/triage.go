package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"sandtrap"
	"sandtrap/triage"
)

// effMode is a failure mode with every decision applied: root is the mode
// that absorbs it through merges, and Effective is the root as people see it.
type effMode struct {
	root int32 // index into Store.modes, or -1 when the root was never seen
	triage.Effective
}

// loadDecisions reads every triage decision. Callers hold no lock.
func (s *Store) loadDecisions(ctx context.Context) error {
	rows, err := s.reader.QueryContext(ctx, `SELECT mode_id, layer, primitive, severity, title, status, merged_into, owner FROM decisions`)
	if err != nil {
		return errorf("loading decisions: %w", err)
	}
	defer rows.Close()
	s.decisions = map[string]triage.Decision{}
	for rows.Next() {
		var (
			id string
			d  triage.Decision
		)
		if err := rows.Scan(&id, &d.Layer, &d.Primitive, &d.Severity, &d.Title, &d.Status, &d.MergedInto, &d.Owner); err != nil {
			return errorf("loading decisions: %w", err)
		}
		s.decisions[id] = d
	}
	if err := rows.Err(); err != nil {
		return errorf("loading decisions: %w", err)
	}
	s.recomputeEffective()
	return nil
}

// recomputeEffective applies the decisions to every mode. Callers hold mu
// for writing (or are opening the store).
func (s *Store) recomputeEffective() {
	s.decisionsVersion++
	s.eff = s.eff[:0]
	for i := range s.modes {
		s.eff = append(s.eff, s.effectiveOf(int32(i)))
	}
}

// effectiveOf applies the decisions to one mode. Callers hold mu.
func (s *Store) effectiveOf(m int32) effMode {
	rootID := s.resolveRoot(s.modes[m].ID)
	root, ok := s.modeIdx[rootID]
	facts := triage.Facts{ID: rootID}
	if ok {
		rm := s.modes[root]
		facts.Layer, facts.Primitive, facts.Signature = rm.Layer, rm.Primitive, rm.Signature
	} else {
		root = -1
		mm := s.modes[m]
		facts.Layer, facts.Primitive, facts.Signature = mm.Layer, mm.Primitive, mm.Signature
	}
	return effMode{root: root, Effective: triage.Apply(facts, s.decisions[rootID], "")}
}

// isMergeTarget reports whether a decision merges some mode into id.
// Callers hold mu.
func (s *Store) isMergeTarget(id string) bool {
	for _, d := range s.decisions {
		if d.MergedInto == id {
			return true
		}
	}
	return false
}

// modeOf returns a mode as the domain sees it, with the members merged
// into it when withMembers is set. Callers hold mu.
func (s *Store) modeOf(id string, withMembers bool) (sandtrap.Mode, bool) {
	i, ok := s.modeIndex(id)
	if !ok {
		return sandtrap.Mode{}, false
	}
	e := s.eff[i]
	m := sandtrap.Mode{
		ID: e.ID, Layer: e.Layer, Primitive: e.Primitive, Signature: e.Signature, ClassifiedBy: e.ClassifiedBy,
		Title: e.Title, Severity: e.Severity, SeverityReason: e.SeverityReason, Status: e.Status, Owner: e.Owner,
		FirstSeen: s.modes[i].FirstSeen,
	}
	m.Members = append(m.Members, e.ID)
	if !withMembers {
		return m, true
	}
	for j := range s.modes {
		if s.eff[j].ID == e.ID && s.modes[j].ID != e.ID {
			m.Members = append(m.Members, s.modes[j].ID)
			if s.modes[j].FirstSeen.Before(m.FirstSeen) {
				m.FirstSeen = s.modes[j].FirstSeen
			}
		}
	}
	return m, true
}

// FindMode returns a failure mode by id, with its decisions applied. The id
// of a mode merged into another finds the other.
func (s *Store) FindMode(ctx context.Context, id string) (sandtrap.Mode, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	i, ok := s.modeIndex(id)
	if !ok {
		return sandtrap.Mode{}, sandtrap.Errorf(sandtrap.ENOTFOUND, "failure mode %q not found", id)
	}
	m, ok := s.modeOf(s.eff[i].ID, true)
	if !ok {
		// Merged into a mode no served file has: show the member itself.
		m, _ = s.modeOf(id, true)
	}
	return m, nil
}

// Triage is one change to a failure mode's decision. Nil fields stay as
// they are.
type Triage struct {
	Layer, Primitive *string
	Severity         *string
	Title            *string
	Status           *string
	Owner            *string
}

// validate refuses values outside the vocabulary, naming them.
func (t Triage) validate() error {
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
func (s *Store) UpdateMode(ctx context.Context, id string, t Triage) (sandtrap.Mode, error) {
	if err := s.writable(); err != nil {
		return sandtrap.Mode{}, err
	}
	if err := t.validate(); err != nil {
		return sandtrap.Mode{}, err
	}
	root, err := s.rootOf(id)
	if err != nil {
		return sandtrap.Mode{}, err
	}
	var sets []string
	var args []any
	var what []string
	add := func(col string, v *string, label string) {
		if v != nil {
			sets = append(sets, col+" = ?")
			args = append(args, *v)
			what = append(what, fmt.Sprintf("%s → %s", label, orNone(*v)))
		}
	}
	add("layer", t.Layer, "layer")
	add("primitive", t.Primitive, "primitive")
	add("severity", t.Severity, "severity")
	add("title", t.Title, "title")
	add("status", t.Status, "status")
	add("owner", t.Owner, "owner")
	if len(sets) == 0 {
		return sandtrap.Mode{}, sandtrap.Errorf(sandtrap.EINVALID, "nothing to change")
	}
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		now := time.Now().UTC().Format(time.RFC3339Nano)
		if _, err := tx.ExecContext(ctx, `INSERT INTO decisions (mode_id, updated_at) VALUES (?, ?) ON CONFLICT (mode_id) DO NOTHING`, root, now); err != nil {
			return err
		}
		q := `UPDATE decisions SET ` + strings.Join(sets, ", ") + `, updated_at = ? WHERE mode_id = ?`
		if _, err := tx.ExecContext(ctx, q, append(args, now, root)...); err != nil {
			return err
		}
		return record(ctx, tx, root, strings.Join(what, "; "), now)
	})
	if err != nil {
		return sandtrap.Mode{}, errorf("triaging %s: %w", root, err)
	}
	return s.reloadDecisions(ctx, root)
}

func orNone(s string) string {
	if s == "" {
		return "(classifier's)"
	}
	return s
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
	intoRoot, err := s.rootOf(into)
	if err != nil {
		return sandtrap.Mode{}, err
	}
	roots := make([]string, len(from))
	for i, f := range from {
		if roots[i], err = s.rootOf(f); err != nil {
			return sandtrap.Mode{}, err
		}
	}
	if len(from) == 1 && roots[0] == intoRoot {
		return sandtrap.Mode{}, sandtrap.Errorf(sandtrap.ECONFLICT, "%s and %s are already one mode", from[0], into)
	}
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		// Another merge may have committed since the roots were read:
		// read them again where no other write can come between.
		if intoRoot, err = rootInTx(ctx, tx, intoRoot); err != nil {
			return err
		}
		now := time.Now().UTC().Format(time.RFC3339Nano)
		for i, root := range roots {
			fromRoot, err := rootInTx(ctx, tx, root)
			if err != nil {
				return err
			}
			if fromRoot == intoRoot {
				if len(roots) == 1 {
					return sandtrap.Errorf(sandtrap.ECONFLICT, "%s and %s are already one mode", from[i], into)
				}
				continue
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO decisions (mode_id, merged_into, updated_at) VALUES (?, ?, ?)
				ON CONFLICT (mode_id) DO UPDATE SET merged_into = excluded.merged_into, updated_at = excluded.updated_at`, fromRoot, intoRoot, now); err != nil {
				return err
			}
			for _, h := range [][2]string{{intoRoot, "merged " + fromRoot + " into this mode"}, {fromRoot, "merged into " + intoRoot}} {
				if err := record(ctx, tx, h[0], h[1], now); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return sandtrap.Mode{}, errorf("merging %s into %s: %w", strings.Join(from, ", "), intoRoot, err)
	}
	return s.reloadDecisions(ctx, intoRoot)
}

// SplitMode takes a member back out of the mode it was merged into; it
// becomes a mode of its own again, keeping its own decisions.
func (s *Store) SplitMode(ctx context.Context, member string) (sandtrap.Mode, error) {
	if err := s.writable(); err != nil {
		return sandtrap.Mode{}, err
	}
	s.mu.RLock()
	_, known := s.modeIdx[member]
	s.mu.RUnlock()
	if !known {
		return sandtrap.Mode{}, sandtrap.Errorf(sandtrap.ENOTFOUND, "failure mode %q not found", member)
	}
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		into, err := mergedInto(ctx, tx, member)
		if err != nil {
			return err
		}
		if into == "" {
			return sandtrap.Errorf(sandtrap.ECONFLICT, "%s is not merged into another mode", member)
		}
		now := time.Now().UTC().Format(time.RFC3339Nano)
		if _, err := tx.ExecContext(ctx, `UPDATE decisions SET merged_into = '', updated_at = ? WHERE mode_id = ?`, now, member); err != nil {
			return err
		}
		for _, h := range [][2]string{{into, "split " + member + " out"}, {member, "split out of " + into}} {
			if err := record(ctx, tx, h[0], h[1], now); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return sandtrap.Mode{}, errorf("splitting %s: %w", member, err)
	}
	return s.reloadDecisions(ctx, member)
}

// record adds a line to a mode's history, naming who acts in ctx.
func record(ctx context.Context, tx *sql.Tx, modeID, what, at string) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO history (mode_id, what, who, created_at) VALUES (?, ?, ?, ?)`, modeID, what, sandtrap.Actor(ctx), at)
	return err
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
	root, err := s.rootOf(id)
	if err != nil {
		return err
	}
	_, err = s.writer.ExecContext(ctx, `INSERT INTO notes (mode_id, body, who, created_at) VALUES (?, ?, ?, ?)`,
		root, body, sandtrap.Actor(ctx), time.Now().UTC().Format(time.RFC3339Nano))
	if err != nil {
		return errorf("adding a note to %s: %w", root, s.fullDisk(err, "The note"))
	}
	return nil
}

// ModeNotes returns a mode's notes, oldest first, including those left on
// modes merged into it.
func (s *Store) ModeNotes(ctx context.Context, m sandtrap.Mode) ([]sandtrap.Note, []sandtrap.Event, error) {
	tx, err := s.reader.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, nil, errorf("reading notes of %s: %w", m.ID, err)
	}
	defer tx.Rollback()
	notes, err := findNotes(ctx, tx, m.Members)
	if err != nil {
		return nil, nil, errorf("reading notes of %s: %w", m.ID, err)
	}
	events, err := findHistory(ctx, tx, m.Members)
	if err != nil {
		return nil, nil, errorf("reading the history of %s: %w", m.ID, err)
	}
	return notes, events, nil
}

// inList returns the placeholders and arguments of an SQL IN list of ids.
func inList(ids []string) (string, []any) {
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	return strings.TrimSuffix(strings.Repeat("?,", len(ids)), ","), args
}

// findNotes returns the notes on any of the modes, oldest first.
func findNotes(ctx context.Context, tx *sql.Tx, modeIDs []string) ([]sandtrap.Note, error) {
	in, args := inList(modeIDs)
	rows, err := tx.QueryContext(ctx, `SELECT body, who, created_at FROM notes WHERE mode_id IN (`+in+`) ORDER BY id`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var notes []sandtrap.Note
	for rows.Next() {
		var (
			n  sandtrap.Note
			at string
		)
		if err := rows.Scan(&n.Body, &n.Who, &at); err != nil {
			return nil, err
		}
		n.CreatedAt = parseTime(at)
		notes = append(notes, n)
	}
	return notes, rows.Err()
}

// findHistory returns what was done to any of the modes, oldest first.
func findHistory(ctx context.Context, tx *sql.Tx, modeIDs []string) ([]sandtrap.Event, error) {
	in, args := inList(modeIDs)
	rows, err := tx.QueryContext(ctx, `SELECT what, who, created_at FROM history WHERE mode_id IN (`+in+`) ORDER BY id`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var events []sandtrap.Event
	for rows.Next() {
		var (
			e  sandtrap.Event
			at string
		)
		if err := rows.Scan(&e.What, &e.Who, &at); err != nil {
			return nil, err
		}
		e.CreatedAt = parseTime(at)
		events = append(events, e)
	}
	return events, rows.Err()
}

// mergedInto returns the mode that id is merged into as the state holds it
// now, or "" when it is merged into none.
func mergedInto(ctx context.Context, tx *sql.Tx, id string) (string, error) {
	var into string
	err := tx.QueryRowContext(ctx, `SELECT merged_into FROM decisions WHERE mode_id = ?`, id).Scan(&into)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return into, err
}

// rootInTx returns the mode that absorbs id through merges, read in tx.
func rootInTx(ctx context.Context, tx *sql.Tx, id string) (string, error) {
	var firstErr error
	root := triage.Root(id, func(m string) string {
		into, err := mergedInto(ctx, tx, m)
		if err != nil && firstErr == nil {
			firstErr = err
		}
		return into
	})
	return root, firstErr
}

// rootOf returns the id of the mode that absorbs id through merges and
// aliases.
func (s *Store) rootOf(id string) (string, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	i, ok := s.modeIndex(id)
	if !ok {
		return "", sandtrap.Errorf(sandtrap.ENOTFOUND, "failure mode %q not found", id)
	}
	return s.eff[i].ID, nil
}

// reloadDecisions rereads the decisions after a change and returns the
// mode id as it now stands.
func (s *Store) reloadDecisions(ctx context.Context, id string) (sandtrap.Mode, error) {
	if err := s.refreshDecisions(ctx); err != nil {
		return sandtrap.Mode{}, err
	}
	return s.FindMode(ctx, id)
}

// refreshDecisions rereads every decision and swaps them in under mu.
// Refreshes take turns, so that an older read never replaces a newer one.
func (s *Store) refreshDecisions(ctx context.Context) error {
	s.reloadMu.Lock()
	defer s.reloadMu.Unlock()
	rows, err := s.writer.QueryContext(ctx, `SELECT mode_id, layer, primitive, severity, title, status, merged_into, owner FROM decisions`)
	if err != nil {
		return errorf("reloading decisions: %w", err)
	}
	decisions := map[string]triage.Decision{}
	for rows.Next() {
		var (
			mid string
			d   triage.Decision
		)
		if err := rows.Scan(&mid, &d.Layer, &d.Primitive, &d.Severity, &d.Title, &d.Status, &d.MergedInto, &d.Owner); err != nil {
			rows.Close()
			return errorf("reloading decisions: %w", err)
		}
		decisions[mid] = d
	}
	if err := rows.Err(); err != nil {
		rows.Close()
		return errorf("reloading decisions: %w", err)
	}
	rows.Close()
	s.mu.Lock()
	s.decisions = decisions
	s.recomputeEffective()
	s.mu.Unlock()
	if s.opts.OnChange != nil {
		s.opts.OnChange(Change{Triage: true})
	}
	return nil
}

// inTx runs fn in one transaction on the state's writer.
func (s *Store) inTx(ctx context.Context, fn func(*sql.Tx) error) error {
	return s.fullDisk(inTx(ctx, s.writer, fn), "The change")
}

// writable refuses every change when the store serves read-only.
func (s *Store) writable() error {
	if s.opts.ReadOnly {
		return sandtrap.Errorf(sandtrap.EFORBIDDEN, "sandtrap is serving read-only (--read-only): triage changes are refused")
	}
	return nil
}
