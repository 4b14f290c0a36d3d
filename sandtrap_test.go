package sandtrap_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"sandtrap"
)

func TestCounts(t *testing.T) {
	tests := []struct {
		name         string
		add          map[string]int
		wantFailures int
		wantRate     float64
	}{
		{"an empty run has no failures and a zero pass rate", nil, 0, 0},
		{"skipped results are left out of the pass rate", map[string]int{"passed": 3, "failed": 1, "skipped": 6}, 1, 0.75},
		{"errors and unknown statuses count as failures", map[string]int{"passed": 2, "error": 1, "flaky-ish": 1}, 2, 0.5},
		{"a run of only skipped results has a zero pass rate", map[string]int{"skipped": 4}, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c sandtrap.Counts
			for status, n := range tt.add {
				c.Add(status, n)
			}
			if got := c.Failures(); got != tt.wantFailures {
				t.Errorf("Failures() = %d, want %d", got, tt.wantFailures)
			}
			if got := c.PassRate(); got != tt.wantRate {
				t.Errorf("PassRate() = %v, want %v", got, tt.wantRate)
			}
		})
	}
}

func TestRunDuration(t *testing.T) {
	start := time.Date(2026, 11, 30, 1, 0, 0, 0, time.UTC)
	now := start.Add(90 * time.Minute)
	tests := []struct {
		name string
		run  sandtrap.Run
		want time.Duration
	}{
		{"a live run has lasted until now", sandtrap.Run{StartedAt: start}, 90 * time.Minute},
		{"a finished run lasted until it finished", sandtrap.Run{StartedAt: start, FinishedAt: start.Add(time.Hour)}, time.Hour},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.run.Duration(now); got != tt.want {
				t.Errorf("Duration() = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestErrorCodeAndMessage(t *testing.T) {
	notFound := sandtrap.Errorf(sandtrap.ENOTFOUND, "run %q not found", "r9")
	tests := []struct {
		name        string
		err         error
		wantCode    string
		wantMessage string
	}{
		{"no error has no code", nil, "", ""},
		{"an application error keeps its code and message", notFound, sandtrap.ENOTFOUND, `run "r9" not found`},
		{"a wrapped application error is still found", fmt.Errorf("store: run: %w", notFound), sandtrap.ENOTFOUND, `run "r9" not found`},
		{"any other error is internal and its detail is hidden", errors.New("disk I/O error at /secret/path"), sandtrap.EINTERNAL, "Internal error."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sandtrap.ErrorCode(tt.err); got != tt.wantCode {
				t.Errorf("ErrorCode() = %q, want %q", got, tt.wantCode)
			}
			if got := sandtrap.ErrorMessage(tt.err); got != tt.wantMessage {
				t.Errorf("ErrorMessage() = %q, want %q", got, tt.wantMessage)
			}
		})
	}
}

func TestTallies(t *testing.T) {
	cells := []sandtrap.Cell{
		{Target: "code", Domain: "file-io", Status: "passed", N: 5},
		{Target: "code", Domain: "file-io", Status: "failed", Layer: "sandbox", Primitive: "filesystem", N: 2},
		{Target: "browser", Domain: "browsing", Status: "error", Layer: "sandbox", Primitive: "memory", N: 3},
		{Target: "browser", Domain: "browsing", Status: "skipped", N: 1},
	}
	t.Run("Tally sums counts per key and leaves out empty keys", func(t *testing.T) {
		got := sandtrap.Tally(cells, func(c sandtrap.Cell) string { return c.Layer })
		want := map[string]sandtrap.Counts{"sandbox": {Total: 5, Failed: 2, Errored: 3}}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("got %+v, want %+v", got, want)
		}
	})
	t.Run("TallyFailures counts only failures per row and column", func(t *testing.T) {
		got := sandtrap.TallyFailures(cells,
			func(c sandtrap.Cell) string { return c.Domain },
			func(c sandtrap.Cell) string { return c.Primitive })
		want := map[string]map[string]int{"file-io": {"filesystem": 2}, "browsing": {"memory": 3}}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("got %v, want %v", got, want)
		}
	})
	t.Run("Total sums every cell", func(t *testing.T) {
		got := sandtrap.Total(cells)
		want := sandtrap.Counts{Total: 11, Passed: 5, Failed: 2, Errored: 3, Skipped: 1}
		if got != want {
			t.Errorf("got %+v, want %+v", got, want)
		}
	})
	t.Run("SortedKeys puts the most failures first and breaks ties by name", func(t *testing.T) {
		m := map[string]sandtrap.Counts{
			"b": {Failed: 1}, "a": {Failed: 1}, "c": {Failed: 4}, "d": {Passed: 9},
		}
		got := sandtrap.SortedKeys(m)
		want := []string{"c", "a", "b", "d"}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("got %v, want %v", got, want)
		}
	})
}

func TestActorIsWhoeverTheContextNames(t *testing.T) {
	tests := []struct {
		name string
		ctx  context.Context
		want string
	}{
		{"a named person", sandtrap.WithActor(context.Background(), "ada@example.com"), "ada@example.com"},
		{"the innermost name wins", sandtrap.WithActor(sandtrap.WithActor(context.Background(), "ada"), "grace"), "grace"},
		{"no name is sandtrap itself", context.Background(), sandtrap.ActorSandtrap},
		{"an empty name is sandtrap itself", sandtrap.WithActor(context.Background(), ""), sandtrap.ActorSandtrap},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sandtrap.Actor(tt.ctx); got != tt.want {
				t.Errorf("Actor() = %q, want %q", got, tt.want)
			}
		})
	}
}
