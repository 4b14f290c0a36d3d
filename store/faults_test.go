package store

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"sandtrap"
)

// smallDisk mounts a tmpfs of size bytes for the test, or skips the test
// when mounting is not permitted here.
func smallDisk(t *testing.T, size string) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("a full disk needs a small tmpfs, and mounting one is not permitted here (run as root): %v: %s", err, strings.TrimSpace(string(out)))
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", dir, err, out)
		}
	})
	return dir
}

// fill writes a file into dir until its disk is full.
func fill(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "filler")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	for {
		if _, err := f.Write(buf); errors.Is(err, syscall.ENOSPC) {
			return path
		} else if err != nil {
			t.Fatal(err)
		}
	}
}

func TestAFullDiskRefusesSavesByNameLosesNothingAndServiceResumes(t *testing.T) {
	ctx := context.Background()
	campaign := newCampaign(t, "c.db")
	addRun(t, campaign, "r", false, resultsSQL("r", 3000))
	disk := smallDisk(t, "4m")
	state := filepath.Join(disk, "state.db")
	s := openStore(t, state, campaign)
	page, err := s.FindResults(ctx, "r", sandtrap.ResultFilter{})
	if err != nil || len(page.Results) == 0 {
		t.Fatalf("got %d failures (%v), want some", len(page.Results), err)
	}
	var modes []string
	for _, r := range page.Results {
		if len(modes) == 0 || modes[len(modes)-1] != r.Mode {
			modes = append(modes, r.Mode)
		}
	}
	if len(modes) < 2 {
		t.Fatalf("got modes %v, want two to merge", modes)
	}
	if _, err := s.UpdateMode(ctx, modes[0], sandtrap.Triage{Status: new("triaged")}); err != nil {
		t.Fatal(err)
	}

	filler := fill(t, disk)
	sayFull := func(t *testing.T, err error) {
		t.Helper()
		if sandtrap.ErrorCode(err) != sandtrap.EUNAVAILABLE {
			t.Errorf("got %v (code %s), want the write refused as unavailable", err, sandtrap.ErrorCode(err))
		}
		for _, want := range []string{state, "is full", "Free some space"} {
			if msg := sandtrap.ErrorMessage(err); !strings.Contains(msg, want) {
				t.Errorf("got %q, want it to say %q", msg, want)
			}
		}
	}
	writes := []struct {
		name  string
		write func() error
	}{
		{"a triage decision", func() error { _, err := s.UpdateMode(ctx, modes[0], sandtrap.Triage{Severity: new("low")}); return err }},
		{"a merge", func() error { _, err := s.MergeMode(ctx, modes[1], modes[0]); return err }},
		{"a note", func() error { return s.AddNote(ctx, modes[0], "written on a full disk") }},
	}
	for _, w := range writes {
		t.Run(w.name+" is refused, naming the state file and its full disk", func(t *testing.T) {
			sayFull(t, w.write())
		})
	}
	t.Run("new results are not indexed, and the run's pages say why", func(t *testing.T) {
		harness(t, campaign, resultsSQL("r", 500))
		var fault string
		waitUntil(t, func() bool {
			st, _ := s.RunSource(ctx, "r")
			fault = st.Fault
			return fault != ""
		})
		if run, _ := s.FindRun(ctx, "r"); run.Counts.Total != 3000 {
			t.Errorf("got %d results while the new ones cannot be saved, want the 3000 saved", run.Counts.Total)
		}
		for _, want := range []string{campaign, state, "is full"} {
			if !strings.Contains(fault, want) {
				t.Errorf("got fault %q, want it to say %q", fault, want)
			}
		}
	})

	t.Run("what was saved before is all there when the state is opened again", func(t *testing.T) {
		s.Close()
		again, err := Open(ctx, Options{StatePath: state, Campaigns: []string{campaign}})
		if err != nil {
			t.Fatalf("got %v opening the state again on the full disk, want it whole", err)
		}
		defer again.Close()
		if run, _ := again.FindRun(ctx, "r"); run.Counts.Total != 3000 {
			t.Errorf("got %d results indexed, want the 3000 saved", run.Counts.Total)
		}
		m, err := again.FindMode(ctx, modes[0])
		if err != nil || m.Status != "triaged" || m.Severity == "low" {
			t.Errorf("got mode %+v (%v), want the decision saved before (triaged), not the refused one", m, err)
		}
		if len(m.Members) != 1 {
			t.Errorf("got members %v, want no merge", m.Members)
		}
	})

	t.Run("once there is room the new results are indexed and decisions saved", func(t *testing.T) {
		s = openStore(t, state, campaign)
		if err := os.Remove(filler); err != nil {
			t.Fatal(err)
		}
		waitUntil(t, func() bool { run, _ := s.FindRun(ctx, "r"); return run.Counts.Total == 3500 })
		waitUntil(t, func() bool { st, _ := s.RunSource(ctx, "r"); return st.Fault == "" })
		if _, err := s.UpdateMode(ctx, modes[0], sandtrap.Triage{Severity: new("low")}); err != nil {
			t.Errorf("got %v for a decision once there is room, want it saved", err)
		}
		if err := s.AddNote(ctx, modes[0], "written once there was room"); err != nil {
			t.Errorf("got %v for a note once there is room, want it saved", err)
		}
	})
}

// A mend that lands while the watcher checks the damaged pages leaves it
// nothing new to see: the file's time changed when the mend began, before
// its bytes were all back, and not after. The damage must not be taken as
// final for that.
func TestADamagedFileIsReadAgainOnceWholeThoughItsStampStayedTheSame(t *testing.T) {
	ctx := context.Background()
	campaign := newCampaign(t, "c.db")
	addRun(t, campaign, "r", false, resultsSQL("r", 3000))
	good, err := os.ReadFile(campaign)
	if err != nil {
		t.Fatal(err)
	}
	s := openStore(t, filepath.Join(t.TempDir(), "state.db"), campaign)
	// Garbage over a quarter of the file, in its middle pages.
	off, size := int64(len(good)/2)&^4095, len(good)/4&^4095
	garbage := make([]byte, size)
	for i := range garbage {
		garbage[i] = byte(i*7 + 3)
	}
	writeAt(t, campaign, off, garbage)
	fault := func() string { st, _ := s.RunSource(ctx, "r"); return st.Fault }
	waitUntil(t, func() bool { return strings.Contains(fault(), "is damaged") })

	damaged, err := os.Stat(campaign)
	if err != nil {
		t.Fatal(err)
	}
	writeAt(t, campaign, off, good[off:off+int64(size)])
	if err := os.Chtimes(campaign, damaged.ModTime(), damaged.ModTime()); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, func() bool { return fault() == "" })
	if run, err := s.FindRun(ctx, "r"); err != nil || run.Counts.Total != 3000 {
		t.Errorf("got %d results (%v) once the file is whole, want 3000", run.Counts.Total, err)
	}
}

// writeAt writes b into the file at path at off, in place.
func writeAt(t *testing.T, path string, off int64, b []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt(b, off); err != nil {
		t.Fatal(err)
	}
}
