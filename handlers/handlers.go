// Package handlers serves sandtrap's pages and JSON API. Handlers return an
// error; one adapter turns it into a status and an error page or body.
package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"log/slog"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"

	"sandtrap"
	"sandtrap/alert"
	"sandtrap/filing"
	"sandtrap/live"
	"sandtrap/triage"
	"sandtrap/views"
)

// RunReader reads runs and their breakdowns.
type RunReader interface {
	ListRuns(ctx context.Context) ([]sandtrap.Run, error)
	FindRuns(ctx context.Context, f sandtrap.RunFilter) (sandtrap.RunPage, error)
	RunTrails(ctx context.Context, ids []string, n int) (map[string][]sandtrap.Run, error)
	RunModeCounts(ctx context.Context, ids []string) (map[string]int, error)
	FindRun(ctx context.Context, id string) (sandtrap.Run, error)
	Breakdown(ctx context.Context, runID string) ([]sandtrap.Cell, error)
	FindModes(ctx context.Context, ids []string) (map[string]sandtrap.Mode, error)
	RunSource(ctx context.Context, runID string) (sandtrap.SourceStatus, error)
	Sources(ctx context.Context) []sandtrap.SourceStatus
}

// ActivityReader reads how a run went over time: its pace, the modes it
// just found and its outage windows.
type ActivityReader interface {
	RunActivity(ctx context.Context, runID string, now time.Time) (sandtrap.Activity, error)
	NewModesSince(ctx context.Context, runID string, since time.Time) ([]sandtrap.NewMode, error)
	RunTimeline(ctx context.Context, runID string) ([]triage.Minute, []triage.Window, error)
}

// ResultReader reads results, their logs, artifacts and steps.
type ResultReader interface {
	FindResults(ctx context.Context, runID string, f sandtrap.ResultFilter) (sandtrap.ResultPage, error)
	FindResult(ctx context.Context, runID string, id int64) (sandtrap.Result, sandtrap.Classification, error)
	ResultLog(ctx context.Context, runID string, id int64, limit int64) ([]byte, int64, error)
	ResultLogTail(ctx context.Context, runID string, id int64, n int64) ([]byte, error)
	Artifacts(ctx context.Context, runID string, resultID int64) ([]sandtrap.Artifact, error)
	ArtifactData(ctx context.Context, runID string, resultID, artifactID int64) (sandtrap.Artifact, []byte, error)
	Steps(ctx context.Context, runID string, resultID int64) ([]sandtrap.Step, error)
}

// ModeReader reads failure modes with their triage applied.
type ModeReader interface {
	RunModes(ctx context.Context, runID string, f sandtrap.ResultFilter) ([]sandtrap.ModeStat, map[string][]sandtrap.FacetValue, error)
	FindMode(ctx context.Context, id string) (sandtrap.Mode, error)
	ModeRuns(ctx context.Context, id string) ([]sandtrap.RunCount, error)
	ModeOccurrences(ctx context.Context, id string, limit, offset int) ([]sandtrap.Occurrence, int, error)
	ModeNotes(ctx context.Context, m sandtrap.Mode) ([]sandtrap.Note, []sandtrap.Event, error)
	ModeHistories
}

// ModeTriager records people's decisions about failure modes.
type ModeTriager interface {
	UpdateMode(ctx context.Context, id string, t sandtrap.Triage) (sandtrap.Mode, error)
	MergeMode(ctx context.Context, from, into string) (sandtrap.Mode, error)
	MergeModes(ctx context.Context, from []string, into string) (sandtrap.Mode, error)
	SplitMode(ctx context.Context, member string) (sandtrap.Mode, error)
	AddNote(ctx context.Context, id, body string) error
}

// Config is what the handlers need besides their readers.
type Config struct {
	Runs     RunReader
	Activity ActivityReader
	Results  ResultReader
	Modes    ModeReader
	Triager  ModeTriager
	Compare  Comparer
	// Filer, Tickets and Facts file failure modes; Owners are the teams.
	Filer   Filer
	Tickets Tickets
	Facts   filing.FactsFunc
	Owners  filing.Ownership
	// Alerts are the [[alert]] tables and AlertSends their outbox, shown
	// on /teams.
	Alerts     []alert.Alert
	AlertSends AlertOutbox
	// Ingest writes what harnesses send to the ingest file; nil refuses
	// ingest. IngestMaxBody limits each ingest request's body, in bytes.
	Ingest        Ingester
	IngestMaxBody int64
	// Token, when set, is required of every request. Without it only
	// loopback names and Hosts are served.
	Token    string
	Hosts    []string  // names besides loopback the server answers to
	ReadOnly bool      // refuse every state change
	Hub      *live.Hub // fans changes out to live pages; nil serves no live updates
	Static   fs.FS     // the stylesheet, scripts and the Datastar bundle
	Logger   *slog.Logger
	Now      func() time.Time

	// AuthProxyHeader names the header in which an authenticating proxy
	// says who it let in (X-Forwarded-Email). It is believed only from
	// TrustedProxies, and names that person on their decisions.
	AuthProxyHeader string
	TrustedProxies  []netip.Prefix
}

// Handler serves every page and API route.
type Handler struct {
	runs          RunReader
	activity      ActivityReader
	results       ResultReader
	modes         ModeReader
	triager       ModeTriager
	readOnly      bool
	compare       Comparer
	filer         Filer
	tickets       Tickets
	facts         filing.FactsFunc
	owners        filing.Ownership
	alerts        []alert.Alert
	alertSends    AlertOutbox
	ingest        Ingester
	ingestMaxBody int64
	token         string
	hosts         []string
	hub           *live.Hub
	static        fs.FS
	assets        assets
	log           *slog.Logger
	now           func() time.Time

	proxyHeader    string
	trustedProxies []netip.Prefix
}

// New returns a Handler; it fails if a static asset is missing.
func New(c Config) (*Handler, error) {
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	a, err := hashAssets(c.Static)
	if err != nil {
		return nil, err
	}
	if c.Hub == nil {
		c.Hub = live.NewHub(c.Logger)
	}
	if c.IngestMaxBody <= 0 {
		c.IngestMaxBody = DefaultIngestMaxBody
	}
	return &Handler{runs: c.Runs, activity: c.Activity, results: c.Results, modes: c.Modes, triager: c.Triager, compare: c.Compare, readOnly: c.ReadOnly, hub: c.Hub,
		filer: c.Filer, tickets: c.Tickets, facts: c.Facts, owners: c.Owners, alerts: c.Alerts, alertSends: c.AlertSends, ingest: c.Ingest, ingestMaxBody: c.IngestMaxBody, token: c.Token, hosts: c.Hosts,
		proxyHeader: c.AuthProxyHeader, trustedProxies: c.TrustedProxies,
		static: c.Static, assets: a, log: c.Logger, now: c.Now}, nil
}

// Routes returns the router with every route and the security middleware.
func (h *Handler) Routes() http.Handler { return h.router(nil) }

// router returns the routes, with mcp at /mcp unless it is nil.
func (h *Handler) router(mcp http.Handler) http.Handler {
	r := chi.NewRouter()
	r.Use(middleware.Recoverer, secureHeaders, h.guard, h.identify, compressPages(middleware.Compress(5)))
	r.Get("/static/*", h.serveStatic)

	r.Get("/", h.handle(h.listRuns))
	r.Get("/live", h.handle(h.streamRuns))
	r.Get("/picker", h.handle(h.pickRuns))
	r.Get("/runs/{run}", h.handle(h.showRun))
	r.Get("/runs/{run}/live", h.handle(h.streamRun))
	r.Get("/runs/{run}/failures", h.handle(h.listFailures))
	r.Get("/runs/{run}/failures/live", h.handle(h.streamFailures))
	r.Get("/runs/{run}/results/{id}", h.handle(h.showResult))
	r.Get("/runs/{run}/results/{id}/log", h.handle(h.downloadLog))
	r.Get("/runs/{run}/results/{id}/artifacts/{artifact}", h.handle(h.downloadArtifact))
	r.Get("/runs/{run}/targets", h.handle(h.compareTargets))
	r.Get("/compare", h.handle(h.compareRuns))
	r.Get("/runs/{run}/modes", h.handle(h.listModes))
	r.Get("/runs/{run}/modes/live", h.handle(h.streamModes))
	r.Get("/modes", h.handle(h.listModeStream))
	r.Get("/modes/{mode}", h.handle(h.showMode))
	r.Get("/modes/{mode}/ticket.md", h.handle(h.downloadTicket))
	r.Get("/teams", h.handle(h.listTeams))
	r.Get("/api/teams", h.handleAPI(h.apiListTeams))
	r.Get("/debug/vars", h.handle(h.debugVars))

	r.Get("/api/runs", h.handleAPI(h.apiListRuns))
	r.Get("/api/runs/{run}", h.handleAPI(h.apiShowRun))
	r.Get("/api/runs/{run}/results", h.handleAPI(h.apiListResults))
	r.Get("/api/compare", h.handleAPI(h.apiCompare))
	r.Get("/api/runs/{run}/modes", h.handleAPI(h.apiListModes))
	r.Get("/api/modes", h.handleAPI(h.apiListModeStream))
	r.Get("/api/modes/{mode}", h.handleAPI(h.apiShowMode))

	// State changes: refused across origins (CSRF), and when read-only.
	r.Group(func(r chi.Router) {
		r.Use(http.NewCrossOriginProtection().Handler)
		r.Post("/modes/{mode}/triage", h.handle(h.triageMode))
		r.Post("/runs/{run}/modes/merge", h.handle(h.mergeSuggested))
		r.Post("/api/modes/{mode}/triage", h.handleAPI(h.apiTriageMode))
		r.Post("/modes/{mode}/file", h.handle(h.fileMode))
		r.Post("/api/modes/{mode}/file", h.handleAPI(h.apiFileMode))
		r.Post("/runs/{run}/file-critical", h.handle(h.fileCritical))
		h.ingestRoutes(r)
	})
	if mcp != nil {
		r.With(sameOrigin).Handle("/mcp", mcp)
	}
	r.NotFound(h.handle(func(w http.ResponseWriter, r *http.Request) error {
		return sandtrap.Errorf(sandtrap.ENOTFOUND, "There is no page at %s.", r.URL.Path)
	}))
	return r
}

// contentSecurityPolicy allows only our own scripts and styles. Datastar
// evaluates its data-* expressions, so it needs 'unsafe-eval' and nothing
// more in script-src.
const contentSecurityPolicy = "default-src 'self'; script-src 'self' 'unsafe-eval'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'"

func secureHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Content-Security-Policy", contentSecurityPolicy)
		hd.Set("X-Frame-Options", "DENY")
		hd.Set("Referrer-Policy", "same-origin")
		next.ServeHTTP(w, r)
	})
}

// compressPages compresses everything but event streams, which must reach
// the browser event by event.
func compressPages(compress func(http.Handler) http.Handler) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		compressed := compress(next)
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Datastar-Request") == "true" || strings.Contains(r.Header.Get("Accept"), "text/event-stream") {
				next.ServeHTTP(w, r)
				return
			}
			compressed.ServeHTTP(w, r)
		})
	}
}

// statusOf maps an application error code to an HTTP status.
func statusOf(err error) int {
	switch sandtrap.ErrorCode(err) {
	case sandtrap.ENOTFOUND:
		return http.StatusNotFound
	case sandtrap.EINVALID:
		return http.StatusBadRequest
	case sandtrap.ECONFLICT:
		return http.StatusConflict
	case sandtrap.EFORBIDDEN:
		return http.StatusForbidden
	case sandtrap.EUNAVAILABLE:
		return http.StatusServiceUnavailable
	case sandtrap.EUPSTREAM:
		return http.StatusBadGateway
	case sandtrap.ETOOLARGE:
		return http.StatusRequestEntityTooLarge
	}
	return http.StatusInternalServerError
}

// handle adapts a page handler: an error becomes an error page.
func (h *Handler) handle(fn func(http.ResponseWriter, *http.Request) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		tw := &trackingWriter{ResponseWriter: w}
		err := fn(tw, r)
		if err == nil {
			return
		}
		if tw.wrote {
			// Too late for an error page: the response is under way, most
			// often to a client that went away.
			if r.Context().Err() == nil {
				h.log.Warn("page failed after it began", "path", r.URL.Path, "err", err)
			}
			return
		}
		status := statusOf(err)
		if status == http.StatusInternalServerError && !errors.Is(err, context.Canceled) {
			h.log.Error("page failed", "path", r.URL.Path, "err", err)
		}
		p := views.ErrorPage{Shell: h.shell(r.Context(), http.StatusText(status), "", nil), Status: status,
			Title: http.StatusText(status), Message: sandtrap.ErrorMessage(err)}
		if status == http.StatusNotFound {
			p.Runs = p.Shell.Picker.Runs
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(status)
		views.Error(p).Render(r.Context(), w)
	}
}

// maxStateBody bounds the body of a form or a JSON request that changes
// the state, ingest aside: a note has at most 10,000 bytes, and a merge
// names a few modes.
const maxStateBody = 64 << 10

// decodeJSON reads a request's JSON body into v, refusing unknown fields
// and bodies over maxStateBody, with a message that says what is wrong.
func decodeJSON(r *http.Request, v any) error {
	if r.ContentLength > maxStateBody {
		return bodyTooLarge()
	}
	dec := json.NewDecoder(http.MaxBytesReader(nil, r.Body, maxStateBody))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		if overLimit(err) {
			return bodyTooLarge()
		}
		return sandtrap.Errorf(sandtrap.EINVALID, "the body must be a JSON object of the documented fields: %v", err)
	}
	return nil
}

// parseForm reads a posted form of at most maxStateBody bytes.
func parseForm(w http.ResponseWriter, r *http.Request, what string) error {
	if r.ContentLength > maxStateBody {
		return bodyTooLarge()
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxStateBody)
	if err := r.ParseForm(); err != nil {
		if overLimit(err) {
			return bodyTooLarge()
		}
		return sandtrap.Errorf(sandtrap.EINVALID, "unreadable %s: %v", what, err)
	}
	return nil
}

// overLimit reports whether err is a body cut at its limit.
func overLimit(err error) bool {
	var mbe *http.MaxBytesError
	return errors.As(err, &mbe)
}

func bodyTooLarge() error {
	return sandtrap.Errorf(sandtrap.ETOOLARGE, "the body is over %s, the limit of a request that changes sandtrap's state", formatBytes(maxStateBody))
}

// trackingWriter notes whether a response has begun.
type trackingWriter struct {
	http.ResponseWriter
	wrote bool
}

func (w *trackingWriter) WriteHeader(code int) {
	w.wrote = true
	w.ResponseWriter.WriteHeader(code)
}

func (w *trackingWriter) Write(b []byte) (int, error) {
	w.wrote = true
	return w.ResponseWriter.Write(b)
}

// Flush sends what is buffered; a flushed response has begun.
func (w *trackingWriter) Flush() { w.FlushError() }

// FlushError is Flush with its error, which http.ResponseController uses:
// a live stream learns at once that its client has gone.
func (w *trackingWriter) FlushError() error {
	w.wrote = true
	return http.NewResponseController(w.ResponseWriter).Flush()
}

// Unwrap lets http.ResponseController reach the deadlines.
func (w *trackingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// handleAPI adapts an API handler: it writes the value as JSON, or the
// error as {"error": {"code", "message"}}.
func (h *Handler) handleAPI(fn func(*http.Request) (any, error)) http.HandlerFunc {
	return h.handleAPIStatus(func(r *http.Request) (int, any, error) {
		v, err := fn(r)
		return http.StatusOK, v, err
	})
}

// handleAPIStatus is handleAPI for handlers that choose the status of
// their success, such as 201 Created.
func (h *Handler) handleAPIStatus(fn func(*http.Request) (int, any, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		status, v, err := fn(r)
		w.Header().Set("Content-Type", "application/json")
		if err != nil {
			status := statusOf(err)
			if status == http.StatusInternalServerError && r.Context().Err() == nil {
				h.log.Error("api failed", "path", r.URL.Path, "err", err)
			}
			w.WriteHeader(status)
			json.NewEncoder(w).Encode(map[string]any{"error": map[string]string{
				"code": sandtrap.ErrorCode(err), "message": sandtrap.ErrorMessage(err)}})
			return
		}
		w.WriteHeader(status)
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.Encode(v)
	}
}

// render writes a page.
func render(w http.ResponseWriter, r *http.Request, c templ.Component) error {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	return c.Render(r.Context(), w)
}
