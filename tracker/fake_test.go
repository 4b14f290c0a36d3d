package tracker_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sync"
	"testing"
)

// exchange is one request a fake tracker expects and its answer.
type exchange struct {
	method string
	path   string // escaped, as sent
	query  string // raw query; "" accepts any
	body   string // expected JSON body; "" expects none
	status int
	header map[string]string
	reply  string
}

// scripted starts a fake tracker that expects the exchanges in order and
// checks each request's method, path, body and, with auth, its credentials.
func scripted(t *testing.T, auth func(http.Header) string, script ...exchange) *httptest.Server {
	t.Helper()
	var mu sync.Mutex
	next := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		i := next
		next++
		mu.Unlock()
		body, _ := io.ReadAll(r.Body)
		if i >= len(script) {
			t.Errorf("unexpected request %d: %s %s", i+1, r.Method, r.URL)
			w.WriteHeader(http.StatusTeapot)
			return
		}
		x := script[i]
		if got := r.Method + " " + r.URL.EscapedPath(); got != x.method+" "+x.path {
			t.Errorf("request %d: got %s, want %s %s", i+1, got, x.method, x.path)
		}
		if x.query != "" && r.URL.RawQuery != x.query {
			t.Errorf("request %d: got query %q, want %q", i+1, r.URL.RawQuery, x.query)
		}
		if auth != nil {
			if problem := auth(r.Header); problem != "" {
				t.Errorf("request %d: %s", i+1, problem)
			}
		}
		checkJSON(t, i+1, body, x.body)
		for k, v := range x.header {
			w.Header().Set(k, v)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(x.status)
		io.WriteString(w, x.reply)
	}))
	t.Cleanup(func() {
		srv.Close()
		mu.Lock()
		defer mu.Unlock()
		if next < len(script) {
			t.Errorf("got %d requests, want %d", next, len(script))
		}
	})
	return srv
}

func checkJSON(t *testing.T, n int, got []byte, want string) {
	t.Helper()
	if want == "" {
		if len(got) != 0 {
			t.Errorf("request %d: got body %s, want none", n, got)
		}
		return
	}
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Errorf("request %d: body %q is not JSON: %v", n, got, err)
		return
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("bad expected JSON %s: %v", want, err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("request %d: got body %s, want %s", n, got, want)
	}
}

// header returns an auth check that wants header name to equal value.
func header(name, value string) func(http.Header) string {
	return func(h http.Header) string {
		if got := h.Get(name); got != value {
			return "got " + name + " " + got + ", want " + value
		}
		return ""
	}
}
