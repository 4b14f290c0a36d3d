package handlers

import (
	"bufio"
	"context"
	"log/slog"
	"net/http"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/a-h/templ"

	"sandtrap/static"
	"sandtrap/store"
	"sandtrap/views"
)

// counter renders one fragment holding a number, counting its renders.
type counter struct {
	renders atomic.Int64
	value   atomic.Int64
}

func (c *counter) render(ctx context.Context) ([]views.Fragment, bool, error) {
	c.renders.Add(1)
	v := c.value.Load()
	return []views.Fragment{{ID: "n", Component: templ.Raw(`<b id="n">` + itoa(v) + `</b>`)}}, false, nil
}

func TestHubRendersEachChangeOncePerView(t *testing.T) {
	hub := NewHub(slog.Default())
	var c counter
	var subs []*subscriber
	for range 100 {
		sub, first, _, err := hub.Subscribe(context.Background(), "v", "run", c.render)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(first), `<b id="n">0</b>`) {
			t.Fatalf("got first event %q, want the whole view", first)
		}
		subs = append(subs, sub)
	}
	if got := c.renders.Load(); got != 1 {
		t.Errorf("got %d renders for 100 subscribers, want 1", got)
	}
	c.value.Store(1)
	hub.Publish(store.Change{Runs: []string{"run"}})
	for _, sub := range subs {
		select {
		case ev := <-sub.events:
			if !strings.Contains(string(ev), `<b id="n">1</b>`) {
				t.Fatalf("got event %q, want the new number", ev)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("a subscriber got no event")
		}
	}
	if got := c.renders.Load(); got != 2 {
		t.Errorf("got %d renders after one change, want 2", got)
	}
	hub.Publish(store.Change{Runs: []string{"another run"}})
	time.Sleep(50 * time.Millisecond)
	if got := c.renders.Load(); got != 2 {
		t.Errorf("got %d renders after a change to another run, want still 2", got)
	}
}

func TestHubDropsASlowClientWithoutHoldingTheOthers(t *testing.T) {
	hub := NewHub(slog.Default())
	var c counter
	slow, _, _, _ := hub.Subscribe(context.Background(), "v", "run", c.render)
	fast, _, _, _ := hub.Subscribe(context.Background(), "v", "run", c.render)
	got := 0
	for i := range subscriberBuffer * 3 {
		c.value.Store(int64(i + 1))
		hub.Publish(store.Change{Runs: []string{"run"}})
		select {
		case <-fast.events:
			got++
		case <-time.After(5 * time.Second):
			t.Fatalf("the reading client stalled after %d events", got)
		}
	}
	drained := 0
	for range slow.events {
		drained++
	}
	if drained > subscriberBuffer {
		t.Errorf("got %d queued events for the client that never read, want at most %d", drained, subscriberBuffer)
	}
	if _, clients := hub.watchers(); clients != 1 {
		t.Errorf("got %d clients, want only the reading one left", clients)
	}
	hub.Unsubscribe(fast)
	if views, clients := hub.watchers(); views != 0 || clients != 0 {
		t.Errorf("got %d views and %d clients after everyone left, want none", views, clients)
	}
}

// liveServer serves a campaign with one live run.
func liveServer(t *testing.T) (base string, hub *Hub, st *store.Store) {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "live.db")
	w, err := store.OpenCampaignWriter(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.InsertRun(ctx, store.CampaignRun{ID: "live", Name: "Live", StartedAt: time.Now().Add(-time.Minute), Planned: ptr[int64](100)}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.InsertResults(ctx, []store.CampaignResult{{RunID: "live", Test: "a", Target: "browser", Domain: "web-browsing", Status: "passed"}}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	hub = NewHub(slog.Default())
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
	if _, clients := hub.watchers(); clients != 50 {
		t.Errorf("got %d clients, want 50", clients)
	}
	cancel()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		_, clients := hub.watchers()
		if clients == 0 && runtime.NumGoroutine() <= before+2 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if views, clients := hub.watchers(); views != 0 || clients != 0 {
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

func TestPatchEventsKeepEveryLineOfTextInsideItsField(t *testing.T) {
	html := map[string][]byte{"x": []byte("<p id=\"x\">a\rdata: selector #evil\r\nb\nc</p>")}
	ev := string(patchEvent(html, []string{"x"}))
	for _, line := range strings.FieldsFunc(ev, func(r rune) bool { return r == '\n' || r == '\r' }) {
		if !strings.HasPrefix(line, "event: ") && !strings.HasPrefix(line, "data: elements ") {
			t.Errorf("got the line %q in the event, want every line a field of ours", line)
		}
	}
}
