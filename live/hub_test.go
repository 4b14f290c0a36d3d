package live

import (
	"context"
	"log/slog"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/a-h/templ"

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
	return []views.Fragment{{ID: "n", Component: templ.Raw(`<b id="n">` + strconv.FormatInt(v, 10) + `</b>`)}}, false, nil
}

func TestHubRendersEachChangeOncePerView(t *testing.T) {
	hub := NewHub(slog.Default())
	var c counter
	var subs []*Subscriber
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
	if _, clients := hub.Watchers(); clients != 1 {
		t.Errorf("got %d clients, want only the reading one left", clients)
	}
	hub.Unsubscribe(fast)
	if views, clients := hub.Watchers(); views != 0 || clients != 0 {
		t.Errorf("got %d views and %d clients after everyone left, want none", views, clients)
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
