package handlers

import (
	"net/http"
	"net/url"
	"strings"
)

// RoutesWithMCP returns the routes with mcp, the Streamable HTTP handler of
// sandtrap's MCP server, at /mcp. It sits behind the same access token and
// Host allow-list as every page, and refuses what a browser sends from a
// page of another origin.
func (h *Handler) RoutesWithMCP(mcp http.Handler) http.Handler { return h.router(mcp) }

// sameOrigin refuses a request whose Origin is not this server's. MCP
// clients send no Origin; a browser does, and a page on another site must
// not drive the tools with the token cookie or through DNS rebinding.
func sameOrigin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if origin := r.Header.Get("Origin"); origin != "" {
			u, err := url.Parse(origin)
			if err != nil || !strings.EqualFold(u.Host, r.Host) {
				http.Error(w, "sandtrap's MCP endpoint refuses requests from a page of another origin ("+origin+")", http.StatusForbidden)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}
