package views

// Timeline is a run's results over time, one bar per interval, with its
// outage windows marked.
type Timeline struct {
	Bars       []TimeBar
	Max        int
	Windows    []Outage
	StartLabel string
	EndLabel   string
	Interval   string // "1 min" per bar
}

// TimeBar is one interval: its results, its failures and its tooltip.
type TimeBar struct {
	Results, Failures int
	Title             string
	Storm             bool
}

// Outage is an outage window: from bar First to bar Last, and where its
// failures are listed.
type Outage struct {
	First, Last int
	Text        string
	Href        string
}

// timelineBarWidth and timelineHeight lay out the timeline's viewBox.
const (
	timelineBarWidth = 4.0
	timelineHeight   = 80.0
)

func timelineWidth(t Timeline) float64 { return float64(len(t.Bars)) * timelineBarWidth }

func barX(i int) string { return coord(float64(i) * timelineBarWidth) }

func barH(n, max int) float64 {
	if max <= 0 {
		return 0
	}
	return float64(n) / float64(max) * (timelineHeight - 2)
}

func barY(n, max int) string { return coord(timelineHeight - barH(n, max)) }

func barHeight(n, max int) string { return coord(barH(n, max)) }

func windowX(o Outage) string { return barX(o.First) }

func windowW(o Outage) string {
	return coord(float64(o.Last-o.First+1) * timelineBarWidth)
}
