// Package paths builds the URLs of sandtrap's pages: the scheme that
// scripts, bookmarks, tickets and alerts rely on (docs: design §3). Every
// link sandtrap makes, on a page or in a message, is built here.
package paths

import (
	"net/url"
	"strconv"
	"strings"
	"time"

	"sandtrap"
)

// DefaultLimit is the page size a list shows unless asked; a filter with it
// leaves limit out of its URL.
const DefaultLimit = 50

// Run is a run's overview.
func Run(run string) string { return "/runs/" + url.PathEscape(run) }

// Result is one result of a run.
func Result(run string, id int64) string { return Run(run) + "/results/" + strconv.FormatInt(id, 10) }

// Artifact is one artifact of a result, downloaded.
func Artifact(run string, result, artifact int64) string {
	return Result(run, result) + "/artifacts/" + strconv.FormatInt(artifact, 10)
}

// Targets is a run's targets side by side.
func Targets(run string) string { return Run(run) + "/targets" }

// Mode is a failure mode's page.
func Mode(id string) string { return "/modes/" + url.PathEscape(id) }

// Failures is the failures list of a run filtered by f; empty fields are
// left out so that URLs stay short and stable.
func Failures(run string, f sandtrap.ResultFilter) string { return withQuery(Run(run)+"/failures", f) }

// Modes is the failure-mode queue of a run filtered by f.
func Modes(run string, f sandtrap.ResultFilter) string { return withQuery(Run(run)+"/modes", f) }

// Compare compares head against base; an empty base means the run before
// head.
func Compare(base, head string) string {
	q := url.Values{}
	if base != "" {
		q.Set("base", base)
	}
	q.Set("head", head)
	return "/compare?" + q.Encode()
}

// Stream turns a list's URL into its event stream's: the path gains "/live"
// after page, the query stays, so the stream keeps the filters.
func Stream(pageURL, page string) string {
	path, query, _ := strings.Cut(pageURL, "?")
	path = strings.TrimSuffix(path, page) + page + "/live"
	if query == "" {
		return path
	}
	return path + "?" + query
}

// Absolute makes path a URL under base, the address people reach sandtrap
// at (--public-url), for links that leave the browser: tickets, alerts.
func Absolute(base, path string) string { return strings.TrimSuffix(base, "/") + path }

func withQuery(path string, f sandtrap.ResultFilter) string {
	q := FilterQuery(f)
	if len(q) == 0 {
		return path
	}
	return path + "?" + q.Encode()
}

// FilterQuery is f as URL parameters, without its empty fields.
func FilterQuery(f sandtrap.ResultFilter) url.Values {
	q := url.Values{}
	for _, kv := range [][2]string{
		{"status", f.Status}, {"target", f.Target}, {"domain", f.Domain},
		{"layer", f.Layer}, {"primitive", f.Primitive}, {"mode", f.Mode}, {"q", f.Q},
	} {
		if kv[1] != "" {
			q.Set(kv[0], kv[1])
		}
	}
	if !f.From.IsZero() {
		q.Set("from", f.From.UTC().Format(time.RFC3339))
	}
	if !f.To.IsZero() {
		q.Set("to", f.To.UTC().Format(time.RFC3339))
	}
	if f.Offset > 0 {
		q.Set("offset", strconv.Itoa(f.Offset))
	}
	if f.Limit > 0 && f.Limit != DefaultLimit {
		q.Set("limit", strconv.Itoa(f.Limit))
	}
	return q
}
