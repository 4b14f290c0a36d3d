package handlers

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"sandtrap"
	"sandtrap/filing"
	"sandtrap/format"
	"sandtrap/paths"
	"sandtrap/triage"
	"sandtrap/views"
)

// listModes serves GET /runs/{run}/modes: the run's failure modes, worst
// first, with the failures list's facets.
func (h *Handler) listModes(w http.ResponseWriter, r *http.Request) error {
	f, err := parseFilter(r.URL.Query())
	if err != nil {
		return err
	}
	p, _, err := h.modesView(r.Context(), chi.URLParam(r, "run"), f)
	if err != nil {
		return err
	}
	return render(w, r, views.Modes(p))
}

// modesView gathers a run's failure-mode queue as it stands now.
func (h *Handler) modesView(ctx context.Context, runID string, f sandtrap.ResultFilter) (views.ModesPage, sandtrap.Run, error) {
	run, err := h.runs.FindRun(ctx, runID)
	if err != nil {
		return views.ModesPage{}, run, err
	}
	modes, facets, err := h.modes.RunModes(ctx, run.ID, f)
	if err != nil {
		return views.ModesPage{}, run, err
	}
	src, err := h.runs.RunSource(ctx, run.ID)
	if err != nil {
		return views.ModesPage{}, run, err
	}
	triage.Rank(modes)
	labels, err := h.runs.FindModes(ctx, facetModes(facets))
	if err != nil {
		return views.ModesPage{}, run, err
	}
	p := modesPage(run, f, modes, facets, labels, h.owners)
	if p.Run, err = h.runHeader(ctx, run); err != nil {
		return views.ModesPage{}, run, err
	}
	_, windows, err := h.activity.RunTimeline(ctx, run.ID)
	if err != nil {
		return views.ModesPage{}, run, err
	}
	for _, w := range windows {
		p.Outages = append(p.Outages, outageView(run.ID, w, 0, 0))
	}
	if h.filer != nil && h.tickets != nil && !h.readOnly {
		p.FileCriticalHref = paths.Run(run.ID) + "/file-critical"
		tickets, err := h.tickets.Tickets(ctx)
		if err != nil {
			return views.ModesPage{}, run, err
		}
		for i := range p.Rows {
			if t, ok := tickets[p.Rows[i].ID]; ok {
				p.Rows[i].TicketKey, p.Rows[i].TicketURL, p.Rows[i].TicketState = t.Key, t.URL, t.State
			}
		}
	}
	if !h.readOnly {
		p.Suggestions = mergeSuggestionViews(run.ID, modes)
	}
	p.Notices = sourceNotices([]sandtrap.SourceStatus{src})
	if changing(run, src) {
		p.Stream = paths.Stream(paths.Modes(run.ID, f), "/modes")
	}
	p.Shell = withRun(h.shell(ctx, "Failure modes · "+run.Name, "modes", []views.Crumb{
		{Label: "Runs", Href: "/"}, {Label: run.Name, Href: paths.Run(run.ID)}, {Label: "failure modes"}}), run)
	return p, run, nil
}

// mergeSuggestionViews asks triage which modes of the queue share a
// template but for one token, and shows each with a one-click merge.
func mergeSuggestionViews(runID string, modes []sandtrap.ModeStat) []views.MergeSuggestion {
	candidates := make([]triage.MergeCandidate, len(modes))
	titles := map[string]string{}
	for i, m := range modes {
		candidates[i] = triage.MergeCandidate{ID: m.ID, Layer: m.Layer, Primitive: m.Primitive, Signature: m.Signature, Count: m.Count}
		titles[m.ID] = m.Title
	}
	var out []views.MergeSuggestion
	for _, s := range triage.SuggestMerges(candidates) {
		v := views.MergeSuggestion{
			Text:     fmt.Sprintf("These %d modes share a template but for one token", len(s.From)+1),
			Template: s.Template,
			Action:   paths.Run(runID) + "/modes/merge",
			Into:     s.Into,
			From:     s.From,
		}
		for i, id := range append([]string{s.Into}, s.From...) {
			v.Modes = append(v.Modes, views.SuggestedMode{ID: id, Href: paths.Mode(id), Title: titles[id], Token: s.Tokens[i]})
		}
		out = append(out, v)
	}
	return out
}

// mergeSuggested serves POST /runs/{run}/modes/merge: it merges every
// mode named by "from" into the mode "into", as a merge suggestion offers,
// and goes back to the queue.
func (h *Handler) mergeSuggested(w http.ResponseWriter, r *http.Request) error {
	if err := parseForm(w, r, "merge form"); err != nil {
		return err
	}
	into, from := r.PostFormValue("into"), r.PostForm["from"]
	if into == "" || len(from) == 0 {
		return sandtrap.Errorf(sandtrap.EINVALID, "a merge needs a mode to merge into and at least one mode to merge")
	}
	if _, err := h.triager.MergeModes(r.Context(), from, into); err != nil {
		return err
	}
	http.Redirect(w, r, paths.Run(chi.URLParam(r, "run"))+"/modes", http.StatusSeeOther)
	return nil
}

// modesPage builds the queue's view model from ranked modes.
func modesPage(run sandtrap.Run, f sandtrap.ResultFilter, modes []sandtrap.ModeStat, facets map[string][]sandtrap.FacetValue, labels map[string]sandtrap.Mode, owners filing.Ownership) views.ModesPage {
	p := views.ModesPage{
		ClearHref: paths.Modes(run.ID, sandtrap.ResultFilter{}),
		JSONHref:  "/api/runs/" + url.PathEscape(run.ID) + "/modes?" + paths.FilterQuery(f).Encode(),
		Empty:     len(modes) == 0,
	}
	p.Facets, p.Filters = facetViews(f, facets, labels, func(nf sandtrap.ResultFilter) string { return paths.Modes(run.ID, nf) })
	// The mode facet counts a mode's failures in outage windows too; the
	// queue leaves them out and says how many.
	all := map[string]int{}
	for _, v := range facets[sandtrap.FacetMode] {
		all[v.Value] = v.Count
	}
	critical, fresh := 0, 0
	for _, m := range modes {
		if m.Severity == sandtrap.SeverityCritical {
			critical++
		}
		if m.NewInRun {
			fresh++
		}
		row := queueRow(run.ID, f, m)
		row.Owner, _ = ownerOf(owners, m)
		if extra := all[m.ID] - m.Count; extra > 0 {
			row.InOutages = fmt.Sprintf("+%s in outage windows", views.FormatInt(extra))
		}
		p.Rows = append(p.Rows, row)
	}
	p.Summary = fmt.Sprintf("%s failure modes · %s critical · %s first seen in this run", views.FormatInt(len(modes)), views.FormatInt(critical), views.FormatInt(fresh))
	return p
}

func queueRow(run string, f sandtrap.ResultFilter, m sandtrap.ModeStat) views.QueueRow {
	domains, domainsTitle := topKeys(m.Domains, 2)
	targets, _ := topKeys(m.Targets, 3)
	count := f
	count.Mode, count.Offset = m.ID, 0
	return views.QueueRow{
		ID: m.ID, Href: paths.Mode(m.ID), Title: m.Title, Signature: m.Signature,
		Severity: m.Severity, Reason: m.SeverityReason, Layer: m.Layer, Primitive: m.Primitive,
		Count:   views.Link{Text: views.FormatInt(m.Count), Href: paths.Failures(run, count)},
		Tests:   views.FormatInt(m.Tests),
		Domains: domains, DomainsTitle: domainsTitle, Targets: targets,
		FirstSeen: seenLabel(m.FirstRun, run), LastSeen: seenLabel(m.LastRun, run),
		Status: m.Status, Owner: m.Owner, Deterministic: m.Deterministic, New: m.NewInRun,
	}
}

func seenLabel(seen, current string) string {
	if seen == current {
		return "this run"
	}
	return seen
}

// topKeys names the n biggest keys of m, then how many more there are; the
// second value lists them all with their counts.
func topKeys(m map[string]int, n int) (string, string) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	all := make([]string, len(keys))
	for i, k := range keys {
		all[i] = fmt.Sprintf("%s (%d)", k, m[k])
	}
	short := keys
	more := ""
	if len(keys) > n {
		short = keys[:n]
		more = fmt.Sprintf(" +%d", len(keys)-n)
	}
	return strings.Join(short, ", ") + more, strings.Join(all, ", ")
}

// occurrencesPerPage is how many failures the mode page lists at once.
const occurrencesPerPage = 50

// samplesRead is how many of a mode's latest failures its samples, its
// reproducer and its domain and target bars are drawn from.
const samplesRead = 200

// showMode serves GET /modes/{mode}: one failure mode across every run,
// with its failures paged by page.
func (h *Handler) showMode(w http.ResponseWriter, r *http.Request) error {
	p, err := h.modePage(r, chi.URLParam(r, "mode"), views.TriageForm{})
	if err != nil {
		return err
	}
	return render(w, r, views.Mode(p))
}

// modePage gathers everything the page of mode id shows; flash carries the
// outcome of a triage action.
func (h *Handler) modePage(r *http.Request, id string, flash views.TriageForm) (views.ModePage, error) {
	ctx := r.Context()
	page, err := parsePage(r.URL.Query())
	if err != nil {
		return views.ModePage{}, err
	}
	m, err := h.modes.FindMode(ctx, id)
	if err != nil {
		return views.ModePage{}, err
	}
	hist, err := h.modes.ModeHistory(ctx, m.ID, RecentRuns)
	if err != nil {
		return views.ModePage{}, err
	}
	sample, total, err := h.modes.ModeOccurrences(ctx, m.ID, samplesRead, 0)
	if err != nil {
		return views.ModePage{}, err
	}
	occ, err := h.occurrencesPage(ctx, m.ID, sample, total, page)
	if err != nil {
		return views.ModePage{}, err
	}
	notes, events, err := h.modes.ModeNotes(ctx, m)
	if err != nil {
		return views.ModePage{}, err
	}
	// Merge targets: the modes of the latest runs this mode appears in.
	beside, err := h.modes.ModesBeside(ctx, m.ID, RecentRuns)
	if err != nil {
		return views.ModePage{}, err
	}
	p := modePage(m, sample, occ, hist, notes, events, beside)
	if p.Ticket, err = h.ticketView(ctx, m.ID); err != nil {
		return views.ModePage{}, err
	}
	if p.Filing, err = h.filingForm(ctx, m); err != nil {
		return views.ModePage{}, err
	}
	p.Triage.ReadOnly = h.readOnly
	p.Triage.Message, p.Triage.Error = flash.Message, flash.Error
	p.Shell = h.shell(ctx, m.Title, "all-modes", []views.Crumb{{Label: "Runs", Href: "/"}, {Label: "all failure modes", Href: "/modes"}, {Label: m.Title}})
	return p, nil
}

// occurrences is one page of a mode's failures, newest first.
type occurrences struct {
	list        []sandtrap.Occurrence
	total       int
	page, pages int
	offset      int
}

// occurrencesPage reads page of a mode's failures, from the latest ones
// already read when it is among them.
func (h *Handler) occurrencesPage(ctx context.Context, id string, latest []sandtrap.Occurrence, total, page int) (occurrences, error) {
	o := occurrences{total: total, page: page}
	var err error
	if o.offset, o.pages, err = pageSpan(total, page, occurrencesPerPage, format.PluralOf(total, "failure", "failures")); err != nil {
		return o, err
	}
	if end := o.offset + occurrencesPerPage; end <= len(latest) || len(latest) == total {
		o.list = latest[min(o.offset, len(latest)):min(end, len(latest))]
		return o, nil
	}
	o.list, o.total, err = h.modes.ModeOccurrences(ctx, id, occurrencesPerPage, o.offset)
	return o, err
}

// modePage builds the mode page's view model.
func modePage(m sandtrap.Mode, sample []sandtrap.Occurrence, occ occurrences, hist sandtrap.History,
	notes []sandtrap.Note, events []sandtrap.Event, beside []sandtrap.Mode) views.ModePage {
	p := views.ModePage{
		ID: m.ID, Title: m.Title, Signature: m.Signature, Severity: m.Severity, SeverityReason: m.SeverityReason,
		Layer: m.Layer, Primitive: m.Primitive, ClassifiedBy: orDash(m.ClassifiedBy), Status: m.Status, Owner: m.Owner,
	}
	if m.ClassifiedBy == "" {
		p.ClassifiedBy = "the harness or the rules (see each failure)"
	}
	p.Samples = samples(sample, 3)
	p.Smallest = smallest(sample)
	domains, targets := map[string]int{}, map[string]int{}
	for _, o := range sample {
		domains[o.Domain]++
		targets[o.Target]++
	}
	p.SampleNote = fmt.Sprintf("the latest %s", format.PluralOf(len(sample), "failure", "failures"))
	p.History = modeHistoryView(m, hist)
	p.ByDomain = countBars(domains, "ly-"+m.Layer)
	p.ByTarget = countBars(targets, "ly-"+m.Layer)
	for _, o := range occ.list {
		p.Occurrences = append(p.Occurrences, views.Occurrence{
			Href: paths.Result(o.RunID, o.ID), RunID: o.RunID, RunHref: paths.Run(o.RunID), ID: o.ID, Test: o.Test,
			Status: o.Status, Target: o.Target, Domain: o.Domain, Error: filing.FirstLine(redacted(o.Error)),
		})
	}
	p.OccRange = pageRange(occ.offset, len(occ.list), occ.total)
	p.OccPage = fmt.Sprintf("page %s of %s", views.FormatInt(occ.page), views.FormatInt(occ.pages))
	pageHref := func(n int) string {
		if n == 1 {
			return paths.Mode(m.ID) + "#occurrences"
		}
		return paths.Mode(m.ID) + "?page=" + strconv.Itoa(n) + "#occurrences"
	}
	if occ.page > 1 {
		p.OccFirst, p.OccPrev = pageHref(1), pageHref(occ.page-1)
	}
	if occ.page < occ.pages {
		p.OccNext, p.OccLast = pageHref(occ.page+1), pageHref(occ.pages)
	}
	p.Triage = triageForm(m, beside)
	for _, n := range notes {
		p.Notes = append(p.Notes, views.NoteView{Who: n.Who, Text: n.Body, At: format.Time(n.CreatedAt)})
	}
	for _, e := range events {
		p.Events = append(p.Events, views.NoteView{Who: e.Who, Text: e.What, At: format.Time(e.CreatedAt)})
	}
	for i, id := range m.Members {
		p.Members = append(p.Members, views.Member{ID: id, Href: paths.Mode(id), Self: i == 0})
	}
	return p
}

// modeHistoryView is a mode across the runs: where it was first and last
// seen, in how many runs, and its failures in each recent run, linked to
// them; a run without it shows as zero.
func modeHistoryView(m sandtrap.Mode, hist sandtrap.History) views.ModeHistory {
	v := views.ModeHistory{StreamHref: "/modes"}
	var s sandtrap.ModeSummary
	if len(hist.Modes) > 0 {
		s = hist.Modes[0]
	}
	v.Failures = format.PluralOf(s.Failures, "failure", "failures")
	v.Runs = fmt.Sprintf("in %s of %s", views.FormatInt(s.Runs), format.PluralOf(hist.Runs, "run", "runs"))
	if s.Runs > 0 {
		v.FirstSeen = views.RunSeen{Run: views.Link{Text: s.First.RunID, Href: paths.Failures(s.First.RunID, sandtrap.ResultFilter{Mode: m.ID})},
			At: format.Time(s.First.StartedAt), Count: format.PluralOf(s.First.Count, "failure", "failures")}
		v.LastSeen = views.RunSeen{Run: views.Link{Text: s.Last.RunID, Href: paths.Failures(s.Last.RunID, sandtrap.ResultFilter{Mode: m.ID})},
			At: format.Time(s.Last.StartedAt), Count: format.PluralOf(s.Last.Count, "failure", "failures")}
	}
	trend := triage.Trend(s.Recent, s.Runs)
	v.Trend = trendTexts[trend]
	v.Spark = views.RunBars{ID: "mode-spark", Class: "sev-" + m.Severity,
		Label: fmt.Sprintf("Failures of this mode in each of the last %s, oldest first: %s in all, %s", format.PluralOf(len(hist.Recent), "run", "runs"),
			views.FormatInt(sumOf(s.Recent)), trend)}
	if len(hist.Recent) > 0 {
		v.Spark.Caption = fmt.Sprintf("the last %s: %s → %s", format.PluralOf(len(hist.Recent), "run", "runs"), hist.Recent[0].RunID, hist.Recent[len(hist.Recent)-1].RunID)
	}
	for i, rc := range hist.Recent {
		n := 0
		if i < len(s.Recent) {
			n = s.Recent[i]
		}
		href := paths.Failures(rc.RunID, sandtrap.ResultFilter{Mode: m.ID})
		if n == 0 {
			href = paths.Run(rc.RunID)
		}
		v.Spark.Bars = append(v.Spark.Bars, views.RunBar{Run: rc.RunID, Value: n, Href: href,
			Title: fmt.Sprintf("%s (%s): %s of %s", rc.RunID, format.Time(rc.StartedAt), format.PluralOf(n, "failure", "failures"), format.PluralOf(rc.Total, "result", "results"))})
	}
	return v
}

// samples picks up to n occurrences with different messages, so that the
// highlighted differences say what varies.
func samples(occ []sandtrap.Occurrence, n int) [][]views.DiffPart {
	var texts []string
	seen := map[string]bool{}
	for _, o := range occ {
		e := filing.FirstLine(redacted(o.Error))
		if seen[e] {
			continue
		}
		seen[e] = true
		texts = append(texts, e)
		if len(texts) == n {
			break
		}
	}
	var out [][]views.DiffPart
	for _, segs := range triage.Diff(texts) {
		var parts []views.DiffPart
		for _, s := range segs {
			parts = append(parts, views.DiffPart{Text: s.Text, Varies: s.Varies})
		}
		out = append(out, parts)
	}
	return out
}

// smallest is the quickest failing workflow among the occurrences: the one
// to reproduce first.
// smallest is the quickest failing workflow of occ, as the mode page shows it.
func smallest(occ []sandtrap.Occurrence) *views.Sample {
	best := filing.Quickest(occ)
	if best == nil {
		return nil
	}
	return &views.Sample{Href: paths.Result(best.RunID, best.ID), Test: best.Test, Run: best.RunID,
		Duration: formatMS(best.DurationMS), Error: filing.FirstLine(redacted(best.Error))}
}

func countBars(m map[string]int, class string) []views.Bar {
	counts := map[string]sandtrap.Counts{}
	for k, n := range m {
		counts[k] = sandtrap.Counts{Total: n, Failed: n}
	}
	var bars []views.Bar
	for _, k := range sandtrap.SortedKeys(counts) {
		bars = append(bars, views.Bar{Label: k, Segments: []views.Segment{{Class: class, Value: m[k], Label: "failures"}}})
	}
	return bars
}

// triageForm lays out the triage choices with the current decision selected.
func triageForm(m sandtrap.Mode, others []sandtrap.Mode) views.TriageForm {
	t := views.TriageForm{Action: paths.Mode(m.ID) + "/triage", Layer: m.Layer, Primitive: m.Primitive,
		Severity: m.Severity, Status: m.Status, Title: m.Title, Owner: m.Owner}
	for _, l := range append(triage.Layers(), sandtrap.LayerUnclassified) {
		t.Layers = append(t.Layers, views.Option{Value: l, Label: l, Selected: l == m.Layer})
	}
	t.Primitives = append(t.Primitives, views.Option{Value: "", Label: "(none)", Selected: m.Primitive == ""})
	for _, l := range triage.Layers() {
		for _, p := range triage.Primitives(l) {
			t.Primitives = append(t.Primitives, views.Option{Value: p, Label: l + " / " + p, Selected: p == m.Primitive})
		}
	}
	for _, s := range triage.Severities() {
		t.Severities = append(t.Severities, views.Option{Value: s, Label: s, Selected: s == m.Severity})
	}
	for _, s := range triage.Statuses() {
		t.Statuses = append(t.Statuses, views.Option{Value: s, Label: s, Selected: s == m.Status})
	}
	seen := map[string]bool{m.ID: true}
	for _, o := range others {
		if seen[o.ID] {
			continue
		}
		seen[o.ID] = true
		t.MergeTargets = append(t.MergeTargets, views.Option{Value: o.ID, Label: views.Truncate(o.Title, 70) + " · " + o.ID})
	}
	sort.Slice(t.MergeTargets, func(i, j int) bool { return t.MergeTargets[i].Label < t.MergeTargets[j].Label })
	return t
}
