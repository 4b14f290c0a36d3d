package triage

import (
	"sandtrap"
)

// Triage statuses of a failure mode, in the order a mode moves through them
// (the root package's, so that packages triage depends on can name them).
const (
	StatusNew         = sandtrap.TriageNew
	StatusTriaged     = sandtrap.TriageTriaged
	StatusFixed       = sandtrap.TriageFixed
	StatusWontFix     = sandtrap.TriageWontFix
	StatusTestBug     = sandtrap.TriageTestBug
	ClassifiedByHuman = "human"
)

// Statuses lists every triage status.
func Statuses() []string {
	return []string{StatusNew, StatusTriaged, StatusFixed, StatusWontFix, StatusTestBug}
}

// ValidStatus reports whether s is a triage status.
func ValidStatus(s string) bool {
	for _, v := range Statuses() {
		if v == s {
			return true
		}
	}
	return false
}

// Severities lists the severities, worst first.
func Severities() []string {
	return []string{sandtrap.SeverityCritical, sandtrap.SeverityHigh, sandtrap.SeverityMedium, sandtrap.SeverityLow}
}

// SeverityRank orders severities: 0 is the worst; unknown ones come last.
func SeverityRank(s string) int {
	for i, v := range Severities() {
		if v == s {
			return i
		}
	}
	return len(Severities())
}

// Decision is what people decided about a failure mode. Empty fields keep
// what the classifier said.
type Decision struct {
	Layer, Primitive string
	Severity         string
	Title            string
	Status           string
	MergedInto       string
	Owner            string
}

// CarriedFrom returns d, the decision on mode id, with what it leaves
// empty taken from from, the decision on a mode that id absorbed: layer
// and primitive go together, and a merge of id into itself is dropped.
// The index carries decisions over this way as a template absorbs
// another, and the state when it saves the alias.
func (d Decision) CarriedFrom(from Decision, id string) Decision {
	if d.Layer == "" && from.Layer != "" {
		d.Layer, d.Primitive = from.Layer, from.Primitive
	}
	for _, f := range []struct {
		to   *string
		from string
	}{
		{&d.Severity, from.Severity}, {&d.Title, from.Title}, {&d.Status, from.Status}, {&d.MergedInto, from.MergedInto}, {&d.Owner, from.Owner},
	} {
		if *f.to == "" {
			*f.to = f.from
		}
	}
	if d.MergedInto == id {
		d.MergedInto = ""
	}
	return d
}

// Facts is a failure mode as the classifier made it.
type Facts struct {
	ID, Layer, Primitive, Signature string
}

// Effective is a failure mode as people see it: the classifier's facts with
// every human decision applied, each saying who decided it.
type Effective struct {
	ID, Layer, Primitive, Signature string
	ClassifiedBy                    string // "human" when a person reclassified it
	Title                           string
	Severity, SeverityReason        string
	Status                          string
	Owner                           string
}

// Apply puts a decision on top of a mode's facts. by is who classified the
// mode's failures when no person did.
func Apply(f Facts, d Decision, by string) Effective {
	e := Effective{ID: f.ID, Layer: f.Layer, Primitive: f.Primitive, Signature: f.Signature, ClassifiedBy: by,
		Status: StatusNew, Owner: d.Owner}
	if d.Layer != "" {
		e.Layer, e.Primitive, e.ClassifiedBy = d.Layer, d.Primitive, ClassifiedByHuman
	}
	e.Severity, e.SeverityReason = Severity(e.Layer, e.Primitive, e.Signature)
	if d.Severity != "" && d.Severity != e.Severity {
		e.Severity, e.SeverityReason = d.Severity, d.Severity+": set by a person"
	}
	e.Title = Title(e.Layer, e.Primitive, e.Signature)
	if d.Title != "" {
		e.Title = d.Title
	}
	if d.Status != "" {
		e.Status = d.Status
	}
	return e
}

// Root follows a chain of merges to the mode that absorbs id. A cycle, which
// the store refuses to write, stops the walk where it would repeat.
func Root(id string, mergedInto func(string) string) string {
	seen := map[string]bool{id: true}
	for {
		next := mergedInto(id)
		if next == "" || seen[next] {
			return id
		}
		seen[next] = true
		id = next
	}
}
