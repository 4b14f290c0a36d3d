package store_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"sandtrap"
	"sandtrap/demo"
	"sandtrap/filing"
	"sandtrap/logview"
	"sandtrap/store"
	"sandtrap/tracker"
	"sandtrap/triage"
)

// demoStore writes the demo campaign and indexes it with a fresh state.
func demoStore(t *testing.T) *store.Store {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "demo.db")
	if _, err := demo.Write(ctx, path, demo.Options{Seed: 1}); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(ctx, store.Options{StatePath: filepath.Join(t.TempDir(), "state.db"), Campaigns: []string{path}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	st.Start(ctx)
	if err := st.WaitIndexed(ctx); err != nil {
		t.Fatal(err)
	}
	return st
}

// failureOf is a result as the indexer hands it to the classifier, with
// its log's end, its steps and its artifacts' round trip.
func failureOf(t *testing.T, st *store.Store, run string, r sandtrap.Result) triage.Failure {
	t.Helper()
	ctx := context.Background()
	f := triage.Failure{Target: r.Target, Domain: r.Domain, Status: r.Status, Test: r.Test, Error: r.Error,
		HarnessLayer: r.Layer, HarnessPrimitive: r.Primitive, ExitCode: r.ExitCode}
	tail, err := st.ResultLogTail(ctx, run, r.ID, 8<<10)
	if err != nil {
		t.Fatal(err)
	}
	if len(tail) > 0 {
		f.LogTail = tail
	}
	steps, err := st.Steps(ctx, run, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range steps {
		if !slices.Contains(f.Tools, s.Tool) {
			f.Tools = append(f.Tools, s.Tool)
		}
		if s.Error != "" {
			f.StepError = s.Error
		}
	}
	arts, err := st.Artifacts(ctx, run, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range arts {
		if a.ExpectedSHA256 != "" && a.ExpectedSHA256 != a.SHA256 {
			_, data, err := st.ArtifactData(ctx, run, r.ID, a.ID)
			if err != nil {
				t.Fatal(err)
			}
			f.CorruptedArtifact, f.ArtifactDamage = a.Name, logview.RoundTripDamage(data, nil)
		}
	}
	return f
}

func TestModeForFailureGivesEveryIndexedFailureItsOwnMode(t *testing.T) {
	ctx := context.Background()
	st := demoStore(t)
	page, err := st.FindResults(ctx, "2026-06-30-overnight", sandtrap.ResultFilter{Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if page.Total < 100 {
		t.Fatalf("got %d failures in the demo run, want over 100", page.Total)
	}
	for _, row := range page.Results {
		r, cl, err := st.FindResult(ctx, "2026-06-30-overnight", row.ID)
		if err != nil {
			t.Fatal(err)
		}
		l, err := st.ModeForFailure(ctx, failureOf(t, st, "2026-06-30-overnight", r))
		if err != nil {
			t.Fatalf("result %d: %v", r.ID, err)
		}
		got := [5]string{l.Mode.ID, l.Layer, l.Primitive, l.ClassifiedBy, l.ModeSignature()}
		want := [5]string{cl.Mode, cl.Layer, cl.Primitive, cl.ClassifiedBy, cl.Signature}
		if got != want || !l.Known {
			t.Errorf("result %d (%q): got mode, layer, primitive, by, signature %q known %v, want the index's %q",
				r.ID, r.Error, got, l.Known, want)
		}
	}
}

func TestModeForFailureAppliesWhatPeopleDecided(t *testing.T) {
	ctx := context.Background()
	st := demoStore(t)
	page, err := st.FindResults(ctx, "2026-06-30-overnight", sandtrap.ResultFilter{Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	// Failures of two modes that their harness did not classify.
	byMode := map[string]sandtrap.Result{}
	var modes []string
	for _, row := range page.Results {
		if _, seen := byMode[row.Mode]; seen || row.ClassifiedBy == triage.ByHarness {
			continue
		}
		r, _, err := st.FindResult(ctx, "2026-06-30-overnight", row.ID)
		if err != nil {
			t.Fatal(err)
		}
		byMode[row.Mode] = r
		modes = append(modes, row.Mode)
	}
	if len(modes) < 2 {
		t.Fatalf("got %d modes not classified by their harness in the demo run, want 2 or more", len(modes))
	}
	a, b := byMode[modes[0]], byMode[modes[1]]
	la, err := st.ModeForFailure(ctx, failureOf(t, st, "2026-06-30-overnight", a))
	if err != nil {
		t.Fatal(err)
	}
	lb, err := st.ModeForFailure(ctx, failureOf(t, st, "2026-06-30-overnight", b))
	if err != nil {
		t.Fatal(err)
	}
	fixed := triage.StatusFixed
	if _, err := st.UpdateMode(ctx, la.Mode.ID, sandtrap.Triage{Status: &fixed}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.MergeMode(ctx, lb.Mode.ID, la.Mode.ID); err != nil {
		t.Fatal(err)
	}
	layer, prim := sandtrap.LayerTest, "harness"
	if _, err := st.UpdateMode(ctx, la.Mode.ID, sandtrap.Triage{Layer: &layer, Primitive: &prim}); err != nil {
		t.Fatal(err)
	}
	fl, err := st.EnqueueFiling(ctx, la.Mode.ID, "platform", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	ticket := filing.Stored{Ticket: tracker.Ticket{Tracker: tracker.GitHub, Key: "acme/sandbox#7", URL: "https://github.com/acme/sandbox/issues/7", State: "open"},
		ModeID: la.Mode.ID, Team: "platform"}
	if err := st.FinishFiling(ctx, fl.ID, filing.ActionCreate, ticket, time.Now()); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name   string
		result sandtrap.Result
	}{
		{"the failure of a mode marked fixed says so, with its ticket", a},
		{"the failure of a mode merged into another finds the other", b},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := st.ModeForFailure(ctx, failureOf(t, st, "2026-06-30-overnight", tt.result))
			if err != nil {
				t.Fatal(err)
			}
			if l.Mode.ID != la.Mode.ID || l.Mode.Status != triage.StatusFixed {
				t.Errorf("got mode %s status %q, want %s marked fixed", l.Mode.ID, l.Mode.Status, la.Mode.ID)
			}
			if l.ClassifiedBy != triage.ClassifiedByHuman || l.Mode.Layer != layer {
				t.Errorf("got classified by %q as %s, want by a human as %s", l.ClassifiedBy, l.Mode.Layer, layer)
			}
			if !l.HasTicket || l.Ticket.Key != "acme/sandbox#7" {
				t.Errorf("got ticket %+v (has %v), want acme/sandbox#7", l.Ticket, l.HasTicket)
			}
		})
	}
}

func TestModeForFailureOfANewMessage(t *testing.T) {
	ctx := context.Background()
	st := demoStore(t)
	tests := []struct {
		name      string
		failure   triage.Failure
		wantLayer string
		wantBy    string
		wantKnown bool
		wantErr   string
	}{
		{"a message no rule knows is a new, unclassified mode",
			triage.Failure{Status: "failed", Error: "the frobnicator wobbled at step 7"}, sandtrap.LayerUnclassified, triage.ByNone, false, ""},
		{"a message a built-in rule knows is classified by that rule",
			triage.Failure{Status: "failed", Target: "code-interpreter", Domain: "file-io", Error: "OSError: [Errno 116] Stale file handle while writing the frobnicator"}, sandtrap.LayerSandbox, "rule:", false, ""},
		{"a known cause in a wording never seen is the known mode",
			triage.Failure{Status: "failed", Target: "code-interpreter", Domain: "file-io", Error: "mkdir: cannot create directory 'frobnicator': No space left on device"}, sandtrap.LayerSandbox, "rule:", true, ""},
		{"a known cause with a path never seen is the known mode",
			triage.Failure{Status: "failed", Target: "code-interpreter", Domain: "file-io", Error: "OSError: [Errno 28] No space left on device: '/tmp/zz-unseen-9381'"}, sandtrap.LayerSandbox, "rule:", true, ""},
		{"the harness's own layer and primitive decide",
			triage.Failure{Status: "error", Error: "boom", HarnessLayer: "test", HarnessPrimitive: "harness"}, sandtrap.LayerTest, triage.ByHarness, false, ""},
		{"a result that passed has no mode",
			triage.Failure{Status: "passed"}, "", "", false, sandtrap.EINVALID},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := st.ModeForFailure(ctx, tt.failure)
			if got := sandtrap.ErrorCode(err); got != tt.wantErr {
				t.Fatalf("got error %v, want code %q", err, tt.wantErr)
			}
			if tt.wantErr != "" {
				return
			}
			if l.Mode.Layer != tt.wantLayer || len(l.ClassifiedBy) < len(tt.wantBy) || l.ClassifiedBy[:len(tt.wantBy)] != tt.wantBy {
				t.Errorf("got layer %q by %q, want %q by %q…", l.Mode.Layer, l.ClassifiedBy, tt.wantLayer, tt.wantBy)
			}
			if l.Known != tt.wantKnown {
				t.Errorf("got known %v, want %v", l.Known, tt.wantKnown)
			}
			want := triage.ModeID(l.Layer, l.Primitive, strings.Join(triage.TemplateTokens(l.ModeSignature()), " "))
			if tt.wantKnown {
				want = l.ModeID
			}
			if l.Mode.ID != want || l.ModeID != want {
				t.Errorf("got mode %s (classified %s), want %s", l.Mode.ID, l.ModeID, want)
			}
			if l.Mode.Title == "" || l.Mode.Severity == "" || !tt.wantKnown && l.Mode.Status != triage.StatusNew {
				t.Errorf("got status %q, title %q, severity %q, want an untriaged mode with a title and a severity", l.Mode.Status, l.Mode.Title, l.Mode.Severity)
			}
		})
	}
}
