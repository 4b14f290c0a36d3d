package store

import (
	"context"
	"database/sql"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestAnUpgradeCarriesEveryDecisionToTheNewModes(t *testing.T) {
	dir := t.TempDir()
	campaign, state := filepath.Join(dir, "campaign.db"), filepath.Join(dir, "state.db")
	copyFile(t, filepath.Join("..", "testdata", "upgrade", "campaign.db"), campaign)
	copyFile(t, filepath.Join("..", "testdata", "upgrade", "state.db"), state)
	// The state names the campaign by the path it was written at.
	db, err := sql.Open("sqlite", state)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE sources SET path = ?`, campaign); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s := openStore(t, state, campaign)
	waitUntil(t, func() bool {
		s.mu.RLock()
		defer s.mu.RUnlock()
		return !s.carryPending
	})
	ctx := context.Background()

	modeOfTest := func(test string) string {
		page, err := s.FindResults(ctx, "night-1", ResultFilter{Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range page.Results {
			if r.Test == test {
				return r.Mode
			}
		}
		t.Fatalf("no result %s", test)
		return ""
	}
	perm := modeOfTest("file-io/a")
	if got := []string{modeOfTest("file-io/b"), modeOfTest("file-io/c")}; got[0] != perm || got[1] != perm {
		t.Fatalf("got permission modes %s and %v, want one mode", perm, got)
	}
	fork := modeOfTest("builds/d")
	if got := modeOfTest("builds/e"); got != fork {
		t.Fatalf("got fork modes %s and %s, want one", fork, got)
	}

	t.Run("the old ids resolve to the new modes", func(t *testing.T) {
		for old, want := range map[string]string{
			"m-c97f88251d05": perm, "m-429dac6b30a3": perm, "m-cda62b54ad90": perm,
			"m-16edf3b387f5": fork, "m-2449d1a1f3c8": fork,
		} {
			m, err := s.FindMode(ctx, old)
			if err != nil {
				t.Errorf("FindMode(%s): %v", old, err)
				continue
			}
			if m.ID != want {
				t.Errorf("old id %s: got mode %s, want %s", old, m.ID, want)
			}
		}
	})
	t.Run("status, severity and owner follow the permission failures", func(t *testing.T) {
		m, err := s.FindMode(ctx, perm)
		if err != nil {
			t.Fatal(err)
		}
		if m.Status != "triaged" || m.Severity != "high" || m.Owner != "alice" {
			t.Errorf("got status %q severity %q owner %q, want triaged, high, alice", m.Status, m.Severity, m.Owner)
		}
	})
	t.Run("a reclassification, a title and a status follow the fork failures", func(t *testing.T) {
		m, err := s.FindMode(ctx, fork)
		if err != nil {
			t.Fatal(err)
		}
		if m.Layer != "sandbox" || m.Primitive != "process-spawn" || m.Title != "Fork blocked by seccomp" || m.Status != "wont-fix" {
			t.Errorf("got %s/%s %q status %q, want sandbox/process-spawn \"Fork blocked by seccomp\" wont-fix", m.Layer, m.Primitive, m.Title, m.Status)
		}
	})
	t.Run("notes and the ticket follow", func(t *testing.T) {
		for mode, want := range map[string]string{perm: "workspace perms: ask platform", fork: "seccomp profile too strict"} {
			var bodies []string
			rows, err := s.reader.QueryContext(ctx, `SELECT body FROM notes WHERE mode_id = ?`, mode)
			if err != nil {
				t.Fatal(err)
			}
			for rows.Next() {
				var b string
				rows.Scan(&b)
				bodies = append(bodies, b)
			}
			rows.Close()
			if !slices.Contains(bodies, want) {
				t.Errorf("mode %s: got notes %q, want %q among them", mode, bodies, want)
			}
		}
		ticket, ok, err := s.Ticket(ctx, perm)
		if err != nil || !ok || !strings.Contains(ticket.Key, "#42") {
			t.Errorf("got ticket %+v (found %v, %v), want acme/sandbox#42", ticket, ok, err)
		}
	})
}
