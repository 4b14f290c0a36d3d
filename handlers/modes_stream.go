package handlers

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"sandtrap"
	"sandtrap/filing"
	"sandtrap/format"
	"sandtrap/paths"
	"sandtrap/triage"
	"sandtrap/views"
)

// ModeHistories reads failure modes across every run served.
type ModeHistories interface {
	History(ctx context.Context, recent int) (sandtrap.History, error)
	ModeHistory(ctx context.Context, id string, recent int) (sandtrap.History, error)
	ModesBeside(ctx context.Context, id string, n int) ([]sandtrap.Mode, error)
}

// RecentRuns is how many of the latest runs a mode's trend is drawn over,
// on its page, in /modes and in the API.
const RecentRuns = 30

// modesPerPage is how many modes /modes lists at once.
const modesPerPage = 50

// parsePage reads the page parameter, 1 when it is absent.
func parsePage(q url.Values) (int, error) {
	v := q.Get("page")
	if v == "" {
		return 1, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 0, sandtrap.Errorf(sandtrap.EINVALID, "page must be a whole number of 1 or more, not %q", v)
	}
	return n, nil
}

// pageSpan is where page starts at per a page, and how many pages total
// items fill: at least one, so that an empty list has its first page. A
// page past the last is refused, naming the last.
func pageSpan(total, page, per int, what string) (offset, pages int, err error) {
	pages = max(1, (total+per-1)/per)
	if page > pages {
		return 0, pages, sandtrap.Errorf(sandtrap.EINVALID, "page must be from 1 to %s, the last page of %s at %d a page, not %d",
			views.FormatInt(pages), what, per, page)
	}
	return (page - 1) * per, pages, nil
}

// modeStreamQuery is what /modes and /api/modes are asked for.
type modeStreamQuery struct {
	triage.ModeQuery
	Sort string
	Page int
}

// parseModeStream reads the filters, the order and the page of /modes,
// refusing values that cannot match with a message that names them.
func parseModeStream(q url.Values) (modeStreamQuery, error) {
	s := modeStreamQuery{ModeQuery: triage.ModeQuery{Text: strings.TrimSpace(q.Get("q")), Layer: q.Get("layer"),
		Primitive: q.Get("primitive"), Status: q.Get("status"), Owner: q.Get("owner"), Severity: q.Get("severity")},
		Sort: q.Get("sort")}
	if s.Sort == "" {
		s.Sort = triage.SortLastSeen
	}
	for _, c := range []struct {
		name, value string
		allowed     []string
	}{
		{"sort", s.Sort, triage.Sorts()},
		{"status", s.Status, triage.Statuses()},
		{"severity", s.Severity, triage.Severities()},
		{"layer", s.Layer, append(triage.Layers(), sandtrap.LayerUnclassified)},
	} {
		if c.value != "" && !slices.Contains(c.allowed, c.value) {
			return s, sandtrap.Errorf(sandtrap.EINVALID, "%s must be one of %s, not %q", c.name, strings.Join(c.allowed, ", "), c.value)
		}
	}
	var err error
	s.Page, err = parsePage(q)
	return s, err
}

// modeStreamHref is /modes (or the API's path) asking for q on page;
// defaults are left out so that URLs stay short.
func modeStreamHref(path string, q modeStreamQuery, page int) string {
	v := url.Values{}
	for _, kv := range [][2]string{{"q", q.Text}, {"severity", q.Severity}, {"status", q.Status}, {"layer", q.Layer},
		{"primitive", q.Primitive}, {"owner", q.Owner}} {
		if kv[1] != "" {
			v.Set(kv[0], kv[1])
		}
	}
	if q.Sort != triage.SortLastSeen {
		v.Set("sort", q.Sort)
	}
	if page > 1 {
		v.Set("page", strconv.Itoa(page))
	}
	if len(v) == 0 {
		return path
	}
	return path + "?" + v.Encode()
}

// modeStream is one page of /modes: the modes that match, with what the
// page shows beside them.
type modeStream struct {
	history sandtrap.History
	all     []sandtrap.ModeSummary // every mode, owners filled in
	matched []sandtrap.ModeSummary // the ones q selects, in its order
	page    []sandtrap.ModeSummary
	routed  map[string]bool // modes whose owner the routes chose
	tickets map[string]filing.Stored
	offset  int
	pages   int
}

// findModeStream reads every mode's history, gives each its owner, and
// selects and pages them as q asks.
func (h *Handler) findModeStream(ctx context.Context, q modeStreamQuery) (modeStream, error) {
	hist, err := h.modes.History(ctx, RecentRuns)
	if err != nil {
		return modeStream{}, err
	}
	s := modeStream{history: hist, all: hist.Modes, routed: map[string]bool{}}
	for i := range s.all {
		m := &s.all[i]
		owner, routed := summaryOwner(h.owners, *m)
		m.Owner, s.routed[m.ID] = owner, routed
	}
	s.matched = triage.Select(s.all, q.ModeQuery, q.Sort)
	if s.offset, s.pages, err = pageSpan(len(s.matched), q.Page, modesPerPage, format.PluralOf(len(s.matched), "mode", "modes")); err != nil {
		return modeStream{}, err
	}
	s.page = s.matched[s.offset:min(len(s.matched), s.offset+modesPerPage)]
	if h.tickets != nil {
		if s.tickets, err = h.tickets.Tickets(ctx); err != nil {
			return modeStream{}, err
		}
	}
	return s, nil
}

// summaryOwner is the owner of a mode across every run: the team a person
// chose, else the one the routes give it by where it ever failed.
func summaryOwner(owners filing.Ownership, m sandtrap.ModeSummary) (string, bool) {
	seen := func(values []string) map[string]int {
		out := make(map[string]int, len(values))
		for _, v := range values {
			out[v] = 1
		}
		return out
	}
	return owners.Owner(filing.ModeFacts{ID: m.ID, Layer: m.Layer, Primitive: m.Primitive,
		PerDomain: seen(m.Domains), PerTarget: seen(m.Targets)}, m.Owner)
}

// listModeStream serves GET /modes: every failure mode seen in the runs,
// like an issue stream, filtered, ordered and paged by the query.
func (h *Handler) listModeStream(w http.ResponseWriter, r *http.Request) error {
	q, err := parseModeStream(r.URL.Query())
	if err != nil {
		return err
	}
	s, err := h.findModeStream(r.Context(), q)
	if err != nil {
		return err
	}
	p := modeStreamPage(q, s)
	p.Shell = h.shell(r.Context(), "Failure modes across runs", "all-modes", []views.Crumb{{Label: "Runs", Href: "/"}, {Label: "all failure modes"}})
	return render(w, r, views.ModeStream(p))
}

// modeStreamPage builds the view model of /modes.
func modeStreamPage(q modeStreamQuery, s modeStream) views.ModeStreamPage {
	p := views.ModeStreamPage{
		Action:     "/modes",
		Query:      q.Text,
		Hidden:     streamHidden(q),
		ClearHref:  modeStreamHref("/modes", modeStreamQuery{Sort: q.Sort}, 1),
		JSONHref:   modeStreamHref("/api/modes", q, q.Page),
		Empty:      len(s.page) == 0,
		Range:      pageRange(s.offset, len(s.page), len(s.matched)),
		PageText:   fmt.Sprintf("page %s of %s", views.FormatInt(q.Page), views.FormatInt(s.pages)),
		RecentRuns: len(s.history.Recent),
	}
	p.Summary = fmt.Sprintf("%s across %s", format.PluralOf(len(s.all), "failure mode", "failure modes"), format.PluralOf(s.history.Runs, "run", "runs"))
	if q.Page > 1 {
		p.First, p.Prev = modeStreamHref("/modes", q, 1), modeStreamHref("/modes", q, q.Page-1)
	}
	if q.Page < s.pages {
		p.Next, p.Last = modeStreamHref("/modes", q, q.Page+1), modeStreamHref("/modes", q, s.pages)
	}
	for _, by := range triage.Sorts() {
		nq := q
		nq.Sort = by
		p.Sorts = append(p.Sorts, views.SortLink{Label: sortLabels[by], Href: modeStreamHref("/modes", nq, 1), Active: by == q.Sort})
	}
	facets := triage.FacetCounts(s.all, q.ModeQuery)
	for _, field := range triage.Fields() {
		fv := views.FacetView{Name: field, Title: streamFacetTitles[field]}
		current := q.Value(field)
		for _, v := range facets[field] {
			next := v.Value
			if v.Value == current {
				next = ""
			}
			nq := q
			nq.ModeQuery = q.With(field, next)
			fv.Values = append(fv.Values, views.FacetValueView{Value: v.Value, Label: v.Value, Count: views.FormatInt(v.Count),
				Href: modeStreamHref("/modes", nq, 1), Selected: v.Value == current})
		}
		p.Facets = append(p.Facets, fv)
		if current != "" {
			nq := q
			nq.ModeQuery = q.With(field, "")
			p.Active = append(p.Active, views.ActiveFilter{Facet: field, Value: current, RemoveHref: modeStreamHref("/modes", nq, 1)})
		}
	}
	if q.Text != "" {
		nq := q
		nq.Text = ""
		p.Active = append(p.Active, views.ActiveFilter{Facet: "text", Value: q.Text, RemoveHref: modeStreamHref("/modes", nq, 1)})
	}
	for _, m := range s.page {
		p.Rows = append(p.Rows, streamRow(m, s.history.Recent, s.routed[m.ID], s.tickets))
	}
	return p
}

var sortLabels = map[string]string{
	triage.SortLastSeen: "last seen",
	triage.SortFailures: "failures",
	triage.SortSeverity: "severity",
}

var streamFacetTitles = map[string]string{
	triage.FieldSeverity:  "Severity",
	triage.FieldStatus:    "Status",
	triage.FieldLayer:     "Layer",
	triage.FieldPrimitive: "Primitive",
	triage.FieldOwner:     "Owner",
}

// streamHidden carries the filters other than the text, and the order,
// through the search form, so that searching keeps them.
func streamHidden(q modeStreamQuery) []views.HiddenInput {
	var out []views.HiddenInput
	for _, field := range triage.Fields() {
		if v := q.Value(field); v != "" {
			out = append(out, views.HiddenInput{Name: field, Value: v})
		}
	}
	if q.Sort != triage.SortLastSeen {
		out = append(out, views.HiddenInput{Name: "sort", Value: q.Sort})
	}
	return out
}

// trendTexts say a trend in words, with an arrow to scan by.
var trendTexts = map[string]string{
	triage.TrendNew:     "✚ new",
	triage.TrendBack:    "↺ back",
	triage.TrendRising:  "↑ rising",
	triage.TrendFalling: "↓ falling",
	triage.TrendSteady:  "→ steady",
	triage.TrendGone:    "✓ gone",
	triage.TrendQuiet:   "· quiet",
}

// streamRow is one mode of /modes.
func streamRow(m sandtrap.ModeSummary, recent []sandtrap.RunCount, routed bool, tickets map[string]filing.Stored) views.StreamRow {
	trend := triage.Trend(m.Recent, m.Runs)
	row := views.StreamRow{
		ID: m.ID, Href: paths.Mode(m.ID), Title: m.Title, Signature: m.Signature, Severity: m.Severity, Reason: m.SeverityReason,
		Layer: m.Layer, Primitive: m.Primitive, Status: m.Status, Owner: m.Owner, OwnerRouted: routed,
		Failures: views.FormatInt(m.Failures), Runs: "in " + format.PluralOf(m.Runs, "run", "runs"),
		Trend: trend, TrendText: trendTexts[trend],
		Spark: trendBars(m, recent, trend),
	}
	if m.Last.RunID != "" {
		row.LastRun = views.Link{Text: m.Last.RunID, Href: paths.Failures(m.Last.RunID, sandtrap.ResultFilter{Mode: m.ID})}
		row.LastSeen = format.Time(m.Last.StartedAt)
	}
	if t, ok := tickets[m.ID]; ok {
		row.TicketKey, row.TicketURL, row.TicketState = t.Key, t.URL, t.State
	}
	return row
}

// trendBars is a mode's compact trend: its failures in each recent run.
func trendBars(m sandtrap.ModeSummary, recent []sandtrap.RunCount, trend string) views.TrendBars {
	t := views.TrendBars{Values: m.Recent,
		Label: fmt.Sprintf("%s in the last %s, %s", format.PluralOf(sumOf(m.Recent), "failure", "failures"), format.PluralOf(len(recent), "run", "runs"), trend)}
	if len(recent) > 0 {
		t.Title = fmt.Sprintf("%s, from %s to %s", t.Label, recent[0].RunID, recent[len(recent)-1].RunID)
	}
	return t
}

func sumOf(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}

// APIModeSummary is a failure mode across every run, as GET /api/modes
// lists it.
type APIModeSummary struct {
	APIMode
	Failures    int    `json:"failures"`
	Runs        int    `json:"runs"` // runs it failed in
	FirstSeenAt string `json:"first_seen_at,omitempty"`
	LastSeenAt  string `json:"last_seen_at,omitempty"`
	Recent      []int  `json:"recent"` // failures in each of the recent runs, oldest first
	Trend       string `json:"trend"`
}

// toAPIModeSummary is m as the API lists it.
func toAPIModeSummary(m sandtrap.ModeSummary, routed bool, tickets map[string]filing.Stored) APIModeSummary {
	a := APIModeSummary{APIMode: ToAPIMode(m.Mode), Failures: m.Failures, Runs: m.Runs, Recent: m.Recent, Trend: triage.Trend(m.Recent, m.Runs)}
	a.Members = nil
	a.OwnerRouted = routed
	a.FirstSeen, a.LastSeen = m.First.RunID, m.Last.RunID
	if m.Runs > 0 {
		a.FirstSeenAt, a.LastSeenAt = apiTime(m.First.StartedAt), apiTime(m.Last.StartedAt)
	}
	if t, ok := tickets[m.ID]; ok {
		a.Ticket = &t.URL
	}
	return a
}

// apiListModeStream serves GET /api/modes: the modes of /modes with the
// same parameters, as JSON.
func (h *Handler) apiListModeStream(r *http.Request) (any, error) {
	q, err := parseModeStream(r.URL.Query())
	if err != nil {
		return nil, err
	}
	s, err := h.findModeStream(r.Context(), q)
	if err != nil {
		return nil, err
	}
	out := make([]APIModeSummary, 0, len(s.page))
	for _, m := range s.page {
		out = append(out, toAPIModeSummary(m, s.routed[m.ID], s.tickets))
	}
	recent := make([]string, 0, len(s.history.Recent))
	for _, rc := range s.history.Recent {
		recent = append(recent, rc.RunID)
	}
	body := map[string]any{"modes": out, "total": len(s.matched), "page": q.Page, "pages": s.pages, "per_page": modesPerPage,
		"runs": s.history.Runs, "recent_runs": recent}
	if q.Page < s.pages {
		body["next"] = modeStreamHref("/api/modes", q, q.Page+1)
	}
	return body, nil
}
