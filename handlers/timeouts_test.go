package handlers

import (
	"bufio"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"sandtrap/live"
	"sandtrap/static"
	"sandtrap/store"
	"sandtrap/store/campaign"
)

func TestALiveStreamOutlastsTheServersReadTimeout(t *testing.T) {
	const readTimeout = 200 * time.Millisecond
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "live.db")
	w, err := campaign.OpenWriter(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := w.InsertRun(ctx, campaign.Run{ID: "live", Name: "Live", StartedAt: time.Now(), Planned: ptr[int64](100)}); err != nil {
		t.Fatal(err)
	}
	result := []campaign.Result{{RunID: "live", Test: "a", Target: "browser", Domain: "web-browsing", Status: "passed"}}
	if _, err := w.InsertResults(ctx, result); err != nil {
		t.Fatal(err)
	}
	hub := live.NewHub(slog.Default())
	st, err := store.Open(ctx, store.Options{StatePath: filepath.Join(t.TempDir(), "s.db"), Campaigns: []string{path},
		Poll: 5 * time.Millisecond, OnChange: hub.Publish})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	st.Start(ctx)
	st.WaitIndexed(ctx)
	h, err := New(Config{Runs: st, Activity: st, Results: st, Modes: st, Triager: st, Compare: st, Hub: hub, Static: static.FS})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(h.Routes())
	srv.Config.ReadTimeout = readTimeout
	srv.Start()
	defer srv.Close()

	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/runs/live/live", nil)
	req.Header.Set("Datastar-Request", "true")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	totals := make(chan string)
	go func() {
		defer close(totals)
		total := regexp.MustCompile(`data-testid="stat-results".*?stat-value num">(?:<a [^>]*>)?([0-9,]+)`)
		lines := bufio.NewScanner(resp.Body)
		lines.Buffer(make([]byte, 1<<20), 1<<20)
		for lines.Scan() {
			if m := total.FindStringSubmatch(lines.Text()); m != nil {
				totals <- m[1]
			}
		}
	}()
	next := func() (string, bool) {
		select {
		case n, ok := <-totals:
			return n, ok
		case <-time.After(10 * time.Second):
			t.Fatal("no event within 10 s")
			return "", false
		}
	}
	if n, ok := next(); !ok || n != "1" {
		t.Fatalf("got total %q first, want 1", n)
	}
	time.Sleep(5 * readTimeout)
	if _, err := w.InsertResults(ctx, result); err != nil {
		t.Fatal(err)
	}
	if n, ok := next(); !ok {
		t.Errorf("got the stream ended %s after it began, past the read timeout of %s, want it open while the run is live", 5*readTimeout, readTimeout)
	} else if n != "2" {
		t.Errorf("got total %q after a commit, want 2", n)
	}
}
