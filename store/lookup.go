package store

import (
	"cmp"
	"context"
	"strings"

	"sandtrap"
	"sandtrap/filing"
	"sandtrap/store/campaign"
	"sandtrap/triage"
)

// ModeLookup is what sandtrap makes of a failure that need not be in any
// served file: how the indexer would classify it, and the failure mode that
// gives, as the mode's page shows it.
type ModeLookup struct {
	triage.Classification        // as the indexer would record it
	ModeID                string // the mode of that classification, before merges
	// Known says whether the index has the mode: a failure of a served
	// file, now or before, had it.
	Known bool
	// Mode is the mode merges lead to, with people's decisions, when Known;
	// else the classifier's mode alone.
	Mode         sandtrap.Mode
	ClassifiedBy string // "human" when a person reclassified the mode, else sandtrap.Classification.By
	Ticket       filing.Stored
	HasTicket    bool
}

// ModeForFailure classifies f the way the indexer classifies a failed
// result, and resolves the mode that gives the way the mode page does:
// through merges, with people's decisions and the mode's ticket.
func (s *Store) ModeForFailure(ctx context.Context, f triage.Failure) (ModeLookup, error) {
	if !sandtrap.IsFailure(f.Status) {
		return ModeLookup{}, sandtrap.Errorf(sandtrap.EINVALID, "a %s result has no failure mode: give the status of a failure", f.Status)
	}
	// The classifier sees what classifyOne gives it: the log's end as the
	// indexer reads it, and the steps' tools and error.
	if len(f.LogTail) > campaign.ClassifyTail {
		f.LogTail = f.LogTail[len(f.LogTail)-campaign.ClassifyTail:]
	}
	cl := s.opts.Classifier.Classify(f)
	// The saved templates say which mode that is; a message that would
	// start a template of its own gets the id its template would be minted
	// with, without mining it.
	s.groupMu.Lock()
	cl = s.grouper.SettleLookup(cl, f.LogTail)
	id, ok := s.grouper.LookupClassified(cl, f.LogTail)
	s.groupMu.Unlock()
	if !ok {
		id = triage.ModeID(cl.Layer, cl.Primitive, strings.Join(triage.TemplateTokens(cl.ModeSignature()), " "))
	}
	l := ModeLookup{Classification: cl, ModeID: id}
	m, err := s.FindMode(ctx, l.ModeID)
	switch {
	case err == nil:
		l.Known, l.Mode = true, m
		if l.Ticket, l.HasTicket, err = s.Ticket(ctx, m.ID); err != nil {
			return l, err
		}
	case sandtrap.ErrorCode(err) == sandtrap.ENOTFOUND:
		e := triage.Apply(triage.Facts{ID: l.ModeID, Layer: cl.Layer, Primitive: cl.Primitive, Signature: cl.ModeSignature()}, triage.Decision{}, "")
		l.Mode = sandtrap.Mode{ID: e.ID, Layer: e.Layer, Primitive: e.Primitive, Signature: e.Signature,
			Title: e.Title, Severity: e.Severity, SeverityReason: e.SeverityReason, Status: e.Status, Members: []string{e.ID}}
	default:
		return l, err
	}
	l.ClassifiedBy = cmp.Or(l.Mode.ClassifiedBy, cl.By)
	return l, nil
}
