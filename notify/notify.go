// Package notify sends the alerts of the [[alert]] tables. After each
// change to the store it asks package alert what the runs it watches fire,
// queues that in the store's outbox (each key once), and posts each send to
// Slack or a signed webhook, retrying with backoff; a restart resumes what
// was left.
package notify

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"sandtrap"
	"sandtrap/alert"
	"sandtrap/tracker"
	"sandtrap/triage"
)

// Runs is what the notifier reads about runs and their failure modes.
type Runs interface {
	WaitIndexed(ctx context.Context) error
	ListRuns(ctx context.Context) ([]sandtrap.Run, error)
	RunSettled(ctx context.Context, runID string) (bool, error)
	RunModes(ctx context.Context, runID string, f sandtrap.ResultFilter) ([]sandtrap.ModeStat, map[string][]sandtrap.FacetValue, error)
	FixedAt(ctx context.Context) (map[string]time.Time, error)
	LastFailures(ctx context.Context, runID string) (map[string]time.Time, error)
}

// Outbox keeps the runs alerts watch and the sends.
type Outbox interface {
	ArmAlerts(ctx context.Context, now time.Time) (time.Time, error)
	AlertRuns(ctx context.Context) (map[string]bool, error)
	QueueAlerts(ctx context.Context, runID string, fires []alert.Fire, done bool, now time.Time) (int, error)
	DueAlerts(ctx context.Context, now time.Time) ([]alert.Send, error)
	ClaimAlert(ctx context.Context, id int64, state string, attempts int, now time.Time) (bool, error)
	AlertSent(ctx context.Context, id int64, now time.Time) error
	AlertFailed(ctx context.Context, id int64, message string, retryAt, now time.Time) error
}

// Config is what a Notifier needs.
type Config struct {
	Alerts []alert.Alert // checked with alert.Validate
	Runs   Runs
	Outbox Outbox
	Getenv func(string) string // reads the secrets; os.Getenv in production
	HTTP   *http.Client
	Links  alert.Links
	Log    *slog.Logger
	Now    func() time.Time // time.Now when nil
}

// Notifier detects the events of watched runs and sends them.
type Notifier struct {
	alerts  []alert.Alert
	targets map[string]alert.Target // by alert name
	runs    Runs
	outbox  Outbox
	hc      *http.Client
	links   alert.Links
	log     *slog.Logger
	now     func() time.Time
	armedAt time.Time // when alerts began to watch the state; zero until Scan asks
	// queued are the keys known to be in the outbox, so that a scan writes
	// only what is new; the outbox's unique key stays the truth.
	queued map[alert.Key]bool
}

// New returns a Notifier, reading every alert's secrets from the
// environment. A variable that is not set is an error naming it, never a
// value.
func New(c Config) (*Notifier, error) {
	n := &Notifier{alerts: c.Alerts, targets: map[string]alert.Target{}, runs: c.Runs, outbox: c.Outbox,
		hc: c.HTTP, links: c.Links, log: c.Log, now: c.Now, queued: map[alert.Key]bool{}}
	var errs []error
	for _, a := range c.Alerts {
		t, err := a.Resolve(c.Getenv)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		n.targets[a.Name] = t
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if n.log == nil {
		n.log = slog.Default()
	}
	if n.now == nil {
		n.now = time.Now
	}
	return n, nil
}

// Timing of Run.
const (
	// scanGap spaces scans: a live run changes with every commit.
	scanGap = time.Second
	// sendTick is how often due retries are looked for without a change.
	sendTick = 5 * time.Second
	// sendTimeout bounds one send, which a stop waits for rather than
	// cutting it short and sending it twice.
	sendTimeout = 10 * time.Second
)

// Run scans and sends until ctx ends: once the store has read every file,
// which resumes what a stop left, then after each change and every few
// seconds.
func (n *Notifier) Run(ctx context.Context, changed <-chan struct{}) {
	if err := n.runs.WaitIndexed(ctx); err != nil {
		return
	}
	tick := time.NewTicker(sendTick)
	defer tick.Stop()
	for {
		last := time.Now()
		if err := n.Scan(ctx); err != nil && ctx.Err() == nil {
			n.log.Warn("alerts: looking for events failed", "err", err)
		}
		n.SendDue(ctx)
		select {
		case <-ctx.Done():
			return
		case <-changed:
		case <-tick.C:
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(scanGap - time.Since(last)):
		}
	}
}

// Scan detects the events of every watched run and queues the new ones. A
// run is watched from when it is first seen live, or, for a run that went
// by between two scans, when it finished after alerts were armed; until
// its end, once settled, has been told.
func (n *Notifier) Scan(ctx context.Context) error {
	if n.armedAt.IsZero() {
		at, err := n.outbox.ArmAlerts(ctx, n.now())
		if err != nil {
			return err
		}
		n.armedAt = at
	}
	runs, err := n.runs.ListRuns(ctx)
	if err != nil {
		return err
	}
	watched, err := n.outbox.AlertRuns(ctx)
	if err != nil {
		return err
	}
	var fixedAt map[string]time.Time
	for _, r := range runs {
		done, seen := watched[r.ID]
		if done {
			continue
		}
		if !r.Live() {
			if !seen && r.FinishedAt.Before(n.armedAt) {
				continue // history, not news
			}
			if settled, err := n.runs.RunSettled(ctx, r.ID); err != nil || !settled {
				continue // its last results may not be read yet
			}
		}
		modes, _, err := n.runs.RunModes(ctx, r.ID, sandtrap.ResultFilter{})
		if err != nil {
			return err
		}
		triage.Rank(modes)
		facts := alert.RunFacts{Run: r, Modes: modes}
		if slices.ContainsFunc(modes, func(m sandtrap.ModeStat) bool { return m.Status == triage.StatusFixed }) {
			if fixedAt == nil {
				if fixedAt, err = n.runs.FixedAt(ctx); err != nil {
					return err
				}
			}
			if facts.LastFailure, err = n.runs.LastFailures(ctx, r.ID); err != nil {
				return err
			}
			facts.FixedAt = fixedAt
		}
		fires := slices.DeleteFunc(alert.Detect(n.alerts, facts, n.links), func(f alert.Fire) bool { return n.queued[f.Key] })
		if seen && len(fires) == 0 && r.Live() {
			continue
		}
		queued, err := n.outbox.QueueAlerts(ctx, r.ID, fires, !r.Live(), n.now())
		if err != nil {
			return err
		}
		for _, f := range fires {
			n.queued[f.Key] = true
		}
		if queued > 0 {
			n.log.Info("alerts: queued", "run", r.ID, "sends", queued)
		}
	}
	return nil
}

// SendDue sends every send whose time has come.
func (n *Notifier) SendDue(ctx context.Context) {
	due, err := n.outbox.DueAlerts(ctx, n.now())
	if err != nil {
		if ctx.Err() == nil {
			n.log.Warn("alerts: reading the outbox failed", "err", err)
		}
		return
	}
	for _, s := range due {
		if ctx.Err() != nil {
			return
		}
		n.send(ctx, s)
	}
}

// send claims one send, posts it and records how that went. The post runs
// to its end even as ctx ends, so that a stop neither loses nor repeats it.
func (n *Notifier) send(ctx context.Context, s alert.Send) {
	claimed, err := n.outbox.ClaimAlert(ctx, s.ID, s.State, s.Attempts, n.now())
	if err != nil || !claimed {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), sendTimeout)
	defer cancel()
	err = n.post(ctx, s.Message)
	if err == nil {
		if err := n.outbox.AlertSent(ctx, s.ID, n.now()); err != nil {
			n.log.Error("alerts: recording a send", "alert", s.Alert, "err", err)
		}
		return
	}
	var te *tracker.Error
	temporary := errors.As(err, &te) && te.Temporary
	var asked time.Duration
	if temporary {
		asked = te.RetryAfter
	}
	msg := describe(n.targets[s.Alert].Destination, err)
	var retryAt time.Time
	if wait, retry := alert.RetryAfter(s.Attempts+1, temporary, asked); retry {
		retryAt = n.now().Add(wait)
		msg += fmt.Sprintf(" Retrying in %s.", wait.Round(time.Second))
	}
	n.log.Warn("alerts: a send failed", "alert", s.Alert, "event", s.Event, "run", s.RunID, "mode", s.ModeID, "err", msg)
	if err := n.outbox.AlertFailed(ctx, s.ID, msg, retryAt, n.now()); err != nil {
		n.log.Error("alerts: recording a failed send", "alert", s.Alert, "err", err)
	}
}

// post renders a message for its alert's destination and sends it.
func (n *Notifier) post(ctx context.Context, m alert.Message) error {
	t, ok := n.targets[m.Alert]
	if !ok {
		return errNotConfigured
	}
	now := n.now()
	p := tracker.Post{Receiver: t.Destination, URL: t.URL, Event: m.Event, Secret: t.Secret, At: now}
	var err error
	if t.Destination == alert.Slack {
		p.Body, err = m.SlackBody()
	} else {
		p.Body, err = m.WebhookBody(now)
	}
	if err != nil {
		return err
	}
	return tracker.Send(ctx, n.hc, p)
}

// errNotConfigured is a send whose [[alert]] table is gone from the config.
var errNotConfigured = errors.New("this alert is no longer in the configuration")

// describe words a failed send for the outbox and the log: the receiver's
// own answer, never its URL or secret.
func describe(destination string, err error) string {
	var te *tracker.Error
	if !errors.As(err, &te) {
		return err.Error() + "."
	}
	who := "The webhook"
	if destination == alert.Slack {
		who = "Slack"
	}
	if te.Status != 0 {
		return fmt.Sprintf("%s answered HTTP %d: %s.", who, te.Status, te.Message)
	}
	// The trackers' words for an unreachable host name a tracker.
	return fmt.Sprintf("%s: %s.", who, strings.ReplaceAll(te.Message, "the tracker", "the receiver"))
}
