package handlers

import (
	"testing"
	"time"

	"sandtrap"
	"sandtrap/views"
)

func TestHeadlineSaysHowTheRunWent(t *testing.T) {
	tests := []struct {
		name string
		c    sandtrap.Counts
		want string
	}{
		{"a run with no results", sandtrap.Counts{}, "No results yet"},
		{"one failure is singular", sandtrap.Counts{Total: 10, Passed: 9, Failed: 1}, "90.0% passed — 1 failure"},
		{"skipped results do not count against the pass rate", sandtrap.Counts{Total: 1010, Passed: 881, Failed: 100, Errored: 19, Skipped: 10}, "88.1% passed — 119 failures"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := headline(tt.c); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestLiveTextGivesThePaceAndTheETA(t *testing.T) {
	tests := []struct {
		name      string
		perMinute float64
		remaining int
		quiet     time.Duration
		want      string
	}{
		{"no results yet", 0, 100, 0, "live · waiting for results"},
		{"a steady pace gives an ETA", 12, 168, time.Second, "live · 12 results/min · ETA 14m"},
		{"a slow pace keeps a decimal", 2.5, 0, time.Second, "live · 2.5 results/min"},
		{"a quiet harness is called out", 12, 100, 2 * time.Hour, "live, but no results for 2h"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := liveText(tt.perMinute, tt.remaining, tt.quiet); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestUnclassifiedSaysWhyAResultHasNoClassification(t *testing.T) {
	tests := []struct {
		name, status, layer string
		want                string
	}{
		{"a passed result did not fail", "passed", "", "This result did not fail."},
		{"a skipped result did not fail", "skipped", "", "This result did not fail."},
		{"a failure not yet indexed says so", "failed", "", "Not classified yet: sandtrap has not indexed this result. Reload in a moment."},
		{"a classified failure needs no note", "error", "sandbox", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := unclassified(tt.status, tt.layer); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestEmptyFailuresSaysWhyAndOffersTheWayOn(t *testing.T) {
	tests := []struct {
		name       string
		f          sandtrap.ResultFilter
		total      int
		wantText   string
		wantAction string
		wantHref   string
	}{
		{"a page past the end leads back to the first page", sandtrap.ResultFilter{Target: "browser", Offset: 99999, Limit: 50}, 111,
			"This page is past the last of the 111 matching results.", "Go to the first page", "/runs/r1/failures?target=browser"},
		{"filters that match nothing can be cleared", sandtrap.ResultFilter{Domain: "file-io", Limit: 50}, 0,
			"No results match these filters.", "Clear the filters", "/runs/r1/failures"},
		{"a run without failures offers every result", sandtrap.ResultFilter{Limit: 50}, 0,
			"No failures in this run.", "Show every result", "/runs/r1/failures?status=all"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, action, href := emptyFailures("r1", tt.f, tt.total)
			if text != tt.wantText || action != tt.wantAction || href != tt.wantHref {
				t.Errorf("got %q, %q, %q; want %q, %q, %q", text, action, href, tt.wantText, tt.wantAction, tt.wantHref)
			}
		})
	}
}

func TestWithTrendsSaysALiveRunsPointIsNotFinal(t *testing.T) {
	start := time.Date(2026, 6, 30, 22, 0, 0, 0, time.UTC)
	runs := []sandtrap.Run{
		{ID: "june", Name: "June", StartedAt: start, FinishedAt: start.Add(time.Hour), Counts: sandtrap.Counts{Total: 10, Passed: 9, Failed: 1}},
		{ID: "tonight", Name: "Tonight", StartedAt: start.Add(24 * time.Hour), Counts: sandtrap.Counts{Total: 4, Passed: 4}},
	}
	var row views.RunRow
	withTrends(&row, runs, map[string]int{"june": 18, "tonight": 3})
	tests := []struct {
		name, got, want string
	}{
		{"a finished run's pass rate is final", row.PassTrendLabels[0], "June: 90.0% passed"},
		{"a live run's pass rate is so far", row.PassTrendLabels[1], "Tonight: 100.0% passed so far (live)"},
		{"a live run's mode count is so far", row.ModeTrendLabels[1], "Tonight: 3 failure modes so far (live)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("got %q, want %q", tt.got, tt.want)
			}
		})
	}
}

func TestTrackerTextNamesWhereTicketsGo(t *testing.T) {
	tests := []struct{ name, tracker, want string }{
		{"a team without a tracker files by hand", "none", "no tracker: file by hand from the Markdown"},
		{"GitHub is named as people know it", "github", "tracker: GitHub Issues"},
		{"a webhook says it is signed", "webhook", "tracker: a signed webhook"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := trackerText(tt.tracker); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
