package handlers

import (
	"fmt"
	"time"

	"sandtrap"
	"sandtrap/format"
	"sandtrap/paths"
	"sandtrap/triage"
	"sandtrap/views"
)

// timelineBars is about how many bars a timeline has at most; longer runs
// get wider intervals.
const timelineBars = 480

// timelineView lays a run's minutes out as bars, with its outage windows.
func timelineView(run string, minutes []triage.Minute, windows []triage.Window) views.Timeline {
	var t views.Timeline
	if len(minutes) == 0 {
		return t
	}
	first, last := minutes[0].Start, minutes[len(minutes)-1].Start
	span := int(last.Sub(first)/time.Minute) + 1
	per := max(1, (span+timelineBars-1)/timelineBars)
	t.Interval = "minute"
	if per > 1 {
		t.Interval = fmt.Sprintf("%d minutes", per)
	}
	t.Bars = make([]views.TimeBar, (span+per-1)/per)
	barOf := func(at time.Time) int { return min(int(at.Sub(first)/time.Minute)/per, len(t.Bars)-1) }
	for _, m := range minutes {
		b := &t.Bars[barOf(m.Start)]
		b.Results += m.Results
		b.Failures += m.Failures
		b.Storm = b.Storm || triage.Stormy(m)
	}
	for i := range t.Bars {
		b := &t.Bars[i]
		from := first.Add(time.Duration(i*per) * time.Minute)
		b.Title = fmt.Sprintf("%s UTC: %s results, %s failed", from.UTC().Format("15:04"), views.FormatInt(b.Results), views.FormatInt(b.Failures))
		t.Max = max(t.Max, b.Results)
	}
	t.StartLabel = format.Time(first)
	t.EndLabel = last.Add(time.Minute).UTC().Format("15:04 UTC")
	for _, w := range windows {
		t.Windows = append(t.Windows, outageView(run, w, barOf(w.Start), barOf(w.End.Add(-time.Minute))))
	}
	return t
}

// outageView describes an outage window and links to its failures.
func outageView(run string, w triage.Window, first, last int) views.Outage {
	return views.Outage{
		First: first, Last: last,
		Text: fmt.Sprintf("%s: %s of %s results failed, across many failure modes at once; they are kept out of the modes",
			timeSpan(w.Start, w.End), views.FormatInt(w.Failures), views.FormatInt(w.Results)),
		Href: paths.Failures(run, sandtrap.ResultFilter{From: w.Start, To: w.End}),
	}
}
