package logview

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestMarksFindAFragmentInAnyCase(t *testing.T) {
	marks := NewMarks("exit", "rc", "status", "/dev/shm", "_id", "=")
	for _, tc := range []struct {
		name, s string
		want    bool
	}{
		{"a mark at the start is found", "EXIT 0 done", true},
		{"a mark at the end is found", "the call ended with Status", true},
		{"a mark in mixed case inside a word is found", "worker_RC 1", true},
		{"a mark that starts with a symbol is found", "mount /DEV/SHM full", true},
		{"a mark that starts with an underscore is found", "run_ID 7", true},
		{"a mark of one byte is found at the end", "key=", true},
		{"a mark cut off by the end is not found", "the call ended with statu", false},
		{"text without a mark is not found", "all good here", false},
		{"a byte one bit from a mark's first byte is not that byte", "\x0fdev/shm", false},
		{"empty text holds nothing", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := marks.In(tc.s); got != tc.want {
				t.Errorf("In(%q) = %v, want %v", tc.s, got, tc.want)
			}
		})
	}
	t.Run("it agrees with lower-casing the text and searching it", func(t *testing.T) {
		list := []string{"exit", "rc", "status", "/dev/shm", "_id", "="}
		r := rand.New(rand.NewPCG(1, 2))
		const alphabet = "eEiIxXtTrRcCsSaAuU=/_ dDvVhHmM\x0f"
		for range 20000 {
			b := make([]byte, r.IntN(12))
			for i := range b {
				b[i] = alphabet[r.IntN(len(alphabet))]
			}
			s := string(b)
			want := slices.ContainsFunc(list, func(m string) bool { return strings.Contains(strings.ToLower(s), m) })
			if got := marks.In(s); got != want {
				t.Fatalf("In(%q) = %v, want %v", s, got, want)
			}
		}
	})
}

func TestMarksAdmitWhatACaseInsensitivePatternMayMatch(t *testing.T) {
	restart := regexp.MustCompile(`(?i)\brestart(ed)?\b`)
	marks := NewMarks("restart")
	for _, tc := range []struct {
		name, s string
		matches bool // what the pattern says of s
		admits  bool
	}{
		{"it admits the mark in capitals", "sandbox RESTARTED at 02:00", true, true},
		{"it admits a long s in place of an s", "sandbox reſtarted", true, true},
		{"it admits a Kelvin sign's text without the mark", "\u212a started", false, true},
		{"it refuses ASCII text without the mark", "sandbox started", false, false},
		{"it refuses text outside ASCII without the mark or a letter folding to one", "le bac à sable a démarré", false, false},
		{"it admits the mark beside text outside ASCII", "le bac à sable: RESTART", true, true},
		{"it refuses empty text", "", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := restart.MatchString(tc.s); got != tc.matches {
				t.Fatalf("the pattern's match of %q = %v, want %v", tc.s, got, tc.matches)
			}
			if got := marks.Admits(tc.s); got != tc.admits {
				t.Errorf("Admits(%q) = %v, want %v", tc.s, got, tc.admits)
			}
		})
	}
}

func TestNewMarksRefusesWhatItCannotIndex(t *testing.T) {
	for _, tc := range []struct {
		name  string
		marks []string
	}{
		{"an empty mark", []string{"a", ""}},
		{"a mark in capitals", []string{"Exit"}},
		{"a mark outside ASCII", []string{"é"}},
		{"more than 64 marks", strings.Split(strings.Repeat("a,", 64)+"a", ",")},
	} {
		t.Run("it panics on "+tc.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("NewMarks(%q) did not panic", tc.marks)
				}
			}()
			NewMarks(tc.marks...)
		})
	}
}

// TestOnlyTheLongSAndTheKelvinSignFoldIntoASCII holds Admits to the case
// folding it relies on: were another letter outside ASCII to fold into an
// ASCII one, a pattern could match a text Admits refuses.
func TestOnlyTheLongSAndTheKelvinSignFoldIntoASCII(t *testing.T) {
	var got []rune
	for r := rune(utf8.RuneSelf); r <= unicode.MaxRune; r++ {
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if f < utf8.RuneSelf {
				got = append(got, r)
				break
			}
		}
	}
	if want := []rune{'ſ', '\u212A'}; !slices.Equal(got, want) {
		t.Errorf("got %q folding into ASCII, want %q", got, want)
	}
}
