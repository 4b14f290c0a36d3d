package logview

import "bytes"

// Damage is how a round trip changed an artifact's bytes, as far as the
// bytes that came back say.
type Damage string

// The kinds of Damage.
const (
	// DamageUnknown: the bytes changed, and they do not say how.
	DamageUnknown Damage = ""
	// DamageMangled: binary bytes were decoded as text on the way, so
	// U+FFFD stands where they were.
	DamageMangled Damage = "mangled-as-text"
	// DamageCutAtNUL: the bytes stop where the first NUL byte was, the way
	// code that reads them as a C string cuts them.
	DamageCutAtNUL Damage = "cut-at-nul"
	// DamageCutShort: the bytes stop early, NUL bytes and all: a size limit
	// or a stream closed too soon.
	DamageCutShort Damage = "cut-short"
)

// Describe says the damage in words for a page, or "" when it is unknown.
func (d Damage) Describe() string {
	switch d {
	case DamageMangled:
		return "decoded as text on the way: U+FFFD replaces the bytes that were not UTF-8"
	case DamageCutAtNUL:
		return "cut where the first NUL byte was"
	case DamageCutShort:
		return "cut short"
	}
	return ""
}

// replacementChar is U+FFFD in UTF-8.
var replacementChar = []byte("\xef\xbf\xbd")

// RoundTripDamage says how got, the bytes that came back from a round trip
// with another digest than was sent, were damaged. sent is a copy of what
// was sent when the harness kept one (the artifact with the expected
// digest), or nil. With it the answer is exact; without it, it is read
// from what got is: a binary format keeps NUL bytes from its first few
// bytes on and says where it ends, so a PNG without a single NUL was cut at
// its first, and one without its IEND chunk was cut short.
func RoundTripDamage(got, sent []byte) Damage {
	if sent != nil {
		switch {
		case len(got) < len(sent) && bytes.HasPrefix(sent, got):
			if sent[len(got)] == 0 {
				return DamageCutAtNUL
			}
			return DamageCutShort
		case bytes.Contains(got, replacementChar) && !bytes.Contains(sent, replacementChar):
			return DamageMangled
		}
		return DamageUnknown
	}
	if bytes.Contains(got, replacementChar) && (!IsText(got) || startsLikeBinary(got)) {
		return DamageMangled
	}
	for _, f := range binaryFormats {
		if !bytes.HasPrefix(got, []byte(f.magic)) {
			continue
		}
		if f.nulEarly && bytes.IndexByte(got, 0) < 0 {
			return DamageCutAtNUL
		}
		if f.ends != nil && !f.ends(got) {
			return DamageCutShort
		}
		return DamageUnknown
	}
	return DamageUnknown
}

// binaryFormats are formats whose files RoundTripDamage can judge: by the
// bytes they start with, whether a NUL byte comes within their first few
// bytes, and how to tell that a file is whole (nil: it cannot tell).
var binaryFormats = []struct {
	magic    string
	nulEarly bool
	ends     func([]byte) bool
}{
	{"\x89PNG\r\n\x1a\n", true, func(b []byte) bool { return bytes.Contains(tailOf(b, 16), []byte("IEND")) }},
	{"\xff\xd8\xff", true, func(b []byte) bool { return bytes.Contains(tailOf(b, 16), []byte("\xff\xd9")) }},
	{"PK\x03\x04", true, func(b []byte) bool { return bytes.Contains(tailOf(b, 65557), []byte("PK\x05\x06")) }},
	{"GIF87a", true, func(b []byte) bool { return bytes.HasSuffix(bytes.TrimRight(b, "\x00\n"), []byte(";")) }},
	{"GIF89a", true, func(b []byte) bool { return bytes.HasSuffix(bytes.TrimRight(b, "\x00\n"), []byte(";")) }},
	{"\x1f\x8b", true, nil},
	{"\x7fELF", true, nil},
	// A PDF may be text throughout, so a missing NUL says nothing.
	{"%PDF-", false, func(b []byte) bool { return bytes.Contains(tailOf(b, 1024), []byte("%%EOF")) }},
}

// startsLikeBinary reports whether b starts like a PNG once its first
// byte, 0x89, which is not UTF-8, became U+FFFD. The other formats start
// with ASCII, or with bytes that are not UTF-8 all the way past their
// signature, so nothing of them is left to recognise.
func startsLikeBinary(b []byte) bool {
	return bytes.HasPrefix(b, []byte("\uFFFDPNG"))
}

func tailOf(b []byte, n int) []byte { return b[max(0, len(b)-n):] }
