package views

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"sandtrap"
	"sandtrap/format"
	"sandtrap/logview"
)

// FormatInt writes n with thousands separators: 1234567 → "1,234,567".
func FormatInt(n int) string { return format.Int(n) }

// FormatPct writes a fraction as a percentage with one decimal: 0.8812 →
// "88.1%". A fraction that is not a number is shown as a dash.
func FormatPct(f float64) string { return format.Percent(f) }

// FormatDuration writes d in its two largest units: "2d 3h", "7h 12m",
// "3m 5s", "42s", "850ms". Zero and negative durations read "0s".
func FormatDuration(d time.Duration) string {
	switch {
	case d <= 0:
		return "0s"
	case d < time.Second:
		return strconv.FormatInt(d.Milliseconds(), 10) + "ms"
	case d < time.Minute:
		return strconv.Itoa(int(d/time.Second)) + "s"
	case d < time.Hour:
		return twoUnits(d, time.Minute, "m", time.Second, "s")
	case d < 24*time.Hour:
		return twoUnits(d, time.Hour, "h", time.Minute, "m")
	default:
		return twoUnits(d, 24*time.Hour, "d", time.Hour, "h")
	}
}

// twoUnits writes d as whole big units and the whole small units left over,
// dropping the small part when it is zero.
func twoUnits(d, big time.Duration, bigName string, small time.Duration, smallName string) string {
	s := strconv.Itoa(int(d/big)) + bigName
	if rest := (d % big) / small; rest > 0 {
		s += " " + strconv.Itoa(int(rest)) + smallName
	}
	return s
}

// Truncate shortens s to at most limit runes, the last of them "…" when s
// was cut. It never splits a multibyte rune; a limit below 1 gives "".
func Truncate(s string, limit int) string {
	if limit < 1 {
		return ""
	}
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	runes := 0
	for i := range s {
		if runes == limit-1 {
			return s[:i] + "…"
		}
		runes++
	}
	return s
}

// maxTooltip caps tooltip text, so a megabyte-long hostile label cannot
// bloat every page that names it.
const maxTooltip = 2000

// clip is campaign text made visible (logview.Visible) and cut to at most
// limit runes. Cutting first spares the work on a huge string; a mark is
// longer than the character it stands for, so the result is cut again.
func clip(s string, limit int) string {
	return Truncate(logview.Visible(Truncate(s, limit)), limit)
}

// tooltip is the text of a title attribute or SVG <title> for s.
func tooltip(s string) string {
	return clip(s, maxTooltip)
}

// facetTitle is a facet value's tooltip: its whole label, which the list
// cuts, and the value itself when that differs, as a mode's id does.
func facetTitle(label, value string) string {
	if label == value || label == "" {
		return value
	}
	return label + " (" + value + ")"
}

// slug turns a label into a lowercase, dash-separated identifier for
// data-testid hooks: "Failure modes" → "failure-modes", "Passed %" → "passed".
func slug(label string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(label) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
			continue
		}
		dash = true
	}
	return b.String()
}

// isCurrentRun reports whether r is the run the page is about.
func isCurrentRun(l PickerList, r RunPick) bool {
	return l.Current != "" && l.Current == r.ID
}

// Chart geometry. SVG user units match CSS pixels at natural size; the
// stylesheet lets charts shrink to fit their panel.
const (
	barScale    = 1000.0 // width of the bar area in a bar's viewBox
	minMark     = 2.0    // narrowest drawn mark, so a count of 1 stays visible
	glyphWidth  = 6.2    // average advance of an 11 px label glyph
	heatCellW   = 32.0
	heatCellH   = 22.0
	heatGap     = 2.0
	heatRowMax  = 20 // runes of a row label before it is abbreviated
	heatColMax  = 14 // runes of a rotated column label
	sparkWidth  = 120.0
	sparkHeight = 24.0
	sparkPad    = 3.0
)

// coord writes a chart coordinate with at most two decimals.
func coord(f float64) string {
	return strconv.FormatFloat(math.Round(f*100)/100, 'f', -1, 64)
}

// Scale maps value onto [0, width] where full fills the width. It returns 0
// for a zero or negative full instead of dividing by zero, and clamps values
// outside [0, full].
func Scale(value, full int, width float64) float64 {
	if full <= 0 || value <= 0 {
		return 0
	}
	if value >= full {
		return width
	}
	return float64(value) / float64(full) * width
}

// HeatLevel buckets value into the heat classes 0..5 up to peak: 0 is an
// empty cell, 5 the busiest ones. The scale is logarithmic, because failure
// counts span orders of magnitude and one hot cell must not wash out the rest.
func HeatLevel(value, peak int) int {
	if value <= 0 || peak <= 0 {
		return 0
	}
	if value >= peak {
		return 5
	}
	level := int(math.Ceil(5 * math.Log1p(float64(value)) / math.Log1p(float64(peak))))
	return min(max(level, 1), 5)
}

// barTotal is the length of a bar: the sum of its segments.
func barTotal(b Bar) int {
	total := 0
	for _, s := range b.Segments {
		total += max(s.Value, 0)
	}
	return total
}

// barsMax is the longest bar, which sets the chart's shared scale.
func barsMax(bars []Bar) int {
	longest := 0
	for _, b := range bars {
		longest = max(longest, barTotal(b))
	}
	return longest
}

// segmentBox is a segment placed on its bar.
type segmentBox struct {
	Segment
	X, W string
}

// layoutSegments places a bar's segments end to end on a scale where full
// spans barScale units.
func layoutSegments(segments []Segment, full int) []segmentBox {
	boxes := make([]segmentBox, 0, len(segments))
	x := 0.0
	for _, s := range segments {
		if s.Value <= 0 || x >= barScale {
			continue
		}
		w := min(math.Max(Scale(s.Value, full, barScale), minMark), barScale-x)
		boxes = append(boxes, segmentBox{Segment: s, X: coord(x), W: coord(w)})
		x += w
	}
	return boxes
}

// segmentName is how a segment is named in tooltips and labels.
func segmentName(s Segment) string {
	if s.Label != "" {
		return s.Label
	}
	_, name, _ := strings.Cut(s.Class, "-") // "sev-high" → "high"
	return name
}

// segmentTitle is the tooltip of one segment: "file-io · failed: 12".
func segmentTitle(b Bar, s Segment) string {
	return tooltip(b.Label + " · " + segmentName(s) + ": " + FormatInt(s.Value))
}

// barSummary describes a whole bar for screen readers and its tooltip:
// "file-io: 15 (12 failed, 3 error)".
func barSummary(b Bar) string {
	parts := make([]string, 0, len(b.Segments))
	for _, s := range b.Segments {
		if s.Value > 0 {
			parts = append(parts, FormatInt(s.Value)+" "+segmentName(s))
		}
	}
	summary := b.Label + ": " + FormatInt(barTotal(b))
	if len(parts) > 0 {
		summary += " (" + strings.Join(parts, ", ") + ")"
	}
	return tooltip(summary)
}

// passSegments are the status parts of a PassBar, scaled to the run's own
// total so every row's bar is full width.
func passSegments(c sandtrap.Counts) []segmentBox {
	return layoutSegments([]Segment{
		{Class: "st-passed", Value: c.Passed, Label: "passed"},
		{Class: "st-failed", Value: c.Failed, Label: "failed"},
		{Class: "st-error", Value: c.Errored, Label: "error"},
		{Class: "st-skipped", Value: c.Skipped, Label: "skipped"},
		{Class: "st-other", Value: c.Other, Label: "other"},
	}, c.Passed+c.Failed+c.Errored+c.Skipped+c.Other)
}

// passTitle lists a run's counts: "1,234 results: 1,200 passed, 30 failed,
// 4 error, 0 skipped"; "other" appears only when there is some.
func passTitle(c sandtrap.Counts) string {
	if c.Total == 0 {
		return "No results yet"
	}
	s := FormatInt(c.Total) + " results: " +
		FormatInt(c.Passed) + " passed, " +
		FormatInt(c.Failed) + " failed, " +
		FormatInt(c.Errored) + " error, " +
		FormatInt(c.Skipped) + " skipped"
	if c.Other > 0 {
		s += ", " + FormatInt(c.Other) + " other"
	}
	return s
}

// progress describes a live run's progress; planned ≤ 0 means unknown.
type progress struct {
	Known bool
	Width string // of the filled part, in a 100-unit viewBox
	Text  string // "412 / 1,000"
	Label string // "412 of 1,000 done (41.2%)"
}

func progressOf(done, planned int) progress {
	if planned <= 0 {
		return progress{Text: FormatInt(done) + " done", Label: FormatInt(done) + " done, total unknown"}
	}
	return progress{
		Known: true,
		Width: coord(Scale(done, planned, 100)),
		Text:  FormatInt(done) + " / " + FormatInt(planned),
		Label: FormatInt(done) + " of " + FormatInt(planned) + " done (" + FormatPct(float64(done)/float64(planned)) + ")",
	}
}

// heatLayout is the geometry of a heatmap, sized to its labels. Labels are
// abbreviated; their tips carry the full text.
type heatLayout struct {
	Width, Height  string
	LabelW, HeadH  float64
	Peak           int // count that gets the darkest cell
	Rows, Cols     []string
	RowTip, ColTip []string
	Axes           [2]string // corner captions: columns →, rows ↓
}

func layoutHeatmap(h Heatmap) heatLayout {
	l := heatLayout{Peak: h.Max}
	if l.Peak <= 0 {
		for _, row := range h.Cells {
			for _, c := range row {
				l.Peak = max(l.Peak, c.Value)
			}
		}
	}
	rowRunes, colRunes := 0, 0
	for _, r := range h.Rows {
		label := clip(r, heatRowMax)
		l.Rows, l.RowTip = append(l.Rows, label), append(l.RowTip, tooltip(r))
		rowRunes = max(rowRunes, utf8.RuneCountInString(label))
	}
	for _, c := range h.Cols {
		label := clip(c, heatColMax)
		l.Cols, l.ColTip = append(l.Cols, label), append(l.ColTip, tooltip(c))
		colRunes = max(colRunes, utf8.RuneCountInString(label))
	}
	l.LabelW = math.Ceil(float64(max(rowRunes, 8))*glyphWidth) + 10
	rise := float64(colRunes) * glyphWidth * math.Sqrt2 / 2 // a label at 45° climbs as far as it leans right
	l.HeadH = math.Ceil(math.Max(rise+10, 36))
	fit := int((l.LabelW - 10) / glyphWidth)
	l.Axes = [2]string{axisCaption(h.ColTitle, fit, "→"), axisCaption(h.RowTitle, fit, "↓")}
	right := math.Max(rise-heatCellW/2, 0) + 4
	l.Width = coord(l.LabelW + float64(len(h.Cols))*(heatCellW+heatGap) + right)
	l.Height = coord(l.HeadH + float64(len(h.Rows))*(heatCellH+heatGap))
	return l
}

// axisCaption abbreviates an axis title to fit runes and points it along its
// axis: "primitive →".
func axisCaption(title string, fit int, arrow string) string {
	if title == "" {
		return ""
	}
	return clip(title, fit-2) + " " + arrow
}

// cellX and cellY are the top-left corner of cell (row, col).
func (l heatLayout) cellX(col int) float64 { return l.LabelW + float64(col)*(heatCellW+heatGap) }
func (l heatLayout) cellY(row int) float64 { return l.HeadH + float64(row)*(heatCellH+heatGap) }

// heatCell returns cell (row, col), or an empty cell where Cells is ragged.
func heatCell(h Heatmap, row, col int) HeatCell {
	if row < len(h.Cells) && col < len(h.Cells[row]) {
		return h.Cells[row][col]
	}
	return HeatCell{}
}

// heatTitle is a cell's tooltip: its own Title, or "row × col: n".
func heatTitle(h Heatmap, row, col int, c HeatCell) string {
	if c.Title != "" {
		return tooltip(c.Title)
	}
	return tooltip(h.Rows[row] + " × " + h.Cols[col] + ": " + FormatInt(c.Value))
}

// compactInt fits a count into a heatmap cell: 999, 1.2k, 34k, 1.2M.
func compactInt(n int) string {
	switch {
	case n < 1000:
		return strconv.Itoa(n)
	case n < 10_000:
		return strconv.FormatFloat(math.Floor(float64(n)/100)/10, 'f', -1, 64) + "k"
	case n < 1_000_000:
		return strconv.Itoa(n/1000) + "k"
	default:
		return strconv.FormatFloat(math.Floor(float64(n)/100_000)/10, 'f', -1, 64) + "M"
	}
}

// sparkPoint is one value of a sparkline placed in its viewBox.
type sparkPoint struct {
	X, Y  string
	Title string
	Last  bool
}

// layoutSparkline scales values into the sparkline's box, lowest at the
// bottom. It returns the line's path and its points; values that are not
// finite numbers leave a gap.
func layoutSparkline(values []float64, labels []string) (string, []sparkPoint) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range values {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if lo > hi {
		return "", nil
	}
	step := 0.0
	if len(values) > 1 {
		step = (sparkWidth - 2*sparkPad) / float64(len(values)-1)
	}
	var path strings.Builder
	points := make([]sparkPoint, 0, len(values))
	pen := "M"
	for i, v := range values {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			pen = "M"
			continue
		}
		x := sparkPad + float64(i)*step
		if len(values) == 1 {
			x = sparkWidth / 2
		}
		y := sparkHeight / 2
		if hi > lo {
			y = sparkHeight - sparkPad - (v-lo)/(hi-lo)*(sparkHeight-2*sparkPad)
		}
		path.WriteString(pen + coord(x) + " " + coord(y) + " ")
		pen = "L"
		title := formatValue(v)
		if i < len(labels) && labels[i] != "" {
			title = tooltip(labels[i])
		}
		points = append(points, sparkPoint{X: coord(x), Y: coord(y), Title: title, Last: i == len(values)-1})
	}
	return strings.TrimSpace(path.String()), points
}

// sparkSummary describes a trend for screen readers: "Trend of 8 values,
// from 0.81 to 0.88".
func sparkSummary(values []float64) string {
	var finite []float64
	for _, v := range values {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			finite = append(finite, v)
		}
	}
	if len(finite) == 0 {
		return "No trend data"
	}
	return "Trend of " + strconv.Itoa(len(finite)) + " values, from " +
		formatValue(finite[0]) + " to " + formatValue(finite[len(finite)-1])
}

// formatValue writes a chart value: whole numbers with separators, others
// with up to three decimals.
func formatValue(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return FormatInt(int(v))
	}
	return strconv.FormatFloat(math.Round(v*1000)/1000, 'f', -1, 64)
}

// look is how a badge shows a value: its colour class and a glyph, so the
// meaning never rests on colour alone.
type look struct {
	Class string
	Glyph string
}

var (
	statusLooks = map[string]look{
		sandtrap.StatusPassed:  {"st-passed", "✓"},
		sandtrap.StatusFailed:  {"st-failed", "✗"},
		sandtrap.StatusError:   {"st-error", "!"},
		sandtrap.StatusSkipped: {"st-skipped", "⊘"},
	}
	severityLooks = map[string]look{
		sandtrap.SeverityCritical: {"sev-critical", "◆"},
		sandtrap.SeverityHigh:     {"sev-high", "▲"},
		sandtrap.SeverityMedium:   {"sev-medium", "■"},
		sandtrap.SeverityLow:      {"sev-low", "▽"},
	}
	layerLooks = map[string]look{
		sandtrap.LayerInterface:    {"ly-interface", "⇄"},
		sandtrap.LayerSandbox:      {"ly-sandbox", "▣"},
		sandtrap.LayerTest:         {"ly-test", "✎"},
		sandtrap.LayerUnclassified: {"ly-unclassified", "?"},
	}
)

// lookOf finds value's look, falling back for values outside the vocabulary.
func lookOf(looks map[string]look, value string, fallback look) look {
	if l, ok := looks[value]; ok {
		return l
	}
	return fallback
}

// heatClass is the CSS class of a cell's intensity: "heat-0" … "heat-5".
func heatClass(value, peak int) string {
	return "heat-" + strconv.Itoa(HeatLevel(value, peak))
}

// heatRange is the span of counts that heat level k covers, for the
// legend's tooltips: "1–4", "5", or "none" when no count maps to k.
func heatRange(k, peak int) string {
	lo, hi := heatTop(k-1, peak)+1, heatTop(k, peak)
	switch {
	case lo > hi:
		return "none"
	case lo == hi:
		return FormatInt(lo)
	default:
		return FormatInt(lo) + "–" + FormatInt(hi)
	}
}

// heatTop is the largest count in [0, peak] whose heat level is at most k.
func heatTop(k, peak int) int {
	return sort.Search(peak+1, func(v int) bool { return HeatLevel(v, peak) > k }) - 1
}

// heatSummary is the heatmap's accessible name: "domain × primitive: 37
// failures at most in one cell".
func heatSummary(h Heatmap, peak int) string {
	return tooltip(h.RowTitle + " × " + h.ColTitle + " heatmap, " +
		strconv.Itoa(len(h.Rows)) + " rows by " + strconv.Itoa(len(h.Cols)) +
		" columns, busiest cell " + FormatInt(peak))
}
