package views

import (
	"context"
	"io"
	"math"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/a-h/templ"
)

// render writes c to a string, failing the test on a render error.
func render(t *testing.T, c templ.Component) string {
	t.Helper()
	var b strings.Builder
	if err := c.Render(context.Background(), &b); err != nil {
		t.Fatalf("render: %v", err)
	}
	return b.String()
}

// renderPage renders Page(s) around body.
func renderPage(t *testing.T, s Shell, body templ.Component) string {
	t.Helper()
	var b strings.Builder
	if err := Page(s).Render(templ.WithChildren(context.Background(), body), &b); err != nil {
		t.Fatalf("render page: %v", err)
	}
	return b.String()
}

var hostile = []string{
	`<script>alert(1)</script>`,
	`"><img src=x onerror=alert(1)>`,
	"nul\x00byte",
}

// hostileComponents put a hostile string into every label and tooltip slot.
func hostileComponents(s string) map[string]templ.Component {
	run := RunPick{ID: s, Name: s, Href: "/runs/x", PassRate: s, Live: true}
	return map[string]templ.Component{
		"Trunc":         Trunc(s, 8),
		"StatusBadge":   StatusBadge(s),
		"SeverityBadge": SeverityBadge(s),
		"LayerBadge":    LayerBadge(s),
		"PrimitiveTag":  PrimitiveTag(s),
		"StatCard":      StatCard(s, s, s, "/x", ""),
		"EmptyState":    EmptyState(s, s, "/x"),
		"Panel":         Panel(s, "p"),
		"BarChart": BarChart("c", s, []Bar{{Label: s, Href: "/x", Segments: []Segment{
			{Class: "st-failed", Value: 3, Label: s, Href: "/y"},
			{Class: "st-error", Value: 1, Label: s},
		}}}, []Legend{{Class: "st-failed", Label: s}}),
		"HeatmapChart": HeatmapChart(Heatmap{ID: "h", RowTitle: s, ColTitle: s, Rows: []string{s}, Cols: []string{s, "b"},
			Cells: [][]HeatCell{{{Value: 2, Href: "/x", Title: s}, {Value: 1}}}}),
		"Sparkline":                  Sparkline([]float64{1, 2}, []string{s, s}),
		"PickerResults":              PickerResults(PickerList{Heading: s, Runs: []RunPick{run}, Current: s, MoreHref: "/?q=x", MoreText: s}),
		"PickerResults without runs": PickerResults(PickerList{Empty: s, MoreHref: "/", MoreText: s}),
		"Page": templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
			shell := Shell{Title: s, Nav: "runs", CurrentRun: &run, PickerHref: "/picker?current=" + s,
				Picker:      PickerList{Heading: s, Runs: []RunPick{run}, Current: s, Empty: s, MoreHref: "/?q=x", MoreText: s},
				Breadcrumbs: []Crumb{{Label: s, Href: "/"}, {Label: s}}}
			return Page(shell).Render(templ.WithChildren(ctx, Trunc(s, 80)), w)
		}),
	}
}

func TestHostileText(t *testing.T) {
	for _, s := range hostile {
		for name, c := range hostileComponents(s) {
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

func TestHostileTextStaysVisible(t *testing.T) {
	tests := []struct {
		name string
		c    templ.Component
		want string
	}{
		{"Trunc shows markup as text in its tooltip", Trunc(`<script>alert(1)</script>`, 80), `title="&lt;script&gt;alert(1)&lt;/script&gt;"`},
		{"Trunc shows a NUL as a visible marker and keeps the text after it", Trunc("nul\x00byte", 80), `nul␀byte`},
		{"a badge shows an attribute breakout as text", StatusBadge(`"><img src=x>`), `&#34;&gt;&lt;img src=x&gt;`},
		{"a bar label shows a NUL as a marker in its tooltip", BarChart("c", "t", []Bar{{Label: "a\x00b", Segments: []Segment{{Class: "st-failed", Value: 1}}}}, nil), `title="a␀b"`},
		{"a heatmap's SVG labels show a bidi override as a mark", HeatmapChart(Heatmap{Rows: []string{"r\u202eow"}, Cols: []string{"c\u200bol"}, Cells: [][]HeatCell{{{Value: 1}}}}),
			`r\u202eow</text>`},
		{"a heatmap's SVG tooltips show a zero-width space as a mark", HeatmapChart(Heatmap{Rows: []string{"r\u202eow"}, Cols: []string{"c\u200bol"}, Cells: [][]HeatCell{{{Value: 1}}}}),
			`<title>c\u200bol</title>`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := render(t, tt.c); !strings.Contains(got, tt.want) {
				t.Errorf("output lacks %q:\n%s", tt.want, got)
			}
		})
	}
}

func TestNoInlineStyleOrScript(t *testing.T) {
	inlineScript := regexp.MustCompile(`<script[^>]*>[^<]+</script>`)
	for name, c := range hostileComponents("x") {
		t.Run(name+" has no inline style or script", func(t *testing.T) {
			got := render(t, c)
			for _, bad := range []string{" style=", "<style"} {
				if strings.Contains(got, bad) {
					t.Errorf("output contains %q:\n%s", bad, got)
				}
			}
			if m := inlineScript.FindString(got); m != "" {
				t.Errorf("output has inline script %q", m)
			}
		})
	}
}

func TestPage(t *testing.T) {
	live := RunPick{ID: "r/1", Name: "overnight", Href: "/runs/r%2F1", Live: true, PassRate: "88.1%"}
	other := RunPick{ID: "r2", Name: "nightly", Href: "/runs/r2", PassRate: "90.0%"}
	shell := Shell{
		Title:       "Failures",
		Nav:         "modes",
		CurrentRun:  &live,
		ModesHref:   "/runs/r%2F1/modes",
		Picker:      PickerList{Heading: "Recent runs", Runs: []RunPick{live, other}, Current: "r/1", MoreHref: "/", MoreText: "All 2 runs"},
		PickerHref:  "/picker?current=r%2F1",
		Breadcrumbs: []Crumb{{Label: "Runs", Href: "/"}, {Label: "overnight", Href: "/runs/r%2F1"}, {Label: "failures"}},
		DatastarSrc: "/static/datastar.abc.js",
		CSSSrc:      "/static/app.abc.css",
	}
	page := renderPage(t, shell, templ.Raw(`<p id="child">hello</p>`))
	bare := renderPage(t, Shell{Title: "Runs", Nav: "runs", ModesHref: "/", PickerHref: "/picker",
		Picker: PickerList{Heading: "Recent runs", Empty: "No runs yet.", MoreHref: "/", MoreText: "All 0 runs"}}, templ.Raw(""))

	tests := []struct {
		name string
		got  string
		want string
	}{
		{"it starts with a doctype", page, "<!doctype html>"},
		{"the title names the page and the product", page, "<title>Failures · sandtrap</title>"},
		{"the stylesheet comes from CSSSrc", page, `<link rel="stylesheet" href="/static/app.abc.css">`},
		{"Datastar loads as a module from DatastarSrc", page, `<script type="module" src="/static/datastar.abc.js"></script>`},
		{"keys.js loads as a module", page, `<script type="module" src="/static/keys.js"></script>`},
		{"the brand links home", page, `<a class="brand" href="/">`},
		{"the active section is marked", page, `<a href="/runs/r%2F1/modes" data-nav="modes" aria-current="page">Modes</a>`},
		{"other sections are plain links", page, `<a href="/compare" data-nav="compare">Compare</a>`},
		{"the modes link goes where the handler says", bare, `<a href="/" data-nav="modes">Modes</a>`},
		{"the runs link is active on the runs list", bare, `<a href="/" data-nav="runs" aria-current="page">Runs</a>`},
		{"the picker marks the current run", page, `<a href="/runs/r%2F1" data-testid="picker-run" class="current" aria-current="true">`},
		{"the picker lists other runs", page, `<a href="/runs/r2" data-testid="picker-run">`},
		{"the picker shows pass rates", page, `88.1%`},
		{"the picker shows a live dot", page, `class="live-dot"`},
		{"the picker has no run to show without one", bare, `Choose a run`},
		{"the picker says so when there are no runs", bare, `<p class="menu-empty" data-testid="picker-empty">No runs yet.</p>`},
		{"the picker heads its list", page, `<p class="menu-heading" data-testid="picker-heading">Recent runs</p>`},
		{"the picker's search is a GET form to the runs list", page, `<form class="picker-search" method="get" action="/" role="search" data-testid="picker-form">`},
		{"the picker's search is labelled and names the list it fills", page, `aria-label="Find a run by id, name or notes" aria-controls="picker-results"`},
		{"the picker's search fetches matches as one types", page, `data-on:input__debounce.250ms="@get($_picker, {contentType: 'form'})"`},
		{"the picker's search URL comes from a signal", page, `data-signals="{&#34;_picker&#34;:&#34;/picker?current=r%2F1&#34;}"`},
		{"the picker closes on Escape", page, `data-on:keydown="evt.key === 'Escape' && el.open`},
		{"the picker links to every run", page, `<a class="menu-footer" href="/" data-testid="picker-more">All 2 runs</a>`},
		{"the breadcrumb is labelled", page, `<nav class="breadcrumb" aria-label="Breadcrumb" data-testid="breadcrumb">`},
		{"earlier crumbs link", page, `<a class="trunc" href="/runs/r%2F1" title="overnight">overnight</a>`},
		{"the last crumb is current plain text", page, `<span class="trunc" aria-current="page" title="failures">failures</span>`},
		{"crumbs are separated", page, `<span class="sep" aria-hidden="true">›</span>`},
		{"main wraps the children", page, `<main id="main" class="page" data-testid="main"><p id="child">hello</p></main>`},
		{"the top bar has a test hook", page, `data-testid="topbar"`},
		{"the run picker has a test hook", page, `data-testid="run-picker"`},
		{"the shortcuts dialog lists g m", page, `<kbd>g</kbd> <kbd>m</kbd>`},
		{"the shortcuts dialog closes without script", page, `<form method="dialog">`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !strings.Contains(tt.got, tt.want) {
				t.Errorf("page lacks %q", tt.want)
			}
		})
	}
	t.Run("a page without crumbs has no breadcrumb", func(t *testing.T) {
		if strings.Contains(bare, "breadcrumb") {
			t.Errorf("got a breadcrumb in a page without crumbs")
		}
	})
}

func TestComponents(t *testing.T) {
	tests := []struct {
		name string
		c    templ.Component
		want []string
	}{
		{"a stat card with a link links its value", StatCard("Failure modes", "37", "4 new", "/runs/r/modes", "sev-critical"),
			[]string{`class="stat sev-critical" data-testid="stat-failure-modes"`, `<a href="/runs/r/modes">37</a>`, `<div class="stat-sub">4 new</div>`}},
		{"a stat card without a link shows plain text", StatCard("Passed %", "88.1%", "", "", ""),
			[]string{`data-testid="stat-passed"`, `<div class="stat-value num">88.1%</div>`}},
		{"a panel is labelled by its title", Panel("By layer", "by-layer"),
			[]string{`<section class="panel" id="by-layer" aria-labelledby="by-layer-title">`, `<h2 id="by-layer-title">By layer</h2>`}},
		{"a panel with actions shows them in its header", PanelWithActions("Runs", "runs", CopyLink()),
			[]string{`<div class="panel-actions"><button`}},
		{"a known status gets its colour and glyph", StatusBadge("failed"),
			[]string{`class="badge st-failed"`, `✗</span> failed`}},
		{"an unknown status keeps its text with the other look", StatusBadge("timeout"),
			[]string{`class="badge st-other"`, `timeout`}},
		{"a severity gets its colour and shape", SeverityBadge("critical"),
			[]string{`class="badge sev-critical"`, `◆</span> critical`}},
		{"a layer gets its colour and glyph", LayerBadge("sandbox"),
			[]string{`class="badge ly-sandbox"`, `sandbox`}},
		{"a primitive is a tag", PrimitiveTag("null-byte"),
			[]string{`class="tag prim"`, `null-byte`}},
		{"an empty state offers its way out", EmptyState("No failures match these filters.", "Clear filters", "/runs/r/failures"),
			[]string{`<p>No failures match these filters.</p>`, `<a class="btn" href="/runs/r/failures">Clear filters</a>`}},
		{"a truncated text carries the full text as tooltip", Trunc("file-io/png-roundtrip", 8),
			[]string{`<span class="trunc" title="file-io/png-roundtrip">file-io…</span>`}},
		{"copy link uses a constant expression and a local signal", CopyLink(),
			[]string{`data-on:click="navigator.clipboard?.writeText(window.location.href)`, `data-signals="{_copied: false}"`, `>Copy link</span>`}},
		{"a number gets separators", Num(1234567),
			[]string{`<span class="num">1,234,567</span>`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := render(t, tt.c)
			for _, want := range tt.want {
				if !strings.Contains(got, want) {
					t.Errorf("output lacks %q:\n%s", want, got)
				}
			}
		})
	}
}

func TestFormatInt(t *testing.T) {
	tests := []struct {
		n    int
		want string
	}{
		{0, "0"},
		{999, "999"},
		{1000, "1,000"},
		{-1000, "-1,000"},
		{-999, "-999"},
		{123456, "123,456"},
		{1e6, "1,000,000"},
		{-1234567, "-1,234,567"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			if got := FormatInt(tt.n); got != tt.want {
				t.Errorf("FormatInt(%d) = %q, want %q", tt.n, got, tt.want)
			}
		})
	}
}

func TestFormatPct(t *testing.T) {
	tests := []struct {
		name string
		f    float64
		want string
	}{
		{"a fraction gets one decimal", 0.8812, "88.1%"},
		{"zero", 0, "0.0%"},
		{"one is a hundred percent", 1, "100.0%"},
		{"rounding goes half up", 0.99951, "100.0%"},
		{"a tiny negative is not negative zero", -0.00001, "0.0%"},
		{"NaN reads as a dash", math.NaN(), "—"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := FormatPct(tt.f); got != tt.want {
				t.Errorf("FormatPct(%v) = %q, want %q", tt.f, got, tt.want)
			}
		})
	}
}

func TestFormatDuration(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{0, "0s"},
		{-time.Second, "0s"},
		{850 * time.Millisecond, "850ms"},
		{42 * time.Second, "42s"},
		{3*time.Minute + 5*time.Second, "3m 5s"},
		{3 * time.Minute, "3m"},
		{7*time.Hour + 12*time.Minute + 30*time.Second, "7h 12m"},
		{51 * time.Hour, "2d 3h"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			if got := FormatDuration(tt.d); got != tt.want {
				t.Errorf("FormatDuration(%v) = %q, want %q", tt.d, got, tt.want)
			}
		})
	}
}

func TestTruncate(t *testing.T) {
	tests := []struct {
		name  string
		s     string
		limit int
		want  string
	}{
		{"short text stays whole", "file-io", 10, "file-io"},
		{"text at the limit stays whole", "file-io", 7, "file-io"},
		{"long text is cut with an ellipsis within the limit", "file-io/png", 8, "file-io…"},
		{"multibyte runes are never split", "日本語のテキスト", 4, "日本語…"},
		{"emoji count as one rune", "🙂🙂🙂🙂", 3, "🙂🙂…"},
		{"a limit of one leaves the ellipsis", "abc", 1, "…"},
		{"a limit below one gives nothing", "abc", 0, ""},
		{"a NUL is kept, not cut at", "a\x00bcdef", 4, "a\x00b…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Truncate(tt.s, tt.limit); got != tt.want {
				t.Errorf("Truncate(%q, %d) = %q, want %q", tt.s, tt.limit, got, tt.want)
			}
		})
	}
}

func TestClip(t *testing.T) {
	tests := []struct {
		name  string
		s     string
		limit int
		want  string
	}{
		{"plain text is unchanged", "file-io/png", 20, "file-io/png"},
		{"a NUL becomes a visible marker", "a\x00b", 20, "a␀b"},
		{"a bidi override becomes its code point", "a\u202eb", 20, `a\u202eb`},
		{"marks count toward the limit", "abc\u200bdefgh", 8, `abc\u20…`},
		{"a long text is cut before it is marked", strings.Repeat("\x00", 1000), 3, "␀␀…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := clip(tt.s, tt.limit); got != tt.want {
				t.Errorf("clip(%q, %d) = %q, want %q", tt.s, tt.limit, got, tt.want)
			}
		})
	}
}

func TestFormInputKeepsTheValueExactWithoutRawHiddenCharacters(t *testing.T) {
	tests := []struct {
		name  string
		value string
		want  string
	}{
		{"a plain value is escaped as templ would", `a&b"<c>'`, `value="a&amp;b&#34;&lt;c&gt;&#39;"`},
		{"hidden characters become character references", "x\u202ey\u200b\ufeff\r", `value="x&#x202e;y&#x200b;&#xfeff;&#xd;"`},
		{"a NUL and an invalid byte become U+FFFD, as a parser would make them", "a\x00b\xff", `value="a&#xfffd;b&#xfffd;"`},
		{"newlines and tabs stay as they are", "a\nb\tc", "value=\"a\nb\tc\""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := render(t, formInput(templ.Attributes{"type": "hidden", "name": "target"}, tt.value))
			if want := `<input name="target" type="hidden" ` + tt.want + `>`; got != want {
				t.Errorf("got %s, want %s", got, want)
			}
		})
	}
}

func TestSlug(t *testing.T) {
	tests := []struct {
		label string
		want  string
	}{
		{"Total", "total"},
		{"Passed %", "passed"},
		{"Failure modes", "failure-modes"},
		{"  Critical  modes ", "critical-modes"},
	}
	for _, tt := range tests {
		t.Run(tt.label, func(t *testing.T) {
			if got := slug(tt.label); got != tt.want {
				t.Errorf("slug(%q) = %q, want %q", tt.label, got, tt.want)
			}
		})
	}
}

func TestFacetTitleShowsTheWholeLabelAndTheValue(t *testing.T) {
	tests := []struct {
		name, label, value, want string
	}{
		{"a value that is its own label", "browser", "browser", "browser"},
		{"a mode shows its title and its id", "Browser tab crashed: Target crashed (memory)", "m-939238a4406b", "Browser tab crashed: Target crashed (memory) (m-939238a4406b)"},
		{"a value without a label", "", "timeout", "timeout"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := facetTitle(tt.label, tt.value); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
