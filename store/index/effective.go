package index

import (
	"context"
	"slices"

	"sandtrap"
	"sandtrap/triage"
)

// effMode is a failure mode with every decision applied: root is the mode
// that absorbs it through merges, and Effective is the root as people see it.
type effMode struct {
	root int32 // index into Index.modes, or -1 when the root was never seen
	triage.Effective
}

// recomputeEffective applies the decisions to every mode. Callers hold mu
// for writing.
func (ix *Index) recomputeEffective() {
	ix.decisionsVersion++
	ix.eff = ix.eff[:0]
	for i := range ix.modes {
		ix.eff = append(ix.eff, ix.effectiveOf(int32(i)))
	}
}

// effectiveOf applies the decisions to one mode. Callers hold mu.
func (ix *Index) effectiveOf(m int32) effMode {
	rootID := ix.resolveRoot(ix.modes[m].ID)
	root, ok := ix.modeIdx[rootID]
	facts := triage.Facts{ID: rootID}
	if ok {
		rm := ix.modes[root]
		facts.Layer, facts.Primitive, facts.Signature = rm.Layer, rm.Primitive, rm.Signature
	} else {
		root = -1
		mm := ix.modes[m]
		facts.Layer, facts.Primitive, facts.Signature = mm.Layer, mm.Primitive, mm.Signature
	}
	return effMode{root: root, Effective: triage.Apply(facts, ix.decisions[rootID], "")}
}

// isMergeTarget reports whether a decision merges some mode into id.
// Callers hold mu.
func (ix *Index) isMergeTarget(id string) bool {
	for _, d := range ix.decisions {
		if d.MergedInto == id {
			return true
		}
	}
	return false
}

// modeIndex returns the index of mode id, following aliases to the mode
// that absorbed it. Callers hold mu.
func (ix *Index) modeIndex(id string) (int32, bool) {
	if i, ok := ix.modeIdx[id]; ok {
		return i, true
	}
	seen := map[string]bool{}
	for next := ix.aliases[id]; next != "" && !seen[next]; next = ix.aliases[next] {
		seen[next] = true
		if i, ok := ix.modeIdx[next]; ok {
			return i, true
		}
	}
	return 0, false
}

// resolveRoot follows a mode id through people's merges and then through
// aliases: a person's merge wins over what the miner did. Callers hold mu.
func (ix *Index) resolveRoot(id string) string {
	next := func(id string) string {
		if into := ix.decisions[id].MergedInto; into != "" {
			return into
		}
		return ix.aliases[id]
	}
	// A person's merge and the miner's alias can point at each other (A
	// merged into B, then A absorbing B): every member of such a cycle
	// resolves to its smallest id, so they show as one mode.
	seen := map[string]int{}
	var path []string
	for cur := id; cur != ""; cur = next(cur) {
		if i, ok := seen[cur]; ok {
			return slices.Min(path[i:])
		}
		seen[cur] = len(path)
		path = append(path, cur)
	}
	return path[len(path)-1]
}

// modeOf returns a mode as the domain sees it, with the members merged
// into it when withMembers is set. Callers hold mu.
func (ix *Index) modeOf(id string, withMembers bool) (sandtrap.Mode, bool) {
	i, ok := ix.modeIndex(id)
	if !ok {
		return sandtrap.Mode{}, false
	}
	e := ix.eff[i]
	m := sandtrap.Mode{
		ID: e.ID, Layer: e.Layer, Primitive: e.Primitive, Signature: e.Signature, ClassifiedBy: e.ClassifiedBy,
		Title: e.Title, Severity: e.Severity, SeverityReason: e.SeverityReason, Status: e.Status, Owner: e.Owner,
		FirstSeen: ix.modes[i].FirstSeen,
	}
	m.Members = append(m.Members, e.ID)
	if !withMembers {
		return m, true
	}
	for j := range ix.modes {
		if ix.eff[j].ID == e.ID && ix.modes[j].ID != e.ID {
			m.Members = append(m.Members, ix.modes[j].ID)
			if ix.modes[j].FirstSeen.Before(m.FirstSeen) {
				m.FirstSeen = ix.modes[j].FirstSeen
			}
		}
	}
	return m, true
}

// FindMode returns a failure mode by id, with its decisions applied. The id
// of a mode merged into another finds the other.
func (ix *Index) FindMode(ctx context.Context, id string) (sandtrap.Mode, error) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	i, ok := ix.modeIndex(id)
	if !ok {
		return sandtrap.Mode{}, modeNotFound(id)
	}
	m, ok := ix.modeOf(ix.eff[i].ID, true)
	if !ok {
		// Merged into a mode no served file has: show the member itself.
		m, _ = ix.modeOf(id, true)
	}
	return m, nil
}

// Root returns the id of the mode that absorbs id through merges and
// aliases: the mode decisions are made on.
func (ix *Index) Root(id string) (string, error) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	i, ok := ix.modeIndex(id)
	if !ok {
		return "", modeNotFound(id)
	}
	return ix.eff[i].ID, nil
}

// HasMode reports whether a served file has a failure of mode id itself,
// not through an alias.
func (ix *Index) HasMode(id string) bool {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	_, ok := ix.modeIdx[id]
	return ok
}

// modeNotFound is the error of a mode the index does not have.
func modeNotFound(id string) error {
	return sandtrap.Errorf(sandtrap.ENOTFOUND, "failure mode %q not found", id)
}
