package handlers

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"slices"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/starfederation/datastar-go/datastar"

	"sandtrap"
	"sandtrap/filing"
	"sandtrap/live"
	"sandtrap/paths"
	"sandtrap/triage"
	"sandtrap/views"
)

// Filer files failure modes to their owners' trackers.
type Filer interface {
	File(ctx context.Context, modeID, team string) (filing.Outcome, error)
	Owner(m filing.ModeFacts, chosen string) (filing.Team, error)
}

// Tickets reads what was filed.
type Tickets interface {
	Ticket(ctx context.Context, modeID string) (filing.Stored, bool, error)
	Tickets(ctx context.Context) (map[string]filing.Stored, error)
	LatestFiling(ctx context.Context, modeID string) (filing.Filing, error)
}

// fileMode serves POST /modes/{mode}/file: files the mode to its owner's
// tracker, or comments on or reopens its ticket. From Datastar it answers
// with the page's content, carrying the outcome; from a plain form it
// redirects back.
func (h *Handler) fileMode(w http.ResponseWriter, r *http.Request) error {
	if err := parseForm(w, r, "filing form"); err != nil {
		return err
	}
	id := chi.URLParam(r, "mode")
	out, err := h.file(r.Context(), id, r.PostFormValue("team"))
	if sandtrap.ErrorCode(err) == sandtrap.ENOTFOUND {
		return err
	}
	flash := views.TriageForm{Message: outcomeText(out)}
	if err != nil {
		flash = views.TriageForm{Error: filingErrorText(err)}
	}
	if r.Header.Get("Datastar-Request") != "true" {
		if err != nil && !filing.IsRetrying(err) {
			p, perr := h.modePage(r, id, flash)
			if perr != nil {
				return perr
			}
			status := statusOf(filingFailure(err))
			if status == http.StatusInternalServerError {
				h.log.Error("filing failed", "mode", id, "err", err)
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.WriteHeader(status)
			return views.Mode(p).Render(r.Context(), w)
		}
		http.Redirect(w, r, paths.Mode(id), http.StatusSeeOther)
		return nil
	}
	p, err := h.modePage(r, id, flash)
	if err != nil {
		return err
	}
	return live.PatchElements(datastar.NewSSE(w, r), views.ModeBody(p))
}

// file files a mode, refusing when serving read-only or without a filer.
func (h *Handler) file(ctx context.Context, id, team string) (filing.Outcome, error) {
	if h.readOnly {
		return filing.Outcome{}, sandtrap.Errorf(sandtrap.EFORBIDDEN, "sandtrap is serving read-only (--read-only): filing is refused")
	}
	if h.filer == nil {
		return filing.Outcome{}, sandtrap.Errorf(sandtrap.EUNAVAILABLE, "filing is not set up on this server")
	}
	if _, err := h.modes.FindMode(ctx, id); err != nil {
		return filing.Outcome{}, err
	}
	return h.filer.File(ctx, id, team)
}

func outcomeText(out filing.Outcome) string {
	t := out.Ticket
	switch out.Action {
	case filing.ActionCreate:
		return fmt.Sprintf("Filed to %s as %s.", t.Team, t.Key)
	case filing.ActionComment:
		return fmt.Sprintf("%s already tracks this mode: added a comment with what is new.", t.Key)
	case filing.ActionReopen:
		return fmt.Sprintf("The mode came back: reopened %s with a comment.", t.Key)
	case filing.ActionNone:
		return fmt.Sprintf("%s is closed and the mode has not come back since; nothing to file.", t.Key)
	}
	return ""
}

// filingFailure is a failed filing as the error its response reports: its
// status from filing.ErrorCode, and the words shown on the mode. Internal
// errors are kept whole, to be logged.
func filingFailure(err error) error {
	code := filing.ErrorCode(err)
	if code == sandtrap.EINTERNAL {
		return err
	}
	return sandtrap.Errorf(code, "%s", filingErrorText(err))
}

// filingErrorText is what a failed filing says on the mode's page.
func filingErrorText(err error) string {
	var fe *filing.FilingError
	if errors.As(err, &fe) {
		if fe.Retrying {
			return fe.Message + " The filing is kept and will be retried."
		}
		return fe.Message
	}
	return sandtrap.ErrorMessage(err)
}

// actionPast is an action in the API's words.
func actionPast(a filing.Action) string {
	switch a {
	case filing.ActionCreate:
		return "created"
	case filing.ActionComment:
		return "commented"
	case filing.ActionReopen:
		return "reopened"
	}
	return "none"
}

// apiFileMode serves POST /api/modes/{mode}/file with an optional
// {"team": …}, and returns the ticket and what was done to it.
func (h *Handler) apiFileMode(r *http.Request) (any, error) {
	var body struct {
		Team string `json:"team"`
	}
	if r.ContentLength != 0 {
		if err := decodeJSON(r, &body); err != nil {
			return nil, err
		}
	}
	t, err := h.FileMode(r.Context(), chi.URLParam(r, "mode"), body.Team)
	if err != nil {
		return nil, err
	}
	return map[string]any{"ticket": t}, nil
}

// APITicket is a mode's ticket as the API and the MCP tools return it after
// filing, with what the filing did to it.
type APITicket struct {
	URL     string `json:"url"`
	Key     string `json:"key"`
	Tracker string `json:"tracker"`
	State   string `json:"state"`
	Team    string `json:"team"`
	Action  string `json:"action"` // created, commented, reopened or none
}

// FileMode files mode id to team's tracker ("" for its owner's), or
// comments on or reopens its ticket, as POST /api/modes/{mode}/file does.
func (h *Handler) FileMode(ctx context.Context, id, team string) (APITicket, error) {
	out, err := h.file(ctx, id, team)
	if err != nil {
		return APITicket{}, filingFailure(err)
	}
	t := out.Ticket
	return APITicket{URL: t.URL, Key: t.Key, Tracker: t.Tracker, State: t.State, Team: t.Team, Action: actionPast(out.Action)}, nil
}

// downloadTicket serves GET /modes/{mode}/ticket.md: the ticket's Markdown,
// for teams without a tracker.
func (h *Handler) downloadTicket(w http.ResponseWriter, r *http.Request) error {
	m, err := h.modes.FindMode(r.Context(), chi.URLParam(r, "mode"))
	if err != nil {
		return err
	}
	facts, _, _, err := h.facts(r.Context(), m.ID)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/markdown; charset=utf-8")
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": m.ID + ".md"}))
	_, err = fmt.Fprintf(w, "# %s\n\n%s", filing.Title(facts), filing.Body(facts))
	return err
}

// fileCritical serves POST /runs/{run}/file-critical: files every critical
// mode of the run that nobody has triaged or filed yet, one after another,
// with the progress sent as it goes.
func (h *Handler) fileCritical(w http.ResponseWriter, r *http.Request) error {
	if err := parseForm(w, r, "filing form"); err != nil {
		return err
	}
	ctx := r.Context()
	run, err := h.runs.FindRun(ctx, chi.URLParam(r, "run"))
	if err != nil {
		return err
	}
	modes, _, err := h.modes.RunModes(ctx, run.ID, sandtrap.ResultFilter{})
	if err != nil {
		return err
	}
	tickets, err := h.tickets.Tickets(ctx)
	if err != nil {
		return err
	}
	todo := triage.UntriagedCritical(modes, tickets)
	datastarRequest := r.Header.Get("Datastar-Request") == "true"
	var sse *datastar.ServerSentEventGenerator
	if datastarRequest {
		sse = datastar.NewSSE(w, r)
	}
	var lines []string
	filed := 0
	report := func(done int) error {
		if sse == nil {
			return nil
		}
		return live.PatchElements(sse, views.FilingProgress(views.Progress{Done: done, Total: len(todo), Filed: filed, Lines: lines}))
	}
	if len(todo) == 0 {
		lines = append(lines, "No untriaged critical mode is left to file.")
	}
	if err := report(0); err != nil {
		return nil
	}
	for i, m := range todo {
		out, err := h.file(ctx, m.ID, "")
		if err != nil {
			lines = append(lines, fmt.Sprintf("%s: %s", m.Title, filingErrorText(err)))
		} else {
			filed++
			lines = append(lines, fmt.Sprintf("%s: %s", m.Title, outcomeText(out)))
		}
		if err := report(i + 1); err != nil {
			return nil
		}
	}
	if !datastarRequest {
		http.Redirect(w, r, paths.Modes(run.ID, sandtrap.ResultFilter{}), http.StatusSeeOther)
	}
	return nil
}

// ticketView is a mode's ticket and latest filing as pages show them.
func (h *Handler) ticketView(ctx context.Context, id string) (views.TicketView, error) {
	var v views.TicketView
	if h.tickets == nil {
		return v, nil
	}
	t, has, err := h.tickets.Ticket(ctx, id)
	if err != nil {
		return v, err
	}
	if has {
		v = views.TicketView{Key: t.Key, URL: t.URL, State: t.State, Tracker: t.Tracker, Team: t.Team}
	}
	fl, err := h.tickets.LatestFiling(ctx, id)
	if err == nil && fl.State != filing.StateDone {
		v.Filing = fl.State
		v.Error = fl.LastError
		if fl.State == filing.StatePending && fl.Attempts > 0 {
			v.Filing = "retrying"
		}
	} else if err != nil && sandtrap.ErrorCode(err) != sandtrap.ENOTFOUND {
		return v, err
	}
	return v, nil
}

// filingForm lays out "File to TEAM" for a mode: the owner, the other
// teams, and the ticket that would be written.
func (h *Handler) filingForm(ctx context.Context, m sandtrap.Mode) (views.FilingForm, error) {
	form := views.FilingForm{Action: paths.Mode(m.ID) + "/file", MarkdownHref: paths.Mode(m.ID) + "/ticket.md", ReadOnly: h.readOnly}
	if h.filer == nil || h.facts == nil {
		return form, nil
	}
	facts, _, chosen, err := h.facts(ctx, m.ID)
	if err != nil {
		return form, err
	}
	owner, err := h.filer.Owner(facts, chosen)
	if err != nil {
		form.Error = sandtrap.ErrorMessage(err)
	}
	form.Owner, form.Tracker = owner.Name, trackerText(owner.Tracker)
	form.Routed = chosen == ""
	for _, t := range h.owners.Teams {
		form.Teams = append(form.Teams, views.Option{Value: t.Name, Label: t.Name + " (" + t.Tracker + ")", Selected: t.Name == owner.Name})
	}
	slices.SortFunc(form.Teams, func(a, b views.Option) int { return strings.Compare(a.Label, b.Label) })
	form.Title, form.Body = filing.Title(facts), filing.Body(facts)
	return form, nil
}
