package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"sandtrap/store/campaign"
)

func TestServeClosesLiveStreamsWhenItStops(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "live.db")
	w, err := campaign.OpenWriter(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	w.InsertRun(ctx, campaign.Run{ID: "live", Name: "Live", StartedAt: time.Now()})
	w.InsertResults(ctx, []campaign.Result{{RunID: "live", Test: "a", Target: "browser", Domain: "web-browsing", Status: "passed"}})
	w.Close()

	base, stop := startServeWith(t, filepath.Join(t.TempDir(), "state.db"), path)
	var streams []*http.Response
	for range 5 {
		req, _ := http.NewRequest("GET", base+"/runs/live/live", nil)
		req.Header.Set("Datastar-Request", "true")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("got status %d for a live stream, want 200", resp.StatusCode)
		}
		streams = append(streams, resp)
	}
	start := time.Now()
	stop() // as SIGTERM does: the context of run ends
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("got shutdown in %s with live streams open, want within 5 s", took)
	}
	for i, resp := range streams {
		done := make(chan struct{})
		go func() {
			bufio.NewReader(resp.Body).WriteTo(io.Discard)
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Errorf("stream %d still open after the server stopped", i)
		}
	}
}

func TestTheMemoryLimitFollowsTheIndexUpToItsMost(t *testing.T) {
	const mib = 1 << 20
	tests := []struct {
		name            string
		held, max, want int64
	}{
		{"an empty index leaves the room alone", 0, 200 * mib, 90 * mib},
		{"one run of a million results raises it by its rows", 50 * mib, 200 * mib, 140 * mib},
		{"a full index of a long history nears the most", 96 * mib, 200 * mib, 186 * mib},
		{"an index past the most stays at the most", 300 * mib, 200 * mib, 200 * mib},
		{"a most below the room is the limit", 10 * mib, 64 * mib, 64 * mib},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := memoryLimit(tt.held, tt.max); got != tt.want {
				t.Errorf("got %d MiB, want %d MiB", got/mib, tt.want/mib)
			}
		})
	}
}
