package state

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"

	"sandtrap/alert"
	"sandtrap/store/internal/sqlitex"
)

// Alerts is the alerts' outbox: the runs alerts watch and every send to a
// receiver, until it is delivered.
type Alerts struct{ db *DB }

// Alerts returns the alerts' outbox of db.
func (db *DB) Alerts() Alerts { return Alerts{db} }

// Arm returns when alerts began to watch this state, recording now
// the first time it is asked. A run that finished before then, and was not
// seen live, is history rather than news.
func (a Alerts) Arm(ctx context.Context, now time.Time) (time.Time, error) {
	var at string
	err := a.db.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES ('alerts_armed_at', ?) ON CONFLICT (key) DO NOTHING`, stamp(now)); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'alerts_armed_at'`).Scan(&at)
	})
	if err != nil {
		return time.Time{}, errorf("arming alerts: %w", err)
	}
	return sqlitex.ParseTime(at), nil
}

// Runs returns the runs that alerts watch, each with whether its end
// has been told.
func (a Alerts) Runs(ctx context.Context) (map[string]bool, error) {
	rows, err := a.db.reader.QueryContext(ctx, `SELECT run_id, done_at FROM alert_runs`)
	if err != nil {
		return nil, errorf("reading the runs alerts watch: %w", err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var id, done string
		if err := rows.Scan(&id, &done); err != nil {
			return nil, errorf("reading the runs alerts watch: %w", err)
		}
		out[id] = done != ""
	}
	if err := rows.Err(); err != nil {
		return nil, errorf("reading the runs alerts watch: %w", err)
	}
	return out, nil
}

// Queue records, in one transaction, that alerts watch runID, the
// sends of fires not queued before (a fire already in the outbox, sent or
// not, is skipped), and, when done is set, that the run's end has been
// told. It returns how many sends it queued.
func (a Alerts) Queue(ctx context.Context, runID string, fires []alert.Fire, done bool, now time.Time) (int, error) {
	queued := 0
	err := a.db.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO alert_runs (run_id, seen_at) VALUES (?, ?) ON CONFLICT (run_id) DO NOTHING`, runID, stamp(now)); err != nil {
			return err
		}
		for _, f := range fires {
			msg, err := json.Marshal(f.Message)
			if err != nil {
				return err
			}
			res, err := tx.ExecContext(ctx, `INSERT INTO alert_outbox (alert, event, mode_id, run_id, message, state, next_at, created_at, updated_at)
				VALUES (?, ?, ?, ?, ?, 'pending', ?, ?, ?) ON CONFLICT (alert, event, mode_id, run_id) DO NOTHING`,
				f.Alert, f.Event, f.ModeID, f.RunID, string(msg), stamp(now), stamp(now), stamp(now))
			if err != nil {
				return err
			}
			n, err := res.RowsAffected()
			if err != nil {
				return err
			}
			queued += int(n)
		}
		if done {
			_, err := tx.ExecContext(ctx, `UPDATE alert_runs SET done_at = ? WHERE run_id = ? AND done_at = ''`, stamp(now), runID)
			return err
		}
		return nil
	})
	if err != nil {
		return 0, errorf("queueing the alerts of run %s: %w", runID, err)
	}
	return queued, nil
}

const alertColumns = `SELECT id, alert, event, mode_id, run_id, message, state, attempts, next_at, last_error, updated_at FROM alert_outbox`

func scanAlert(r rowScanner) (alert.Send, error) {
	var (
		a              alert.Send
		msg, next, upd string
	)
	if err := r.Scan(&a.ID, &a.Alert, &a.Event, &a.ModeID, &a.RunID, &msg, &a.State, &a.Attempts, &next, &a.LastError, &upd); err != nil {
		return a, err
	}
	a.NextAt, a.UpdatedAt = sqlitex.ParseTime(next), sqlitex.ParseTime(upd)
	return a, json.Unmarshal([]byte(msg), &a.Message)
}

// Due lists the pending sends whose time has come, and those a stop
// left sending, oldest first.
func (a Alerts) Due(ctx context.Context, now time.Time) ([]alert.Send, error) {
	return a.list(ctx, alertColumns+` WHERE state = 'sending' OR (state = 'pending' AND next_at <= ?) ORDER BY id`, stamp(now))
}

// Sends lists the newest sends, up to limit, newest first.
func (a Alerts) Sends(ctx context.Context, limit int) ([]alert.Send, error) {
	return a.list(ctx, alertColumns+` ORDER BY id DESC LIMIT ?`, limit)
}

func (a Alerts) list(ctx context.Context, query string, args ...any) ([]alert.Send, error) {
	rows, err := a.db.reader.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, errorf("reading the alerts' outbox: %w", err)
	}
	defer rows.Close()
	var out []alert.Send
	for rows.Next() {
		a, err := scanAlert(rows)
		if err != nil {
			return nil, errorf("reading the alerts' outbox: %w", err)
		}
		out = append(out, a)
	}
	if err := rows.Err(); err != nil {
		return nil, errorf("reading the alerts' outbox: %w", err)
	}
	return out, nil
}

// Claim claims a send for a call to its receiver, only if it is still
// as the caller read it: two workers never both send it.
func (a Alerts) Claim(ctx context.Context, id int64, state string, attempts int, now time.Time) (bool, error) {
	res, err := a.db.writer.ExecContext(ctx, `UPDATE alert_outbox SET state = 'sending', attempts = attempts + 1, updated_at = ?
		WHERE id = ? AND state = ? AND attempts = ?`, stamp(now), id, state, attempts)
	if err != nil {
		return false, errorf("claiming alert %d: %w", id, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, errorf("claiming alert %d: %w", id, err)
	}
	return n == 1, nil
}

// Sent records that a send was delivered.
func (a Alerts) Sent(ctx context.Context, id int64, now time.Time) error {
	if _, err := a.db.writer.ExecContext(ctx, `UPDATE alert_outbox SET state = 'sent', last_error = '', updated_at = ? WHERE id = ?`, stamp(now), id); err != nil {
		return errorf("recording alert %d as sent: %w", id, err)
	}
	return nil
}

// Failed records why a send failed; a zero retryAt gives it up.
func (a Alerts) Failed(ctx context.Context, id int64, message string, retryAt, now time.Time) error {
	state, next := alert.StateFailed, now
	if !retryAt.IsZero() {
		state, next = alert.StatePending, retryAt
	}
	_, err := a.db.writer.ExecContext(ctx, `UPDATE alert_outbox SET state = ?, next_at = ?, last_error = ?, updated_at = ? WHERE id = ?`,
		state, stamp(next), message, stamp(now), id)
	if err != nil {
		return errorf("recording the failure of alert %d: %w", id, err)
	}
	return nil
}
