package state

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"sandtrap"
	"sandtrap/store/internal/sqlitex"
	"sandtrap/triage"
)

// Decisions are what people decided about failure modes: their triage,
// their merges, notes, and the history of every change. Modes are named by
// the id of the root of their merges; the caller resolves it.
type Decisions struct{ db *DB }

// Decisions returns the decisions of db.
func (db *DB) Decisions() Decisions { return Decisions{db} }

// All reads every decision, by mode id. It reads through the writer, so
// that a change just committed is always in it.
func (d Decisions) All(ctx context.Context) (map[string]triage.Decision, error) {
	rows, err := d.db.writer.QueryContext(ctx, `SELECT mode_id, layer, primitive, severity, title, status, merged_into, owner FROM decisions`)
	if err != nil {
		return nil, errorf("loading decisions: %w", err)
	}
	defer rows.Close()
	out := map[string]triage.Decision{}
	for rows.Next() {
		var (
			id  string
			dec triage.Decision
		)
		if err := rows.Scan(&id, &dec.Layer, &dec.Primitive, &dec.Severity, &dec.Title, &dec.Status, &dec.MergedInto, &dec.Owner); err != nil {
			return nil, errorf("loading decisions: %w", err)
		}
		out[id] = dec
	}
	if err := rows.Err(); err != nil {
		return nil, errorf("loading decisions: %w", err)
	}
	return out, nil
}

// Update applies a triage change to the mode root and records it in the
// history, with who acts in ctx. The last write of each field wins.
func (d Decisions) Update(ctx context.Context, root string, t sandtrap.Triage) error {
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
		return sandtrap.Errorf(sandtrap.EINVALID, "nothing to change")
	}
	err := d.db.inTx(ctx, func(tx *sql.Tx) error {
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
		return errorf("triaging %s: %w", root, err)
	}
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "(classifier's)"
	}
	return s
}

// Merge merges the modes of roots (the roots of the modes from, as the
// caller read them) into the mode intoRoot (the root of into), in one
// transaction: all of them or none. The roots are read again in it, as
// another merge may have committed since. A mode already one with into is
// left as it is, unless it is the only one asked for. It returns the root
// that absorbed them.
func (d Decisions) Merge(ctx context.Context, from, roots []string, into, intoRoot string) (string, error) {
	err := d.db.inTx(ctx, func(tx *sql.Tx) error {
		var err error
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
		return "", errorf("merging %s into %s: %w", strings.Join(from, ", "), intoRoot, err)
	}
	return intoRoot, nil
}

// Split takes a member back out of the mode it was merged into; it becomes
// a mode of its own again, keeping its own decisions.
func (d Decisions) Split(ctx context.Context, member string) error {
	err := d.db.inTx(ctx, func(tx *sql.Tx) error {
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
		return errorf("splitting %s: %w", member, err)
	}
	return nil
}

// record adds a line to a mode's history, naming who acts in ctx.
func record(ctx context.Context, tx *sql.Tx, modeID, what, at string) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO history (mode_id, what, who, created_at) VALUES (?, ?, ?, ?)`, modeID, what, sandtrap.Actor(ctx), at)
	return err
}

// AddNote appends a note to the mode root, naming who acts in ctx: notes
// are never overwritten.
func (d Decisions) AddNote(ctx context.Context, root, body string) error {
	_, err := d.db.writer.ExecContext(ctx, `INSERT INTO notes (mode_id, body, who, created_at) VALUES (?, ?, ?, ?)`,
		root, body, sandtrap.Actor(ctx), time.Now().UTC().Format(time.RFC3339Nano))
	if err != nil {
		return errorf("adding a note to %s: %w", root, d.db.fullDisk(err, "The note"))
	}
	return nil
}

// Notes returns the notes and the history of any of the modes members,
// oldest first, read in one transaction; id names the mode in errors.
func (d Decisions) Notes(ctx context.Context, id string, members []string) ([]sandtrap.Note, []sandtrap.Event, error) {
	tx, err := d.db.reader.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, nil, errorf("reading notes of %s: %w", id, err)
	}
	defer tx.Rollback()
	notes, err := findNotes(ctx, tx, members)
	if err != nil {
		return nil, nil, errorf("reading notes of %s: %w", id, err)
	}
	events, err := findHistory(ctx, tx, members)
	if err != nil {
		return nil, nil, errorf("reading the history of %s: %w", id, err)
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
		n.CreatedAt = sqlitex.ParseTime(at)
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
		e.CreatedAt = sqlitex.ParseTime(at)
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

// FixedAt returns when each mode now marked fixed was last marked so, from
// the triage history, by the mode id the history names.
func (d Decisions) FixedAt(ctx context.Context) (map[string]time.Time, error) {
	// Update writes "status → fixed" into the history, alone or with
	// other changes of the same decision.
	rows, err := d.db.reader.QueryContext(ctx, `SELECT h.mode_id, max(h.created_at) FROM history h
		JOIN decisions d ON d.mode_id = h.mode_id AND d.status = 'fixed'
		WHERE h.what LIKE '%status → fixed%' GROUP BY h.mode_id`)
	if err != nil {
		return nil, errorf("reading when modes were marked fixed: %w", err)
	}
	defer rows.Close()
	out := map[string]time.Time{}
	for rows.Next() {
		var id, at string
		if err := rows.Scan(&id, &at); err != nil {
			return nil, errorf("reading when modes were marked fixed: %w", err)
		}
		out[id] = sqlitex.ParseTime(at)
	}
	if err := rows.Err(); err != nil {
		return nil, errorf("reading when modes were marked fixed: %w", err)
	}
	return out, nil
}
