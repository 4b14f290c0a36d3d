package alert_test

import (
	"slices"
	"testing"
	"time"

	"sandtrap"
	"sandtrap/alert"
)

var (
	runStart = time.Date(2026, 7, 1, 22, 0, 0, 0, time.UTC)
	links    = alert.Links{Base: "https://sandtrap.example/"}
)

func mode(id, severity, layer string, opts ...func(*sandtrap.ModeStat)) sandtrap.ModeStat {
	m := sandtrap.ModeStat{
		Mode:    sandtrap.Mode{ID: id, Title: "title of " + id, Severity: severity, Layer: layer, Primitive: "network-egress", Status: "new"},
		Count:   3,
		Targets: map[string]int{"browser": 3},
		Domains: map[string]int{"web-browsing": 3},
	}
	for _, o := range opts {
		o(&m)
	}
	return m
}

func isNew(m *sandtrap.ModeStat) { m.NewInRun = true }

func fixed(m *sandtrap.ModeStat) { m.Status = "fixed" }

func liveRun() sandtrap.Run {
	return sandtrap.Run{ID: "live-1", Name: "Live one", StartedAt: runStart,
		Counts: sandtrap.Counts{Total: 10, Passed: 6, Failed: 3, Skipped: 1}}
}

func finishedRun() sandtrap.Run {
	r := liveRun()
	r.FinishedAt = runStart.Add(time.Hour)
	return r
}

func keys(fires []alert.Fire) []alert.Key {
	out := make([]alert.Key, len(fires))
	for i, f := range fires {
		out[i] = f.Key
	}
	return out
}

func TestDetect(t *testing.T) {
	oncall := alert.Alert{Name: "oncall", SlackWebhookEnv: "SLACK_URL"}
	fixedAt := map[string]time.Time{"m-fixed": runStart.Add(10 * time.Minute)}
	tests := []struct {
		name   string
		alerts []alert.Alert
		facts  alert.RunFacts
		want   []alert.Key
	}{
		{
			name:   "a mode no earlier run had fires new-mode",
			alerts: []alert.Alert{oncall},
			facts:  alert.RunFacts{Run: liveRun(), Modes: []sandtrap.ModeStat{mode("m-new", "high", "sandbox", isNew), mode("m-old", "critical", "sandbox")}},
			want:   []alert.Key{{Alert: "oncall", Event: "new-mode", ModeID: "m-new", RunID: "live-1"}},
		},
		{
			name:   "a mode milder than the default high is left out",
			alerts: []alert.Alert{oncall},
			facts:  alert.RunFacts{Run: liveRun(), Modes: []sandtrap.ModeStat{mode("m-new", "medium", "sandbox", isNew)}},
		},
		{
			name:   "min_severity low keeps a low mode",
			alerts: []alert.Alert{{Name: "all", SlackWebhookEnv: "S", MinSeverity: "low"}},
			facts:  alert.RunFacts{Run: liveRun(), Modes: []sandtrap.ModeStat{mode("m-new", "low", "test", isNew)}},
			want:   []alert.Key{{Alert: "all", Event: "new-mode", ModeID: "m-new", RunID: "live-1"}},
		},
		{
			name:   "a fixed mode failing after it was marked fixed is returned, not new",
			alerts: []alert.Alert{oncall},
			facts: alert.RunFacts{Run: liveRun(), Modes: []sandtrap.ModeStat{mode("m-fixed", "high", "sandbox", fixed, isNew)},
				FixedAt: fixedAt, LastFailure: map[string]time.Time{"m-fixed": runStart.Add(20 * time.Minute)}},
			want: []alert.Key{{Alert: "oncall", Event: "returned-mode", ModeID: "m-fixed", RunID: "live-1"}},
		},
		{
			name:   "a fixed mode whose failures all came before the mark has not returned",
			alerts: []alert.Alert{oncall},
			facts: alert.RunFacts{Run: liveRun(), Modes: []sandtrap.ModeStat{mode("m-fixed", "high", "sandbox", fixed)},
				FixedAt: fixedAt, LastFailure: map[string]time.Time{"m-fixed": runStart.Add(5 * time.Minute)}},
		},
		{
			name:   "a fixed mode without failure times returns when its run began after the mark",
			alerts: []alert.Alert{oncall},
			facts: alert.RunFacts{Run: sandtrap.Run{ID: "next", StartedAt: runStart.Add(time.Hour)}, Modes: []sandtrap.ModeStat{mode("m-fixed", "high", "sandbox", fixed)},
				FixedAt: fixedAt},
			want: []alert.Key{{Alert: "oncall", Event: "returned-mode", ModeID: "m-fixed", RunID: "next"}},
		},
		{
			name:   "a live run is not told finished",
			alerts: []alert.Alert{{Name: "runs", SlackWebhookEnv: "S", Events: []string{"run-finished"}}},
			facts:  alert.RunFacts{Run: liveRun(), Modes: []sandtrap.ModeStat{mode("m-new", "high", "sandbox", isNew)}},
		},
		{
			name:   "a finished run is told once per alert that sends run-finished",
			alerts: []alert.Alert{{Name: "runs", SlackWebhookEnv: "S", Events: []string{"run-finished"}}, {Name: "modes", SlackWebhookEnv: "S", Events: []string{"new-mode"}}},
			facts:  alert.RunFacts{Run: finishedRun(), Modes: []sandtrap.ModeStat{mode("m-new", "high", "sandbox", isNew)}},
			want: []alert.Key{
				{Alert: "modes", Event: "new-mode", ModeID: "m-new", RunID: "live-1"},
				{Alert: "runs", Event: "run-finished", RunID: "live-1"},
			},
		},
		{
			name: "targets, domains and layers keep only the modes that match each",
			alerts: []alert.Alert{
				{Name: "browser", SlackWebhookEnv: "S", Targets: []string{"browser"}},
				{Name: "code", SlackWebhookEnv: "S", Targets: []string{"code-interpreter"}},
				{Name: "web", SlackWebhookEnv: "S", Domains: []string{"web-browsing", "file-io"}},
				{Name: "iface", SlackWebhookEnv: "S", Layers: []string{"interface"}},
			},
			facts: alert.RunFacts{Run: liveRun(), Modes: []sandtrap.ModeStat{mode("m-new", "critical", "sandbox", isNew)}},
			want: []alert.Key{
				{Alert: "browser", Event: "new-mode", ModeID: "m-new", RunID: "live-1"},
				{Alert: "web", Event: "new-mode", ModeID: "m-new", RunID: "live-1"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := keys(alert.Detect(tt.alerts, tt.facts, links))
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
			if again := keys(alert.Detect(tt.alerts, tt.facts, links)); !slices.Equal(again, got) {
				t.Errorf("got %+v detecting again, want the same keys %+v", again, got)
			}
		})
	}
}

func TestDetectSaysWhatAModeIsAndWhereItIs(t *testing.T) {
	m := mode("m-3fa9c0e1d2b4", "critical", "interface", isNew)
	m.Primitive, m.Count, m.Title = "encoding", 12, "artifact round trip\x00corrupts binary files"
	run := liveRun()
	run.ID = "nightly/7"
	fires := alert.Detect([]alert.Alert{{Name: "oncall", SlackWebhookEnv: "S"}}, alert.RunFacts{Run: run, Modes: []sandtrap.ModeStat{m}}, links)
	if len(fires) != 1 {
		t.Fatalf("got %d fires, want 1", len(fires))
	}
	got := fires[0].Message
	want := alert.Message{
		Event: "new-mode", Alert: "oncall",
		Run: alert.RunInfo{ID: "nightly/7", Name: "Live one", URL: "https://sandtrap.example/runs/nightly%2F7"},
		Mode: &alert.ModeInfo{ID: "m-3fa9c0e1d2b4", Title: "artifact round trip␀corrupts binary files", Severity: "critical",
			Layer: "interface", Primitive: "encoding", Count: 12, URL: "https://sandtrap.example/modes/m-3fa9c0e1d2b4"},
	}
	if got.Event != want.Event || got.Alert != want.Alert || got.Run != want.Run || got.Mode == nil || *got.Mode != *want.Mode || got.Summary != nil {
		t.Errorf("got %+v (mode %+v), want %+v (mode %+v)", got, got.Mode, want, want.Mode)
	}
}

func TestDetectSumsUpAFinishedRunWithTheModesTheAlertKeeps(t *testing.T) {
	var modes []sandtrap.ModeStat
	for _, id := range []string{"m-a", "m-b", "m-c", "m-d", "m-e", "m-f"} {
		modes = append(modes, mode(id, "critical", "sandbox", isNew))
	}
	modes = append(modes, mode("m-mild", "low", "test", isNew), mode("m-back", "high", "sandbox", fixed))
	facts := alert.RunFacts{Run: finishedRun(), Modes: modes,
		FixedAt: map[string]time.Time{"m-back": runStart.Add(-time.Hour)}}
	fires := alert.Detect([]alert.Alert{{Name: "runs", SlackWebhookEnv: "S", Events: []string{"run-finished"}}}, facts, links)
	if len(fires) != 1 || fires[0].Message.Summary == nil {
		t.Fatalf("got %+v, want one run-finished with a summary", fires)
	}
	s := *fires[0].Message.Summary
	if s.Total != 10 || s.Passed != 6 || s.Failures != 3 || s.Skipped != 1 || s.PassRate != 6.0/9 {
		t.Errorf("got total %d, passed %d, failures %d, skipped %d, pass rate %v; want 10, 6, 3, 1, 6/9", s.Total, s.Passed, s.Failures, s.Skipped, s.PassRate)
	}
	if len(s.New) != 5 || s.NewTotal != 6 || s.New[0].ID != "m-a" {
		t.Errorf("got %d new modes listed of %d, first %+v; want the first 5 of 6 severe enough, m-a first", len(s.New), s.NewTotal, s.New)
	}
	if len(s.Returned) != 1 || s.ReturnedTotal != 1 || s.Returned[0].ID != "m-back" {
		t.Errorf("got returned %+v of %d, want m-back", s.Returned, s.ReturnedTotal)
	}
	if len(s.Worst) != 5 || s.ModesTotal != 7 {
		t.Errorf("got %d worst modes of %d, want 5 of the 7 at high or worse", len(s.Worst), s.ModesTotal)
	}
}
