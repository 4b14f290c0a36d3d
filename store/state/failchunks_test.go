package state

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestSavedFailuresReadBackAsTheyWereWritten(t *testing.T) {
	cases := []struct {
		name  string
		fails []Failure
	}{
		{"one failure", []Failure{{ID: 7, Test: "file-io/a", Err: "PermissionError: denied", ModeID: "m-1", By: "rule:perms", Attempt: 1}}},
		{"failures of one mode share their text", []Failure{
			{ID: 1, Test: "a", Err: "boom", ModeID: "m-1", By: "harness", Attempt: 1},
			{ID: 2, Test: "b", Err: "boom", ModeID: "m-1", By: "harness", Attempt: 2},
			{ID: 900000000000, Test: "c", Err: "other", ModeID: "m-2", By: "harness", Attempt: 3},
		}},
		{"empty texts, NUL bytes, invalid UTF-8 and odd attempts", []Failure{
			{ID: 3, Test: "", Err: "", ModeID: "m-1", By: "", Attempt: 0},
			{ID: 4, Test: "t\x00x", Err: "bad \xff\xfe bytes\x00", ModeID: "m-1", By: "human", Attempt: -5},
		}},
		{"a whole chunk", func() []Failure {
			var out []Failure
			for i := range FailChunk {
				out = append(out, Failure{ID: int64(10 + 3*i), Test: "t-" + strconv.Itoa(i), Err: "err " + strconv.Itoa(i%7), ModeID: "m-" + strconv.Itoa(i%3), By: "harness", Attempt: 1})
			}
			return out
		}()},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []Failure
			if err := DecodeFailures(encodeFailures(c.fails), func(f Failure) error { got = append(got, f); return nil }); err != nil {
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
	one := len(encodeFailures([]Failure{{ID: 1, Test: "a", Err: text, ModeID: "m-1", By: "harness", Attempt: 1}}))
	var many []Failure
	for i := range 100 {
		many = append(many, Failure{ID: int64(i + 1), Test: "a", Err: text, ModeID: "m-1", By: "harness", Attempt: 1})
	}
	if got := len(encodeFailures(many)); got > one+100*8 {
		t.Errorf("got %d bytes for 100 failures of one %d-byte error (%d for one), want the text kept once", got, len(text), one)
	}
}

func TestADamagedChunkOfFailuresIsAnErrorNotAPanic(t *testing.T) {
	good := encodeFailures([]Failure{{ID: 5, Test: "a", Err: "boom", ModeID: "m-1", By: "harness", Attempt: 1}})
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
			err := DecodeFailures(c.data, func(Failure) error { return nil })
			if !errors.Is(err, errBadChunk) {
				t.Errorf("got %v, want errBadChunk", err)
			}
		})
	}
}
