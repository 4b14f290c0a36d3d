package store

import (
	"context"
	"time"

	"sandtrap/alert"
	"sandtrap/filing"
)

// The filing and alert outboxes live in the state (state.Outbox and
// state.Alerts); the store resolves modes to the roots of their merges and
// refuses changes when it serves read-only.

// EnqueueFiling records the intent to file a mode, with who acts in ctx in
// the outbox and the mode's history, or returns the filing already waiting
// for it, so that asking twice files once.
func (s *Store) EnqueueFiling(ctx context.Context, modeID, team string, now time.Time) (filing.Filing, error) {
	if err := s.writable(); err != nil {
		return filing.Filing{}, err
	}
	root, err := s.ix.Root(modeID)
	if err != nil {
		return filing.Filing{}, err
	}
	return s.state.Outbox().Enqueue(ctx, root, team, now)
}

// DueFilings lists the pending filings whose time has come, and those a
// stop left sending.
func (s *Store) DueFilings(ctx context.Context, now time.Time) ([]filing.Filing, error) {
	return s.state.Outbox().Due(ctx, now)
}

// LatestFiling returns the newest filing of a mode.
func (s *Store) LatestFiling(ctx context.Context, modeID string) (filing.Filing, error) {
	root, err := s.ix.Root(modeID)
	if err != nil {
		return filing.Filing{}, err
	}
	return s.state.Outbox().Latest(ctx, root)
}

// MarkSending claims a filing for a call to the tracker, only if it is
// still as the caller read it: two workers never both call.
func (s *Store) MarkSending(ctx context.Context, id int64, state string, attempts int, now time.Time) (bool, error) {
	return s.state.Outbox().MarkSending(ctx, id, state, attempts, now)
}

// FinishFiling ends a filing and stores its ticket in one transaction.
func (s *Store) FinishFiling(ctx context.Context, id int64, action filing.Action, t filing.Stored, now time.Time) error {
	return s.state.Outbox().Finish(ctx, id, action, t, now)
}

// FailFiling records why a filing failed; a zero retryAt gives it up.
func (s *Store) FailFiling(ctx context.Context, id int64, message string, retryAt, now time.Time) error {
	return s.state.Outbox().Fail(ctx, id, message, retryAt, now)
}

// Ticket returns a mode's ticket, if it has one.
func (s *Store) Ticket(ctx context.Context, modeID string) (filing.Stored, bool, error) {
	root, err := s.ix.Root(modeID)
	if err != nil {
		return filing.Stored{}, false, err
	}
	return s.state.Outbox().Ticket(ctx, root)
}

// Tickets returns every ticket, by mode id.
func (s *Store) Tickets(ctx context.Context) (map[string]filing.Stored, error) {
	return s.state.Outbox().Tickets(ctx)
}

// ArmAlerts returns when alerts began to watch this state, recording now
// the first time it is asked. A run that finished before then, and was not
// seen live, is history rather than news.
func (s *Store) ArmAlerts(ctx context.Context, now time.Time) (time.Time, error) {
	if err := s.writable(); err != nil {
		return time.Time{}, err
	}
	return s.state.Alerts().Arm(ctx, now)
}

// AlertRuns returns the runs that alerts watch, each with whether its end
// has been told.
func (s *Store) AlertRuns(ctx context.Context) (map[string]bool, error) {
	return s.state.Alerts().Runs(ctx)
}

// QueueAlerts records, in one transaction, that alerts watch runID, the
// sends of fires not queued before, and, when done is set, that the run's
// end has been told. It returns how many sends it queued.
func (s *Store) QueueAlerts(ctx context.Context, runID string, fires []alert.Fire, done bool, now time.Time) (int, error) {
	if err := s.writable(); err != nil {
		return 0, err
	}
	return s.state.Alerts().Queue(ctx, runID, fires, done, now)
}

// DueAlerts lists the pending sends whose time has come, and those a stop
// left sending, oldest first.
func (s *Store) DueAlerts(ctx context.Context, now time.Time) ([]alert.Send, error) {
	return s.state.Alerts().Due(ctx, now)
}

// AlertSends lists the newest sends, up to limit, newest first.
func (s *Store) AlertSends(ctx context.Context, limit int) ([]alert.Send, error) {
	return s.state.Alerts().Sends(ctx, limit)
}

// ClaimAlert claims a send for a call to its receiver, only if it is still
// as the caller read it: two workers never both send it.
func (s *Store) ClaimAlert(ctx context.Context, id int64, state string, attempts int, now time.Time) (bool, error) {
	return s.state.Alerts().Claim(ctx, id, state, attempts, now)
}

// AlertSent records that a send was delivered.
func (s *Store) AlertSent(ctx context.Context, id int64, now time.Time) error {
	return s.state.Alerts().Sent(ctx, id, now)
}

// AlertFailed records why a send failed; a zero retryAt gives it up.
func (s *Store) AlertFailed(ctx context.Context, id int64, message string, retryAt, now time.Time) error {
	return s.state.Alerts().Failed(ctx, id, message, retryAt, now)
}

// FixedAt returns when each mode now marked fixed was last marked so, from
// the triage history, by the mode that absorbs it now.
func (s *Store) FixedAt(ctx context.Context) (map[string]time.Time, error) {
	fixed, err := s.state.Decisions().FixedAt(ctx)
	if err != nil {
		return nil, err
	}
	out := map[string]time.Time{}
	for id, t := range fixed {
		root, err := s.ix.Root(id)
		if err != nil {
			continue // a mode no served file has
		}
		if t.After(out[root]) {
			out[root] = t
		}
	}
	return out, nil
}
