package filing_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"sandtrap"
	"sandtrap/filing"
)

// memOutbox keeps filings and tickets in memory, with the same claims as
// the store's.
type memOutbox struct {
	mu      sync.Mutex
	filings []filing.Filing
	tickets map[string]filing.Stored
	// both, when set, is closed by the second call to EnqueueFiling.
	both  chan struct{}
	calls int
}

func (o *memOutbox) EnqueueFiling(_ context.Context, modeID, team string, now time.Time) (filing.Filing, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.calls++; o.calls == 2 && o.both != nil {
		close(o.both)
	}
	for _, f := range o.filings {
		if f.ModeID == modeID && (f.State == filing.StatePending || f.State == filing.StateSending) {
			return f, nil
		}
	}
	f := filing.Filing{ID: int64(len(o.filings) + 1), ModeID: modeID, Team: team, State: filing.StatePending, NextAt: now}
	o.filings = append(o.filings, f)
	return f, nil
}

func (o *memOutbox) DueFilings(context.Context, time.Time) ([]filing.Filing, error) { return nil, nil }

func (o *memOutbox) MarkSending(_ context.Context, id int64, state string, attempts int, _ time.Time) (bool, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	f := &o.filings[id-1]
	if f.State != state || f.Attempts != attempts {
		return false, nil
	}
	f.State, f.Attempts = filing.StateSending, f.Attempts+1
	return true, nil
}

func (o *memOutbox) FinishFiling(_ context.Context, id int64, a filing.Action, t filing.Stored, _ time.Time) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.filings[id-1].State, o.filings[id-1].Action = filing.StateDone, a
	o.tickets[t.ModeID] = t
	return nil
}

func (o *memOutbox) FailFiling(_ context.Context, id int64, msg string, retryAt, _ time.Time) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.filings[id-1].State, o.filings[id-1].LastError = filing.StateFailed, msg
	return nil
}

func (o *memOutbox) Ticket(_ context.Context, modeID string) (filing.Stored, bool, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	t, ok := o.tickets[modeID]
	return t, ok, nil
}

func TestTwoRequestsToFileTheSameModeMakeOneTicket(t *testing.T) {
	var deliveries atomic.Int32
	out := &memOutbox{tickets: map[string]filing.Stored{}, both: make(chan struct{})}
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		deliveries.Add(1)
		// The tracker answers only once both requests are in the outbox,
		// so that the second comes while the first is being sent.
		select {
		case <-out.both:
		case <-time.After(10 * time.Second):
			t.Error("the second request never reached the outbox")
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"key":"T-1","url":"https://tickets.example/T-1"}`))
	}))
	defer receiver.Close()
	team := filing.Team{Name: "hooks", Tracker: "webhook", APIURL: receiver.URL, WebhookSecretEnv: "SECRET"}
	f := &filing.Filer{
		Outbox: out,
		Owners: filing.Ownership{Teams: []filing.Team{team}},
		Facts: func(context.Context, string) (filing.ModeFacts, bool, string, error) {
			return filing.ModeFacts{ID: "m-0123456789ab", Title: "boom", Layer: "sandbox", Primitive: "memory",
				PerRun: []filing.RunCount{{RunID: "r1", Count: 3}}}, false, "hooks", nil
		},
		Getenv: func(string) string { return "s3cret" },
	}
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range errs {
		wg.Go(func() { _, errs[i] = f.File(context.Background(), "m-0123456789ab", "") })
	}
	wg.Wait()
	if got := deliveries.Load(); got != 1 {
		t.Errorf("got %d deliveries for two requests to file one mode, want 1", got)
	}
	conflicts := 0
	for _, err := range errs {
		switch {
		case err == nil:
		case sandtrap.ErrorCode(err) == sandtrap.ECONFLICT:
			conflicts++
		default:
			t.Errorf("got error %v, want none or a conflict", err)
		}
	}
	if conflicts != 1 {
		t.Errorf("got %d requests refused as taken, want the second one", conflicts)
	}
	if _, ok := out.tickets["m-0123456789ab"]; !ok {
		t.Error("got no ticket stored")
	}
}
