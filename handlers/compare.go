package handlers

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"sandtrap"
	"sandtrap/compare"
	"sandtrap/format"
	"sandtrap/paths"
	"sandtrap/views"
)

// Comparer compares two runs, and names the latest runs for its form; the
// store implements it.
type Comparer interface {
	Compare(ctx context.Context, baseID, headID string, limit int) (compare.Comparison, error)
	runsBefore
}

// runChoices is how many of the latest runs the compare form suggests;
// any other run is typed or found through the runs list's search.
const runChoices = 20

// Test lists are capped: the page shows a screenful, the API more, and the
// JSON link of a capped list asks for everything.
const (
	pageTests       = 100
	apiTests        = 1000
	maxAPITests     = 1_000_000
	compareAPIRoute = "/api/compare"
)

// comparer returns what compares runs, when the server was given one.
func (h *Handler) comparer() (Comparer, error) {
	if h.compare == nil {
		return nil, sandtrap.Errorf(sandtrap.EUNAVAILABLE, "comparing runs is not available here")
	}
	return h.compare, nil
}

// compareRuns serves GET /compare?base=&head=. A missing head is the newest
// run and a missing base the run before head; the page then redirects to
// the permalink that names both.
func (h *Handler) compareRuns(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	cmp, err := h.comparer()
	if err != nil {
		return err
	}
	latest, err := cmp.RunsBefore(ctx, "", runChoices)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	base, head := q.Get("base"), q.Get("head")
	if base == "" || head == "" {
		for _, id := range []string{base, head} {
			if id == "" {
				continue
			}
			if _, err := h.runs.FindRun(ctx, id); err != nil {
				return err
			}
		}
		b, hd, err := defaultPair(ctx, cmp, latest, base, head)
		if err != nil {
			return err
		}
		if b == "" || hd == "" {
			p := views.ComparePage{Shell: h.shell(ctx, "Compare runs", "compare", []views.Crumb{{Label: "Runs", Href: "/"}, {Label: "compare"}}),
				Form: compareForm(latest, b, hd)}
			p.Empty = "Comparing needs two runs, and the campaign files have " + format.PluralOf(len(latest), "run", "runs") + "."
			if len(latest) > 1 {
				p.Empty = hd + " is the first run: there is no run before it. Choose a base above."
			}
			return render(w, r, views.Compare(p))
		}
		http.Redirect(w, r, paths.Compare(b, hd), http.StatusFound)
		return nil
	}
	c, err := cmp.Compare(ctx, base, head, pageTests)
	if err != nil {
		return err
	}
	p := comparePage(c)
	if h.tickets != nil {
		// A mode that came back is one to chase: link its ticket.
		tickets, err := h.tickets.Tickets(ctx)
		if err != nil {
			return err
		}
		groups := []*views.ModeGroup{&p.Returned}
		for i := range p.ModeGroups {
			groups = append(groups, &p.ModeGroups[i])
		}
		for _, g := range groups {
			for i := range g.Rows {
				if t, ok := tickets[g.Rows[i].ID]; ok {
					g.Rows[i].Ticket = views.Link{Text: t.Key + " (" + t.State + ")", Href: t.URL}
				}
			}
		}
	}
	p.Shell = h.shell(ctx, "Compare "+c.Base.Name+" with "+c.Head.Name, "compare", []views.Crumb{
		{Label: "Runs", Href: "/"}, {Label: c.Head.Name, Href: paths.Run(c.Head.ID)}, {Label: "compare with " + c.Base.Name}})
	p.Form = compareForm(latest, c.Base.ID, c.Head.ID)
	return render(w, r, views.Compare(p))
}

// runsBefore names the runs that started before a run.
type runsBefore interface {
	RunsBefore(ctx context.Context, id string, n int) ([]sandtrap.RunCount, error)
}

// defaultPair fills in a missing head with the newest run and a missing
// base with the run before head; "" when there is no such run. latest are
// the newest runs, newest first.
func defaultPair(ctx context.Context, runs runsBefore, latest []sandtrap.RunCount, base, head string) (string, string, error) {
	if len(latest) == 0 {
		return base, head, nil
	}
	if head == "" {
		head = latest[0].RunID
	}
	if base == "" {
		before, err := runs.RunsBefore(ctx, head, 1)
		if err != nil {
			return "", "", err
		}
		if len(before) > 0 {
			base = before[0].RunID
		}
	}
	return base, head, nil
}

// compareForm is the form that picks the two runs: the chosen ones, and
// the latest runs to suggest; the runs list finds any other.
func compareForm(latest []sandtrap.RunCount, base, head string) views.CompareForm {
	f := views.CompareForm{Base: base, Head: head, FindHref: "/?q="}
	for _, rc := range latest {
		label := rc.RunName + " · " + format.Time(rc.StartedAt) + " · " + format.PluralOf(rc.Total, "result", "results")
		if rc.RunName != rc.RunID {
			label = rc.RunName + " (" + rc.RunID + ") · " + format.Time(rc.StartedAt)
		}
		f.Choices = append(f.Choices, views.Option{Value: rc.RunID, Label: label})
	}
	return f
}

// comparePage builds the page's view model from a comparison.
func comparePage(c compare.Comparison) views.ComparePage {
	base, head := c.Base.ID, c.Head.ID
	p := views.ComparePage{
		Base:      views.RunRef{ID: base, Name: c.Base.Name, Href: paths.Run(base)},
		Head:      views.RunRef{ID: head, Name: c.Head.Name, Href: paths.Run(head)},
		SwapHref:  paths.Compare(head, base),
		JSONHref:  compareAPIHref(base, head, 0),
		Identical: c.Identical,
	}
	modes := func(d compare.Delta) string { return views.FormatInt(int(d.Head)) }
	p.Stats = []views.Stat{
		{Label: "Pass rate", Value: views.FormatPct(c.PassRate.Head), Sub: format.Points(c.PassRate.Change()) + " from " + views.FormatPct(c.PassRate.Base),
			Href: paths.Failures(head, sandtrap.ResultFilter{Status: sandtrap.StatusPassed}), Class: toneOf(-c.PassRate.Change())},
		{Label: "Failures", Value: views.FormatInt(int(c.Failures.Head)), Sub: signed(int(c.Failures.Change())) + " from " + views.FormatInt(int(c.Failures.Base)),
			Href: paths.Failures(head, emptyFilter), Class: toneOf(c.Failures.Change())},
		{Label: "Failure modes", Value: modes(c.Modes), Sub: signed(int(c.Modes.Change())) + " from " + views.FormatInt(int(c.Modes.Base)),
			Class: toneOf(c.Modes.Change())},
		{Label: "Returned", Value: views.FormatInt(len(c.Returned)), Sub: "marked fixed, failing again", Href: "#returned", Class: countTone(len(c.Returned), "sev-critical")},
		{Label: "New modes", Value: views.FormatInt(len(c.New)), Sub: "not in " + clipID(base), Href: "#new", Class: countTone(len(c.New), "st-failed")},
		{Label: "Resolved modes", Value: views.FormatInt(len(c.Resolved)), Sub: "not in " + clipID(head), Href: "#resolved", Class: countTone(len(c.Resolved), "st-passed")},
	}

	p.Returned = modeGroup(c.Returned, base, head, "returned", "Returned",
		"Marked fixed in triage, yet failing in "+head+": the fix did not hold.", "No mode marked fixed is failing again.")
	if n := len(c.Returned); n > 0 {
		p.ReturnedAlert = fmt.Sprintf("%s marked fixed %s failing again in %s.", format.PluralOf(n, "failure mode", "failure modes"),
			map[bool]string{true: "is", false: "are"}[n == 1], head)
	}
	p.ModeGroups = []views.ModeGroup{
		modeGroup(c.New, base, head, "new", "New", "Failing in "+head+", not in "+base+".", "No new failure modes."),
		modeGroup(c.Resolved, base, head, "resolved", "Resolved", "Failing in "+base+", not in "+head+".", "No failure mode went away."),
		modeGroup(c.Persisting, base, head, "persisting", "Persisting", "Failing in both runs, with the change in failures.", "No failure mode is in both runs."),
	}

	p.TestStats = []views.Stat{
		{Label: "Fixed tests", Value: views.FormatInt(c.Fixed.Total), Sub: "failed, then passed", Href: "#tests-fixed", Class: countTone(c.Fixed.Total, "st-passed")},
		{Label: "Regressed tests", Value: views.FormatInt(c.Regressed.Total), Sub: "passed, then failed", Href: "#tests-regressed", Class: countTone(c.Regressed.Total, "st-failed")},
		{Label: "Still failing", Value: views.FormatInt(c.StillFailing.Total), Sub: "failed in both", Href: "#tests-still-failing"},
		{Label: "Still passing", Value: views.FormatInt(c.StillPassing), Sub: "passed in both"},
		{Label: "Added", Value: views.FormatInt(c.Added.Total), Sub: "only in " + clipID(head), Href: "#tests-added"},
		{Label: "Removed", Value: views.FormatInt(c.Removed.Total), Sub: "only in " + clipID(base), Href: "#tests-removed"},
	}
	p.TestGroups = []views.TestGroup{
		testGroup(c.Fixed, base, head, "tests-fixed", "Fixed", "Failed in "+base+", passed in "+head+"."),
		testGroup(c.Regressed, base, head, "tests-regressed", "Regressed", "Passed in "+base+", failed in "+head+"."),
		testGroup(c.StillFailing, base, head, "tests-still-failing", "Still failing", "Failed in both runs."),
		testGroup(c.Added, base, head, "tests-added", "Added", "Ran in "+head+" only: agents invent new tests every run."),
		testGroup(c.Removed, base, head, "tests-removed", "Removed", "Ran in "+base+" only."),
	}
	p.TestGroups[0].Open, p.TestGroups[1].Open = true, true
	p.FlakyTests = testGroup(c.FlakyTests, base, head, "flaky-tests", "Flaky tests",
		"Passed and failed on attempts within one run, or flipped at least twice over the recent runs.")
	p.FlakyTests.Open, p.FlakyTests.ShowWhy = true, true
	for _, m := range c.FlakyModes {
		p.FlakyModes = append(p.FlakyModes, views.FlakyModeRow{ID: m.ID, Href: paths.Mode(m.ID), Title: m.Title, Severity: m.Severity, Why: m.Why})
	}

	p.Deltas = []views.DeltaTable{
		deltaTable(c.ByTarget, base, head, sandtrap.FacetTarget, "By target", true),
		deltaTable(c.ByDomain, base, head, sandtrap.FacetDomain, "By domain", true),
		deltaTable(c.ByLayer, base, head, sandtrap.FacetLayer, "By layer", false),
		deltaTable(c.ByPrimitive, base, head, sandtrap.FacetPrimitive, "By primitive", false),
	}
	return p
}

func modeGroup(modes []compare.ModeChange, base, head, id, title, note, empty string) views.ModeGroup {
	g := views.ModeGroup{ID: id, Title: fmt.Sprintf("%s (%d)", title, len(modes)), Note: note, Empty: empty}
	for _, m := range modes {
		row := views.ModeChangeRow{
			ID: m.ID, Href: paths.Mode(m.ID), Title: m.Title, Signature: m.Signature, Severity: m.Severity,
			Layer: m.Layer, Primitive: m.Primitive, Status: m.Status,
			Base:   countLinkTo(base, sandtrap.ResultFilter{Mode: m.ID}, m.BaseCount),
			Head:   countLinkTo(head, sandtrap.ResultFilter{Mode: m.ID}, m.HeadCount),
			Change: signed(m.CountChange()), ChangeClass: changeClass(float64(m.CountChange())),
		}
		switch {
		case m.BaseCount == 0:
			row.Change = "new"
		case m.HeadCount == 0:
			row.Change = "gone"
		}
		g.Rows = append(g.Rows, row)
	}
	return g
}

func testGroup(l compare.TestList, base, head, id, title, note string) views.TestGroup {
	g := views.TestGroup{ID: id, Title: title, Note: note, Total: views.FormatInt(l.Total)}
	for _, t := range l.Tests {
		g.Rows = append(g.Rows, views.TestRow{Key: t.Key, Base: outcomeLink(base, t.Base), Head: outcomeLink(head, t.Head), Why: t.Why})
	}
	if l.Truncated() {
		g.More = views.Link{Text: fmt.Sprintf("%s more in the JSON", views.FormatInt(l.Total-len(l.Tests))), Href: compareAPIHref(base, head, maxAPITests)}
	}
	return g
}

// outcomeLink names how a test's last attempt ended and links to it.
func outcomeLink(run string, t compare.Test) views.Link {
	if t.Last == 0 {
		return views.Link{Text: "—"}
	}
	text := t.Last.String()
	if attempts := t.Passes + t.Fails; attempts > 1 {
		text += fmt.Sprintf(" (%d attempts)", attempts)
	}
	return views.Link{Text: text, Href: paths.Result(run, t.LastID)}
}

func deltaTable(changes []compare.Change, base, head, facet, title string, rates bool) views.DeltaTable {
	t := views.DeltaTable{ID: "delta-" + facet, Title: title, ShowRate: rates}
	for _, c := range changes {
		label := c.Key
		if label == "" {
			label = "(none)"
		}
		f := sandtrap.ResultFilter{}.With(facet, c.Key)
		row := views.DeltaRow{
			Label: label,
			Base:  countLinkTo(base, f, c.Base.Failures()), Head: countLinkTo(head, f, c.Head.Failures()),
			Change: signed(c.FailuresChange()), ChangeClass: changeClass(float64(c.FailuresChange())),
		}
		if c.Key == "" {
			row.Base.Href, row.Head.Href = "", ""
		}
		if rates {
			row.BaseRate, row.HeadRate = rateOf(c.Base), rateOf(c.Head)
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

func rateOf(c sandtrap.Counts) string {
	if c.Total == 0 {
		return "—"
	}
	return views.FormatPct(c.PassRate())
}

// countLinkTo links a count of failures to them; zero is plain.
func countLinkTo(run string, f sandtrap.ResultFilter, n int) views.Link {
	l := views.Link{Text: views.FormatInt(n)}
	if n > 0 {
		l.Href = paths.Failures(run, f)
	}
	return l
}

// signed writes a change with its sign: "+3", "−2", "±0".
func signed(n int) string {
	switch {
	case n > 0:
		return "+" + views.FormatInt(n)
	case n < 0:
		return "−" + views.FormatInt(-n)
	}
	return "±0"
}

// changeClass marks a change in failures: more is worse.
func changeClass(more float64) string { return byChange(more, "check-bad", "check-ok") }

// toneOf colours a headline card by a change in failures: more is worse.
func toneOf(more float64) string { return byChange(more, "st-failed", "st-passed") }

// byChange is worse for more failures, better for fewer, "" for none.
func byChange(more float64, worse, better string) string {
	switch {
	case more > 0:
		return worse
	case more < 0:
		return better
	}
	return ""
}

func countTone(n int, tone string) string {
	if n == 0 {
		return ""
	}
	return tone
}

func clipID(id string) string { return views.Truncate(id, 28) }

func compareAPIHref(base, head string, limit int) string {
	q := url.Values{"base": {base}, "head": {head}}
	if limit > 0 {
		q.Set("limit", strconv.Itoa(limit))
	}
	return compareAPIRoute + "?" + q.Encode()
}

// apiCompare serves GET /api/compare?base=&head=&limit=: the comparison as
// JSON, each list of tests capped at limit (1,000 unless asked).
func (h *Handler) apiCompare(r *http.Request) (any, error) {
	cmp, err := h.comparer()
	if err != nil {
		return nil, err
	}
	q := r.URL.Query()
	base, head := strings.TrimSpace(q.Get("base")), strings.TrimSpace(q.Get("head"))
	if base == "" || head == "" {
		return nil, sandtrap.Errorf(sandtrap.EINVALID, "name both runs: /api/compare?base=RUN&head=RUN")
	}
	limit := apiTests
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxAPITests {
			return nil, sandtrap.Errorf(sandtrap.EINVALID, "limit must be a whole number from 1 to %d, not %q", maxAPITests, v)
		}
		limit = n
	}
	c, err := cmp.Compare(r.Context(), base, head, limit)
	if err != nil {
		return nil, err
	}
	return ToAPIComparison(c), nil
}

// APIComparison is a comparison as GET /api/compare and `sandtrap compare
// --format json` write it.
type APIComparison struct {
	Base      APIRun `json:"base"`
	Head      APIRun `json:"head"`
	Identical bool   `json:"identical"`

	PassRate apiDelta `json:"pass_rate"`
	Failures apiDelta `json:"failures"`
	Modes    apiDelta `json:"modes"`

	ByTarget    []apiChange `json:"by_target"`
	ByDomain    []apiChange `json:"by_domain"`
	ByLayer     []apiChange `json:"by_layer"`
	ByPrimitive []apiChange `json:"by_primitive"`

	ReturnedModes   []APIModeChange `json:"returned_modes"`
	NewModes        []APIModeChange `json:"new_modes"`
	ResolvedModes   []APIModeChange `json:"resolved_modes"`
	PersistingModes []APIModeChange `json:"persisting_modes"`

	FixedTests        []APITest     `json:"fixed_tests"`
	RegressedTests    []APITest     `json:"regressed_tests"`
	StillFailingTests []APITest     `json:"still_failing_tests"`
	AddedTests        []APITest     `json:"added_tests"`
	RemovedTests      []APITest     `json:"removed_tests"`
	TestCounts        apiTestCounts `json:"test_counts"`
	Flaky             apiFlaky      `json:"flaky"`
}

type apiDelta struct {
	Base   float64 `json:"base"`
	Head   float64 `json:"head"`
	Change float64 `json:"change"`
}

type apiChange struct {
	Name          string          `json:"name"`
	Base          sandtrap.Counts `json:"base"`
	Head          sandtrap.Counts `json:"head"`
	FailuresDelta int             `json:"failures_delta"`
}

// APIModeChange is a failure mode in both runs.
type APIModeChange struct {
	ID        string `json:"id"`
	Title     string `json:"title"`
	Signature string `json:"signature"`
	Layer     string `json:"layer"`
	Primitive string `json:"primitive"`
	Severity  string `json:"severity"`
	Status    string `json:"status"`
	BaseCount int    `json:"base_count"`
	HeadCount int    `json:"head_count"`
}

// APITest is a test key with how its last attempt ended in each run
// ("passed", "failed", "skipped" or "absent").
type APITest struct {
	Key        string `json:"key"`
	Base       string `json:"base"`
	Head       string `json:"head"`
	BaseResult int64  `json:"base_result,omitempty"`
	HeadResult int64  `json:"head_result,omitempty"`
	Why        string `json:"why,omitempty"`
}

// apiTestCounts counts every group, also where the lists are capped.
type apiTestCounts struct {
	Fixed        int `json:"fixed"`
	Regressed    int `json:"regressed"`
	StillFailing int `json:"still_failing"`
	StillPassing int `json:"still_passing"`
	Added        int `json:"added"`
	Removed      int `json:"removed"`
	Skipped      int `json:"skipped"`
	Flaky        int `json:"flaky"`
}

type apiFlaky struct {
	Tests []APITest      `json:"tests"`
	Modes []apiFlakyMode `json:"modes"`
}

type apiFlakyMode struct {
	ID       string `json:"id"`
	Title    string `json:"title"`
	Severity string `json:"severity"`
	Why      string `json:"why"`
}

// ToAPIComparison is c as the API writes it; lists are never null.
func ToAPIComparison(c compare.Comparison) APIComparison {
	out := APIComparison{
		Base: ToAPIRun(c.Base), Head: ToAPIRun(c.Head), Identical: c.Identical,
		PassRate: toAPIDelta(c.PassRate), Failures: toAPIDelta(c.Failures), Modes: toAPIDelta(c.Modes),
		ByTarget: toAPIChanges(c.ByTarget), ByDomain: toAPIChanges(c.ByDomain),
		ByLayer: toAPIChanges(c.ByLayer), ByPrimitive: toAPIChanges(c.ByPrimitive),
		ReturnedModes: toAPIModes(c.Returned), NewModes: toAPIModes(c.New),
		ResolvedModes: toAPIModes(c.Resolved), PersistingModes: toAPIModes(c.Persisting),
		FixedTests: toAPITests(c.Fixed), RegressedTests: toAPITests(c.Regressed), StillFailingTests: toAPITests(c.StillFailing),
		AddedTests: toAPITests(c.Added), RemovedTests: toAPITests(c.Removed),
		TestCounts: apiTestCounts{Fixed: c.Fixed.Total, Regressed: c.Regressed.Total, StillFailing: c.StillFailing.Total,
			StillPassing: c.StillPassing, Added: c.Added.Total, Removed: c.Removed.Total, Skipped: c.Skipped, Flaky: c.FlakyTests.Total},
		Flaky: apiFlaky{Tests: toAPITests(c.FlakyTests), Modes: []apiFlakyMode{}},
	}
	for _, m := range c.FlakyModes {
		out.Flaky.Modes = append(out.Flaky.Modes, apiFlakyMode{ID: m.ID, Title: m.Title, Severity: m.Severity, Why: m.Why})
	}
	return out
}

func toAPIDelta(d compare.Delta) apiDelta {
	return apiDelta{Base: d.Base, Head: d.Head, Change: d.Change()}
}

func toAPIChanges(cs []compare.Change) []apiChange {
	out := make([]apiChange, 0, len(cs))
	for _, c := range cs {
		out = append(out, apiChange{Name: c.Key, Base: c.Base, Head: c.Head, FailuresDelta: c.FailuresChange()})
	}
	return out
}

func toAPIModes(ms []compare.ModeChange) []APIModeChange {
	out := make([]APIModeChange, 0, len(ms))
	for _, m := range ms {
		out = append(out, APIModeChange{ID: m.ID, Title: m.Title, Signature: m.Signature, Layer: m.Layer, Primitive: m.Primitive,
			Severity: m.Severity, Status: m.Status, BaseCount: m.BaseCount, HeadCount: m.HeadCount})
	}
	return out
}

func toAPITests(l compare.TestList) []APITest {
	out := make([]APITest, 0, len(l.Tests))
	for _, t := range l.Tests {
		out = append(out, APITest{Key: t.Key, Base: t.Base.Last.String(), Head: t.Head.Last.String(),
			BaseResult: t.Base.LastID, HeadResult: t.Head.LastID, Why: t.Why})
	}
	return out
}
