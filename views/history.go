package views

import (
	"strconv"
	"strings"
)

// RunBars is a small column chart of a count in each of the last runs,
// oldest first, each column a link to that run; a run without any shows
// as a flat mark, so gaps read as zero.
type RunBars struct {
	ID      string // data-testid suffix and element id
	Class   string // tone of the columns, e.g. "sev-critical"
	Label   string // the chart's accessible summary
	Caption string // "the last 30 runs: h-00031 → h-00060"
	Bars    []RunBar
}

// RunBar is one run's column.
type RunBar struct {
	Run   string
	Value int
	Href  string
	Title string // "run-7 (2026-07-01 22:00 UTC): 3 failures of 1,000 results"
}

// TrendBars is a compact trend of counts, oldest first, drawn as one path:
// a row of a long list stays a few hundred bytes.
type TrendBars struct {
	Values []int
	Label  string // accessible summary
	Title  string // tooltip
}

// Column chart geometry.
const (
	runBarW     = 8.0
	runBarGap   = 2.0
	runBarsH    = 40.0
	trendBarW   = 3.0
	trendBarGap = 1.0
	trendBarsH  = 16.0
	flatMark    = 1.0 // height of a zero column
)

// runColumn is one column of a RunBars, placed.
type runColumn struct {
	RunBar
	X, Y, W, H string
	Zero       bool
}

// layoutRunBars places each run's column, scaled to the busiest run.
func layoutRunBars(b RunBars) (width string, cols []runColumn) {
	peak := 0
	for _, r := range b.Bars {
		peak = max(peak, r.Value)
	}
	for i, r := range b.Bars {
		h := flatMark
		if r.Value > 0 {
			h = max(minMark, Scale(r.Value, peak, runBarsH))
		}
		cols = append(cols, runColumn{RunBar: r, X: coord(float64(i) * (runBarW + runBarGap)), Y: coord(runBarsH - h),
			W: coord(runBarW), H: coord(h), Zero: r.Value == 0})
	}
	return coord(max(0, float64(len(b.Bars))*(runBarW+runBarGap)-runBarGap)), cols
}

// trendPath draws every count as a vertical stroke in one path, scaled to
// the largest; a zero is a dot on the baseline.
func trendPath(values []int) (width, path string) {
	peak := 0
	for _, v := range values {
		peak = max(peak, v)
	}
	var d strings.Builder
	for i, v := range values {
		h := flatMark
		if v > 0 {
			h = max(minMark, Scale(v, peak, trendBarsH))
		}
		x := float64(i)*(trendBarW+trendBarGap) + trendBarW/2
		d.WriteString("M" + coord(x) + " " + coord(trendBarsH) + "v-" + coord(h))
	}
	return coord(max(0, float64(len(values))*(trendBarW+trendBarGap)-trendBarGap)), d.String()
}

func trendHeight() string { return strconv.Itoa(int(trendBarsH)) }

// ownerTitle says where an owner comes from.
func ownerTitle(routed bool) string {
	if routed {
		return "owner, by the routes"
	}
	return "owner, chosen by a person"
}
