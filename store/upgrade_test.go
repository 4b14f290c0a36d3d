package store

import (
	"context"
	"database/sql"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"sandtrap"
	"sandtrap/store/state"
	"sandtrap/triage"
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

// upgrade copies testdata/upgrade/campaign.db and the state file fixture
// written over it by an older sandtrap, opens them with today's store and
// rules (and the user rules given), and waits until people's decisions
// have followed their failures. It returns the store, the paths of the
// copies, and the mode shown for a test's result.
func upgrade(t *testing.T, fixture string, rules ...triage.Rule) (s *Store, campaign, state string, modeOfTest func(test string) string) {
	t.Helper()
	dir := t.TempDir()
	campaign, state = filepath.Join(dir, "campaign.db"), filepath.Join(dir, "state.db")
	copyFile(t, filepath.Join("..", "testdata", "upgrade", "campaign.db"), campaign)
	copyFile(t, filepath.Join("..", "testdata", "upgrade", fixture), state)
	// The state names the campaign by the path it was written at.
	db, err := sql.Open("sqlite", state)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE sources SET path = ?`, campaign); err != nil {
		t.Fatal(err)
	}
	db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err = Open(ctx, Options{StatePath: state, Campaigns: []string{campaign}, Classifier: triage.NewClassifier(rules), Poll: 5 * time.Millisecond})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	s.Start(context.Background())
	t.Cleanup(func() { s.Close() })
	if err := s.WaitIndexed(ctx); err != nil {
		t.Fatalf("WaitIndexed: %v", err)
	}
	waitUntil(t, func() bool {
		s.mu.RLock()
		defer s.mu.RUnlock()
		return !s.carryPending
	})
	modeOfTest = func(test string) string {
		t.Helper()
		page, err := s.FindResults(context.Background(), "night-1", sandtrap.ResultFilter{Limit: 100})
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
	return s, campaign, state, modeOfTest
}

func TestAnUpgradeCarriesEveryDecisionToTheNewModes(t *testing.T) {
	s, _, _, modeOfTest := upgrade(t, "state.db")
	ctx := context.Background()
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
			rows, err := stateDB(t, s).QueryContext(ctx, `SELECT body FROM notes WHERE mode_id = ?`, mode)
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

func TestAnUpgradeToPackedFailuresKeepsEveryDecision(t *testing.T) {
	s, campaign, state, modeOfTest := upgrade(t, "state-0008.db")
	ctx := context.Background()
	// The modes the fixture's decisions were made on. Should today's rules
	// give their failures other modes, each resolves to its new one.
	const perm, fork, dns = "m-e86cdedcc396", "m-16edf3b387f5", "m-c8ee06d43b79"
	find := func(id string) sandtrap.Mode {
		t.Helper()
		m, err := s.FindMode(ctx, id)
		if err != nil {
			t.Fatalf("FindMode(%s): %v", id, err)
		}
		return m
	}

	t.Run("every failure shows the mode its decisions are on", func(t *testing.T) {
		for test, mode := range map[string]string{
			"file-io/a": perm, "file-io/b": perm, "file-io/c": perm, "builds/d": fork, "builds/e": fork, "downloads/f": dns,
		} {
			if got, want := modeOfTest(test), find(mode).ID; got != want {
				t.Errorf("%s: got mode %s, want %s", test, got, want)
			}
		}
	})
	t.Run("status, severity, owner and the merge stay", func(t *testing.T) {
		m := find(perm)
		if m.Status != "triaged" || m.Severity != "high" || m.Owner != "alice" {
			t.Errorf("got status %q severity %q owner %q, want triaged, high, alice", m.Status, m.Severity, m.Owner)
		}
		if merged := find(dns); merged.ID != m.ID {
			t.Errorf("got the mode merged in shown as %s, want %s, which it was merged into", merged.ID, m.ID)
		}
	})
	t.Run("a reclassification, a title and a status stay", func(t *testing.T) {
		m := find(fork)
		if m.Layer != "sandbox" || m.Primitive != "process-spawn" || m.Title != "Fork blocked by seccomp" || m.Status != "wont-fix" {
			t.Errorf("got %s/%s %q status %q, want sandbox/process-spawn \"Fork blocked by seccomp\" wont-fix", m.Layer, m.Primitive, m.Title, m.Status)
		}
	})
	t.Run("notes and the ticket stay", func(t *testing.T) {
		for mode, want := range map[string]string{perm: "workspace perms: ask platform", fork: "seccomp profile too strict"} {
			notes, _, err := s.ModeNotes(ctx, find(mode))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.ContainsFunc(notes, func(n sandtrap.Note) bool { return n.Body == want }) {
				t.Errorf("mode %s: got notes %v, want %q among them", mode, notes, want)
			}
		}
		ticket, ok, err := s.Ticket(ctx, find(perm).ID)
		if err != nil || !ok || !strings.Contains(ticket.Key, "#42") {
			t.Errorf("got ticket %+v (found %v, %v), want acme/sandbox#42", ticket, ok, err)
		}
	})
	t.Run("the failures read again are saved and load after a restart", func(t *testing.T) {
		before, err := s.FindResults(ctx, "night-1", sandtrap.ResultFilter{Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
		again, err := Open(ctx, Options{StatePath: state, Campaigns: []string{campaign}})
		if err != nil {
			t.Fatal(err)
		}
		defer again.Close()
		// Not started: what it shows comes from the state alone.
		after, err := again.FindResults(ctx, "night-1", sandtrap.ResultFilter{Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		if len(after.Results) != 6 || len(after.Results) != len(before.Results) {
			t.Fatalf("got %d failures after a restart, want the 6 read before (%d)", len(after.Results), len(before.Results))
		}
		for i, r := range after.Results {
			b := before.Results[i]
			if r.ID != b.ID || r.Test != b.Test || r.Error != b.Error || r.Mode != b.Mode {
				t.Errorf("got failure %d %s %q %s after a restart, want %d %s %q %s", r.ID, r.Test, r.Error, r.Mode, b.ID, b.Test, b.Error, b.Mode)
			}
		}
	})
}

func TestTheMoveToPackedFailuresAloneChangesNoMode(t *testing.T) {
	path := newCampaign(t, "c.db")
	addRun(t, path, "r", true, resultsSQL("r", 300))
	state := filepath.Join(t.TempDir(), "state.db")
	ctx := context.Background()
	s := openStore(t, state, path)
	s.mu.RLock()
	before := failuresOf(s, "r")
	s.mu.RUnlock()
	decided := before[0].ModeID
	status := "triaged"
	if _, err := s.UpdateMode(ctx, decided, sandtrap.Triage{Status: &status}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	unpackFailures(t, state)

	s = openStore(t, state, path)
	waitUntil(t, func() bool {
		s.mu.RLock()
		defer s.mu.RUnlock()
		return !s.carryPending
	})
	s.mu.RLock()
	after := failuresOf(s, "r")
	s.mu.RUnlock()
	if len(before) == 0 || !slices.Equal(after, before) {
		t.Errorf("got %d failures after the upgrade, want the %d from before, each with its mode", len(after), len(before))
	}
	var aliases int
	if err := stateDB(t, s).QueryRowContext(ctx, `SELECT count(*) FROM aliases`).Scan(&aliases); err != nil {
		t.Fatal(err)
	}
	if aliases != 0 {
		t.Errorf("got %d aliases, want none: no mode changed", aliases)
	}
	if m, err := s.FindMode(ctx, decided); err != nil || m.ID != decided || m.Status != "triaged" {
		t.Errorf("got mode %s status %q (%v), want %s triaged", m.ID, m.Status, err, decided)
	}
}

// unpackFailures turns the state file at path back into what migration 8
// left: failures one to a row, as state-0008.db holds them.
func unpackFailures(t *testing.T, path string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.Exec(`CREATE TABLE failures (
		source_id INTEGER NOT NULL, result_id INTEGER NOT NULL, run_id TEXT NOT NULL, test TEXT NOT NULL, error TEXT NOT NULL,
		mode_id TEXT NOT NULL, classified_by TEXT NOT NULL, attempt INTEGER NOT NULL, PRIMARY KEY (source_id, result_id)) WITHOUT ROWID`); err != nil {
		t.Fatal(err)
	}
	type row struct {
		sourceID int64
		runID    string
		f        state.Failure
	}
	var rows []row
	chunks, err := tx.Query(`SELECT source_id, run_id, data FROM failure_chunks`)
	if err != nil {
		t.Fatal(err)
	}
	for chunks.Next() {
		var (
			sourceID int64
			runID    string
			data     []byte
		)
		if err := chunks.Scan(&sourceID, &runID, &data); err != nil {
			t.Fatal(err)
		}
		err := state.DecodeFailures(data, func(f state.Failure) error {
			rows = append(rows, row{sourceID, runID, f})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := chunks.Err(); err != nil {
		t.Fatal(err)
	}
	chunks.Close()
	for _, r := range rows {
		if _, err := tx.Exec(`INSERT INTO failures VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, r.sourceID, r.f.ID, r.runID, r.f.Test, r.f.Err, r.f.ModeID, r.f.By, r.f.Attempt); err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range []string{`DROP TABLE failure_chunks`, `DELETE FROM schema_migrations WHERE version = 9`, `PRAGMA user_version = 8`} {
		if _, err := tx.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

func TestAnUpgradeToPackedFailuresUnderNewRulesCarriesDecisionsToTheNewModes(t *testing.T) {
	// New rules at the same upgrade: the permission failures get a mode of
	// another primitive, and what people decided on the old one follows.
	rule := triage.Rule{Name: "perms", ErrorRegex: regexp.MustCompile(`Permission denied`), Layer: "sandbox", Primitive: "package-path"}
	s, _, _, modeOfTest := upgrade(t, "state-0008.db", rule)
	ctx := context.Background()
	const old = "m-e86cdedcc396"
	now := modeOfTest("file-io/a")
	if now == old {
		t.Fatalf("got the permission failures in mode %s still, want a new mode under the new rule", now)
	}
	m, err := s.FindMode(ctx, old)
	if err != nil {
		t.Fatal(err)
	}
	if m.ID != now || m.Primitive != "package-path" || m.Status != "triaged" || m.Severity != "high" || m.Owner != "alice" {
		t.Errorf("got old id %s shown as %s (%s, status %q, severity %q, owner %q), want %s, package-path, triaged, high, alice",
			old, m.ID, m.Primitive, m.Status, m.Severity, m.Owner, now)
	}
}
