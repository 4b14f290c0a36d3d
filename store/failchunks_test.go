package store

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestSavedFailuresReadBackAsTheyWereWritten(t *testing.T) {
	cases := []struct {
		name  string
		fails []savedFailure
	}{
		{"one failure", []savedFailure{{id: 7, test: "file-io/a", err: "PermissionError: denied", modeID: "m-1", by: "rule:perms", attempt: 1}}},
		{"failures of one mode share their text", []savedFailure{
			{id: 1, test: "a", err: "boom", modeID: "m-1", by: "harness", attempt: 1},
			{id: 2, test: "b", err: "boom", modeID: "m-1", by: "harness", attempt: 2},
			{id: 900000000000, test: "c", err: "other", modeID: "m-2", by: "harness", attempt: 3},
		}},
		{"empty texts, NUL bytes, invalid UTF-8 and odd attempts", []savedFailure{
			{id: 3, test: "", err: "", modeID: "m-1", by: "", attempt: 0},
			{id: 4, test: "t\x00x", err: "bad \xff\xfe bytes\x00", modeID: "m-1", by: "human", attempt: -5},
		}},
		{"a whole chunk", func() []savedFailure {
			var out []savedFailure
			for i := range failChunk {
				out = append(out, savedFailure{id: int64(10 + 3*i), test: "t-" + itoa(i), err: "err " + itoa(i%7), modeID: "m-" + itoa(i%3), by: "harness", attempt: 1})
			}
			return out
		}()},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []savedFailure
			if err := decodeFailures(encodeFailures(c.fails), func(f savedFailure) error { got = append(got, f); return nil }); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, c.fails) {
				t.Errorf("got %v, want %v", got, c.fails)
			}
		})
	}
}

func TestAChunkKeepsARepeatedErrorOnce(t *testing.T) {
	text := strings.Repeat("Permission denied: '/workspace/out' ", 20)
	one := len(encodeFailures([]savedFailure{{id: 1, test: "a", err: text, modeID: "m-1", by: "harness", attempt: 1}}))
	var many []savedFailure
	for i := range 100 {
		many = append(many, savedFailure{id: int64(i + 1), test: "a", err: text, modeID: "m-1", by: "harness", attempt: 1})
	}
	if got := len(encodeFailures(many)); got > one+100*8 {
		t.Errorf("got %d bytes for 100 failures of one %d-byte error (%d for one), want the text kept once", got, len(text), one)
	}
}

func TestADamagedChunkOfFailuresIsAnErrorNotAPanic(t *testing.T) {
	good := encodeFailures([]savedFailure{{id: 5, test: "a", err: "boom", modeID: "m-1", by: "harness", attempt: 1}})
	badRef := slices.Clone(good)
	// The failure's error is the last but three byte: point it past the table.
	badRef[len(badRef)-4] = 99
	cases := []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"an unknown layout", append([]byte{9}, good[1:]...)},
		{"cut short", good[:len(good)-3]},
		{"with bytes after its end", append(slices.Clone(good), 0)},
		{"a reference past its strings", badRef},
		{"a length past its end", []byte{failChunkVersion, 1, 200, 'x'}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := decodeFailures(c.data, func(savedFailure) error { return nil })
			if !errors.Is(err, errBadChunk) {
				t.Errorf("got %v, want errBadChunk", err)
			}
		})
	}
}

func TestFailuresSavedOverManyPassesLoadAsTheyWere(t *testing.T) {
	path := newCampaign(t, "live.db")
	addRun(t, path, "live", false, resultsSQL("live", 10))
	state := filepath.Join(t.TempDir(), "state.db")
	s := openStore(t, state, path)
	// Each pass adds failures that end part way through a chunk, so the
	// next one rewrites it: 4 passes of 628 failures fill 2 chunks and
	// part of a third.
	for range 4 {
		harness(t, path, resultsSQL("live", 2000))
	}
	// Saved, not only indexed: the watermark moves once a pass is saved.
	waitUntil(t, func() bool {
		s.mu.RLock()
		defer s.mu.RUnlock()
		return s.sources[0].lastID == 10+4*2000
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s.mu.RLock()
	want := failuresOf(s, "live")
	s.mu.RUnlock()
	if n := failing(10) + 4*failing(2000); len(want) != n {
		t.Fatalf("got %d failures indexed, want %d", len(want), n)
	}
	s.Close()

	again, err := Open(ctx, Options{StatePath: state, Campaigns: []string{path}})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	got := failuresOf(again, "live")
	if !slices.Equal(got, want) {
		t.Errorf("got %d failures loaded from the state, want the %d indexed, as they were", len(got), len(want))
	}
	var chunks int
	if err := again.reader.QueryRowContext(ctx, `SELECT count(*) FROM failure_chunks`).Scan(&chunks); err != nil {
		t.Fatal(err)
	}
	if chunks != 3 {
		t.Errorf("got %d saved chunks of failures, want 3", chunks)
	}
}

// failing is how many of the n results of resultsSQL fail.
func failing(n int) int { return n/5 + n/7 - n/35 }

// failuresOf lists the failures of run as the index holds them, each with
// its mode and decider by name, and whether its row points at it.
func failuresOf(s *Store, run string) []savedFailure {
	var out []savedFailure
	err := s.withRun(context.Background(), run, func(_ *runIndex, d *runData) error {
		for _, f := range d.fails {
			out = append(out, savedFailure{id: f.id, test: f.test, err: f.err, modeID: s.modes[f.mode].ID, by: s.names.value(kindBy, f.by), attempt: f.attempt})
		}
		for _, r := range d.rows {
			if r.fail >= 0 && d.fails[r.fail].id != r.id {
				out = append(out, savedFailure{test: "a row pointing at another failure"})
			}
		}
		return nil
	})
	if err != nil {
		out = append(out, savedFailure{test: "the run could not be read back: " + err.Error()})
	}
	return out
}
