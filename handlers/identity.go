package handlers

import (
	"net/http"
	"net/netip"
	"strings"
	"unicode"
	"unicode/utf8"

	"sandtrap"
)

// maxActorName bounds a name taken from a proxy's header; an email address
// has at most 254 bytes.
const maxActorName = 256

// identify names who makes the request's decisions, for the store to
// record: the person an authenticating proxy vouches for, when the request
// comes straight from a trusted proxy; otherwise "token" when the server
// has an access token (the guard has checked it), else "local". The header
// from any other address is ignored: anyone can send it.
func (h *Handler) identify(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(sandtrap.WithActor(r.Context(), h.actor(r))))
	})
}

// actor is who r acts for.
func (h *Handler) actor(r *http.Request) string {
	if h.proxyHeader != "" && h.fromTrustedProxy(r.RemoteAddr) {
		// A proxy that adds its header beside the client's sends two:
		// neither can be told for the proxy's own.
		if v := r.Header.Values(h.proxyHeader); len(v) == 1 {
			if name := proxyName(v[0]); name != "" {
				return name
			}
		}
	}
	if h.token != "" {
		return sandtrap.ActorToken
	}
	return sandtrap.ActorLocal
}

// fromTrustedProxy reports whether the request's immediate peer is inside
// one of the trusted proxies' prefixes.
func (h *Handler) fromTrustedProxy(remoteAddr string) bool {
	ap, err := netip.ParseAddrPort(remoteAddr)
	if err != nil {
		return false
	}
	addr := ap.Addr().Unmap()
	for _, p := range h.trustedProxies {
		if p.Contains(addr) {
			return true
		}
	}
	return false
}

// proxyName is the header's value as a name, or "" when it cannot be one:
// empty, too long, not UTF-8, or holding control or format characters.
func proxyName(v string) string {
	v = strings.TrimSpace(v)
	if len(v) > maxActorName || !utf8.ValidString(v) {
		return ""
	}
	for _, r := range v {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return ""
		}
	}
	return v
}
