package handlers

import (
	"context"
	"io"
	"mime"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"sandtrap"
	"sandtrap/ingest"
)

// DefaultIngestMaxBody is the limit of an ingest request's body when the
// Config names none.
const DefaultIngestMaxBody = 32 << 20

// Ingester writes the runs and results that harnesses send into the
// ingest file.
type Ingester interface {
	StartRun(ctx context.Context, run ingest.Run) (stored ingest.Run, created bool, err error)
	Record(ctx context.Context, runID string, results []ingest.Result) (accepted, duplicates int, err error)
	Finish(ctx context.Context, runID string, at *time.Time) (time.Time, error)
}

// ingestRoutes adds the ingest API to r, a group that already refuses
// cross-origin requests.
func (h *Handler) ingestRoutes(r chi.Router) {
	r.Post("/api/ingest/runs", h.handleAPIStatus(h.apiStartRun))
	r.Post("/api/ingest/runs/{run}/results", h.handleAPI(h.apiRecordResults))
	r.Post("/api/ingest/runs/{run}/finish", h.handleAPI(h.apiFinishRun))
}

// apiStartRun serves POST /api/ingest/runs: 201 when the run is new, 200
// when the same run was started before.
func (h *Handler) apiStartRun(r *http.Request) (int, any, error) {
	body, err := h.ingestBody(r, false)
	if err != nil {
		return 0, nil, err
	}
	run, err := ingest.ParseRun(body)
	if err != nil {
		return 0, nil, h.bodyError(err)
	}
	stored, created, err := h.ingest.StartRun(r.Context(), run)
	if err != nil {
		return 0, nil, err
	}
	if created {
		return http.StatusCreated, stored, nil
	}
	return http.StatusOK, stored, nil
}

// apiRecordResults serves POST /api/ingest/runs/{run}/results.
func (h *Handler) apiRecordResults(r *http.Request) (any, error) {
	body, err := h.ingestBody(r, true)
	if err != nil {
		return nil, err
	}
	format := ingest.JSONArray
	if mediaType(r) == "application/x-ndjson" {
		format = ingest.NDJSON
	}
	results, err := ingest.ParseResults(body, format)
	if err != nil {
		return nil, h.bodyError(err)
	}
	accepted, duplicates, err := h.ingest.Record(r.Context(), chi.URLParam(r, "run"), results)
	if err != nil {
		return nil, err
	}
	return map[string]int{"accepted": accepted, "duplicates": duplicates}, nil
}

// apiFinishRun serves POST /api/ingest/runs/{run}/finish.
func (h *Handler) apiFinishRun(r *http.Request) (any, error) {
	body, err := h.ingestBody(r, false)
	if err != nil {
		return nil, err
	}
	at, err := ingest.ParseFinish(body)
	if err != nil {
		return nil, h.bodyError(err)
	}
	runID := chi.URLParam(r, "run")
	finished, err := h.ingest.Finish(r.Context(), runID, at)
	if err != nil {
		return nil, err
	}
	return map[string]string{"id": runID, "finished_at": finished.Format(time.RFC3339Nano)}, nil
}

// ingestBody refuses ingest when this server takes none, and otherwise
// returns the request's body within the limit. The body must be JSON, or
// NDJSON where ndjson allows it: a form cannot send either.
func (h *Handler) ingestBody(r *http.Request, ndjson bool) (io.Reader, error) {
	switch {
	case h.readOnly:
		return nil, sandtrap.Errorf(sandtrap.EFORBIDDEN, "sandtrap is serving read-only (--read-only): ingest is refused")
	case h.ingest == nil:
		return nil, sandtrap.Errorf(sandtrap.ENOTFOUND, "this server takes no ingest: start it with --ingest FILE")
	}
	switch mt := mediaType(r); {
	case mt == "" || mt == "application/json":
	case mt == "application/x-ndjson" && ndjson:
	case ndjson:
		return nil, sandtrap.Errorf(sandtrap.EINVALID, "Content-Type %q: send results as application/json (an array) or application/x-ndjson (one per line)", r.Header.Get("Content-Type"))
	default:
		return nil, sandtrap.Errorf(sandtrap.EINVALID, "Content-Type %q: send application/json", r.Header.Get("Content-Type"))
	}
	if r.ContentLength > h.ingestMaxBody {
		return nil, h.tooLarge()
	}
	return http.MaxBytesReader(nil, r.Body, h.ingestMaxBody), nil
}

// bodyError turns a body cut at the limit into 413; every other error is
// already what it should say.
func (h *Handler) bodyError(err error) error {
	if overLimit(err) {
		return h.tooLarge()
	}
	return err
}

func (h *Handler) tooLarge() error {
	return sandtrap.Errorf(sandtrap.ETOOLARGE, "the body is over the ingest limit of %s (--ingest-max-body): send fewer results per request", formatBytes(h.ingestMaxBody))
}

// mediaType is the request's Content-Type without its parameters; one
// that does not parse is returned whole, so that it matches nothing.
func mediaType(r *http.Request) string {
	ct := r.Header.Get("Content-Type")
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return ct
	}
	return mt
}
