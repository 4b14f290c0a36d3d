package handlers

import (
	"bufio"
	"context"
	"log/slog"
	"net/http"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"sandtrap/live"
	"sandtrap/static"
	"sandtrap/store"
	"sandtrap/store/campaign"
)

// liveServer serves a campaign with one live run.
func liveServer(t *testing.T) (base string, hub *live.Hub, st *store.Store) {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "live.db")
	w, err := campaign.OpenWriter(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.InsertRun(ctx, campaign.Run{ID: "live", Name: "Live", StartedAt: time.Now().Add(-time.Minute), Planned: ptr[int64](100)}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.InsertResults(ctx, []campaign.Result{{RunID: "live", Test: "a", Target: "browser", Domain: "web-browsing", Status: "passed"}}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	hub = live.NewHub(slog.Default())
	st, err = store.Open(ctx, store.Options{StatePath: filepath.Join(t.TempDir(), "s.db"), Campaigns: []string{path},
		Poll: 5 * time.Millisecond, OnChange: hub.Publish})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	st.Start(ctx)
	st.WaitIndexed(ctx)
	h, err := New(Config{Runs: st, Activity: st, Results: st, Modes: st, Triager: st, Compare: st, Hub: hub, Static: static.FS})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptestServer(t, h.Routes())
	return srv, hub, st
}

func TestStreamsFreeEverythingWhenClientsLeave(t *testing.T) {
	base, hub, _ := liveServer(t)
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	for range 50 {
		req, _ := http.NewRequestWithContext(ctx, "GET", base+"/runs/live/live", nil)
		req.Header.Set("Datastar-Request", "true")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		line, _ := bufio.NewReader(resp.Body).ReadString('\n')
		if line != "event: datastar-patch-signals\n" {
			t.Fatalf("got first line %q, want the event that clears the reconnecting state", line)
		}
	}
	if _, clients := hub.Watchers(); clients != 50 {
		t.Errorf("got %d clients, want 50", clients)
	}
	cancel()
	// Generous: the bound is that everything is freed, not how soon on a
	// loaded machine.
	deadline := time.Now().Add(90 * time.Second)
	for time.Now().Before(deadline) {
		_, clients := hub.Watchers()
		if clients == 0 && runtime.NumGoroutine() <= before+2 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if views, clients := hub.Watchers(); views != 0 || clients != 0 {
		t.Errorf("got %d views and %d clients after they left, want none", views, clients)
	}
	if after := runtime.NumGoroutine(); after > before+2 {
		t.Errorf("got %d goroutines after the clients left, want about %d as before", after, before)
	}
}

func TestAFinishedRunTellsTheStreamToStop(t *testing.T) {
	srv, _ := newServer(t)
	resp, err := http.Get(srv.URL + "/runs/r1/live")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		t.Errorf("got %d for the stream of a finished run, want 204", resp.StatusCode)
	}
}
