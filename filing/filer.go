package filing

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"sandtrap"
	"sandtrap/tracker"
)

// Stored is a mode's ticket as sandtrap keeps it: the tracker's ticket, the
// team it was filed to, and what the last filing reported.
type Stored struct {
	tracker.Ticket
	ModeID   string
	Team     string
	Snapshot Snapshot
	FiledAt  time.Time
}

// Filing is one intent to file a mode, written down before the tracker is
// called, so that nothing is lost to a crash or a refusal.
type Filing struct {
	ID        int64
	ModeID    string
	Team      string
	State     string // pending, sending, done, failed
	Attempts  int
	NextAt    time.Time
	Action    Action
	LastError string
	UpdatedAt time.Time
}

// Filing states.
const (
	StatePending = "pending"
	StateSending = "sending" // the tracker may have been called: look before making anything
	StateDone    = "done"
	StateFailed  = "failed"
)

// Outbox keeps the filings and the tickets; the store implements it.
type Outbox interface {
	// EnqueueFiling records the intent to file a mode, or returns the one
	// already waiting for it.
	EnqueueFiling(ctx context.Context, modeID, team string, now time.Time) (Filing, error)
	// DueFilings lists the filings to work on now: pending ones whose time
	// has come, and any left sending by a stop.
	DueFilings(ctx context.Context, now time.Time) ([]Filing, error)
	// MarkSending claims a filing for a call to the tracker, if it is still
	// in the state and at the attempt the caller read; false means someone
	// else has taken it since.
	MarkSending(ctx context.Context, id int64, state string, attempts int, now time.Time) (bool, error)
	// FinishFiling ends a filing and stores the ticket in one step.
	FinishFiling(ctx context.Context, id int64, action Action, t Stored, now time.Time) error
	// FailFiling records a failure; a zero retryAt gives up.
	FailFiling(ctx context.Context, id int64, message string, retryAt, now time.Time) error
	Ticket(ctx context.Context, modeID string) (Stored, bool, error)
}

// FactsFunc gathers what a ticket says about a mode, whether people marked
// it fixed, and the owner people chose ("" for the routed one).
type FactsFunc func(ctx context.Context, modeID string) (m ModeFacts, markedFixed bool, owner string, err error)

// Outcome is what one filing did.
type Outcome struct {
	Action Action
	Ticket Stored
}

// Filer files failure modes through the outbox: the intent is stored
// first, then the tracker is called, then the ticket is stored; failures
// are retried with backoff, and a restart resumes what was left.
type Filer struct {
	Outbox  Outbox
	Facts   FactsFunc
	Owners  Ownership
	Getenv  func(string) string
	HTTP    *http.Client
	Log     *slog.Logger
	Now     func() time.Time
	OnFiled func(modeID string) // told after each filing ends, done or failed

	mu   sync.Mutex // one filing at a time: each reads then writes a ticket
	wake chan struct{}
}

// Owner routes a mode to its team; a person's choice wins.
func (f *Filer) Owner(m ModeFacts, chosen string) (Team, error) {
	name, _ := f.Owners.Owner(m, chosen)
	team, ok := f.Owners.Team(name)
	if !ok {
		return Team{}, sandtrap.Errorf(sandtrap.EINVALID, "team %q is not configured: add a [[team]] table for it, or choose another owner", name)
	}
	return team, nil
}

// File files a mode now to team ("" for its owner) and reports what it
// did. A failure that is worth retrying stays in the outbox, and the error
// says so.
func (f *Filer) File(ctx context.Context, modeID, team string) (Outcome, error) {
	fl, err := f.Outbox.EnqueueFiling(ctx, modeID, team, f.now())
	if err != nil {
		return Outcome{}, err
	}
	return f.process(ctx, fl)
}

// Run works through the outbox until ctx ends: at start, which resumes
// what a stop left, then whenever a filing falls due.
func (f *Filer) Run(ctx context.Context) {
	f.mu.Lock()
	if f.wake == nil {
		f.wake = make(chan struct{}, 1)
	}
	wake := f.wake
	f.mu.Unlock()
	tick := time.NewTicker(5 * time.Second)
	defer tick.Stop()
	for {
		due, err := f.Outbox.DueFilings(ctx, f.now())
		if err != nil && ctx.Err() == nil {
			f.log().Warn("reading the outbox failed", "err", err)
		}
		for _, fl := range due {
			if ctx.Err() != nil {
				return
			}
			f.process(ctx, fl)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		case <-wake:
		}
	}
}

// process carries out one filing: find the owner and the tracker, decide
// between creating, commenting and reopening, call the tracker, store the
// outcome. Errors are stored on the filing as people should read them.
func (f *Filer) process(ctx context.Context, fl Filing) (Outcome, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	out, err := f.attempt(ctx, &fl)
	if errors.Is(err, errTaken) {
		return Outcome{}, sandtrap.Errorf(sandtrap.ECONFLICT, "%s is being filed already", fl.ModeID)
	}
	if err != nil {
		team, _ := f.Owners.Team(fl.Team)
		msg := Describe(team, err)
		var retryAt time.Time
		if wait, retry := RetryAfter(err, fl.Attempts+1); retry {
			retryAt = f.now().Add(wait)
		}
		if ferr := f.Outbox.FailFiling(context.WithoutCancel(ctx), fl.ID, msg, retryAt, f.now()); ferr != nil {
			f.log().Error("recording a failed filing", "mode", fl.ModeID, "err", ferr)
		}
		if f.OnFiled != nil {
			f.OnFiled(fl.ModeID)
		}
		return Outcome{}, &FilingError{Message: msg, Retrying: !retryAt.IsZero(), Err: err}
	}
	if f.OnFiled != nil {
		f.OnFiled(fl.ModeID)
	}
	return out, nil
}

// attempt files once; it sets fl.Team to the team it files to.
func (f *Filer) attempt(ctx context.Context, fl *Filing) (Outcome, error) {
	m, fixed, chosen, err := f.Facts(ctx, fl.ModeID)
	if err != nil {
		return Outcome{}, err
	}
	if fl.Team != "" {
		chosen = fl.Team
	}
	team, err := f.Owner(m, chosen)
	if err != nil {
		return Outcome{}, err
	}
	fl.Team = team.Name
	client, err := NewClient(team, f.getenv(), f.HTTP)
	if err != nil {
		return Outcome{}, err
	}
	stored, has, err := f.Outbox.Ticket(ctx, m.ID)
	if err != nil {
		return Outcome{}, err
	}
	// Claimed before the first call to the tracker, so that every attempt
	// that may reach it counts towards the backoff and the last attempt.
	if claimed, err := f.Outbox.MarkSending(ctx, fl.ID, fl.State, fl.Attempts, f.now()); err != nil {
		return Outcome{}, err
	} else if !claimed {
		return Outcome{}, errTaken
	}
	if !has && (fl.State == StateSending || fl.Attempts > 0) {
		// A stop, or a tracker that did not answer, came between calling
		// the tracker and storing its answer: the ticket may exist already.
		if t, found, err := client.Find(ctx, m.ID); err != nil {
			return Outcome{}, err
		} else if found {
			stored, has = Stored{Ticket: t, ModeID: m.ID, Team: team.Name, FiledAt: f.now()}, true
		}
	}
	var existing *tracker.Ticket
	if has {
		t, err := client.Get(ctx, stored.Ticket)
		if err != nil {
			return Outcome{}, err
		}
		stored.Ticket = t
		existing = &stored.Ticket
	}
	action := Decide(existing, fixed, has && reappeared(m, stored.Snapshot))
	now := f.now()
	switch action {
	case ActionCreate:
		t, err := client.Create(ctx, NewIssue(team, m))
		if err != nil {
			return Outcome{}, err
		}
		stored = Stored{Ticket: t, ModeID: m.ID, Team: team.Name, FiledAt: now}
	case ActionComment:
		if err := client.Comment(ctx, stored.Ticket, CommentBody(m, stored.Snapshot)); err != nil {
			return Outcome{}, err
		}
	case ActionReopen:
		t, err := client.Reopen(ctx, stored.Ticket, CommentBody(m, stored.Snapshot))
		if err != nil {
			return Outcome{}, err
		}
		stored.Ticket = t
	}
	if action != ActionNone {
		stored.Snapshot = SnapshotOf(m, now)
	}
	stored.Team = team.Name
	if err := f.Outbox.FinishFiling(context.WithoutCancel(ctx), fl.ID, action, stored, now); err != nil {
		return Outcome{}, err
	}
	return Outcome{Action: action, Ticket: stored}, nil
}

// reappeared reports whether the mode failed in a run its last filing did
// not know: after a ticket was closed or the mode marked fixed, that is the
// mode coming back.
func reappeared(m ModeFacts, last Snapshot) bool {
	for _, r := range m.PerRun {
		if _, known := last.Runs[r.RunID]; r.Count > 0 && !known {
			return true
		}
	}
	return false
}

// TicketLister lists the tickets filed, by mode.
type TicketLister interface {
	Tickets(ctx context.Context) (map[string]Stored, error)
}

// WatchReturns reconciles every filed mode after each signal on changed, at
// most every few seconds, until ctx ends: modes that came back after their
// ticket was closed or they were marked fixed get their reopening queued.
func (f *Filer) WatchReturns(ctx context.Context, tickets TicketLister, changed <-chan struct{}) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-changed:
		}
		filed, err := tickets.Tickets(ctx)
		if err != nil {
			f.log().Warn("reading tickets failed", "err", err)
			continue
		}
		ids := make([]string, 0, len(filed))
		for id := range filed {
			ids = append(ids, id)
		}
		f.Reconcile(ctx, ids)
		select {
		case <-ctx.Done():
			return
		case <-time.After(2 * time.Second):
		}
	}
}

// Reconcile files again, as a reopen, every mode that came back after its
// ticket was closed or it was marked fixed. It is cheap to call after each
// change: modes without a ticket are skipped.
func (f *Filer) Reconcile(ctx context.Context, modeIDs []string) {
	for _, id := range modeIDs {
		stored, has, err := f.Outbox.Ticket(ctx, id)
		if err != nil || !has {
			continue
		}
		m, fixed, _, err := f.Facts(ctx, id)
		if err != nil || !reappeared(m, stored.Snapshot) {
			continue
		}
		if !fixed && stored.State != tracker.StateClosed {
			// People may have closed it in the tracker since: ask.
			team, _ := f.Owners.Team(stored.Team)
			client, err := NewClient(team, f.getenv(), f.HTTP)
			if err != nil {
				continue
			}
			t, err := client.Get(ctx, stored.Ticket)
			if err != nil || t.State != tracker.StateClosed {
				continue
			}
		}
		if _, err := f.Outbox.EnqueueFiling(ctx, id, stored.Team, f.now()); err != nil {
			f.log().Warn("queueing a reopen failed", "mode", id, "err", err)
			continue
		}
		f.Wake()
	}
}

// Wake makes Run look at the outbox now.
func (f *Filer) Wake() {
	f.mu.Lock()
	if f.wake == nil {
		f.wake = make(chan struct{}, 1)
	}
	wake := f.wake
	f.mu.Unlock()
	select {
	case wake <- struct{}{}:
	default:
	}
}

// errTaken means another worker claimed the filing first: a request and
// the outbox's loop both found it due.
var errTaken = errors.New("filing: taken by another worker")

// FilingError is a filing that did not go through, worded for people.
type FilingError struct {
	Message  string
	Retrying bool
	Err      error
}

func (e *FilingError) Error() string { return fmt.Sprintf("filing: %s", e.Message) }

// Unwrap gives the cause.
func (e *FilingError) Unwrap() error { return e.Err }

// ErrorCode classifies a failed filing for its caller: a filing kept to
// retry is unavailable for now, a tracker's refusal is the upstream's, no
// tracker is an invalid request, and anything else keeps its own code.
func ErrorCode(err error) string {
	var te *tracker.Error
	switch {
	case IsRetrying(err):
		return sandtrap.EUNAVAILABLE
	case errors.As(err, &te):
		return sandtrap.EUPSTREAM
	case errors.Is(err, ErrNoTracker):
		return sandtrap.EINVALID
	}
	return sandtrap.ErrorCode(err)
}

// IsRetrying reports whether err is a filing left in the outbox to retry.
func IsRetrying(err error) bool {
	var fe *FilingError
	return errors.As(err, &fe) && fe.Retrying
}

func (f *Filer) now() time.Time {
	if f.Now != nil {
		return f.Now()
	}
	return time.Now()
}

func (f *Filer) getenv() func(string) string {
	if f.Getenv != nil {
		return f.Getenv
	}
	return func(string) string { return "" }
}

func (f *Filer) log() *slog.Logger {
	if f.Log != nil {
		return f.Log
	}
	return slog.Default()
}
