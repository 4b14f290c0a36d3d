package state

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"

	"sandtrap"
	"sandtrap/filing"
	"sandtrap/store/internal/sqlitex"
)

// Outbox is the filing outbox: the intent to file a mode in its team's
// tracker, until a call to the tracker succeeds, and the tickets it made.
type Outbox struct{ db *DB }

// Outbox returns the filing outbox of db.
func (db *DB) Outbox() Outbox { return Outbox{db} }

// Enqueue records the intent to file a mode, with who acts in ctx in
// the outbox and the mode's history, or returns the filing already waiting
// for it, so that asking twice files once.
func (o Outbox) Enqueue(ctx context.Context, root, team string, now time.Time) (filing.Filing, error) {
	var fl filing.Filing
	err := o.db.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		fl, err = scanFiling(tx.QueryRowContext(ctx, filingColumns+` FROM outbox WHERE mode_id = ? AND state IN ('pending', 'sending') ORDER BY id LIMIT 1`, root))
		if err == nil {
			return nil
		} else if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO outbox (mode_id, team, state, next_at, who, created_at, updated_at) VALUES (?, ?, 'pending', ?, ?, ?, ?)`,
			root, team, stamp(now), sandtrap.Actor(ctx), stamp(now), stamp(now))
		if err != nil {
			return err
		}
		what := "asked to file it to its owner's tracker"
		if team != "" {
			what = "asked to file it to " + team
		}
		if err := record(ctx, tx, root, what, stamp(now)); err != nil {
			return err
		}
		id, err := res.LastInsertId()
		if err != nil {
			return err
		}
		fl = filing.Filing{ID: id, ModeID: root, Team: team, State: filing.StatePending, NextAt: now, UpdatedAt: now}
		return nil
	})
	if err != nil {
		return filing.Filing{}, errorf("queueing the filing of %s: %w", root, err)
	}
	return fl, nil
}

const filingColumns = `SELECT id, mode_id, team, state, attempts, next_at, action, last_error, updated_at`

type rowScanner interface{ Scan(dest ...any) error }

func scanFiling(r rowScanner) (filing.Filing, error) {
	var (
		fl             filing.Filing
		next, upd, act string
	)
	if err := r.Scan(&fl.ID, &fl.ModeID, &fl.Team, &fl.State, &fl.Attempts, &next, &act, &fl.LastError, &upd); err != nil {
		return fl, err
	}
	fl.NextAt, fl.UpdatedAt, fl.Action = sqlitex.ParseTime(next), sqlitex.ParseTime(upd), filing.Action(act)
	return fl, nil
}

// Due lists the pending filings whose time has come, and those a
// stop left sending.
func (o Outbox) Due(ctx context.Context, now time.Time) ([]filing.Filing, error) {
	rows, err := o.db.reader.QueryContext(ctx, filingColumns+` FROM outbox
		WHERE state = 'sending' OR (state = 'pending' AND next_at <= ?) ORDER BY id`, stamp(now))
	if err != nil {
		return nil, errorf("reading the outbox: %w", err)
	}
	defer rows.Close()
	var out []filing.Filing
	for rows.Next() {
		fl, err := scanFiling(rows)
		if err != nil {
			return nil, errorf("reading the outbox: %w", err)
		}
		out = append(out, fl)
	}
	if err := rows.Err(); err != nil {
		return nil, errorf("reading the outbox: %w", err)
	}
	return out, nil
}

// Latest returns the newest filing of a mode.
func (o Outbox) Latest(ctx context.Context, root string) (filing.Filing, error) {
	fl, err := scanFiling(o.db.reader.QueryRowContext(ctx, filingColumns+` FROM outbox WHERE mode_id = ? ORDER BY id DESC LIMIT 1`, root))
	if errors.Is(err, sql.ErrNoRows) {
		return fl, sandtrap.Errorf(sandtrap.ENOTFOUND, "%s has never been filed", root)
	} else if err != nil {
		return fl, errorf("reading the filings of %s: %w", root, err)
	}
	return fl, nil
}

// MarkSending claims a filing for a call to the tracker, only if it is
// still as the caller read it: two workers never both call.
func (o Outbox) MarkSending(ctx context.Context, id int64, state string, attempts int, now time.Time) (bool, error) {
	res, err := o.db.writer.ExecContext(ctx, `UPDATE outbox SET state = 'sending', attempts = attempts + 1, updated_at = ?
		WHERE id = ? AND state = ? AND attempts = ?`, stamp(now), id, state, attempts)
	if err != nil {
		return false, errorf("marking filing %d: %w", id, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, errorf("marking filing %d: %w", id, err)
	}
	return n == 1, nil
}

// Finish ends a filing and stores its ticket in one transaction.
func (o Outbox) Finish(ctx context.Context, id int64, action filing.Action, t filing.Stored, now time.Time) error {
	snap, err := json.Marshal(t.Snapshot)
	if err != nil {
		return errorf("saving the ticket of %s: %w", t.ModeID, err)
	}
	err = o.db.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE outbox SET state = 'done', action = ?, last_error = '', updated_at = ? WHERE id = ?`,
			string(action), stamp(now), id); err != nil {
			return err
		}
		if t.Key == "" {
			return nil
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO tickets (mode_id, team, tracker, key, url, state, snapshot, filed_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (mode_id) DO UPDATE SET team = excluded.team, tracker = excluded.tracker, key = excluded.key,
				url = excluded.url, state = excluded.state, snapshot = excluded.snapshot, updated_at = excluded.updated_at`,
			t.ModeID, t.Team, t.Tracker, t.Key, t.URL, t.State, string(snap), stamp(t.FiledAt), stamp(now))
		return err
	})
	if err != nil {
		return errorf("saving the ticket of %s: %w", t.ModeID, err)
	}
	return nil
}

// Fail records why a filing failed; a zero retryAt gives it up.
func (o Outbox) Fail(ctx context.Context, id int64, message string, retryAt, now time.Time) error {
	state, next := filing.StateFailed, now
	if !retryAt.IsZero() {
		state, next = filing.StatePending, retryAt
	}
	_, err := o.db.writer.ExecContext(ctx, `UPDATE outbox SET state = ?, next_at = ?, last_error = ?, updated_at = ? WHERE id = ?`,
		state, stamp(next), message, stamp(now), id)
	if err != nil {
		return errorf("recording the failure of filing %d: %w", id, err)
	}
	return nil
}

// Ticket returns a mode's ticket, if it has one.
func (o Outbox) Ticket(ctx context.Context, root string) (filing.Stored, bool, error) {
	t, err := scanTicket(o.db.reader.QueryRowContext(ctx, ticketColumns+` FROM tickets WHERE mode_id = ?`, root))
	if errors.Is(err, sql.ErrNoRows) {
		return filing.Stored{}, false, nil
	} else if err != nil {
		return filing.Stored{}, false, errorf("reading the ticket of %s: %w", root, err)
	}
	return t, true, nil
}

// Tickets returns every ticket, by mode id.
func (o Outbox) Tickets(ctx context.Context) (map[string]filing.Stored, error) {
	rows, err := o.db.reader.QueryContext(ctx, ticketColumns+` FROM tickets`)
	if err != nil {
		return nil, errorf("reading tickets: %w", err)
	}
	defer rows.Close()
	out := map[string]filing.Stored{}
	for rows.Next() {
		t, err := scanTicket(rows)
		if err != nil {
			return nil, errorf("reading tickets: %w", err)
		}
		out[t.ModeID] = t
	}
	if err := rows.Err(); err != nil {
		return nil, errorf("reading tickets: %w", err)
	}
	return out, nil
}

const ticketColumns = `SELECT mode_id, team, tracker, key, url, state, snapshot, filed_at`

func scanTicket(r rowScanner) (filing.Stored, error) {
	var (
		t           filing.Stored
		snap, filed string
	)
	if err := r.Scan(&t.ModeID, &t.Team, &t.Tracker, &t.Key, &t.URL, &t.State, &snap, &filed); err != nil {
		return t, err
	}
	t.FiledAt = sqlitex.ParseTime(filed)
	if err := json.Unmarshal([]byte(snap), &t.Snapshot); err != nil {
		return t, err
	}
	return t, nil
}
