package store

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"sandtrap"
	"sandtrap/alert"
)

func fire(alertName, event, mode, run string) alert.Fire {
	return alert.Fire{Key: alert.Key{Alert: alertName, Event: event, ModeID: mode, RunID: run},
		Message: alert.Message{Event: event, Alert: alertName, Run: alert.RunInfo{ID: run, Name: "Run " + run}}}
}

func TestTheAlertOutboxQueuesEachKeyOnceAcrossARestart(t *testing.T) {
	ctx := context.Background()
	path := newCampaign(t, "c.db")
	addRun(t, path, "r", false, resultsSQL("r", 10))
	state := filepath.Join(t.TempDir(), "state.db")
	now := time.Date(2026, 7, 1, 5, 0, 0, 0, time.UTC)
	fires := []alert.Fire{fire("oncall", "new-mode", "m-000000000001", "r"), fire("oncall", "new-mode", "m-000000000002", "r")}

	s := openStore(t, state, path)
	if n, err := s.QueueAlerts(ctx, "r", fires, false, now); err != nil || n != 2 {
		t.Fatalf("got %d queued (%v), want 2", n, err)
	}
	if n, err := s.QueueAlerts(ctx, "r", fires[:1], false, now); err != nil || n != 0 {
		t.Errorf("got %d queued again (%v), want 0", n, err)
	}
	s.Close()

	s = openStore(t, state, path)
	more := append(fires, fire("oncall", "run-finished", "", "r"))
	if n, err := s.QueueAlerts(ctx, "r", more, true, now); err != nil || n != 1 {
		t.Errorf("got %d queued after reopening the state (%v), want only the run's end", n, err)
	}
	watched, err := s.AlertRuns(ctx)
	if err != nil || len(watched) != 1 || !watched["r"] {
		t.Errorf("got watched runs %v (%v), want r, told finished", watched, err)
	}
	due, err := s.DueAlerts(ctx, now)
	if err != nil || len(due) != 3 {
		t.Fatalf("got %d due (%v), want 3", len(due), err)
	}
	if got := due[2]; got.Key != more[2].Key || got.Message.Run.Name != "Run r" || got.State != alert.StatePending {
		t.Errorf("got %+v, want the run's end with its message, pending", got)
	}
}

func TestAnAlertSendIsClaimedOnceAndKeepsItsAttemptsAndLastError(t *testing.T) {
	ctx := context.Background()
	path := newCampaign(t, "c.db")
	addRun(t, path, "r", false, resultsSQL("r", 10))
	s := openStore(t, filepath.Join(t.TempDir(), "state.db"), path)
	now := time.Date(2026, 7, 1, 5, 0, 0, 0, time.UTC)
	if _, err := s.QueueAlerts(ctx, "r", []alert.Fire{fire("oncall", "new-mode", "m-000000000001", "r")}, false, now); err != nil {
		t.Fatal(err)
	}
	due, _ := s.DueAlerts(ctx, now)
	if len(due) != 1 {
		t.Fatalf("got %d due, want 1", len(due))
	}
	id := due[0].ID
	if ok, err := s.ClaimAlert(ctx, id, alert.StatePending, 0, now); !ok || err != nil {
		t.Fatalf("got claimed %v (%v), want the first claim to win", ok, err)
	}
	if ok, _ := s.ClaimAlert(ctx, id, alert.StatePending, 0, now); ok {
		t.Error("got a second claim of the same send, want it refused")
	}
	retry := now.Add(time.Minute)
	if err := s.AlertFailed(ctx, id, "Slack answered HTTP 500.", retry, now); err != nil {
		t.Fatal(err)
	}
	if due, _ := s.DueAlerts(ctx, now.Add(30*time.Second)); len(due) != 0 {
		t.Errorf("got %d due before the retry's time, want 0", len(due))
	}
	due, _ = s.DueAlerts(ctx, retry)
	if len(due) != 1 || due[0].Attempts != 1 || due[0].LastError != "Slack answered HTTP 500." || !due[0].NextAt.Equal(retry) {
		t.Fatalf("got %+v, want it due again after one attempt, with its error", due)
	}
	s.ClaimAlert(ctx, id, alert.StatePending, 1, retry)
	if err := s.AlertSent(ctx, id, retry); err != nil {
		t.Fatal(err)
	}
	sends, err := s.AlertSends(ctx, 10)
	if err != nil || len(sends) != 1 || sends[0].State != alert.StateSent || sends[0].Attempts != 2 || sends[0].LastError != "" {
		t.Errorf("got %+v (%v), want it sent on the second attempt, its error cleared", sends, err)
	}
}

func TestArmAlertsKeepsTheFirstTime(t *testing.T) {
	ctx := context.Background()
	path := newCampaign(t, "c.db")
	state := filepath.Join(t.TempDir(), "state.db")
	first := time.Date(2026, 7, 1, 5, 0, 0, 0, time.UTC)
	s := openStore(t, state, path)
	if got, err := s.ArmAlerts(ctx, first); err != nil || !got.Equal(first) {
		t.Fatalf("got %v (%v), want %v", got, err, first)
	}
	s.Close()
	s = openStore(t, state, path)
	if got, err := s.ArmAlerts(ctx, first.Add(time.Hour)); err != nil || !got.Equal(first) {
		t.Errorf("got %v (%v) after a restart, want the first time %v", got, err, first)
	}
}

func TestAlertsReadWhenModesWereFixedAndFailedLastAndWhetherARunIsSettled(t *testing.T) {
	ctx := context.Background()
	path := newCampaign(t, "c.db")
	// Three permission errors in a live run, the last at 22:30.
	addRun(t, path, "r", false, `INSERT INTO results (run_id, test, target, domain, status, error, started_at) VALUES
		('r', 't1', 'code-interpreter', 'file-io', 'failed', 'PermissionError: [Errno 13] Permission denied: ''/a''', '2026-06-30T22:10:00Z'),
		('r', 't2', 'code-interpreter', 'file-io', 'failed', 'PermissionError: [Errno 13] Permission denied: ''/b''', '2026-06-30T22:30:00Z'),
		('r', 't3', 'code-interpreter', 'file-io', 'passed', NULL, '2026-06-30T22:40:00Z');`)
	s := openStore(t, filepath.Join(t.TempDir(), "state.db"), path)
	modes, _, err := s.RunModes(ctx, "r", sandtrap.ResultFilter{})
	if err != nil || len(modes) != 1 {
		t.Fatalf("got %d modes (%v), want 1", len(modes), err)
	}
	id := modes[0].ID

	last, err := s.LastFailures(ctx, "r")
	if want := time.Date(2026, 6, 30, 22, 30, 0, 0, time.UTC); err != nil || !last[id].Equal(want) {
		t.Errorf("got last failures %v (%v), want %s at %v", last, err, id, want)
	}
	if fixed, err := s.FixedAt(ctx); err != nil || len(fixed) != 0 {
		t.Errorf("got fixed %v (%v), want none yet", fixed, err)
	}
	before := time.Now()
	status := "fixed"
	if _, err := s.UpdateMode(ctx, id, sandtrap.Triage{Status: &status}); err != nil {
		t.Fatal(err)
	}
	fixed, err := s.FixedAt(ctx)
	if at := fixed[id]; err != nil || at.Before(before.Add(-time.Second)) || at.After(time.Now()) {
		t.Errorf("got fixed %v (%v), want %s marked just now", fixed, err, id)
	}

	if settled, err := s.RunSettled(ctx, "r"); err != nil || settled {
		t.Errorf("got settled %v (%v) for a live run, want false", settled, err)
	}
	harness(t, path, `UPDATE runs SET finished_at = '2026-06-30T23:00:00Z' WHERE id = 'r'`)
	waitUntil(t, func() bool { settled, _ := s.RunSettled(ctx, "r"); return settled })
}
