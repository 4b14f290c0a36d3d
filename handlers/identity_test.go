package handlers

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"testing"
)

// serveAs serves one request straight to the handler, as if it came from
// peer: httptest lets the test forge the address a proxy check reads.
func serveAs(t *testing.T, h http.Handler, peer, method, target, body string, header ...string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	req.RemoteAddr = peer
	req.Host = "localhost"
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Add(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// failingMode returns the id of the mode of the campaign's first failure.
func failingMode(t *testing.T, h http.Handler, header ...string) string {
	t.Helper()
	rec := serveAs(t, h, "127.0.0.1:50000", "GET", "/api/runs/r1/results?status=failed", "", header...)
	var out struct {
		Results []struct{ Mode string } `json:"results"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil || len(out.Results) == 0 {
		t.Fatalf("got %d %q (%v), want the run's failures", rec.Code, rec.Body, err)
	}
	return out.Results[0].Mode
}

func TestDecisionsNameWhoMadeThem(t *testing.T) {
	proxied := func(c *Config) {
		c.AuthProxyHeader = "X-Forwarded-Email"
		c.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("fd00::/8")}
	}
	withToken := func(c *Config) { c.Token = "s3cret" }
	tests := []struct {
		name   string
		config []func(*Config)
		peer   string
		header []string
		want   string
	}{
		{"a header from a trusted proxy names the person", []func(*Config){proxied},
			"10.1.2.3:41000", []string{"X-Forwarded-Email", "ada@example.com"}, "ada@example.com"},
		{"a trusted proxy on IPv6 names the person", []func(*Config){proxied},
			"[fd00::7]:41000", []string{"X-Forwarded-Email", "grace@example.com"}, "grace@example.com"},
		{"a trusted IPv4 proxy seen through an IPv6 socket names the person", []func(*Config){proxied},
			"[::ffff:10.1.2.3]:41000", []string{"X-Forwarded-Email", "ada@example.com"}, "ada@example.com"},
		{"the same header from an untrusted peer is ignored", []func(*Config){proxied},
			"203.0.113.9:41000", []string{"X-Forwarded-Email", "ada@example.com"}, "local"},
		{"the same header from loopback is ignored when loopback is not trusted", []func(*Config){proxied},
			"127.0.0.1:41000", []string{"X-Forwarded-Email", "ada@example.com"}, "local"},
		{"with a token, an untrusted peer's header gives way to the token", []func(*Config){proxied, withToken},
			"203.0.113.9:41000", []string{"X-Forwarded-Email", "ada@example.com", "Authorization", "Bearer s3cret"}, "token"},
		{"a trusted proxy that names no one leaves the token", []func(*Config){proxied, withToken},
			"10.1.2.3:41000", []string{"Authorization", "Bearer s3cret"}, "token"},
		{"two values, the client's and the proxy's, name no one", []func(*Config){proxied},
			"10.1.2.3:41000", []string{"X-Forwarded-Email", "mallory@example.com", "X-Forwarded-Email", "ada@example.com"}, "local"},
		{"a name with control characters is not taken", []func(*Config){proxied},
			"10.1.2.3:41000", []string{"X-Forwarded-Email", "ada\x1b[2J@example.com"}, "local"},
		{"without a proxy header, no header is believed", nil,
			"10.1.2.3:41000", []string{"X-Forwarded-Email", "ada@example.com"}, "local"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := newServer(t, tt.config...)
			h := srv.Config.Handler
			var auth []string
			for i := 0; i+1 < len(tt.header); i += 2 {
				if tt.header[i] == "Authorization" {
					auth = tt.header[i : i+2]
				}
			}
			mode := failingMode(t, h, auth...)
			header := append([]string{"Content-Type", "application/json"}, tt.header...)
			for _, body := range []string{`{"op":"status","status":"triaged"}`, `{"op":"note","note":"seen"}`} {
				if rec := serveAs(t, h, tt.peer, "POST", "/api/modes/"+mode+"/triage", body, header...); rec.Code != 200 {
					t.Fatalf("got %d %q for %s, want 200", rec.Code, rec.Body, body)
				}
			}
			rec := serveAs(t, h, tt.peer, "GET", "/api/modes/"+mode, "", header...)
			var got struct {
				History []APIEvent `json:"history"`
				Notes   []APINote  `json:"notes"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
				t.Fatalf("got %q: %v", rec.Body, err)
			}
			if len(got.History) != 1 || got.History[0].Who != tt.want || got.History[0].What != "status → triaged" || got.History[0].At == "" {
				t.Errorf("got history %+v, want %q setting the status, with the time", got.History, tt.want)
			}
			if len(got.Notes) != 1 || got.Notes[0].Who != tt.want {
				t.Errorf("got notes %+v, want one by %q", got.Notes, tt.want)
			}
		})
	}
}

func TestTheModePageSaysWhoDidWhatWhenAlsoAfterADatastarAction(t *testing.T) {
	srv, _ := newServer(t, func(c *Config) {
		c.AuthProxyHeader = "X-Forwarded-Email"
		c.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}
	})
	h := srv.Config.Handler
	mode := failingMode(t, h)
	form := url.Values{"op": {"severity"}, "severity": {"low"}}.Encode()
	rec := serveAs(t, h, "10.9.9.9:41000", "POST", "/modes/"+mode+"/triage", form,
		"Content-Type", "application/x-www-form-urlencoded", "Datastar-Request", "true", "X-Forwarded-Email", "ada@example.com")
	if rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/event-stream") {
		t.Fatalf("got %d %s, want the page's content as an event stream", rec.Code, rec.Header().Get("Content-Type"))
	}
	entry := `<strong class="who" data-testid="who" title="ada@example.com">ada@example.com</strong> — severity → low — <span class="muted">`
	if !strings.Contains(rec.Body.String(), entry) {
		t.Errorf("got a patch without %q in the history:\n%s", entry, rec.Body)
	}
	page := serveAs(t, h, "127.0.0.1:41000", "GET", "/modes/"+mode, "")
	if !strings.Contains(page.Body.String(), entry) {
		t.Errorf("got a mode page without %q in the history", entry)
	}
}
