package handlers

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"sandtrap/ingest"
	"sandtrap/static"
)

// ingestServer serves the routes with ingest into a new file that has a
// live run "live" and a finished run "done", configured further by opts.
func ingestServer(t *testing.T, opts ...func(*Config)) string {
	t.Helper()
	ctx := context.Background()
	in, err := ingest.Open(ctx, filepath.Join(t.TempDir(), "ingest.db"))
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"live", "done"} {
		if _, _, err := in.StartRun(ctx, ingest.Run{ID: id, Name: id}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := in.Finish(ctx, "done", nil); err != nil {
		t.Fatal(err)
	}
	cfg := Config{Ingest: in, Static: static.FS}
	for _, o := range opts {
		o(&cfg)
	}
	h, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h.Routes())
	t.Cleanup(func() { srv.Close(); in.Close() })
	return srv.URL
}

// postIngest sends body with the content type and headers ("Name: value").
func postIngest(t *testing.T, url, contentType string, body io.Reader, headers ...string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("POST", url, body)
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for _, h := range headers {
		name, value, _ := strings.Cut(h, ": ")
		req.Header.Set(name, value)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

const oneResult = `{"key":"k1","test":"t","target":"browser","domain":"web-browsing","status":"passed"}`

// unsized hides a body's length, as a chunked upload does.
type unsized struct{ io.Reader }

func TestIngestAnswersWithItsStatusAndSaysWhy(t *testing.T) {
	const json, ndjson = "application/json", "application/x-ndjson"
	big := "[" + strings.Repeat(oneResult+",", 40) + oneResult + "]"
	tests := []struct {
		name        string
		opts        []func(*Config)
		path, ctype string
		body        io.Reader
		headers     []string
		status      int
		contains    string
	}{
		{"a new run is created", nil, "/api/ingest/runs", json, strings.NewReader(`{"id":"new","name":"New"}`), nil, 201, `"id": "new"`},
		{"a run started again with the same body is no change", nil, "/api/ingest/runs", json, strings.NewReader(`{"id":"live","name":"live"}`), nil, 200, `"name": "live"`},
		{"a run started again with another body is a conflict", nil, "/api/ingest/runs", json, strings.NewReader(`{"id":"live","name":"Other"}`), nil, 409, `another name`},
		{"a run body with an unknown field is refused by name", nil, "/api/ingest/runs", json, strings.NewReader(`{"id":"x","name":"X","owner":"me"}`), nil, 400, `unknown field \"owner\"`},
		{"results in an array are counted", nil, "/api/ingest/runs/live/results", json, strings.NewReader("[" + oneResult + "]"), nil, 200, `"accepted": 1`},
		{"results as NDJSON with a charset are counted", nil, "/api/ingest/runs/live/results", ndjson + "; charset=utf-8", strings.NewReader(oneResult + "\n"), nil, 200, `"duplicates": 0`},
		{"a mistake names its line", nil, "/api/ingest/runs/live/results", ndjson, strings.NewReader(oneResult + "\n" + `{"test":"t","target":"b","domain":"d"}`), nil, 400, `line 2: field \"status\": required`},
		{"a form is refused", nil, "/api/ingest/runs/live/results", "application/x-www-form-urlencoded", strings.NewReader("a=b"), nil, 400, `application/x-ndjson`},
		{"results for an unknown run are not found", nil, "/api/ingest/runs/nope/results", json, strings.NewReader("[" + oneResult + "]"), nil, 404, `no run \"nope\"`},
		{"results for a finished run are refused", nil, "/api/ingest/runs/done/results", json, strings.NewReader("[" + oneResult + "]"), nil, 409, `takes no more results`},
		{"a finish without a body finishes now", nil, "/api/ingest/runs/live/finish", "", nil, nil, 200, `"finished_at"`},
		{"a body over the limit is refused by its length", []func(*Config){func(c *Config) { c.IngestMaxBody = 1024 }},
			"/api/ingest/runs/live/results", json, strings.NewReader(big), nil, 413, `limit of 1.0 KiB (--ingest-max-body)`},
		{"a body over the limit is refused as it is read", []func(*Config){func(c *Config) { c.IngestMaxBody = 1024 }},
			"/api/ingest/runs/live/results", json, unsized{strings.NewReader(big)}, nil, 413, `limit of 1.0 KiB (--ingest-max-body)`},
		{"read-only refuses ingest", []func(*Config){func(c *Config) { c.ReadOnly = true }},
			"/api/ingest/runs", json, strings.NewReader(`{"id":"x","name":"X"}`), nil, 403, `read-only (--read-only): ingest is refused`},
		{"a server without an ingest file says how to get one", []func(*Config){func(c *Config) { c.Ingest = nil }},
			"/api/ingest/runs", json, strings.NewReader(`{"id":"x","name":"X"}`), nil, 404, `--ingest FILE`},
		{"a token is asked of ingest", []func(*Config){func(c *Config) { c.Token = "s3cret" }},
			"/api/ingest/runs", json, strings.NewReader(`{"id":"x","name":"X"}`), nil, 401, `access token`},
		{"ingest with the token is taken", []func(*Config){func(c *Config) { c.Token = "s3cret" }},
			"/api/ingest/runs", json, strings.NewReader(`{"id":"x","name":"X"}`), []string{"Authorization: Bearer s3cret"}, 201, `"id": "x"`},
		{"a cross-origin post is refused", nil, "/api/ingest/runs", json, strings.NewReader(`{"id":"x","name":"X"}`),
			[]string{"Sec-Fetch-Site: cross-site", "Origin: https://evil.example"}, 403, ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url := ingestServer(t, tt.opts...)
			status, body := postIngest(t, url+tt.path, tt.ctype, tt.body, tt.headers...)
			if status != tt.status {
				t.Errorf("got %d, want %d (%s)", status, tt.status, body)
			}
			if !strings.Contains(body, tt.contains) {
				t.Errorf("got body %s, want it to contain %s", body, tt.contains)
			}
		})
	}
}
