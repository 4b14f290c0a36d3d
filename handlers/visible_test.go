package handlers

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sandtrap/filing"
	"sandtrap/static"
	"sandtrap/store"
	"sandtrap/store/campaign"
)

// hidden holds the characters that hide or reorder text, and marks how
// pages must show them instead.
var (
	hidden = []string{"\u202e", "\u200b", "\ufeff", "\x00"}
	marks  = []string{`\u202e`, `\u200b`, `\ufeff`, "␀"}
)

// sneaky is campaign text with every hidden character in it.
func sneaky(s string) string { return s + "-\u202eevil\u200b\ufeff\x00" }

// newSneakyServer serves a campaign of two runs whose names, notes, tests,
// titles, errors, targets, domains and workers all hide characters.
func newSneakyServer(t *testing.T) (string, int64) {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "campaign.db")
	w, err := campaign.OpenWriter(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	var failed int64
	start := time.Date(2026, 6, 30, 22, 0, 0, 0, time.UTC)
	for i, run := range []string{"r1", "r2"} {
		begun := start.Add(time.Duration(i) * 24 * time.Hour)
		end := begun.Add(time.Hour)
		if err := w.InsertRun(ctx, campaign.Run{ID: run, Name: sneaky("Night " + run), StartedAt: begun, FinishedAt: &end, Notes: ptr(sneaky("notes"))}); err != nil {
			t.Fatal(err)
		}
		ids, err := w.InsertResults(ctx, []campaign.Result{
			{RunID: run, Test: sneaky("file-io/ok"), Target: sneaky("browser"), Domain: sneaky("web"), Status: "passed", Worker: ptr(sneaky("agent"))},
			{RunID: run, Test: sneaky("file-io/bad"), Target: sneaky("browser"), Domain: sneaky("web"), Status: "failed",
				Title: ptr(sneaky("title")), Error: ptr(sneaky("PermissionError: denied")), Worker: ptr(sneaky("agent")), StartedAt: &begun},
		})
		if err != nil {
			t.Fatal(err)
		}
		failed = ids[1]
	}
	w.Close()
	st, err := store.Open(ctx, store.Options{StatePath: filepath.Join(t.TempDir(), "state.db"), Campaigns: []string{path}, Poll: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	st.Start(ctx)
	if err := st.WaitIndexed(ctx); err != nil {
		t.Fatal(err)
	}
	h, err := New(Config{Runs: st, Activity: st, Results: st, Modes: st, Triager: st, Compare: st, Static: static.FS,
		Facts: filing.Facts(st, ""), Owners: filing.Ownership{}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h.Routes())
	t.Cleanup(func() { srv.Close(); st.Close() })
	return srv.URL, failed
}

func TestPagesShowHiddenCharactersAsMarks(t *testing.T) {
	base, failed := newSneakyServer(t)
	var modes struct {
		Modes []struct{ ID string } `json:"modes"`
	}
	_, body := get(t, base+"/api/runs/r2/modes")
	if err := json.Unmarshal([]byte(body), &modes); err != nil || len(modes.Modes) == 0 {
		t.Fatalf("got modes %s (err %v), want the failure's mode", body, err)
	}
	filter := url.Values{"target": {sneaky("browser")}, "q": {sneaky("q")}}.Encode()
	pages := []struct{ name, path string }{
		{"the runs list", "/"},
		{"the overview", "/runs/r2"},
		{"the failures list and its facets", "/runs/r2/failures"},
		{"the failures list with a filter and a search", "/runs/r2/failures?" + filter},
		{"the queue", "/runs/r2/modes"},
		{"the mode page", "/modes/" + modes.Modes[0].ID},
		{"the result page", "/runs/r2/results/" + itoa(failed)},
		{"the comparison", "/compare?base=r1&head=r2"},
		{"the targets side by side", "/runs/r2/targets"},
		{"the teams page", "/teams"},
	}
	for _, p := range pages {
		t.Run(p.name, func(t *testing.T) {
			resp, body := get(t, base+p.path)
			if resp.StatusCode != 200 {
				t.Fatalf("got status %d, want 200\n%s", resp.StatusCode, body)
			}
			for i, raw := range hidden {
				if n := strings.Count(body, raw); n > 0 {
					at := strings.Index(body, raw)
					t.Errorf("got %d raw %q in the page, first in …%s…, want none", n, raw, body[max(at-120, 0):min(at+40, len(body))])
				}
				if !strings.Contains(body, marks[i]) {
					t.Errorf("got no %s in the page, want the hidden %q shown as it", marks[i], raw)
				}
			}
		})
	}
}

func TestTheAPIKeepsHiddenCharactersRaw(t *testing.T) {
	base, _ := newSneakyServer(t)
	var got struct {
		Results []struct{ Test, Target, Domain, Error string } `json:"results"`
	}
	_, body := get(t, base+"/api/runs/r2/results?status=failed")
	if err := json.Unmarshal([]byte(body), &got); err != nil || len(got.Results) != 1 {
		t.Fatalf("got %s (err %v), want one failed result", body, err)
	}
	r := got.Results[0]
	want := []string{sneaky("file-io/bad"), sneaky("browser"), sneaky("web"), sneaky("PermissionError: denied")}
	for i, v := range []string{r.Test, r.Target, r.Domain, r.Error} {
		if v != want[i] {
			t.Errorf("got %q, want the raw %q", v, want[i])
		}
	}
}
