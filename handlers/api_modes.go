package handlers

import (
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"sandtrap"
	"sandtrap/filing"
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

// apiShowMode serves GET /api/modes/{mode}: one mode with its count in
// every run, its history and its notes, each naming who.
func (h *Handler) apiShowMode(r *http.Request) (any, error) {
	m, err := h.modes.FindMode(r.Context(), chi.URLParam(r, "mode"))
	if err != nil {
		return nil, err
	}
	runs, err := h.modes.ModeRuns(r.Context(), m.ID)
	if err != nil {
		return nil, err
	}
	type perRun struct {
		RunID     string `json:"run_id"`
		StartedAt string `json:"started_at"`
		Count     int    `json:"count"`
		Total     int    `json:"total"`
	}
	counts := make([]perRun, 0, len(runs))
	for _, rc := range runs {
		counts = append(counts, perRun{RunID: rc.RunID, StartedAt: rc.StartedAt.UTC().Format(time.RFC3339), Count: rc.Count, Total: rc.Total})
	}
	mode := ToAPIMode(m)
	if h.facts != nil {
		facts, _, chosen, err := h.facts(r.Context(), m.ID)
		if err != nil {
			return nil, err
		}
		mode.Owner, mode.OwnerRouted = h.owners.Owner(facts, chosen)
	}
	if h.tickets != nil {
		t, has, err := h.tickets.Ticket(r.Context(), m.ID)
		if err != nil {
			return nil, err
		}
		if has {
			mode.Ticket = &t.URL
		}
	}
	notes, events, err := h.modes.ModeNotes(r.Context(), m)
	if err != nil {
		return nil, err
	}
	return map[string]any{"mode": mode, "runs": counts, "history": apiHistory(events), "notes": apiNotes(notes)}, nil
}

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
