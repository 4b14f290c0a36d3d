package state

import (
	"context"
	"database/sql"
	"maps"
	"slices"
	"strings"
	"time"

	"sandtrap"
	"sandtrap/store/internal/sqlitex"
	"sandtrap/triage"
)

// Templates are the failure-mode templates a triage.Grouper mined, the
// aliases of those it absorbed, and the decisions that wait to follow
// their failures to the modes of a new classifier.
type Templates struct{ db *DB }

// Templates returns the templates of db.
func (db *DB) Templates() Templates { return Templates{db} }

// Load returns the saved templates, in the order they were made, and
// whether people's decisions wait to be carried over to a new classifier.
func (t Templates) Load(ctx context.Context) (_ []triage.SavedTemplate, carryPending bool, _ error) {
	rows, err := t.db.reader.QueryContext(ctx, `SELECT id, layer, primitive, template, tokens, count, seq, context, log_words, tool, decided FROM templates ORDER BY seq`)
	if err != nil {
		return nil, false, errorf("loading templates: %w", err)
	}
	defer rows.Close()
	var out []triage.SavedTemplate
	for rows.Next() {
		var (
			st       triage.SavedTemplate
			logWords string
		)
		if err := rows.Scan(&st.ID, &st.Layer, &st.Primitive, &st.Template, &st.Tokens, &st.Count, &st.Seq, &st.Context, &logWords, &st.Tool, &st.Decided); err != nil {
			return nil, false, errorf("loading templates: %w", err)
		}
		st.LogWords = strings.Fields(logWords)
		out = append(out, st)
	}
	if err := rows.Err(); err != nil {
		return nil, false, errorf("loading templates: %w", err)
	}
	var pending int
	if err := t.db.reader.QueryRowContext(ctx, `SELECT count(*) FROM carry`).Scan(&pending); err != nil {
		return nil, false, errorf("loading decisions to carry over: %w", err)
	}
	return out, pending > 0, nil
}

// Aliases returns the saved aliases: the mode each absorbed or carried
// over mode resolves to.
func (t Templates) Aliases(ctx context.Context) (map[string]string, error) {
	rows, err := t.db.reader.QueryContext(ctx, `SELECT alias, target FROM aliases`)
	if err != nil {
		return nil, errorf("loading aliases: %w", err)
	}
	defer rows.Close()
	aliases := map[string]string{}
	for rows.Next() {
		var alias, target string
		if err := rows.Scan(&alias, &target); err != nil {
			return nil, errorf("loading aliases: %w", err)
		}
		aliases[alias] = target
	}
	if err := rows.Err(); err != nil {
		return nil, errorf("loading aliases: %w", err)
	}
	return aliases, nil
}

// CarryOver moves people's decisions from the modes of the old classifier
// to the new modes of the same failures, once no source of reading still
// waits to be read again: each old mode goes to the new mode that most of
// its failures fell into, and becomes an alias of it. done says the
// carry-over happened; moved is how many modes it moved.
func (t Templates) CarryOver(ctx context.Context, reading []int64) (moved int, done bool, _ error) {
	err := sqlitex.InTx(ctx, t.db.writer, func(tx *sql.Tx) error {
		for _, id := range reading {
			var waiting int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM carry WHERE source_id = ?`, id).Scan(&waiting); err != nil {
				return errorf("carrying decisions over: %w", err)
			}
			if waiting > 0 {
				return errNotYet
			}
		}
		target, order, err := carryTargets(ctx, tx)
		if err != nil {
			return errorf("carrying decisions over: %w", err)
		}
		live, err := liveModes(ctx, tx)
		if err != nil {
			return err
		}
		now := time.Now().UTC().Format(time.RFC3339)
		for _, old := range order {
			to, err := aliasTarget(ctx, tx, target[old])
			if err != nil {
				return err
			}
			// An old id that the new classifier gives failures too is a
			// mode of its own, not an alias.
			if to == old || live[old] {
				continue
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO aliases (alias, target, reason, created_at) VALUES (?, ?, 'upgrade', ?)
				ON CONFLICT (alias) DO UPDATE SET target = excluded.target`, old, to, now); err != nil {
				return errorf("carrying decisions over: %w", err)
			}
			resolve := func(id string) string {
				if t := target[id]; t != "" {
					return t
				}
				return id
			}
			if err := carryDecisions(ctx, tx, old, to, "carried over from "+old+", the mode these failures had before the classifier changed", resolve); err != nil {
				return err
			}
			moved++
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM carry`); err != nil {
			return errorf("carrying decisions over: %w", err)
		}
		return nil
	})
	if err == errNotYet {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	return moved, true, nil
}

// persistTemplates saves the templates and aliases not saved yet in tx.
func persistTemplates(ctx context.Context, tx *sql.Tx, templates map[string]triage.SavedTemplate, aliases map[string]string) error {
	for _, t := range templates {
		if _, err := tx.ExecContext(ctx, `INSERT INTO templates (id, layer, primitive, template, tokens, count, seq, context, log_words, tool, decided) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (id) DO UPDATE SET template = excluded.template, tokens = excluded.tokens, count = excluded.count`,
			t.ID, t.Layer, t.Primitive, t.Template, t.Tokens, t.Count, t.Seq, t.Context, strings.Join(t.LogWords, " "), t.Tool, t.Decided); err != nil {
			return errorf("saving template %s: %w", t.ID, err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE modes SET signature = ? WHERE id = ?`, t.Template, t.ID); err != nil {
			return errorf("saving the signature of %s: %w", t.ID, err)
		}
	}
	now := time.Now().UTC().Format(time.RFC3339)
	for alias, target := range aliases {
		if _, err := tx.ExecContext(ctx, `DELETE FROM templates WHERE id = ?`, alias); err != nil {
			return errorf("saving alias %s: %w", alias, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO aliases (alias, target, reason, created_at) VALUES (?, ?, 'absorbed', ?)
			ON CONFLICT (alias) DO UPDATE SET target = excluded.target`, alias, target, now); err != nil {
			return errorf("saving alias %s: %w", alias, err)
		}
		resolve := func(id string) string {
			if t := aliases[id]; t != "" {
				return t
			}
			return id
		}
		if err := carryDecisions(ctx, tx, alias, target, "absorbed by "+target+" as its template generalised", resolve); err != nil {
			return err
		}
	}
	return nil
}

// captureCarry records, before a re-read under a new classifier, the old
// mode of every failure, so that each old mode can resolve to a new one
// and what people decided on it can follow.
func captureCarry(ctx context.Context, tx *sql.Tx) error {
	type old struct {
		sourceID, resultID int64
		mode               string
	}
	var olds []old
	err := eachSavedFailure(ctx, tx, `SELECT source_id, run_id, data FROM failure_chunks`, nil, func(sourceID int64, _ string, f Failure) error {
		olds = append(olds, old{sourceID, f.ID, f.ModeID})
		return nil
	})
	if err != nil {
		return errorf("keeping people's decisions for the new classifier: %w", err)
	}
	stmt, err := tx.PrepareContext(ctx, `INSERT OR IGNORE INTO carry (source_id, result_id, old_mode) VALUES (?, ?, ?)`)
	if err != nil {
		return errorf("keeping people's decisions for the new classifier: %w", err)
	}
	defer stmt.Close()
	for _, o := range olds {
		if _, err := stmt.ExecContext(ctx, o.sourceID, o.resultID, o.mode); err != nil {
			return errorf("keeping people's decisions for the new classifier: %w", err)
		}
	}
	return nil
}

// carryTargets returns, for each old mode in carry, the new mode most of
// its failures have now (the smallest id among equals), and the old modes
// in order.
func carryTargets(ctx context.Context, tx *sql.Tx) (map[string]string, []string, error) {
	type key struct{ sourceID, resultID int64 }
	olds := map[key]string{}
	rows, err := tx.QueryContext(ctx, `SELECT source_id, result_id, old_mode FROM carry`)
	if err != nil {
		return nil, nil, err
	}
	for rows.Next() {
		var (
			k   key
			old string
		)
		if err := rows.Scan(&k.sourceID, &k.resultID, &old); err != nil {
			rows.Close()
			return nil, nil, err
		}
		olds[k] = old
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	type move struct{ old, now string }
	counts := map[move]int{}
	err = eachSavedFailure(ctx, tx, `SELECT source_id, run_id, data FROM failure_chunks`, nil, func(sourceID int64, _ string, f Failure) error {
		if old, ok := olds[key{sourceID, f.ID}]; ok {
			counts[move{old, f.ModeID}]++
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	target := map[string]string{}
	for m, n := range counts {
		best, ok := target[m.old]
		if !ok || n > counts[move{m.old, best}] || n == counts[move{m.old, best}] && m.now < best {
			target[m.old] = m.now
		}
	}
	order := slices.Sorted(maps.Keys(target))
	return target, order, nil
}

// liveModes returns the modes some failure has now: the saved counts hold
// a cell for each.
func liveModes(ctx context.Context, tx *sql.Tx) (map[string]bool, error) {
	rows, err := tx.QueryContext(ctx, `SELECT DISTINCT mode_id FROM counts WHERE mode_id != ''`)
	if err != nil {
		return nil, errorf("carrying decisions over: %w", err)
	}
	defer rows.Close()
	live := map[string]bool{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, errorf("carrying decisions over: %w", err)
		}
		live[id] = true
	}
	if err := rows.Err(); err != nil {
		return nil, errorf("carrying decisions over: %w", err)
	}
	return live, nil
}

// aliasTarget follows the saved aliases from id to the mode that absorbed
// it, so that decisions never land on an alias.
func aliasTarget(ctx context.Context, tx *sql.Tx, id string) (string, error) {
	seen := map[string]bool{id: true}
	for {
		var next string
		err := tx.QueryRowContext(ctx, `SELECT target FROM aliases WHERE alias = ?`, id).Scan(&next)
		if err == sql.ErrNoRows || seen[next] {
			return id, nil
		}
		if err != nil {
			return "", errorf("carrying decisions over: %w", err)
		}
		seen[next] = true
		id = next
	}
}

// errNotYet rolls back a carry-over that must wait for files still being
// read.
var errNotYet = errorf("not every file is read again yet")

// carryDecisions gives mode to what people decided on mode from: each field
// of from's decision that to has not decided, its notes, its history, its
// ticket if to has none, and its filings; and records that it did.
//
// newID maps an old mode to its new one, so that a merge into a mode that
// is now to itself is dropped.
func carryDecisions(ctx context.Context, tx *sql.Tx, from, to, why string, newID func(string) string) error {
	var d, e triage.Decision
	carried := false
	err := tx.QueryRowContext(ctx, `SELECT layer, primitive, severity, title, status, merged_into, owner FROM decisions WHERE mode_id = ?`, from).
		Scan(&d.Layer, &d.Primitive, &d.Severity, &d.Title, &d.Status, &d.MergedInto, &d.Owner)
	switch {
	case err == sql.ErrNoRows:
	case err != nil:
		return errorf("carrying the decisions of %s over: %w", from, err)
	default:
		err := tx.QueryRowContext(ctx, `SELECT layer, primitive, severity, title, status, merged_into, owner FROM decisions WHERE mode_id = ?`, to).
			Scan(&e.Layer, &e.Primitive, &e.Severity, &e.Title, &e.Status, &e.MergedInto, &e.Owner)
		if err != nil && err != sql.ErrNoRows {
			return errorf("carrying the decisions of %s over: %w", from, err)
		}
		for _, x := range []*triage.Decision{&d, &e} {
			if x.MergedInto != "" {
				x.MergedInto = newID(x.MergedInto)
			}
		}
		e = e.CarriedFrom(d, to)
		if _, err := tx.ExecContext(ctx, `INSERT INTO decisions (mode_id, layer, primitive, severity, title, status, merged_into, owner, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (mode_id) DO UPDATE SET layer = excluded.layer, primitive = excluded.primitive,
			severity = excluded.severity, title = excluded.title, status = excluded.status, merged_into = excluded.merged_into,
			owner = excluded.owner, updated_at = excluded.updated_at`,
			to, e.Layer, e.Primitive, e.Severity, e.Title, e.Status, e.MergedInto, e.Owner, time.Now().UTC().Format(time.RFC3339)); err != nil {
			return errorf("carrying the decisions of %s over: %w", from, err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM decisions WHERE mode_id = ?`, from); err != nil {
			return errorf("carrying the decisions of %s over: %w", from, err)
		}
		carried = true
	}
	for _, q := range []string{
		`UPDATE notes SET mode_id = ? WHERE mode_id = ?`,
		`UPDATE history SET mode_id = ? WHERE mode_id = ?`,
		`UPDATE outbox SET mode_id = ? WHERE mode_id = ?`,
		`UPDATE OR IGNORE tickets SET mode_id = ? WHERE mode_id = ?`,
	} {
		res, err := tx.ExecContext(ctx, q, to, from)
		if err != nil {
			return errorf("carrying the decisions of %s over: %w", from, err)
		}
		if n, _ := res.RowsAffected(); n > 0 {
			carried = true
		}
	}
	if !carried {
		return nil
	}
	// sandtrap carries them over, whoever's request it happens in.
	if err := record(sandtrap.WithActor(ctx, sandtrap.ActorSandtrap), tx, to, strings.TrimSpace(why), time.Now().UTC().Format(time.RFC3339)); err != nil {
		return errorf("carrying the decisions of %s over: %w", from, err)
	}
	return nil
}
