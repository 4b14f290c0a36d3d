package logview

import (
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestVisible(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain text is returned as it is", "file-io/png-roundtrip ✓ 日本語", "file-io/png-roundtrip ✓ 日本語"},
		{"a NUL is a ␀ and the text after it is kept", "a\x00b", "a␀b"},
		{"C0 controls take their caret form, line breaks and tabs included", "a\nb\tc\rd\x07", `a^Jb^Ic^Md^G`},
		{"ESC and DEL are escaped", "\x1b[31mred\x7f", `\x1b[31mred\x7f`},
		{"a C1 control is escaped", "a\u0085b", `a\u0085b`},
		{"bidi overrides, embeddings, isolates and marks are escaped", "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c",
			`\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c`},
		{"a reversed title reads in logical order", "invoice-\u202etxt.exe", `invoice-\u202etxt.exe`},
		{"zero-width characters and the BOM are escaped", "a\u200bb\u200cc\u200dd\u2060e\ufeff", `a\u200bb\u200cc\u200dd\u2060e\ufeff`},
		{"other format characters are escaped, beyond the BMP too", "soft\u00adhyphen tag\U000E0041", `soft\u00adhyphen tag\U000e0041`},
		{"an invalid byte is U+FFFD", "caf\xe9!", "caf\uFFFD!"},
		{"HTML stays text for the view to escape", "<b>x</b>", "<b>x</b>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Visible(tt.in); got != tt.want {
				t.Errorf("Visible(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestVisibleAllocatesNothingForPlainText(t *testing.T) {
	s := "a plain test key, file-io/png-roundtrip-17 — ünïcödé"
	if n := testing.AllocsPerRun(100, func() { Visible(s) }); n != 0 {
		t.Errorf("got %v allocations, want 0", n)
	}
}

// FuzzVisible checks that Visible's output is valid UTF-8 without any
// control or format character, keeps every other character of the input in
// order, never shrinks, and is its own fixed point.
func FuzzVisible(f *testing.F) {
	for _, s := range []string{"", "plain", "a\x00b", "\x1b[31m\u202eevil\u200b\ufeff", "caf\xe9", "\xed\xa0\x80", "\U000E0001tag", "\r\n\t\x7f\u0085"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := Visible(in)
		if !utf8.ValidString(out) {
			t.Fatalf("Visible(%q) = %q, not valid UTF-8", in, out)
		}
		for _, r := range out {
			if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
				t.Fatalf("Visible(%q) = %q, holds %U", in, out, r)
			}
		}
		// Every character that needs no mark is still there, in order.
		rest, units := out, 0
		for i := 0; i < len(in); {
			r, size := utf8.DecodeRuneInString(in[i:])
			i += size
			units++
			if r == utf8.RuneError && size == 1 || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
				continue
			}
			for {
				if rest == "" {
					t.Fatalf("Visible(%q) = %q, lost %q", in, out, r)
				}
				got, n := utf8.DecodeRuneInString(rest)
				rest = rest[n:]
				if got == r {
					break
				}
			}
		}
		if n := utf8.RuneCountInString(out); n < units {
			t.Fatalf("Visible(%q) = %q, %d characters for %d in the input", in, out, n, units)
		}
		if again := Visible(out); again != out {
			t.Fatalf("Visible(%q) = %q, not a fixed point", out, again)
		}
	})
}
