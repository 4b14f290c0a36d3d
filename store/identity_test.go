package store

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"sandtrap"
)

func TestHistoryAndNotesKeepWhoAcrossARestart(t *testing.T) {
	ctx := context.Background()
	path := newCampaign(t, "c.db")
	addRun(t, path, "r", true, resultsSQL("r", 70))
	state := filepath.Join(t.TempDir(), "state.db")
	s := openStore(t, state, path)
	modes, _, err := s.RunModes(ctx, "r", sandtrap.ResultFilter{})
	if err != nil || len(modes) != 2 {
		t.Fatalf("got %d modes (%v), want the campaign's 2", len(modes), err)
	}
	a, b := modes[0].ID, modes[1].ID
	ada, grace := sandtrap.WithActor(ctx, "ada@example.com"), sandtrap.WithActor(ctx, "grace@example.com")
	triaged := "triaged"
	if _, err := s.UpdateMode(ada, a, sandtrap.Triage{Status: &triaged}); err != nil {
		t.Fatal(err)
	}
	if err := s.AddNote(grace, a, "the sandbox's, not ours"); err != nil {
		t.Fatal(err)
	}
	if err := s.AddNote(ctx, a, "no one named"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.MergeMode(grace, b, a); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SplitMode(ada, b); err != nil {
		t.Fatal(err)
	}
	if _, err := s.EnqueueFiling(sandtrap.WithActor(ctx, sandtrap.ActorToken), a, "mcp-server", time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s = openStore(t, state, path)
	m, err := s.FindMode(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	notes, events, err := s.ModeNotes(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	type line struct{ who, what string }
	var gotNotes, gotEvents []line
	for _, n := range notes {
		gotNotes = append(gotNotes, line{n.Who, n.Body})
	}
	for _, e := range events {
		gotEvents = append(gotEvents, line{e.Who, e.What})
	}
	wantNotes := []line{{"grace@example.com", "the sandbox's, not ours"}, {sandtrap.ActorSandtrap, "no one named"}}
	wantEvents := []line{
		{"ada@example.com", "status → triaged"},
		{"grace@example.com", "merged " + b + " into this mode"},
		{"ada@example.com", "split " + b + " out"},
		{sandtrap.ActorToken, "asked to file it to mcp-server"},
	}
	if !slices.Equal(gotNotes, wantNotes) {
		t.Errorf("got notes %q after a restart, want %q", gotNotes, wantNotes)
	}
	if !slices.Equal(gotEvents, wantEvents) {
		t.Errorf("got history %q after a restart, want %q", gotEvents, wantEvents)
	}
	var who string
	if err := stateDB(t, s).QueryRowContext(ctx, `SELECT who FROM outbox WHERE mode_id = ?`, a).Scan(&who); err != nil || who != sandtrap.ActorToken {
		t.Errorf("got the filing asked for by %q (%v), want %q", who, err, sandtrap.ActorToken)
	}
}
