package handlers

import (
	"context"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"sandtrap/views"
)

// streamWriteTimeout bounds one write to a client: a client that does not
// read is dropped instead of holding its goroutine.
const streamWriteTimeout = 5 * time.Second

// streamKeepAlive is how often an idle stream sends a comment, so that a
// vanished client is noticed.
const streamKeepAlive = 15 * time.Second

// streamRun serves GET /runs/{run}/live: the overview's event stream while
// the run is live. A finished run answers 204, which tells Datastar to stop.
func (h *Handler) streamRun(w http.ResponseWriter, r *http.Request) error {
	run, err := h.runs.FindRun(r.Context(), chi.URLParam(r, "run"))
	if err != nil {
		return err
	}
	if !run.Live() {
		w.WriteHeader(http.StatusNoContent)
		return nil
	}
	id := run.ID
	return h.stream(w, r, "overview:"+id, id, func(ctx context.Context) ([]views.Fragment, bool, error) {
		p, run, err := h.overviewPage(ctx, id)
		if err != nil {
			return nil, false, err
		}
		if !run.Live() {
			p.Banner = append(p.Banner, views.Notice{Kind: "info",
				Text: "This run finished at " + formatTime(run.FinishedAt) + "; the page no longer updates."})
		}
		return views.OverviewFragments(p), !run.Live(), nil
	})
}

// stream sends a view's first state and then its changes until the client
// leaves, the server shuts down, the view ends, or the client falls behind.
func (h *Handler) stream(w http.ResponseWriter, r *http.Request, key, runID string, render renderFunc) error {
	ctx := r.Context()
	sub, first, ended, err := h.hub.Subscribe(ctx, key, runID, render)
	if err != nil {
		return err
	}
	defer h.hub.Unsubscribe(sub)

	rc := http.NewResponseController(w)
	hd := w.Header()
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("Cache-Control", "no-cache")
	hd.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	send := func(b []byte) bool {
		rc.SetWriteDeadline(time.Now().Add(streamWriteTimeout))
		if _, err := w.Write(b); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	// From here on the status is sent: failures end the stream quietly.
	if !send(first) || ended {
		return nil
	}
	ping := time.NewTicker(streamKeepAlive)
	defer ping.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-ping.C:
			if !send([]byte(": keep-alive\n\n")) {
				return nil
			}
		case ev, ok := <-sub.events:
			if !ok || !send(ev) {
				return nil
			}
		}
	}
}
