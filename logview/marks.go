package logview

import (
	"math/bits"
	"strings"
	"unicode/utf8"
)

// Marks is a set of lower-case ASCII fragments looked for in any case.
// The sets are read for in every failure's error and log, most of which
// hold none of them, so each fragment's first two bytes are indexed once:
// a text is read once, and a fragment compared only where both stand.
type Marks struct {
	marks []string
	// first[c] and second[c] have bit i set when mark i's first (second)
	// byte is c; a mark of one byte has its bit set in every second.
	first, second [256]uint64
}

// NewMarks indexes marks, each in lower-case ASCII. It panics on an empty
// mark, one outside lower-case ASCII or more than 64 of them: the sets are
// the program's own.
func NewMarks(marks ...string) *Marks {
	if len(marks) > 64 {
		panic("logview: more than 64 marks")
	}
	ms := &Marks{marks: marks}
	for i, m := range marks {
		if m == "" || m != strings.ToLower(m) || !ASCII(m) {
			panic("logview: a mark must be lower-case ASCII and not empty: " + m)
		}
		ms.first[m[0]] |= 1 << i
		if len(m) == 1 {
			for c := range ms.second {
				ms.second[c] |= 1 << i
			}
			continue
		}
		ms.second[m[1]] |= 1 << i
	}
	return ms
}

// In reports whether s holds one of the marks, in any case.
func (ms *Marks) In(s string) bool {
	for i := 0; i < len(s); i++ {
		cand := ms.first[lowerASCII(s[i])]
		if cand == 0 {
			continue
		}
		if i+1 < len(s) {
			cand &= ms.second[lowerASCII(s[i+1])]
		}
		for ; cand != 0; cand &= cand - 1 {
			m := ms.marks[bits.TrailingZeros64(cand)]
			if i+len(m) <= len(s) && strings.EqualFold(s[i:i+len(m)], m) {
				return true
			}
		}
	}
	return false
}

// Admits reports whether a case-insensitive pattern each of whose matches
// holds one of the marks may match s: In, or s holds the long s (ſ) or the
// Kelvin sign, which such a pattern matches as s and k and In does not.
// They are the only letters outside ASCII that case folding reads as
// ASCII ones, so it gates a pattern without ever refusing a text the
// pattern matches.
func (ms *Marks) Admits(s string) bool {
	return ms.In(s) || strings.ContainsRune(s, 'ſ') || strings.ContainsRune(s, '\u212A')
}

// ASCII reports whether s holds no byte outside ASCII.
func ASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// lowerASCII is c in lower case when it is an ASCII capital.
func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
