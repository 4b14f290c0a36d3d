package handlers

import (
	"crypto/subtle"
	"net"
	"net/http"
	"strings"
)

// tokenCookie carries the access token once a browser has shown it.
const tokenCookie = "sandtrap_token"

// guard lets a request through only when it may see sandtrap. With an
// access token, the request must carry it: as a bearer token, or in the
// cookie that opening any page once with ?token= sets. Without one,
// sandtrap serves loopback only, and the Host header must name this
// server, so that a page on another site cannot reach it through DNS
// rebinding.
func (h *Handler) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if h.token == "" {
			if !h.hostAllowed(r.Host) {
				http.Error(w, "sandtrap answers only to the names it serves under (Host "+r.Host+" is not one of them)", http.StatusForbidden)
				return
			}
			next.ServeHTTP(w, r)
			return
		}
		if t := r.URL.Query().Get("token"); t != "" && r.Method == http.MethodGet && h.tokenMatches(t) {
			http.SetCookie(w, &http.Cookie{Name: tokenCookie, Value: t, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
			q := r.URL.Query()
			q.Del("token")
			u := *r.URL
			u.RawQuery = q.Encode()
			http.Redirect(w, r, u.RequestURI(), http.StatusSeeOther)
			return
		}
		if bearer, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && h.tokenMatches(bearer) {
			next.ServeHTTP(w, r)
			return
		}
		if c, err := r.Cookie(tokenCookie); err == nil && h.tokenMatches(c.Value) {
			next.ServeHTTP(w, r)
			return
		}
		http.Error(w, "sandtrap needs its access token: open any page once with ?token=… (the value of the variable serve was given), or send Authorization: Bearer …", http.StatusUnauthorized)
	})
}

func (h *Handler) tokenMatches(t string) bool {
	return subtle.ConstantTimeCompare([]byte(t), []byte(h.token)) == 1
}

// hostAllowed reports whether a Host header names this server: a loopback
// name or address, or one of the names it was told it serves under.
func (h *Handler) hostAllowed(host string) bool {
	name := host
	if hn, _, err := net.SplitHostPort(host); err == nil {
		name = hn
	}
	name = strings.Trim(strings.ToLower(name), "[]")
	if name == "localhost" || strings.HasSuffix(name, ".localhost") {
		return true
	}
	if ip := net.ParseIP(name); ip != nil && ip.IsLoopback() {
		return true
	}
	for _, allowed := range h.hosts {
		if strings.EqualFold(name, allowed) {
			return true
		}
	}
	return false
}
