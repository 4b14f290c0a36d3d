package handlers

import (
	"net/http"
	"strings"
	"testing"
)

func TestWithoutATokenOnlyThisServersNamesAreServed(t *testing.T) {
	srv, _ := newServer(t, func(c *Config) { c.Hosts = []string{"sandtrap.internal"} })
	tests := []struct {
		name, host string
		status     int
	}{
		{"the loopback address", "", 200},
		{"localhost with a port", "localhost:8080", 200},
		{"a name given with --public-url", "sandtrap.internal", 200},
		{"a rebound attacker's name", "evil.example:8080", 403},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest("GET", srv.URL+"/api/runs", nil)
			if tt.host != "" {
				req.Host = tt.host
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tt.status {
				t.Errorf("got %d for Host %q, want %d", resp.StatusCode, tt.host, tt.status)
			}
		})
	}
}

func TestATokenIsAskedOfEveryRequest(t *testing.T) {
	srv, _ := newServer(t, func(c *Config) { c.Token = "s3cret" })
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get := func(path string, header ...string) *http.Response {
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := noRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	if resp := get("/api/runs"); resp.StatusCode != 401 {
		t.Errorf("got %d without the token, want 401", resp.StatusCode)
	}
	if resp := get("/api/runs", "Authorization", "Bearer wrong"); resp.StatusCode != 401 {
		t.Errorf("got %d with a wrong token, want 401", resp.StatusCode)
	}
	if resp := get("/api/runs", "Authorization", "Bearer s3cret"); resp.StatusCode != 200 {
		t.Errorf("got %d with the token, want 200", resp.StatusCode)
	}
	resp := get("/runs/r1?token=s3cret")
	if resp.StatusCode != 303 || strings.Contains(resp.Header.Get("Location"), "token") {
		t.Fatalf("got %d to %q for ?token=, want a redirect to the page without it", resp.StatusCode, resp.Header.Get("Location"))
	}
	var cookie string
	for _, c := range resp.Cookies() {
		if c.Name == tokenCookie && c.HttpOnly {
			cookie = c.Name + "=" + c.Value
		}
	}
	if resp := get("/runs/r1", "Cookie", cookie); resp.StatusCode != 200 {
		t.Errorf("got %d with the cookie ?token= set, want 200", resp.StatusCode)
	}
}
