package handlers

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"strings"

	"sandtrap"
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
	s := views.Shell{Title: title, Nav: nav, Breadcrumbs: crumbs, CSSSrc: h.assets.css, DatastarSrc: h.assets.datastar, ModesHref: "/"}
	runs, err := h.runs.ListRuns(ctx)
	if err != nil {
		return s
	}
	for i := len(runs) - 1; i >= 0; i-- {
		s.Runs = append(s.Runs, runPick(runs[i]))
	}
	if len(runs) > 0 {
		s.ModesHref = paths.Modes(runs[len(runs)-1].ID, sandtrap.ResultFilter{})
	}
	return s
}

// withRun marks run as the current one in the picker.
func withRun(s views.Shell, run sandtrap.Run) views.Shell {
	p := runPick(run)
	s.CurrentRun = &p
	s.ModesHref = paths.Modes(run.ID, sandtrap.ResultFilter{})
	return s
}

func runPick(r sandtrap.Run) views.RunPick {
	return views.RunPick{ID: r.ID, Name: r.Name, Href: paths.Run(r.ID), Live: r.Live(), PassRate: views.FormatPct(r.Counts.PassRate())}
}
