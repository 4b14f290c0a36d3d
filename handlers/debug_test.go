package handlers

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestDebugVarsAreServedToLoopbackOnly(t *testing.T) {
	srv, _ := newServer(t, func(c *Config) { c.Hosts = []string{"sandtrap.example"} })
	h := srv.Config.Handler
	tests := []struct {
		name, remote, host string
		status             int
	}{
		{"a client on this machine gets them", "127.0.0.1:50000", "127.0.0.1:8080", http.StatusOK},
		{"a client on this machine by the name localhost gets them", "[::1]:50000", "localhost:8080", http.StatusOK},
		{"a client elsewhere does not", "192.0.2.7:50000", "127.0.0.1:8080", http.StatusNotFound},
		{"a request a local proxy relays for a public name does not", "127.0.0.1:50000", "sandtrap.example", http.StatusNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest("GET", "/debug/vars", nil)
			req.RemoteAddr, req.Host = tt.remote, tt.host
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tt.status {
				t.Fatalf("got %d, want %d", rec.Code, tt.status)
			}
			if tt.status != http.StatusOK {
				return
			}
			var vars struct {
				Goroutines    int    `json:"goroutines"`
				HeapLiveBytes uint64 `json:"heap_live_bytes"`
				Memstats      struct {
					HeapAlloc uint64
				} `json:"memstats"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &vars); err != nil {
				t.Fatalf("got %v decoding %.300s", err, rec.Body.String())
			}
			if vars.Goroutines == 0 || vars.HeapLiveBytes == 0 || vars.Memstats.HeapAlloc == 0 {
				t.Errorf("got %+v, want the goroutines, the live heap and the memory statistics", vars)
			}
		})
	}
}
