package mcpserver

import (
	"context"
	"strings"

	"sandtrap"
	"sandtrap/handlers"
)

// TriageInput is a triage decision on a failure mode. Fields left out stay
// as they are; an empty owner clears the person's choice.
type TriageInput struct {
	Mode     string  `json:"mode" jsonschema:"the failure mode's id"`
	Status   *string `json:"status,omitempty" jsonschema:"new, triaged, fixed, wont-fix or test-bug"`
	Severity *string `json:"severity,omitempty" jsonschema:"critical, high, medium or low; empty goes back to the classifier's"`
	Owner    *string `json:"owner,omitempty" jsonschema:"the team that owns the mode; empty goes back to the routed team"`
	Note     *string `json:"note,omitempty" jsonschema:"a note for the mode's history, at most 10,000 bytes"`
}

// Triaged is a failure mode after a triage decision.
type Triaged struct {
	Mode handlers.APIMode `json:"mode" jsonschema:"the mode as it now stands"`
	Done []string         `json:"done" jsonschema:"what was done, one line per change"`
}

func (t *tools) triageMode(ctx context.Context, in TriageInput) (Triaged, error) {
	var ops []handlers.TriageRequest
	if in.Status != nil {
		ops = append(ops, handlers.TriageRequest{Op: "status", Status: *in.Status})
	}
	if in.Severity != nil {
		ops = append(ops, handlers.TriageRequest{Op: "severity", Severity: *in.Severity})
	}
	if in.Owner != nil {
		ops = append(ops, handlers.TriageRequest{Op: "owner", Owner: *in.Owner})
	}
	if in.Note != nil {
		ops = append(ops, handlers.TriageRequest{Op: "note", Note: *in.Note})
	}
	if len(ops) == 0 {
		return Triaged{}, sandtrap.Errorf(sandtrap.EINVALID, "nothing to change: give a status, severity, owner or note")
	}
	out := Triaged{Done: []string{}}
	for _, op := range ops {
		m, message, err := t.Actions.TriageMode(ctx, in.Mode, op)
		if err != nil {
			if len(out.Done) > 0 {
				// Say what did change before the refusal.
				return Triaged{}, sandtrap.Errorf(sandtrap.ErrorCode(err), "%s Then %s failed: %s", strings.Join(out.Done, " "), op.Op, sandtrap.ErrorMessage(err))
			}
			return Triaged{}, err
		}
		out.Mode = m
		out.Done = append(out.Done, message)
	}
	return out, nil
}

// FileInput names the failure mode to file.
type FileInput struct {
	Mode string `json:"mode" jsonschema:"the failure mode's id"`
	Team string `json:"team,omitempty" jsonschema:"the team to file to; the mode's owner unless given"`
}

// Filed is the ticket a filing made or updated.
type Filed struct {
	Ticket handlers.APITicket `json:"ticket" jsonschema:"action says what was done: created, commented, reopened or none"`
}

func (t *tools) fileMode(ctx context.Context, in FileInput) (Filed, error) {
	tk, err := t.Actions.FileMode(ctx, in.Mode, in.Team)
	if err != nil {
		return Filed{}, err
	}
	return Filed{Ticket: tk}, nil
}
