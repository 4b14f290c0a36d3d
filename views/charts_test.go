package views

import (
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/a-h/templ"

	"sandtrap"
)

var segWidth = regexp.MustCompile(`<rect class="seg ([a-z-]+)" x="[0-9.]+" y="0" width="([0-9.]+)"`)

// segmentWidths lists "class=width" for every bar segment in order.
func segmentWidths(html string) []string {
	var widths []string
	for _, m := range segWidth.FindAllStringSubmatch(html, -1) {
		widths = append(widths, m[1]+"="+m[2])
	}
	return widths
}

func TestBarChartScale(t *testing.T) {
	bars := []Bar{
		{Label: "file-io", Segments: []Segment{{Class: "st-failed", Value: 30}, {Class: "st-error", Value: 10}}},
		{Label: "shell", Segments: []Segment{{Class: "st-failed", Value: 20}, {Class: "st-error", Value: 0}}},
		{Label: "tiny", Segments: []Segment{{Class: "st-other", Value: 1}}},
	}
	tests := []struct {
		name string
		c    templ.Component
		want []string
	}{
		{"the longest bar fills the width and the others are proportional", BarChart("c", "t", bars, nil),
			[]string{"st-failed=750", "st-error=250", "st-failed=500", "st-other=25"}},
		{"a shared max scales every bar against it", AlignedBarChart("c", "t", bars, nil, 80),
			[]string{"st-failed=375", "st-error=125", "st-failed=250", "st-other=12.5"}},
		{"a count far below the max keeps a visible sliver", BarChart("c", "t", []Bar{
			{Label: "big", Segments: []Segment{{Class: "st-passed", Value: 100000}}},
			{Label: "one", Segments: []Segment{{Class: "st-failed", Value: 1}}},
		}, nil), []string{"st-passed=1000", "st-failed=2"}},
		{"a bar longer than a given max is clipped to the width", AlignedBarChart("c", "t", bars[:1], nil, 20),
			[]string{"st-failed=1000"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := segmentWidths(render(t, tt.c))
			if strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Errorf("segment widths = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestBarChartLinksAndLabels(t *testing.T) {
	got := render(t, BarChart("by-target", "By target", []Bar{{
		Label: "code-interpreter",
		Href:  "/runs/r/failures?target=code-interpreter",
		Segments: []Segment{
			{Class: "st-failed", Value: 12, Label: "failed", Href: "/runs/r/failures?target=code-interpreter&status=failed"},
			{Class: "st-error", Value: 3, Label: "error"},
		},
	}}, []Legend{{Class: "st-failed", Label: "failed"}}))
	tests := []struct {
		name string
		want string
	}{
		{"the chart is named", `aria-label="By target"`},
		{"the label links to the bar's rows", `<a class="bar-label trunc" href="/runs/r/failures?target=code-interpreter" title="code-interpreter">`},
		{"a segment with an href is a link", `<a href="/runs/r/failures?target=code-interpreter&amp;status=failed" tabindex="-1"><rect class="seg st-failed"`},
		{"every segment has a tooltip", `<title>code-interpreter · error: 3</title>`},
		{"the bar is an image with a summary", `role="img" aria-label="code-interpreter: 15 (12 failed, 3 error)"`},
		{"the total is shown", `<span class="bar-total num">15</span>`},
		{"the legend names each colour", `<span class="swatch st-failed" aria-hidden="true"></span>failed`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !strings.Contains(got, tt.want) {
				t.Errorf("chart lacks %q:\n%s", tt.want, got)
			}
		})
	}
}

func TestEmptyCharts(t *testing.T) {
	zero := []Bar{{Label: "a", Segments: []Segment{{Class: "st-failed", Value: 0}}}}
	tests := []struct {
		name string
		c    templ.Component
	}{
		{"a chart without bars", BarChart("c", "t", nil, nil)},
		{"a chart whose bars are all zero", BarChart("c", "t", zero, nil)},
		{"an aligned chart with a zero max", AlignedBarChart("c", "t", zero, nil, 0)},
		{"a heatmap without rows", HeatmapChart(Heatmap{ID: "h", Cols: []string{"x"}})},
		{"a heatmap of zeros", HeatmapChart(Heatmap{ID: "h", Rows: []string{"a"}, Cols: []string{"b"}, Cells: [][]HeatCell{{{Value: 0}}}})},
	}
	for _, tt := range tests {
		t.Run(tt.name+" shows an empty state", func(t *testing.T) {
			got := render(t, tt.c)
			if !strings.Contains(got, "Nothing to chart.") {
				t.Errorf("no empty state in:\n%s", got)
			}
			for _, bad := range []string{"NaN", "Inf", "<svg"} {
				if strings.Contains(got, bad) {
					t.Errorf("empty chart contains %q:\n%s", bad, got)
				}
			}
		})
	}
}

var heatCellLink = regexp.MustCompile(`<a class="cell (heat-\d)" href="([^"]*)"><title>([^<]*)</title>`)

func TestHeatmapCells(t *testing.T) {
	h := Heatmap{
		ID: "domain-primitive", RowTitle: "domain", ColTitle: "primitive",
		Rows: []string{"file-io", "shell"},
		Cols: []string{"encoding", "null-byte"},
		Cells: [][]HeatCell{
			{{Value: 100, Href: "/f?domain=file-io&primitive=encoding", Title: "file-io × encoding: 100 failures"}, {Value: 0, Href: "/never"}},
			{{Value: 1, Href: "/f?domain=shell&primitive=encoding"}},
		},
	}
	got := render(t, HeatmapChart(h))
	var links []string
	for _, m := range heatCellLink.FindAllStringSubmatch(got, -1) {
		links = append(links, m[1]+" "+m[2]+" "+m[3])
	}
	want := []string{
		"heat-5 /f?domain=file-io&amp;primitive=encoding file-io × encoding: 100 failures",
		"heat-1 /f?domain=shell&amp;primitive=encoding shell × encoding: 1",
	}
	if strings.Join(links, "\n") != strings.Join(want, "\n") {
		t.Errorf("cell links =\n%s\nwant\n%s", strings.Join(links, "\n"), strings.Join(want, "\n"))
	}
	tests := []struct {
		name string
		want string
	}{
		{"an empty cell is not a link", `<g class="cell heat-0"><title>file-io × null-byte: 0</title>`},
		{"a missing cell of a ragged row is empty", `<g class="cell heat-0"><title>shell × null-byte: 0</title>`},
		{"a non-empty cell prints its count", `dominant-baseline="central">100</text>`},
		{"column labels carry their full name", `<title>null-byte</title>null-byte</text>`},
		{"the chart is an image with a name", `role="img" aria-label="domain × primitive heatmap, 2 rows by 2 columns, busiest cell 100"`},
		{"the legend spans one to the peak", `<span class="num">100</span></div>`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !strings.Contains(got, tt.want) {
				t.Errorf("heatmap lacks %q:\n%s", tt.want, got)
			}
		})
	}
}

func TestHeatmapFitsHalfAPanel(t *testing.T) {
	h := Heatmap{ID: "h", RowTitle: "domain", ColTitle: "primitive"}
	for range 10 {
		h.Rows = append(h.Rows, "package-install")
	}
	for range 14 {
		h.Cols = append(h.Cols, "filesystem-permissions")
	}
	for range h.Rows {
		row := make([]HeatCell, len(h.Cols))
		row[0].Value = 1
		h.Cells = append(h.Cells, row)
	}
	l := layoutHeatmap(h)
	// A half-width panel at 1366 px leaves about 630 px for the chart.
	if width := l.LabelW + 14*(heatCellW+heatGap); width > 630 {
		t.Errorf("10 × 14 heatmap grid is %v units wide, want at most 630", width)
	}
}

func TestHeatLevel(t *testing.T) {
	tests := []struct {
		name        string
		value, peak int
		want        int
	}{
		{"zero is empty", 0, 10, 0},
		{"a zero peak is empty", 3, 0, 0},
		{"the peak is the hottest", 10, 10, 5},
		{"above the peak stays hottest", 20, 10, 5},
		{"one is the coolest non-empty level", 1, 1000, 1},
		{"the scale is logarithmic", 30, 1000, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := HeatLevel(tt.value, tt.peak); got != tt.want {
				t.Errorf("HeatLevel(%d, %d) = %d, want %d", tt.value, tt.peak, got, tt.want)
			}
		})
	}
}

func TestHeatRange(t *testing.T) {
	tests := []struct {
		name    string
		k, peak int
		want    string
	}{
		{"the coolest level starts at one", 1, 1000, "1–2"},
		{"the hottest level ends at the peak", 5, 1000, "251–1,000"},
		{"a level no count maps to says none", 1, 1, "none"},
		{"a level of a single count shows it", 5, 1, "1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := heatRange(tt.k, tt.peak); got != tt.want {
				t.Errorf("heatRange(%d, %d) = %q, want %q", tt.k, tt.peak, got, tt.want)
			}
		})
	}
}

func TestScale(t *testing.T) {
	tests := []struct {
		name        string
		value, full int
		want        float64
	}{
		{"half the max is half the width", 5, 10, 50},
		{"a zero max gives zero, not NaN", 5, 0, 0},
		{"a negative value gives zero", -1, 10, 0},
		{"a value above the max is clamped", 20, 10, 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Scale(tt.value, tt.full, 100); got != tt.want {
				t.Errorf("Scale(%d, %d, 100) = %v, want %v", tt.value, tt.full, got, tt.want)
			}
		})
	}
}

func TestPassBar(t *testing.T) {
	tests := []struct {
		name string
		c    sandtrap.Counts
		want []string
	}{
		{"the tooltip lists the counts", sandtrap.Counts{Total: 1300, Passed: 1200, Failed: 60, Errored: 30, Skipped: 10},
			[]string{"<title>1,300 results: 1,200 passed, 60 failed, 30 error, 10 skipped</title>", `class="seg st-passed"`, `class="seg st-skipped"`}},
		{"other statuses are listed when there are some", sandtrap.Counts{Total: 4, Passed: 3, Other: 1},
			[]string{"<title>4 results: 3 passed, 0 failed, 0 error, 0 skipped, 1 other</title>", `class="seg st-other" x="750" y="0" width="250"`}},
		{"a run without results says so", sandtrap.Counts{},
			[]string{"<title>No results yet</title>"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := render(t, PassBar(tt.c))
			for _, want := range tt.want {
				if !strings.Contains(got, want) {
					t.Errorf("pass bar lacks %q:\n%s", want, got)
				}
			}
			if strings.Contains(got, "NaN") {
				t.Errorf("pass bar contains NaN:\n%s", got)
			}
		})
	}
}

func TestSparkline(t *testing.T) {
	tests := []struct {
		name   string
		values []float64
		labels []string
		want   []string
		absent []string
	}{
		{"each point gets its label as tooltip", []float64{0.5, 1}, []string{"run-1: 50.0%", "run-2: 100.0%"},
			[]string{`<path class="spark-line" d="M3 21 L117 3">`, "<title>run-1: 50.0%</title>", `class="spark-dot last"`}, nil},
		{"unlabelled points show their value", []float64{3, 1234}, nil,
			[]string{"<title>1,234</title>", `aria-label="Trend of 2 values, from 3 to 1,234"`}, nil},
		{"a flat line sits in the middle", []float64{2, 2}, nil,
			[]string{`d="M3 12 L117 12"`}, []string{"NaN"}},
		{"a missing value breaks the line", []float64{1, math.NaN(), 3}, nil,
			[]string{`d="M3 21 M117 3"`}, []string{"NaN"}},
		{"no values show a dash", nil, nil,
			[]string{`<span class="spark-empty" title="No trend data">—</span>`}, []string{"<svg"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := render(t, Sparkline(tt.values, tt.labels))
			for _, want := range tt.want {
				if !strings.Contains(got, want) {
					t.Errorf("sparkline lacks %q:\n%s", want, got)
				}
			}
			for _, bad := range tt.absent {
				if strings.Contains(got, bad) {
					t.Errorf("sparkline contains %q:\n%s", bad, got)
				}
			}
		})
	}
}

func TestProgressBar(t *testing.T) {
	tests := []struct {
		name          string
		done, planned int
		want          []string
	}{
		{"a planned run fills in proportion", 412, 1000,
			[]string{`<rect class="progress-fill" x="0" y="0" width="41.2"`, `aria-label="412 of 1,000 done (41.2%)"`, `>412 / 1,000</span>`}},
		{"overshooting the plan fills the bar, no more", 1200, 1000,
			[]string{`class="progress-fill" x="0" y="0" width="100"`, `>1,200 / 1,000</span>`}},
		{"an unknown plan only counts", 412, 0,
			[]string{`>412 done</span>`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := render(t, ProgressBar(tt.done, tt.planned))
			for _, want := range tt.want {
				if !strings.Contains(got, want) {
					t.Errorf("progress bar lacks %q:\n%s", want, got)
				}
			}
		})
	}
	t.Run("an unknown plan draws no bar", func(t *testing.T) {
		if got := render(t, ProgressBar(412, 0)); strings.Contains(got, "<svg") {
			t.Errorf("got a bar without a plan:\n%s", got)
		}
	})
}

func TestFormatValue(t *testing.T) {
	tests := []struct {
		v    float64
		want string
	}{
		{1234, "1,234"},
		{0.8812, "0.881"},
		{-2, "-2"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			if got := formatValue(tt.v); got != tt.want {
				t.Errorf("formatValue(%v) = %q, want %q", tt.v, got, tt.want)
			}
		})
	}
}

func TestCompactInt(t *testing.T) {
	tests := []struct {
		n    int
		want string
	}{
		{999, "999"},
		{1000, "1k"},
		{1234, "1.2k"},
		{34567, "34k"},
		{1250000, "1.2M"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			if got := compactInt(tt.n); got != tt.want {
				t.Errorf("compactInt(%d) = %q, want %q", tt.n, got, tt.want)
			}
		})
	}
}
