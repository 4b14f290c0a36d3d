package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"

	"sandtrap"
	"sandtrap/alert"
)

// ArmAlerts returns when alerts began to watch this state, recording now
// the first time it is asked. A run that finished before then, and was not
// seen live, is history rather than news.
func (s *Store) ArmAlerts(ctx context.Context, now time.Time) (time.Time, error) {
	if err := s.writable(); err != nil {
		return time.Time{}, err
	}
	var at string
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES ('alerts_armed_at', ?) ON CONFLICT (key) DO NOTHING`, stamp(now)); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'alerts_armed_at'`).Scan(&at)
	})
	if err != nil {
		return time.Time{}, errorf("arming alerts: %w", err)
	}
	return parseTime(at), nil
}

// AlertRuns returns the runs that alerts watch, each with whether its end
// has been told.
func (s *Store) AlertRuns(ctx context.Context) (map[string]bool, error) {
	rows, err := s.reader.QueryContext(ctx, `SELECT run_id, done_at FROM alert_runs`)
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

// QueueAlerts records, in one transaction, that alerts watch runID, the
// sends of fires not queued before (a fire already in the outbox, sent or
// not, is skipped), and, when done is set, that the run's end has been
// told. It returns how many sends it queued.
func (s *Store) QueueAlerts(ctx context.Context, runID string, fires []alert.Fire, done bool, now time.Time) (int, error) {
	if err := s.writable(); err != nil {
		return 0, err
	}
	queued := 0
	err := s.inTx(ctx, func(tx *sql.Tx) error {
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
	a.NextAt, a.UpdatedAt = parseTime(next), parseTime(upd)
	return a, json.Unmarshal([]byte(msg), &a.Message)
}

// DueAlerts lists the pending sends whose time has come, and those a stop
// left sending, oldest first.
func (s *Store) DueAlerts(ctx context.Context, now time.Time) ([]alert.Send, error) {
	return s.alerts(ctx, alertColumns+` WHERE state = 'sending' OR (state = 'pending' AND next_at <= ?) ORDER BY id`, stamp(now))
}

// AlertSends lists the newest sends, up to limit, newest first.
func (s *Store) AlertSends(ctx context.Context, limit int) ([]alert.Send, error) {
	return s.alerts(ctx, alertColumns+` ORDER BY id DESC LIMIT ?`, limit)
}

func (s *Store) alerts(ctx context.Context, query string, args ...any) ([]alert.Send, error) {
	rows, err := s.reader.QueryContext(ctx, query, args...)
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

// ClaimAlert claims a send for a call to its receiver, only if it is still
// as the caller read it: two workers never both send it.
func (s *Store) ClaimAlert(ctx context.Context, id int64, state string, attempts int, now time.Time) (bool, error) {
	res, err := s.writer.ExecContext(ctx, `UPDATE alert_outbox SET state = 'sending', attempts = attempts + 1, updated_at = ?
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

// AlertSent records that a send was delivered.
func (s *Store) AlertSent(ctx context.Context, id int64, now time.Time) error {
	if _, err := s.writer.ExecContext(ctx, `UPDATE alert_outbox SET state = 'sent', last_error = '', updated_at = ? WHERE id = ?`, stamp(now), id); err != nil {
		return errorf("recording alert %d as sent: %w", id, err)
	}
	return nil
}

// AlertFailed records why a send failed; a zero retryAt gives it up.
func (s *Store) AlertFailed(ctx context.Context, id int64, message string, retryAt, now time.Time) error {
	state, next := alert.StateFailed, now
	if !retryAt.IsZero() {
		state, next = alert.StatePending, retryAt
	}
	_, err := s.writer.ExecContext(ctx, `UPDATE alert_outbox SET state = ?, next_at = ?, last_error = ?, updated_at = ? WHERE id = ?`,
		state, stamp(next), message, stamp(now), id)
	if err != nil {
		return errorf("recording the failure of alert %d: %w", id, err)
	}
	return nil
}

// FixedAt returns when each mode now marked fixed was last marked so, from
// the triage history, by the mode that absorbs it now.
func (s *Store) FixedAt(ctx context.Context) (map[string]time.Time, error) {
	// UpdateMode writes "status → fixed" into the history, alone or with
	// other changes of the same decision.
	rows, err := s.reader.QueryContext(ctx, `SELECT h.mode_id, max(h.created_at) FROM history h
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
		root, err := s.rootOf(id)
		if err != nil {
			continue // a mode no served file has
		}
		if t := parseTime(at); t.After(out[root]) {
			out[root] = t
		}
	}
	if err := rows.Err(); err != nil {
		return nil, errorf("reading when modes were marked fixed: %w", err)
	}
	return out, nil
}

// LastFailures returns, for each failure mode of a run, when its latest
// failure started; modes whose failures carry no start time are left out.
func (s *Store) LastFailures(ctx context.Context, runID string) (map[string]time.Time, error) {
	last := map[string]int64{}
	err := s.withRun(ctx, runID, func(ri *runIndex, d *runData) error {
		for i := range d.rows {
			r := &d.rows[i]
			if r.fail < 0 || r.at == 0 {
				continue
			}
			id := s.eff[d.fails[r.fail].mode].ID
			last[id] = max(last[id], r.startedMS())
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make(map[string]time.Time, len(last))
	for id, ms := range last {
		out[id] = time.UnixMilli(ms)
	}
	return out, nil
}

// settle records, after a pass that read src's runs table and then its
// results, which runs were finished: a harness writes a run's results
// before its end, so each of these has all of its results read.
func (s *Store) settle(src *source) {
	s.mu.Lock()
	defer s.mu.Unlock()
	src.settled = map[string]bool{}
	for id, m := range src.meta {
		if m.FinishedAt.Valid {
			src.settled[id] = true
		}
	}
}

// RunSettled reports whether a run is finished with every result it had by
// then read, so that its numbers are final. Between reading a file's runs
// table and its new results, a run can look finished without its last
// results.
func (s *Store) RunSettled(ctx context.Context, runID string) (bool, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	ri, ok := s.runs[runID]
	if !ok {
		return false, sandtrap.Errorf(sandtrap.ENOTFOUND, "run %q not found", runID)
	}
	return ri.src.settled[ri.rawID], nil
}
