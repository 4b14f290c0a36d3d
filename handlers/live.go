package handlers

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"

	"sandtrap"
	"sandtrap/format"
	"sandtrap/live"
	"sandtrap/paths"
	"sandtrap/views"
)

// streamWriteTimeout bounds one write to a client: a client that does not
// read is dropped instead of holding its goroutine.
const streamWriteTimeout = 5 * time.Second

// streamKeepAlive is how often an idle stream sends a comment, so that a
// vanished client is noticed.
const streamKeepAlive = 15 * time.Second

// streamRun serves GET /runs/{run}/live: the overview's event stream while
// the run is live or its file is first read. Otherwise it answers 204,
// which tells Datastar to stop.
func (h *Handler) streamRun(w http.ResponseWriter, r *http.Request) error {
	run, err := h.runs.FindRun(r.Context(), chi.URLParam(r, "run"))
	if err != nil {
		return err
	}
	src, err := h.runs.RunSource(r.Context(), run.ID)
	if err != nil {
		return err
	}
	if !changing(run, src) {
		w.WriteHeader(http.StatusNoContent)
		return nil
	}
	id := run.ID
	return h.stream(w, r, "overview:"+id, id, func(ctx context.Context) ([]views.Fragment, bool, error) {
		p, run, err := h.overviewPage(ctx, id)
		if err != nil {
			return nil, false, err
		}
		ended := p.Stream == ""
		if ended {
			p.Banner = append(p.Banner, views.Notice{Kind: "info",
				Text: "This run finished at " + format.Time(run.FinishedAt) + " and is read in full; the page no longer updates."})
		}
		return views.OverviewFragments(p), ended, nil
	})
}

// stream sends a view's first state and then its changes until the client
// leaves, the server shuts down, the view ends, or the client falls behind.
func (h *Handler) stream(w http.ResponseWriter, r *http.Request, key, runID string, render live.RenderFunc) error {
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
	// From here on the status is sent: failures end the stream quietly. A
	// (re)connected stream first clears the page's reconnecting state.
	if !send(live.ConnectedEvent) || !send(first) || ended {
		return nil
	}
	ping := time.NewTicker(streamKeepAlive)
	defer ping.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-ping.C:
			if !send(live.KeepAlive) {
				return nil
			}
		case ev, ok := <-sub.Events():
			if !ok || !send(ev) {
				return nil
			}
		}
	}
}

// flashFor is how long a row that just arrived stays marked as new.
const flashFor = 3 * time.Second

// arrivals remembers when each row of a live list first appeared, so that
// rows new since the first render are marked for a few seconds. A view's
// renders are serialised, so it needs no lock.
type arrivals struct {
	seen  map[string]time.Time
	first bool
}

func newArrivals() *arrivals { return &arrivals{seen: map[string]time.Time{}, first: true} }

// mark records ids and reports, per id, whether it arrived recently.
func (a *arrivals) mark(ids []string, now time.Time) map[string]bool {
	fresh := map[string]bool{}
	for _, id := range ids {
		at, ok := a.seen[id]
		if !ok {
			at = now
			if a.first {
				at = time.Time{} // already there when the page was first shown
			}
			a.seen[id] = at
		}
		fresh[id] = !at.IsZero() && now.Sub(at) < flashFor
	}
	a.first = false
	// Forget what scrolled away, so a long run does not grow the map.
	if len(a.seen) > 4*len(ids)+64 {
		keep := map[string]bool{}
		for _, id := range ids {
			keep[id] = true
		}
		for id := range a.seen {
			if !keep[id] {
				delete(a.seen, id)
			}
		}
	}
	return fresh
}

// streamRuns serves GET /live: the event stream of one page of the runs
// list, with its filters, while a run on it is live or a file is first read.
func (h *Handler) streamRuns(w http.ResponseWriter, r *http.Request) error {
	q, err := parseRunsQuery(r.URL.Query(), sourceLabels(h.runs.Sources(r.Context())))
	if err != nil {
		return err
	}
	if _, live, err := h.runsPage(r.Context(), q); err != nil {
		return err
	} else if !live {
		w.WriteHeader(http.StatusNoContent)
		return nil
	}
	return h.stream(w, r, "runs:"+runsHref("/", q, q.Page), "", func(ctx context.Context) ([]views.Fragment, bool, error) {
		p, live, err := h.runsPage(ctx, q)
		return views.RunsFragments(p), !live, err
	})
}

// streamFailures serves GET /runs/{run}/failures/live: the failures list's
// event stream, with the page's filters, while the run changes.
func (h *Handler) streamFailures(w http.ResponseWriter, r *http.Request) error {
	return h.streamList(w, r, "failures:", paths.Failures, func(ctx context.Context, runID string, f sandtrap.ResultFilter, mark marker) ([]views.Fragment, sandtrap.Run, error) {
		p, run, err := h.failuresView(ctx, runID, f)
		if err != nil {
			return nil, run, err
		}
		ids := make([]string, len(p.Rows))
		for i, row := range p.Rows {
			ids[i] = strconv.FormatInt(row.ID, 10)
		}
		fresh := mark(ids)
		for i := range p.Rows {
			p.Rows[i].New = fresh[ids[i]]
		}
		return views.FailuresFragments(p), run, nil
	})
}

// streamModes serves GET /runs/{run}/modes/live: the queue's event stream,
// with the page's filters, while the run changes.
func (h *Handler) streamModes(w http.ResponseWriter, r *http.Request) error {
	return h.streamList(w, r, "modes:", paths.Modes, func(ctx context.Context, runID string, f sandtrap.ResultFilter, mark marker) ([]views.Fragment, sandtrap.Run, error) {
		p, run, err := h.modesView(ctx, runID, f)
		if err != nil {
			return nil, run, err
		}
		ids := make([]string, len(p.Rows))
		for i, row := range p.Rows {
			ids[i] = row.ID
		}
		fresh := mark(ids)
		for i := range p.Rows {
			p.Rows[i].Arrived = fresh[ids[i]]
		}
		return views.ModesFragments(p), run, nil
	})
}

// marker reports which of a list's rows arrived recently.
type marker func(ids []string) map[string]bool

// listRender renders a filtered list of a run, marking new rows.
type listRender func(ctx context.Context, runID string, f sandtrap.ResultFilter, mark marker) ([]views.Fragment, sandtrap.Run, error)

// streamList streams a filtered list of a run while it changes (live, or
// its file first read): one view per run and filter, its rows marked new
// for a few seconds after they arrive. A run that no longer changes
// answers 204.
func (h *Handler) streamList(w http.ResponseWriter, r *http.Request, kind string, href func(string, sandtrap.ResultFilter) string, render listRender) error {
	run, err := h.runs.FindRun(r.Context(), chi.URLParam(r, "run"))
	if err != nil {
		return err
	}
	f, err := parseFilter(r.URL.Query())
	if err != nil {
		return err
	}
	src, err := h.runs.RunSource(r.Context(), run.ID)
	if err != nil {
		return err
	}
	if !changing(run, src) {
		w.WriteHeader(http.StatusNoContent)
		return nil
	}
	arrived := newArrivals()
	mark := func(ids []string) map[string]bool { return arrived.mark(ids, h.now()) }
	return h.stream(w, r, kind+href(run.ID, f), run.ID, func(ctx context.Context) ([]views.Fragment, bool, error) {
		frags, run, err := render(ctx, run.ID, f, mark)
		if err != nil {
			return frags, false, err
		}
		src, err := h.runs.RunSource(ctx, run.ID)
		return frags, !changing(run, src), err
	})
}
