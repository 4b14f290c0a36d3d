package handlers

import (
	"net/url"
	"strconv"
	"strings"
	"time"

	"sandtrap/store"
)

// The URL scheme scripts and bookmarks rely on (docs: design §3).

func runHref(run string) string { return "/runs/" + url.PathEscape(run) }

func resultHref(run string, id int64) string {
	return runHref(run) + "/results/" + strconv.FormatInt(id, 10)
}

// failuresHref is the failures list of run filtered by f; empty fields are
// left out so that URLs stay short and stable.
func failuresHref(run string, f store.ResultFilter) string {
	q := filterQuery(f)
	if len(q) == 0 {
		return runHref(run) + "/failures"
	}
	return runHref(run) + "/failures?" + q.Encode()
}

func filterQuery(f store.ResultFilter) url.Values {
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
	if f.Limit > 0 && f.Limit != defaultLimit {
		q.Set("limit", strconv.Itoa(f.Limit))
	}
	return q
}

// emptyFilter is every failure of a run.
var emptyFilter = store.ResultFilter{}

// streamHref turns a list's URL into its event stream's: the path gains
// "/live" after page, the query stays, so the stream keeps the filters.
func streamHref(pageURL, page string) string {
	path, query, _ := strings.Cut(pageURL, "?")
	path = strings.TrimSuffix(path, page) + page + "/live"
	if query == "" {
		return path
	}
	return path + "?" + query
}
