package main

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestServeRefusesAProxyHeaderItCannotTellTheProxyOf(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"a header without proxies", []string{"--auth-proxy-header", "X-Forwarded-Email"},
			"--auth-proxy-header X-Forwarded-Email needs --trusted-proxy CIDR"},
		{"proxies without a header", []string{"--trusted-proxy", "10.0.0.0/8"}, "--trusted-proxy needs --auth-proxy-header"},
		{"a proxy that is no address", []string{"--auth-proxy-header", "X-Forwarded-Email", "--trusted-proxy", "10.0.0.0/8,proxy.internal"},
			`--trusted-proxy: "proxy.internal" is not an address or a CIDR`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			args := append([]string{"serve", "--addr", "127.0.0.1:0", "--state", filepath.Join(t.TempDir(), "s.db")}, tt.args...)
			err := run(context.Background(), append(args, "x.db"), &out, &errOut)
			var ue usageError
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want a usage error saying %q", err, tt.want)
			}
		})
	}
}

// asPerson adds the token, and the header a proxy would set, to every
// request.
type asPerson struct{ token, email string }

func (p asPerson) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+p.token)
	r.Header.Set("X-Forwarded-Email", p.email)
	return http.DefaultTransport.RoundTrip(r)
}

func TestServeNamesThePersonBehindATrustedProxyOnMCPDecisions(t *testing.T) {
	t.Setenv("SANDTRAP_TOKEN", "s3cret")
	// The test's own requests come from loopback, which it trusts as the
	// proxy here.
	base := startServe(t, "--auth-proxy-header", "X-Forwarded-Email", "--trusted-proxy", "127.0.0.1/32,::1", demoCampaign(t))
	waitIndexed(t, base, "s3cret")
	cs := mcpClient(t, &mcp.StreamableClientTransport{Endpoint: base + "/mcp", HTTPClient: &http.Client{Transport: asPerson{"s3cret", "ada@example.com"}}})
	var modes struct {
		Modes []struct {
			ID string `json:"id"`
		} `json:"modes"`
	}
	callTool(t, cs, "list_failure_modes", map[string]any{"run": "2026-07-01-overnight", "limit": 1}, &modes)
	mode := modes.Modes[0].ID
	var triaged struct{}
	callTool(t, cs, "triage_mode", map[string]any{"mode": mode, "status": "triaged", "note": "the sandbox's"}, &triaged)
	var api struct {
		History []struct{ Who, What string } `json:"history"`
		Notes   []struct{ Who, Body string } `json:"notes"`
	}
	apiJSON(t, base, "s3cret", "/api/modes/"+mode, &api)
	if len(api.History) != 1 || api.History[0].Who != "ada@example.com" || api.History[0].What != "status → triaged" {
		t.Errorf("got history %+v, want ada@example.com setting the status", api.History)
	}
	if len(api.Notes) != 1 || api.Notes[0].Who != "ada@example.com" {
		t.Errorf("got notes %+v, want ada@example.com's", api.Notes)
	}
}
