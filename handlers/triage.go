package handlers

import (
	"context"
	"fmt"
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/starfederation/datastar-go/datastar"

	"sandtrap"
	"sandtrap/live"
	"sandtrap/paths"
	"sandtrap/views"
)

// TriageRequest is one triage action, from a form, from JSON or from an MCP
// tool.
type TriageRequest struct {
	Op        string `json:"op"` // status, severity, classify, title, owner, merge, split, note
	Status    string `json:"status"`
	Severity  string `json:"severity"`
	Layer     string `json:"layer"`
	Primitive string `json:"primitive"`
	Title     string `json:"title"`
	Owner     string `json:"owner"`
	Into      string `json:"into"`
	Member    string `json:"member"`
	Note      string `json:"note"`
}

// applyTriage carries out one triage action on mode id and says what it did
// and which mode to show next (a merge shows the mode merged into).
func (h *Handler) applyTriage(ctx context.Context, id string, t TriageRequest) (next, message string, err error) {
	if h.readOnly {
		return id, "", sandtrap.Errorf(sandtrap.EFORBIDDEN, "sandtrap is serving read-only (--read-only): triage changes are refused")
	}
	var m sandtrap.Mode
	switch t.Op {
	case "status":
		m, err = h.triager.UpdateMode(ctx, id, sandtrap.Triage{Status: &t.Status})
		message = "Status set to " + t.Status + "."
	case "severity":
		m, err = h.triager.UpdateMode(ctx, id, sandtrap.Triage{Severity: &t.Severity})
		message = "Severity set to " + t.Severity + "."
	case "classify":
		m, err = h.triager.UpdateMode(ctx, id, sandtrap.Triage{Layer: &t.Layer, Primitive: &t.Primitive})
		message = fmt.Sprintf("Reclassified as %s / %s, by a person.", t.Layer, orDash(t.Primitive))
	case "title":
		m, err = h.triager.UpdateMode(ctx, id, sandtrap.Triage{Title: &t.Title})
		message = "Renamed."
	case "owner":
		m, err = h.triager.UpdateMode(ctx, id, sandtrap.Triage{Owner: &t.Owner})
		message = "Owner set to " + orDash(t.Owner) + "."
	case "merge":
		if t.Into == "" {
			return id, "", sandtrap.Errorf(sandtrap.EINVALID, "choose the mode to merge into")
		}
		m, err = h.triager.MergeMode(ctx, id, t.Into)
		message = "Merged " + id + " into this mode."
	case "split":
		m, err = h.triager.SplitMode(ctx, t.Member)
		message = "Split " + t.Member + " out; it is a mode of its own again."
		if err == nil {
			m, err = h.modes.FindMode(ctx, id)
		}
	case "note":
		err = h.triager.AddNote(ctx, id, t.Note)
		message = "Note added."
		if err == nil {
			m, err = h.modes.FindMode(ctx, id)
		}
	default:
		return id, "", sandtrap.Errorf(sandtrap.EINVALID, "unknown triage action %q: use status, severity, classify, title, owner, merge, split or note", t.Op)
	}
	if err != nil {
		return id, "", err
	}
	return m.ID, message, nil
}

// triageMode serves POST /modes/{mode}/triage. From Datastar it answers
// with the page's content morphed in place, carrying the outcome; from a
// plain form it redirects back, or shows the error with its status.
func (h *Handler) triageMode(w http.ResponseWriter, r *http.Request) error {
	if err := parseForm(w, r, "triage form"); err != nil {
		return err
	}
	t := TriageRequest{Op: r.PostFormValue("op"), Status: r.PostFormValue("status"), Severity: r.PostFormValue("severity"),
		Layer: r.PostFormValue("layer"), Primitive: r.PostFormValue("primitive"), Title: r.PostFormValue("title"),
		Owner: r.PostFormValue("owner"), Into: r.PostFormValue("into"), Member: r.PostFormValue("member"), Note: r.PostFormValue("note")}
	id := chi.URLParam(r, "mode")
	next, message, err := h.applyTriage(r.Context(), id, t)
	if sandtrap.ErrorCode(err) == sandtrap.EINTERNAL {
		return err
	}
	datastarRequest := r.Header.Get("Datastar-Request") == "true"
	if err == nil && !datastarRequest {
		http.Redirect(w, r, paths.Mode(next), http.StatusSeeOther)
		return nil
	}
	flash := views.TriageForm{Message: message}
	if err != nil {
		flash = views.TriageForm{Error: sandtrap.ErrorMessage(err)}
		if sandtrap.ErrorCode(err) == sandtrap.ENOTFOUND && t.Op != "split" {
			return err
		}
	}
	p, perr := h.modePage(r, next, flash)
	if perr != nil {
		return perr
	}
	if !datastarRequest {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(statusOf(err))
		return views.Mode(p).Render(r.Context(), w)
	}
	// After a merge the page shows the mode merged into; its old URL keeps
	// leading there.
	return live.PatchElements(datastar.NewSSE(w, r), views.ModeBody(p))
}

// apiTriageMode serves POST /api/modes/{mode}/triage with a JSON body
// {"op": …} and returns the mode as it now stands.
func (h *Handler) apiTriageMode(r *http.Request) (any, error) {
	var t TriageRequest
	if err := decodeJSON(r, &t); err != nil {
		return nil, err
	}
	m, message, err := h.TriageMode(r.Context(), chi.URLParam(r, "mode"), t)
	if err != nil {
		return nil, err
	}
	return map[string]any{"message": message, "mode": m}, nil
}

// TriageMode carries out one triage action on mode id, as POST
// /api/modes/{mode}/triage does, and returns the mode as it now stands
// (after a merge, the mode merged into) and what was done.
func (h *Handler) TriageMode(ctx context.Context, id string, t TriageRequest) (APIMode, string, error) {
	next, message, err := h.applyTriage(ctx, id, t)
	if err != nil {
		return APIMode{}, "", err
	}
	m, err := h.modes.FindMode(ctx, next)
	if err != nil {
		return APIMode{}, "", err
	}
	return ToAPIMode(m), message, nil
}
