// Package demo writes a demo campaign database: two finished overnight runs
// of about a thousand agent workflows each, with the failures, logs,
// artifacts and tool calls a real harness records, and optionally a live run
// that concurrent sub-agents keep appending to.
package demo

import (
	"context"
	"fmt"
	"strings"
	"time"

	"sandtrap"
	"sandtrap/store/campaign"
)

// Options shape the finished runs.
type Options struct {
	Seed    int64
	Results int       // results per run; 1000 when 0
	Now     time.Time // the runs are the two nights before it; 2 July 2026 when zero
}

// DefaultNow is the moment the demo's runs precede unless Options.Now says
// otherwise: it gives the runs 2026-06-30-overnight and 2026-07-01-overnight.
var DefaultNow = time.Date(2026, 7, 2, 9, 0, 0, 0, time.UTC)

// Above this many results per run, only a sample keeps full logs,
// artifacts and tool calls, so that a million results stay fast to write
// and the file stays a few hundred megabytes.
const detailedResults = 5000

// insertBatch is how many results go into one transaction.
const insertBatch = 2000

// Summary says what Write wrote.
type Summary struct {
	Path string
	Runs []RunSummary
}

// RunSummary counts one run's results.
type RunSummary struct {
	ID     string
	Name   string
	Counts sandtrap.Counts
}

// String renders the summary for the terminal, one line per run.
func (s Summary) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "wrote %s", s.Path)
	for _, r := range s.Runs {
		fmt.Fprintf(&b, "\n  %-22s %9d results %7d failures  %5.1f %% passed  (%s)",
			r.ID, r.Counts.Total, r.Counts.Failures(), 100*r.Counts.PassRate(), r.Name)
	}
	return b.String()
}

// runSpec describes one finished run.
type runSpec struct {
	id, name, notes string
	start           time.Time
	length          time.Duration
	harnessLabels   bool // the harness labels some failures itself
}

// Run lengths: a little under and a little over seven hours.
const (
	run1Length = 6*time.Hour + 52*time.Minute + 14*time.Second
	run2Length = 7*time.Hour + 8*time.Minute + 41*time.Second
)

// nights returns the two runs before now: each starts at 22:00 UTC, and the
// second has finished by now.
func nights(now time.Time) []runSpec {
	now = now.UTC()
	second := time.Date(now.Year(), now.Month(), now.Day(), 22, 0, 0, 0, time.UTC)
	for second.Add(run2Length).After(now) {
		second = second.AddDate(0, 0, -1)
	}
	first := second.AddDate(0, 0, -1)
	spec := func(start time.Time, length time.Duration, notes string, labels bool) runSpec {
		return runSpec{
			id:            start.Format("2006-01-02") + "-overnight",
			name:          fmt.Sprintf("Overnight campaign — %d %s", start.Day(), start.Month()),
			notes:         notes,
			start:         start,
			length:        length,
			harnessLabels: labels,
		}
	}
	return []runSpec{
		spec(first, run1Length, "Nightly agent campaign: 10 domains against code-interpreter and browser, 12 sub-agents.", false),
		spec(second, run2Length, "Re-run after the base64 transport fix, the storage persistence fix and the pip mirror allow-list. "+
			"The harness now labels some failures itself and retries flaky ones once.", true),
	}
}

// Write writes the demo's two finished runs into a new campaign database at
// path; it refuses to overwrite a file that is not empty.
func Write(ctx context.Context, path string, opts Options) (Summary, error) {
	if opts.Results == 0 {
		opts.Results = 1000
	}
	if opts.Results < 100 {
		return Summary{}, fmt.Errorf("demo: %d results per run is too few to hold every failure mode; use at least 100", opts.Results)
	}
	if opts.Now.IsZero() {
		opts.Now = DefaultNow
	}
	if err := campaign.Create(ctx, path); err != nil {
		return Summary{}, fmt.Errorf("demo: %w", err)
	}
	w, err := campaign.OpenWriter(ctx, path)
	if err != nil {
		return Summary{}, fmt.Errorf("demo: %w", err)
	}
	summary, err := writeRuns(ctx, w, opts)
	if err != nil {
		w.Close()
		return Summary{}, fmt.Errorf("demo: writing %s: %w", path, err)
	}
	if err := w.Close(); err != nil {
		return Summary{}, fmt.Errorf("demo: %w", err)
	}
	summary.Path = path
	return summary, nil
}

func writeRuns(ctx context.Context, w *campaign.Writer, opts Options) (Summary, error) {
	p := newPlanner(opts.Seed)
	var summary Summary
	var previous []slot
	for run, spec := range nights(opts.Now) {
		slots := p.plan(run, opts.Results, previous)
		previous = slots
		counts, err := p.write(ctx, w, spec, slots)
		if err != nil {
			return Summary{}, err
		}
		summary.Runs = append(summary.Runs, RunSummary{ID: spec.id, Name: spec.name, Counts: counts})
	}
	return summary, nil
}

// write renders a run's slots and inserts them as the harness would: the
// run first, the results in batches as they finish, and finished_at last.
func (p *planner) write(ctx context.Context, w *campaign.Writer, spec runSpec, slots []slot) (sandtrap.Counts, error) {
	var counts sandtrap.Counts
	planned := int64(len(slots))
	if err := w.InsertRun(ctx, campaign.Run{ID: spec.id, Name: spec.name, StartedAt: spec.start, Planned: &planned, Notes: &spec.notes}); err != nil {
		return counts, err
	}
	end := spec.start.Add(spec.length)
	span := float64(spec.length - 20*time.Minute)
	detailShare := float64(detailedResults) / float64(len(slots))
	batch := make([]campaign.Result, 0, insertBatch)
	for i := range slots {
		s := &slots[i]
		detailed := detailShare >= 1 || s.anchored || s.hostile > 0 || s.verbose || p.rng.Float64() < detailShare
		r := s.result(p.rng, spec.id, detailed, spec.harnessLabels)
		dur := time.Duration(*r.DurationMS) * time.Millisecond
		start := spec.start.Add(time.Duration((float64(i) + p.rng.Float64()) / float64(len(slots)) * span)).Round(time.Millisecond)
		if start.Add(dur).After(end) {
			start = end.Add(-dur - time.Duration(between(p.rng, 1, 90))*time.Second)
		}
		r.StartedAt = &start
		counts.Add(r.Status, 1)
		batch = append(batch, r)
		if len(batch) == insertBatch || i == len(slots)-1 {
			if _, err := w.InsertResults(ctx, batch); err != nil {
				return counts, err
			}
			batch = batch[:0]
		}
	}
	return counts, w.FinishRun(ctx, spec.id, end)
}

// Expectations says what differs between the demo's run 1 and run 2, for
// tests of the classification and the comparison. They hold for every seed
// and size.
type Expectations struct {
	ModesFixed     []string // fail in run 1, not in run 2
	ModesKept      []string // fail in both runs
	ModesAdded     []string // fail in run 2, not in run 1
	ModesNewInLive []string // appear only in the live run, about 60 % of the way through
	TestsFixed     []string // failed in run 1, passed in run 2
	TestsRegressed []string // passed in run 1, failed in run 2
	Modes          []ExpectedMode
}

// ExpectedMode is how sandtrap should classify one of the demo's failure
// modes.
type ExpectedMode struct {
	Key       string
	Layer     string
	Primitive string
	Severity  string
}

// Expected returns the demo's expectations.
func Expected() Expectations {
	var e Expectations
	for _, m := range modes {
		e.Modes = append(e.Modes, ExpectedMode{Key: m.key, Layer: m.layer, Primitive: m.primitive, Severity: m.severity})
		in1, in2 := m.perThousand[run1] > 0, m.perThousand[run2] > 0
		switch {
		case in1 && in2:
			e.ModesKept = append(e.ModesKept, m.key)
		case in1:
			e.ModesFixed = append(e.ModesFixed, m.key)
		case in2:
			e.ModesAdded = append(e.ModesAdded, m.key)
		default:
			e.ModesNewInLive = append(e.ModesNewInLive, m.key)
		}
	}
	for _, a := range anchors {
		switch {
		case a.modes[run1] != "" && a.modes[run2] == "":
			e.TestsFixed = append(e.TestsFixed, a.key())
		case a.modes[run1] == "" && a.modes[run2] != "":
			e.TestsRegressed = append(e.TestsRegressed, a.key())
		}
	}
	return e
}
