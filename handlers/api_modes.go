package handlers

import (
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"

	"sandtrap"
	"sandtrap/filing"
	"sandtrap/format"
	"sandtrap/triage"
)

// APIMode is a failure mode as the JSON API and the MCP tools return it.
type APIMode struct {
	ID             string         `json:"id"`
	Title          string         `json:"title"`
	Signature      string         `json:"signature"`
	Layer          string         `json:"layer"`
	Primitive      string         `json:"primitive"`
	ClassifiedBy   string         `json:"classified_by,omitempty"`
	Severity       string         `json:"severity"`
	SeverityReason string         `json:"severity_reason"`
	Status         string         `json:"status"`
	Owner          string         `json:"owner"`
	OwnerRouted    bool           `json:"owner_routed"` // the owner comes from the routes, not from a person
	Ticket         *string        `json:"ticket"`
	Members        []string       `json:"members,omitempty"`
	Count          int            `json:"count,omitempty"`
	Tests          int            `json:"tests,omitempty"`
	Domains        map[string]int `json:"domains,omitempty"`
	Targets        map[string]int `json:"targets,omitempty"`
	Deterministic  *bool          `json:"deterministic,omitempty"`
	FirstSeen      string         `json:"first_seen,omitempty"`
	LastSeen       string         `json:"last_seen,omitempty"`
}

// ToAPIMode is m as the API writes it.
func ToAPIMode(m sandtrap.Mode) APIMode {
	return APIMode{ID: m.ID, Title: m.Title, Signature: m.Signature, Layer: m.Layer, Primitive: m.Primitive,
		ClassifiedBy: m.ClassifiedBy, Severity: m.Severity, SeverityReason: m.SeverityReason, Status: m.Status,
		Owner: m.Owner, Members: m.Members}
}

// apiListModes serves GET /api/runs/{run}/modes: the run's failure modes,
// ranked as the queue shows them, with the same filters.
func (h *Handler) apiListModes(r *http.Request) (any, error) {
	run, err := h.runs.FindRun(r.Context(), chi.URLParam(r, "run"))
	if err != nil {
		return nil, err
	}
	f, err := parseFilter(r.URL.Query())
	if err != nil {
		return nil, err
	}
	modes, _, err := h.modes.RunModes(r.Context(), run.ID, f)
	if err != nil {
		return nil, err
	}
	triage.Rank(modes)
	out := make([]APIMode, 0, len(modes))
	for _, m := range modes {
		out = append(out, ToAPIModeStat(m, h.owners))
	}
	return map[string]any{"modes": out}, nil
}

// ToAPIModeStat is a mode of a run's queue as the API lists it: with its
// counts in the run, and the owner that owners give it.
func ToAPIModeStat(m sandtrap.ModeStat, owners filing.Ownership) APIMode {
	a := ToAPIMode(m.Mode)
	a.Members = nil
	a.Count, a.Tests, a.Domains, a.Targets = m.Count, m.Tests, m.Domains, m.Targets
	a.Owner, a.OwnerRouted = ownerOf(owners, m)
	det := m.Deterministic
	a.Deterministic = &det
	a.FirstSeen, a.LastSeen = m.FirstRun, m.LastRun
	return a
}

// APIRunCount is a mode's failures in one run, and the run's results.
type APIRunCount struct {
	RunID     string `json:"run_id"`
	StartedAt string `json:"started_at"`
	Count     int    `json:"count"`
	Total     int    `json:"total"`
}

func toAPIRunCount(rc sandtrap.RunCount) APIRunCount {
	return APIRunCount{RunID: rc.RunID, StartedAt: apiTime(rc.StartedAt), Count: rc.Count, Total: rc.Total}
}

// APIModeSeen is a mode across the runs: how often, in how many of them,
// where first and last, and how it moved lately.
type APIModeSeen struct {
	Failures int          `json:"failures"`
	Runs     int          `json:"runs"` // runs it failed in
	Of       int          `json:"of"`   // runs served
	First    *APIRunCount `json:"first"`
	Last     *APIRunCount `json:"last"`
	Trend    string       `json:"trend"`
}

// APIOccurrence is one failure of a mode, in its run.
type APIOccurrence struct {
	RunID string `json:"run_id"`
	apiResult
}

// apiShowMode serves GET /api/modes/{mode}?page=: one mode with where it
// was first and last seen, its failures in each of the last runs, a page
// of its failures, its history and its notes, each naming who.
func (h *Handler) apiShowMode(r *http.Request) (any, error) {
	ctx := r.Context()
	page, err := parsePage(r.URL.Query())
	if err != nil {
		return nil, err
	}
	m, err := h.modes.FindMode(ctx, chi.URLParam(r, "mode"))
	if err != nil {
		return nil, err
	}
	hist, err := h.modes.ModeHistory(ctx, m.ID, RecentRuns)
	if err != nil {
		return nil, err
	}
	occ, total, err := h.modes.ModeOccurrences(ctx, m.ID, occurrencesPerPage, (page-1)*occurrencesPerPage)
	if err != nil {
		return nil, err
	}
	_, pages, err := pageSpan(total, page, occurrencesPerPage, format.PluralOf(total, "failure", "failures"))
	if err != nil {
		return nil, err
	}
	mode := ToAPIMode(m)
	if h.facts != nil {
		facts, _, chosen, err := h.facts(ctx, m.ID)
		if err != nil {
			return nil, err
		}
		mode.Owner, mode.OwnerRouted = h.owners.Owner(facts, chosen)
	}
	if h.tickets != nil {
		t, has, err := h.tickets.Ticket(ctx, m.ID)
		if err != nil {
			return nil, err
		}
		if has {
			mode.Ticket = &t.URL
		}
	}
	notes, events, err := h.modes.ModeNotes(ctx, m)
	if err != nil {
		return nil, err
	}
	s := hist.Modes[0]
	seen := APIModeSeen{Failures: s.Failures, Runs: s.Runs, Of: hist.Runs, Trend: triage.Trend(s.Recent, s.Runs)}
	if s.Runs > 0 {
		first, last := toAPIRunCount(s.First), toAPIRunCount(s.Last)
		seen.First, seen.Last = &first, &last
	}
	items := make([]APIOccurrence, 0, len(occ))
	for _, o := range occ {
		items = append(items, APIOccurrence{RunID: o.RunID, apiResult: toAPIResult(o.ResultRow)})
	}
	occurrences := map[string]any{"total": total, "page": page, "pages": pages, "per_page": occurrencesPerPage, "items": items}
	if page < pages {
		occurrences["next"] = "/api/modes/" + url.PathEscape(m.ID) + "?page=" + strconv.Itoa(page+1)
	}
	return map[string]any{"mode": mode, "seen": seen, "runs": ModeRecentRuns(hist), "occurrences": occurrences,
		"history": apiHistory(events), "notes": apiNotes(notes)}, nil
}

// ModeRecentRuns is the mode's failures in each of the last runs, oldest
// first, a run without it counting zero, as GET /api/modes/{mode} and the
// MCP tools give them.
func ModeRecentRuns(hist sandtrap.History) []APIRunCount {
	var recent []int
	if len(hist.Modes) > 0 {
		recent = hist.Modes[0].Recent
	}
	out := make([]APIRunCount, 0, len(hist.Recent))
	for i, rc := range hist.Recent {
		if i < len(recent) {
			rc.Count = recent[i]
		}
		out = append(out, toAPIRunCount(rc))
	}
	return out
}

// toAPIResult is a result as the API lists it.
func toAPIResult(res sandtrap.ResultRow) apiResult {
	a := apiResult{ID: res.ID, Test: res.Test, Title: res.Title, Target: res.Target, Domain: res.Domain, Status: res.Status,
		Layer: res.Layer, Primitive: res.Primitive, ClassifiedBy: res.ClassifiedBy, Mode: res.Mode, Severity: res.Severity, Attempt: res.Attempt}
	if res.HasError {
		e := redacted(res.Error)
		a.Error = &e
	}
	return a
}

func apiTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// APIEvent is one entry of a mode's history: who did what, when.
type APIEvent struct {
	Who  string `json:"who"` // "" for entries from before names were kept
	What string `json:"what"`
	At   string `json:"at"`
}

func apiHistory(events []sandtrap.Event) []APIEvent {
	out := make([]APIEvent, 0, len(events))
	for _, e := range events {
		out = append(out, APIEvent{Who: e.Who, What: e.What, At: e.CreatedAt.UTC().Format(time.RFC3339)})
	}
	return out
}

// APINote is a note on a mode: who wrote what, when.
type APINote struct {
	Who  string `json:"who"` // "" for notes from before names were kept
	Body string `json:"body"`
	At   string `json:"at"`
}

func apiNotes(notes []sandtrap.Note) []APINote {
	out := make([]APINote, 0, len(notes))
	for _, n := range notes {
		out = append(out, APINote{Who: n.Who, Body: n.Body, At: n.CreatedAt.UTC().Format(time.RFC3339)})
	}
	return out
}
