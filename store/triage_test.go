package store

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	"sandtrap"
)

func TestMergesAndSplitsKeepOneRootPerMode(t *testing.T) {
	ctx := context.Background()
	setUp := func(t *testing.T) (*Store, string, string, string) {
		t.Helper()
		path := newCampaign(t, "c.db")
		addRun(t, path, "r", true, resultsSQL("r", 70))
		state := filepath.Join(t.TempDir(), "state.db")
		s := openStore(t, state, path)
		modes, _, err := s.RunModes(ctx, "r", sandtrap.ResultFilter{})
		if err != nil || len(modes) != 2 {
			t.Fatalf("got %d modes (%v), want the campaign's 2", len(modes), err)
		}
		return s, state, modes[0].ID, modes[1].ID
	}

	t.Run("a merged mode leads to the mode it was merged into, and merging them again is a conflict", func(t *testing.T) {
		s, _, a, b := setUp(t)
		m, err := s.MergeMode(ctx, a, b)
		if err != nil {
			t.Fatal(err)
		}
		if m.ID != b || len(m.Members) != 2 {
			t.Errorf("got mode %s with members %v, want %s with both", m.ID, m.Members, b)
		}
		if got, err := s.FindMode(ctx, a); err != nil || got.ID != b {
			t.Errorf("got %q (%v) for the merged mode, want %q", got.ID, err, b)
		}
		if _, err := s.MergeMode(ctx, b, a); sandtrap.ErrorCode(err) != sandtrap.ECONFLICT {
			t.Errorf("got %v merging them the other way, want a conflict", err)
		}
	})
	t.Run("two opposite merges at once leave one mode, never a cycle", func(t *testing.T) {
		s, _, a, b := setUp(t)
		var wg sync.WaitGroup
		errs := make([]error, 2)
		wg.Go(func() { _, errs[0] = s.MergeMode(ctx, a, b) })
		wg.Go(func() { _, errs[1] = s.MergeMode(ctx, b, a) })
		wg.Wait()
		conflicts := 0
		for _, err := range errs {
			if sandtrap.ErrorCode(err) == sandtrap.ECONFLICT {
				conflicts++
			} else if err != nil {
				t.Fatal(err)
			}
		}
		if conflicts != 1 {
			t.Errorf("got %d conflicts (%v), want exactly one merge to win", conflicts, errs)
		}
		ma, _ := s.FindMode(ctx, a)
		mb, _ := s.FindMode(ctx, b)
		if ma.ID != mb.ID || len(ma.Members) != 2 {
			t.Errorf("got roots %q and %q with members %v, want one mode holding both", ma.ID, mb.ID, ma.Members)
		}
	})
	t.Run("a split member is its own mode again, also after a restart, and splitting it twice is a conflict", func(t *testing.T) {
		s, state, a, b := setUp(t)
		if _, err := s.MergeMode(ctx, a, b); err != nil {
			t.Fatal(err)
		}
		if _, err := s.SplitMode(ctx, a); err != nil {
			t.Fatal(err)
		}
		if _, err := s.SplitMode(ctx, a); sandtrap.ErrorCode(err) != sandtrap.ECONFLICT {
			t.Errorf("got %v splitting it again, want a conflict", err)
		}
		if _, err := s.SplitMode(ctx, "m-nope"); sandtrap.ErrorCode(err) != sandtrap.ENOTFOUND {
			t.Errorf("got %v splitting an unknown mode, want not found", err)
		}
		paths := []string{s.sources[0].path}
		s.Close()
		again := openStore(t, state, paths...)
		if got, err := again.FindMode(ctx, a); err != nil || got.ID != a || len(got.Members) != 1 {
			t.Errorf("got %q with members %v (%v) after a restart, want %q on its own", got.ID, got.Members, err, a)
		}
	})
}
