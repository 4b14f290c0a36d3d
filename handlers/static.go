package handlers

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/starfederation/datastar-go/datastar"

	"sandtrap"
	"sandtrap/format"
	"sandtrap/live"
	"sandtrap/paths"
	"sandtrap/views"
)

// assets are the static files' URLs, each carrying a digest of its content
// so that browsers may cache them for good.
type assets struct {
	css, datastar string
	digests       map[string]string
}

// requiredAssets must be present for the pages to work.
var requiredAssets = []string{"app.css", "datastar.js", "keys.js"}

func hashAssets(fsys fs.FS) (assets, error) {
	a := assets{digests: map[string]string{}}
	for _, name := range requiredAssets {
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			if name == "datastar.js" {
				return a, fmt.Errorf("handlers: static/datastar.js is missing: run `make build`, which fetches Datastar v1.0.0 and checks its sha256")
			}
			return a, fmt.Errorf("handlers: static asset %s: %w", name, err)
		}
		sum := sha256.Sum256(b)
		a.digests[name] = hex.EncodeToString(sum[:8])
	}
	a.css = "/static/app.css?v=" + a.digests["app.css"]
	a.datastar = "/static/datastar.js?v=" + a.digests["datastar.js"]
	return a, nil
}

// serveStatic serves GET /static/*. A request that names the current digest
// may be cached for a year.
func (h *Handler) serveStatic(w http.ResponseWriter, r *http.Request) {
	name := path.Clean(strings.TrimPrefix(r.URL.Path, "/static/"))
	if d, ok := h.assets.digests[name]; ok && r.URL.Query().Get("v") == d {
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		w.Header().Set("Cache-Control", "no-cache")
	}
	http.ServeFileFS(w, r, h.static, name)
}

// shell builds the frame of a page: its title, breadcrumb and run picker.
func (h *Handler) shell(ctx context.Context, title, nav string, crumbs []views.Crumb) views.Shell {
	s := views.Shell{Title: title, Nav: nav, Breadcrumbs: crumbs, CSSSrc: h.assets.css, DatastarSrc: h.assets.datastar,
		ModesHref: "/", PickerHref: pickerHref("")}
	recent, err := h.pickerList(ctx, "", "")
	if err != nil {
		return s
	}
	s.Picker = recent
	if len(recent.Runs) > 0 {
		s.ModesHref = paths.Modes(recent.Runs[0].ID, sandtrap.ResultFilter{})
	}
	return s
}

// withRun marks run as the current one in the picker, which lists it
// first when it is not among the recent runs.
func withRun(s views.Shell, run sandtrap.Run) views.Shell {
	p := runPick(run)
	s.CurrentRun = &p
	s.ModesHref = paths.Modes(run.ID, sandtrap.ResultFilter{})
	s.PickerHref = pickerHref(run.ID)
	s.Picker = withCurrent(s.Picker, run)
	return s
}

// withCurrent marks run as current in the picker's list of recent runs,
// and puts it first when it is not among them.
func withCurrent(l views.PickerList, run sandtrap.Run) views.PickerList {
	l.Current = run.ID
	if !slices.ContainsFunc(l.Runs, func(r views.RunPick) bool { return r.ID == run.ID }) {
		l.Runs = append([]views.RunPick{runPick(run)}, l.Runs...)
	}
	return l
}

// Sizes of the run picker's lists.
const (
	pickerRecent  = 10
	pickerMatches = 20
)

// pickerList is what the run picker lists: the most recent runs, or when
// q is set the newest runs it finds, with a way to the runs list for the
// rest. current is marked.
func (h *Handler) pickerList(ctx context.Context, q, current string) (views.PickerList, error) {
	f := sandtrap.RunFilter{Q: q, Limit: pickerRecent}
	if q != "" {
		f.Limit = pickerMatches
	}
	page, err := h.runs.FindRuns(ctx, f)
	if err != nil {
		return views.PickerList{}, err
	}
	l := views.PickerList{Current: current}
	for _, r := range page.Runs {
		l.Runs = append(l.Runs, runPick(r))
	}
	switch {
	case q == "":
		l.Heading, l.Empty = "Recent runs", "No runs yet."
		l.MoreHref, l.MoreText = "/", "All "+format.PluralOf(page.Total, "run", "runs")
	case page.Total == 0:
		l.Empty = "No run matches this search."
		l.MoreHref, l.MoreText = "/", "All runs"
	default:
		l.Heading = format.PluralOf(page.Total, "run matches", "runs match")
		l.MoreHref = runsHref("/", runsQuery{Filter: sandtrap.RunFilter{Q: q}, Per: defaultPer}, 1)
		l.MoreText = "Show them in the runs list"
		if page.Total > len(page.Runs) {
			l.Heading += ", the newest " + strconv.Itoa(len(page.Runs)) + " here"
		}
	}
	return l, nil
}

// pickRuns serves GET /picker: the run picker's list for the search q, as
// a Datastar patch, marking the run named by current; an empty q gives the
// recent runs with the current one. Without Datastar it redirects to the
// runs list with the same search.
func (h *Handler) pickRuns(w http.ResponseWriter, r *http.Request) error {
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	if r.Header.Get("Datastar-Request") != "true" {
		http.Redirect(w, r, runsHref("/", runsQuery{Filter: sandtrap.RunFilter{Q: q}, Per: defaultPer}, 1), http.StatusSeeOther)
		return nil
	}
	current := r.URL.Query().Get("current")
	l, err := h.pickerList(r.Context(), q, current)
	if err != nil {
		return err
	}
	if q == "" && current != "" {
		// Cleared, the search gives back the list the page was shown with.
		if run, err := h.runs.FindRun(r.Context(), current); err == nil {
			l = withCurrent(l, run)
		}
	}
	return live.PatchElements(datastar.NewSSE(w, r), views.PickerResults(l))
}

// pickerHref is where the picker's search fetches from, marking current.
func pickerHref(current string) string {
	if current == "" {
		return "/picker"
	}
	return "/picker?" + url.Values{"current": {current}}.Encode()
}

func runPick(r sandtrap.Run) views.RunPick {
	return views.RunPick{ID: r.ID, Name: r.Name, Href: paths.Run(r.ID), Live: r.Live(), PassRate: views.FormatPct(r.Counts.PassRate())}
}
