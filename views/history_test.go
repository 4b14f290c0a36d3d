package views

import (
	"reflect"
	"strings"
	"testing"

	"github.com/a-h/templ"
)

func TestHistoryChartsEscapeHostileText(t *testing.T) {
	for _, s := range hostile {
		charts := map[string]templ.Component{
			"RunBarsChart": RunBarsChart(RunBars{ID: "spark", Label: s, Caption: s,
				Bars: []RunBar{{Run: s, Value: 2, Href: "/x", Title: s}, {Run: s, Href: "/y", Title: s}}}),
			"TrendChart": TrendChart(TrendBars{Values: []int{0, 3}, Label: s, Title: s}),
		}
		for name, c := range charts {
			t.Run(name+" escapes "+strings.ReplaceAll(s, "\x00", `\0`), func(t *testing.T) {
				got := render(t, c)
				for _, bad := range []string{"<script>alert", "<img", "\x00"} {
					if strings.Contains(got, bad) {
						t.Errorf("output contains %q:\n%s", bad, got)
					}
				}
			})
		}
	}
}

func TestLayoutRunBars(t *testing.T) {
	tests := []struct {
		name   string
		values []int
		width  string
		ys, hs []string
	}{
		{"the busiest run fills the height, a run without any is a flat mark", []int{4, 0, 2}, "28", []string{"0", "39", "20"}, []string{"40", "1", "20"}},
		{"one failure among many stays visible", []int{1, 1000}, "18", []string{"38", "0"}, []string{"2", "40"}},
		{"runs without any are all flat", []int{0, 0}, "18", []string{"39", "39"}, []string{"1", "1"}},
		{"no runs draw nothing", nil, "0", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b RunBars
			for _, v := range tt.values {
				b.Bars = append(b.Bars, RunBar{Value: v})
			}
			width, cols := layoutRunBars(b)
			var ys, hs []string
			for _, c := range cols {
				ys, hs = append(ys, c.Y), append(hs, c.H)
			}
			if width != tt.width || !reflect.DeepEqual(ys, tt.ys) || !reflect.DeepEqual(hs, tt.hs) {
				t.Errorf("got width %s, y %v, heights %v, want %s, %v, %v", width, ys, hs, tt.width, tt.ys, tt.hs)
			}
		})
	}
}

func TestTrendPath(t *testing.T) {
	width, path := trendPath([]int{0, 2, 4})
	if want := "M1.5 16v-1M5.5 16v-8M9.5 16v-16"; width != "11" || path != want {
		t.Errorf("got width %s and path %q, want 11 and %q", width, path, want)
	}
}
