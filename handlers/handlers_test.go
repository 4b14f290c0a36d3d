package handlers

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"sandtrap/static"
	"sandtrap/store"
	"sandtrap/store/campaign"
)

func ptr[T any](v T) *T { return &v }

// hostile is campaign text meant to break out of HTML and Datastar.
const hostile = `<script>alert(1)</script>"><img src=x onerror=alert(1)> data-on-load="alert(1)"` + "\x00after-nul"

func pngBytes(t *testing.T, flip bool) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 16, 8))
	for x := range 16 {
		img.Set(x, 2, color.RGBA{uint8(x * 10), 0, 0, 255})
	}
	var buf bytes.Buffer
	png.Encode(&buf, img)
	b := buf.Bytes()
	if flip {
		b = append([]byte(nil), b...)
		b[60] ^= 0xff
	}
	return b
}

// newServer writes a small campaign with the given writer, indexes it and
// serves the real routes, configured further by opts.
func newServer(t *testing.T, opts ...func(*Config)) (*httptest.Server, map[string]int64) {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "campaign.db")
	w, err := campaign.OpenWriter(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 6, 30, 22, 0, 0, 0, time.UTC)
	end := start.Add(7 * time.Hour)
	if err := w.InsertRun(ctx, campaign.Run{ID: "r1", Name: "Night <b>one</b>", StartedAt: start, FinishedAt: &end, Planned: ptr[int64](4)}); err != nil {
		t.Fatal(err)
	}
	orig, bad := pngBytes(t, false), pngBytes(t, true)
	ids, err := w.InsertResults(ctx, []campaign.Result{
		{RunID: "r1", Test: "file-io/png-1", Target: "code-interpreter", Domain: "file-io", Status: "passed", Log: []byte("ok\n")},
		{RunID: "r1", Test: "file-io/png-2", Target: "code-interpreter", Domain: "file-io", Status: "failed",
			Error: ptr("artifact round trip mismatch: sha256 expected " + strings.Repeat("a", 64) + " got " + strings.Repeat("b", 64) + " for chart.png (48213 bytes)"),
			Log:   []byte("start\n\x1b[31mred\x1b[0m\nnul:\x00:kept\ninvalid:\xff\n"), ExitCode: ptr[int64](1),
			Artifacts: []campaign.Artifact{
				{Name: "in.png", MediaType: ptr("image/png"), Data: orig},
				{Name: "out.png", MediaType: ptr("image/png"), Data: bad, ExpectedSHA256: ptr(sha(orig))},
				{Name: "page.html", MediaType: ptr("text/html"), Data: []byte("<script>alert(1)</script>")},
				{Name: "pic.svg", MediaType: ptr("image/png"), Data: []byte(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>`)},
			},
			Steps: []campaign.Step{{Seq: 1, Tool: "write_file", Request: []byte(`{"path":"in.png"}`), Response: []byte("\x89PNG\x00\x00binary")}},
		},
		{RunID: "r1", Test: hostile, Target: "browser", Domain: "web-browsing", Status: "error", Title: ptr(hostile), Error: ptr(hostile)},
		{RunID: "r1", Test: "odd", Target: "browser", Domain: "web-browsing", Status: "xfail"},
	})
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	st, err := store.Open(ctx, store.Options{StatePath: filepath.Join(t.TempDir(), "state.db"), Campaigns: []string{path}, Poll: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	st.Start(ctx)
	if err := st.WaitIndexed(ctx); err != nil {
		t.Fatal(err)
	}
	cfg := Config{Runs: st, Activity: st, Results: st, Modes: st, Triager: st, Compare: st, Static: static.FS}
	for _, o := range opts {
		o(&cfg)
	}
	h, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h.Routes())
	t.Cleanup(func() { srv.Close(); st.Close() })
	return srv, map[string]int64{"passed": ids[0], "failed": ids[1], "hostile": ids[2]}
}

func get(t *testing.T, url string) (*http.Response, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func TestPagesAnswerWithTheirStatusAndHeaders(t *testing.T) {
	srv, ids := newServer(t)
	tests := []struct {
		name, path string
		status     int
		contains   []string
	}{
		{"the runs list names the run", "/", 200, []string{"Night &lt;b&gt;one&lt;/b&gt;", "data-testid=\"runs-table\""}},
		{"the overview gives the headline", "/runs/r1", 200, []string{"25.0% passed — 3 failures"}},
		{"the failures list lists every failure", "/runs/r1/failures", 200, []string{"1–3 of 3"}},
		{"a filter narrows the list", "/runs/r1/failures?target=browser", 200, []string{"1–2 of 2"}},
		{"a bad offset is refused by name", "/runs/r1/failures?offset=-3", 400, []string{"offset"}},
		{"a result shows its log with a NUL marker", "/runs/r1/results/" + itoa(ids["failed"]), 200, []string{"␀", "ansi-red", "0xff"}},
		{"a corrupted round trip shows the first differing byte", "/runs/r1/results/" + itoa(ids["failed"]), 200, []string{"round trip corrupted", "First differing byte at offset"}},
		{"an unknown run is a 404 listing the runs", "/runs/nope", 404, []string{"run &#34;nope&#34; not found", "/runs/r1"}},
		{"an unknown result is a 404", "/runs/r1/results/999999", 404, []string{"not found"}},
		{"a result of another run is a 404", "/runs/r1/results/abc", 404, []string{"whole number"}},
		{"an unknown page is a 404", "/nowhere", 404, []string{"There is no page at /nowhere"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := get(t, srv.URL+tt.path)
			if resp.StatusCode != tt.status {
				t.Fatalf("got status %d, want %d\n%s", resp.StatusCode, tt.status, body)
			}
			for _, want := range tt.contains {
				if !strings.Contains(body, want) {
					t.Errorf("got a page without %q", want)
				}
			}
			for header, want := range map[string]string{
				"X-Content-Type-Options": "nosniff",
				"X-Frame-Options":        "DENY",
			} {
				if got := resp.Header.Get(header); got != want {
					t.Errorf("got %s %q, want %q", header, got, want)
				}
			}
			csp := resp.Header.Get("Content-Security-Policy")
			if !strings.Contains(csp, "script-src 'self' 'unsafe-eval';") || !strings.Contains(csp, "frame-ancestors 'none'") {
				t.Errorf("got CSP %q, want self and unsafe-eval scripts only, and no framing", csp)
			}
		})
	}
}

func TestHostileTextIsEscapedEverywhere(t *testing.T) {
	srv, ids := newServer(t)
	for _, path := range []string{"/", "/runs/r1", "/runs/r1/failures", "/runs/r1/failures?status=all", "/runs/r1/results/" + itoa(ids["hostile"])} {
		t.Run("the page at "+path+" has no live markup from the campaign", func(t *testing.T) {
			_, body := get(t, srv.URL+path)
			for _, bad := range []string{"<script>alert", "<img src=x", "data-on-load=\"alert", "\x00"} {
				if strings.Contains(body, bad) {
					t.Errorf("got %q in the page, want it escaped", bad)
				}
			}
		})
	}
}

func TestArtifactsAreServedSoTheBrowserNeverRunsThem(t *testing.T) {
	srv, ids := newServer(t)
	base := srv.URL + "/runs/r1/results/" + itoa(ids["failed"]) + "/artifacts/"
	tests := []struct {
		name, id, wantType, wantDisposition string
	}{
		{"a real PNG is shown inline", "1", "image/png", "inline"},
		{"HTML is an attachment", "3", "application/octet-stream", "attachment"},
		{"SVG that claims to be PNG is an attachment", "4", "application/octet-stream", "attachment"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, _ := get(t, base+tt.id)
			if got := resp.Header.Get("Content-Type"); got != tt.wantType {
				t.Errorf("got Content-Type %q, want %q", got, tt.wantType)
			}
			if got := resp.Header.Get("Content-Disposition"); !strings.HasPrefix(got, tt.wantDisposition) {
				t.Errorf("got Content-Disposition %q, want %s", got, tt.wantDisposition)
			}
			if got := resp.Header.Get("X-Content-Type-Options"); got != "nosniff" {
				t.Errorf("got X-Content-Type-Options %q, want nosniff", got)
			}
		})
	}
}

func TestAPIGivesThePagesNumbers(t *testing.T) {
	srv, _ := newServer(t)
	_, body := get(t, srv.URL+"/api/runs")
	var runs struct {
		Runs []map[string]any `json:"runs"`
	}
	if err := json.Unmarshal([]byte(body), &runs); err != nil {
		t.Fatalf("got invalid JSON: %v\n%s", err, body)
	}
	if len(runs.Runs) != 1 {
		t.Fatalf("got %d runs, want 1", len(runs.Runs))
	}
	r := runs.Runs[0]
	for key, want := range map[string]float64{"total": 4, "passed": 1, "failed": 1, "errored": 1, "skipped": 0, "other": 1, "planned": 4} {
		if got, _ := r[key].(float64); got != want {
			t.Errorf("got %s = %v, want %v", key, r[key], want)
		}
	}
	if r["live"] != false || r["finished_at"] == nil {
		t.Errorf("got live=%v finished_at=%v, want a finished run", r["live"], r["finished_at"])
	}

	_, body = get(t, srv.URL+"/api/runs/r1")
	var detail map[string]any
	json.Unmarshal([]byte(body), &detail)
	for _, key := range []string{"by_target", "by_domain", "by_layer", "by_primitive"} {
		if _, ok := detail[key].(map[string]any); !ok {
			t.Errorf("got no %s object in %s", key, body)
		}
	}

	_, body = get(t, srv.URL+"/api/runs/r1/results?target=browser")
	var results struct {
		Total   int              `json:"total"`
		Results []map[string]any `json:"results"`
	}
	json.Unmarshal([]byte(body), &results)
	if results.Total != 2 || len(results.Results) != 2 {
		t.Fatalf("got total %d with %d results, want 2 and 2", results.Total, len(results.Results))
	}
	for _, key := range []string{"id", "test", "target", "domain", "status", "error", "layer", "primitive", "classified_by", "mode"} {
		if _, ok := results.Results[0][key]; !ok {
			t.Errorf("got a result without %q", key)
		}
	}

	resp, body := get(t, srv.URL+"/api/runs/nope")
	if resp.StatusCode != 404 || !strings.Contains(body, `"not_found"`) {
		t.Errorf("got %d %s, want a 404 with code not_found", resp.StatusCode, body)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// httptestServer serves h until the test ends, closing client connections
// first so that streams end.
func httptestServer(t *testing.T, h http.Handler) string {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
	})
	return srv.URL
}
