package handlers

import (
	"expvar"
	"net"
	"net/http"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"

	"sandtrap"
)

var publishVars sync.Once

// debugVars serves GET /debug/vars: expvar's memory statistics, with the
// goroutines and the heap live after the last collection, which a soak
// watches for leaks. Only a client on this machine addressing it by a
// loopback name gets them; to others the page does not exist.
func (h *Handler) debugVars(w http.ResponseWriter, r *http.Request) error {
	if !loopbackRequest(r) {
		return sandtrap.Errorf(sandtrap.ENOTFOUND, "There is no page at %s.", r.URL.Path)
	}
	publishVars.Do(func() {
		expvar.Publish("goroutines", expvar.Func(func() any { return runtime.NumGoroutine() }))
		expvar.Publish("heap_live_bytes", expvar.Func(func() any {
			s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
			metrics.Read(s)
			return s[0].Value.Uint64()
		}))
	})
	expvar.Handler().ServeHTTP(w, r)
	return nil
}

// loopbackRequest reports whether r comes from a loopback address and names
// a loopback host: a request relayed by a proxy on this machine names the
// proxy's public host.
func loopbackRequest(r *http.Request) bool {
	client, _, err := net.SplitHostPort(r.RemoteAddr)
	if ip := net.ParseIP(client); err != nil || ip == nil || !ip.IsLoopback() {
		return false
	}
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	ip := net.ParseIP(host)
	return host == "localhost" || ip != nil && ip.IsLoopback()
}
