// Package live fans the changes of the campaign files out to the pages that
// watch them, as Datastar events rendered once per view.
package live

import (
	"bytes"
	"context"
	"log/slog"
	"sync"

	"sandtrap/store"
	"sandtrap/views"
)

// subscriberBuffer is how many events a client may fall behind before it is
// dropped; it reconnects and gets the whole view again.
const subscriberBuffer = 16

// Hub fans the changes of the campaign files out to every live page. Each
// view (a page with its filters) is rendered once per change and the same
// bytes go to all of its clients.
type Hub struct {
	log     *slog.Logger
	mu      sync.Mutex
	views   map[string]*liveView
	closed  bool           // no render starts once the hub is closed
	renders sync.WaitGroup // renders in flight, waited for by Close
}

// NewHub returns an empty hub.
func NewHub(log *slog.Logger) *Hub {
	return &Hub{log: log, views: map[string]*liveView{}}
}

// RenderFunc renders a view's fragments as they now stand, and whether the
// view has ended (its run finished), after which clients are let go.
type RenderFunc func(ctx context.Context) (frags []views.Fragment, ended bool, err error)

// liveView is one view that clients are watching.
type liveView struct {
	key    string
	runID  string // "" for views of every run
	render RenderFunc

	mu      sync.Mutex        // serialises renders of this view
	last    map[string][]byte // the fragments every client has, by id
	order   []string          // fragment ids in page order
	ended   bool
	subs    map[*Subscriber]bool // guarded by Hub.mu
	pending bool                 // a render is queued; guarded by Hub.mu
}

// Subscriber is one client's queue of events.
type Subscriber struct {
	events chan []byte
	view   *liveView
}

// Events are the client's events, closed when the view has ended or the
// client fell behind.
func (s *Subscriber) Events() <-chan []byte { return s.events }

// Subscribe registers a client for the view key, rendering it with render
// when it changes. Its first event is the whole view as every other client
// of the view has it, so that the diffs that follow apply to it too; ended
// says the view has already ended.
func (h *Hub) Subscribe(ctx context.Context, key, runID string, render RenderFunc) (sub *Subscriber, first []byte, ended bool, err error) {
	for {
		h.mu.Lock()
		v := h.views[key]
		if v == nil {
			v = &liveView{key: key, runID: runID, render: render, subs: map[*Subscriber]bool{}}
			h.views[key] = v
		}
		h.mu.Unlock()
		sub, first, ended, ok, err := h.join(ctx, v)
		if err != nil || ok {
			return sub, first, ended, err
		}
		// Another view took the key while this one rendered: join that one.
	}
}

// join registers a client with v. Holding v.mu keeps a render and broadcast
// from slipping in between the snapshot and the registration. ok is false
// when v is no longer the view of its key.
func (h *Hub) join(ctx context.Context, v *liveView) (sub *Subscriber, first []byte, ended, ok bool, err error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.last == nil {
		frags, done, err := v.render(ctx)
		if err == nil {
			v.last, err = renderFragments(ctx, frags)
		}
		if err != nil {
			h.forgetIfIdle(v)
			return nil, nil, false, false, err
		}
		v.order, v.ended = fragmentIDs(frags), done
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	switch h.views[v.key] {
	case v:
	case nil:
		h.views[v.key] = v // forgotten while it rendered, with nobody else in its place
	default:
		return nil, nil, false, false, nil
	}
	sub = &Subscriber{events: make(chan []byte, subscriberBuffer), view: v}
	v.subs[sub] = true
	return sub, patchEvent(v.last, v.order), v.ended, true, nil
}

// forgetIfIdle drops a view nobody watches.
func (h *Hub) forgetIfIdle(v *liveView) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(v.subs) == 0 && h.views[v.key] == v {
		delete(h.views, v.key)
	}
}

// Unsubscribe removes a client; a view nobody watches is forgotten.
func (h *Hub) Unsubscribe(sub *Subscriber) {
	h.mu.Lock()
	defer h.mu.Unlock()
	v := sub.view
	if _, ok := v.subs[sub]; !ok {
		return
	}
	delete(v.subs, sub)
	if len(v.subs) == 0 && h.views[v.key] == v {
		delete(h.views, v.key)
	}
}

// Publish tells the hub what changed. Views of the changed runs, and views
// of every run, are rendered again in the background; a change to triage
// touches every view.
func (h *Hub) Publish(c store.Change) {
	changed := map[string]bool{}
	for _, id := range c.Runs {
		changed[id] = true
	}
	h.mu.Lock()
	var todo []*liveView
	for _, v := range h.views {
		if c.Triage || v.runID == "" || changed[v.runID] {
			todo = append(todo, v)
		}
	}
	h.mu.Unlock()
	for _, v := range todo {
		h.refresh(v)
	}
}

// refresh renders v again unless a render is already queued: changes that
// arrive during a render are folded into the next one.
func (h *Hub) refresh(v *liveView) {
	h.mu.Lock()
	if v.pending || h.closed {
		h.mu.Unlock()
		return
	}
	v.pending = true
	h.renders.Add(1)
	h.mu.Unlock()
	go func() {
		defer h.renders.Done()
		v.mu.Lock()
		defer v.mu.Unlock()
		h.mu.Lock()
		v.pending = false
		h.mu.Unlock()
		ctx := context.Background()
		frags, ended, err := v.render(ctx)
		if err != nil {
			h.log.Warn("live view failed to render", "view", v.key, "err", err)
			return
		}
		html, err := renderFragments(ctx, frags)
		if err != nil {
			h.log.Warn("live view failed to render", "view", v.key, "err", err)
			return
		}
		var ids []string
		for _, f := range frags {
			if !bytes.Equal(v.last[f.ID], html[f.ID]) {
				ids = append(ids, f.ID)
			}
		}
		v.last, v.order, v.ended = html, fragmentIDs(frags), ended
		if len(ids) == 0 && !ended {
			return
		}
		event := patchEvent(html, ids)
		h.broadcast(v, event, ended)
	}()
}

// broadcast queues event for every client of v. A client whose queue is
// full is dropped at once so that it never holds the others back; when the
// view has ended, every client is let go after this last event.
func (h *Hub) broadcast(v *liveView, event []byte, ended bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for sub := range v.subs {
		select {
		case sub.events <- event:
			if ended {
				close(sub.events)
				delete(v.subs, sub)
			}
		default:
			close(sub.events)
			delete(v.subs, sub)
		}
	}
	if len(v.subs) == 0 && h.views[v.key] == v {
		delete(h.views, v.key)
	}
}

// Close stops the hub starting renders and waits for those in flight, so
// that the store can be closed after it.
func (h *Hub) Close() {
	h.mu.Lock()
	h.closed = true
	h.mu.Unlock()
	h.renders.Wait()
}

// Watchers reports how many views and clients the hub holds.
func (h *Hub) Watchers() (viewCount, clients int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, v := range h.views {
		clients += len(v.subs)
	}
	return len(h.views), clients
}

func fragmentIDs(frags []views.Fragment) []string {
	ids := make([]string, len(frags))
	for i, f := range frags {
		ids[i] = f.ID
	}
	return ids
}

// renderFragments renders each fragment to HTML, keyed by its id.
func renderFragments(ctx context.Context, frags []views.Fragment) (map[string][]byte, error) {
	out := make(map[string][]byte, len(frags))
	var buf bytes.Buffer
	for _, f := range frags {
		buf.Reset()
		if err := f.Component.Render(ctx, &buf); err != nil {
			return nil, err
		}
		out[f.ID] = bytes.Clone(buf.Bytes())
	}
	return out, nil
}
