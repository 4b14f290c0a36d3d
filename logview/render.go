// Package logview turns hostile bytes from the campaign database into safe,
// faithful display models: logs split into styled spans, error messages with
// their hidden characters made visible, hex dumps, and checks that decide how
// an artifact may be shown or downloaded.
//
// Every Text the package returns is valid UTF-8 without NUL or ESC, so a view
// can render it as plain text. Nothing is silently dropped: NUL bytes,
// control characters and invalid UTF-8 become spans of their own kind.
package logview

import (
	"bytes"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Kind says how a span must be shown.
type Kind uint8

const (
	// Text is ordinary text.
	Text Kind = iota
	// NUL is a run of NUL bytes; Text holds one "␀" per byte, for a badge.
	NUL
	// Control is a run of control or format characters; Text holds a
	// visible escape per character, such as `\x1b`, `^G`, `\x7f`, `\u202e`
	// or `\u200b`.
	Control
	// Invalid is a run of bytes that are not valid UTF-8; Text holds one
	// U+FFFD per byte and Hex the bytes, such as "0x89" or "0xed 0xa0".
	Invalid
)

// String returns the kind's lower-case name, usable as a CSS class suffix.
func (k Kind) String() string {
	switch k {
	case Text:
		return "text"
	case NUL:
		return "nul"
	case Control:
		return "control"
	case Invalid:
		return "invalid"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Span is a run of text with one look.
type Span struct {
	Text  string // valid UTF-8 without NUL or ESC; safe to render as text
	Kind  Kind
	Hex   string // the raw bytes of an Invalid span
	Class string // ANSI style classes, such as "ansi-red ansi-bold"; "" for none
}

// Line is one numbered line of a log.
type Line struct {
	N     int // from 1
	Spans []Span
}

// Log is a rendered log, possibly cut short.
type Log struct {
	Lines      []Line
	Truncated  bool
	ShownBytes int64
	TotalBytes int64
}

// Render splits b into lines of styled spans, showing at most limit bytes.
//
// It reads b the way a terminal shows it, with some simplifications:
//   - "\n" and "\r\n" end a line; a trailing newline adds no empty line.
//   - A lone "\r" returns to the start of the line, and a progress bar
//     redraws the whole line, so only the text after the line's last "\r"
//     is kept. Trailing "\r"s are ignored, so "done\r" stays "done". Styles
//     set in the discarded part still apply.
//   - SGR sequences (ESC [ … m) set the Class of the text that follows,
//     across lines. Every other escape sequence, such as cursor movement or
//     an OSC window title, is removed without being interpreted.
//   - An ESC that does not start a well-formed sequence is a Control span.
//
// When b is longer than limit, the cut lands after the last newline within
// limit or, when the first line alone is longer, at the last rune boundary
// within limit; it never splits a UTF-8 sequence.
func Render(b []byte, limit int) Log {
	cut := cutPoint(b, limit)
	r := renderer{src: string(b[:cut]), ansi: true}
	lines := make([]Line, 0, strings.Count(r.src, "\n")+1)
	// Each line ends a span and each escape sequence can start one; the
	// rarer NULs, controls and invalid bytes are left to append.
	r.spans = make([]Span, 0, cap(lines)+strings.Count(r.src, "\x1b"))
	for i := 0; i < len(r.src); {
		end, next := len(r.src), len(r.src)
		if k := strings.IndexByte(r.src[i:], '\n'); k >= 0 {
			end, next = i+k, i+k+1
		}
		for end > i && r.src[end-1] == '\r' {
			end--
		}
		start := i
		if k := strings.LastIndexByte(r.src[i:end], '\r'); k >= 0 {
			start = i + k + 1
			r.applyStyles(i, start)
		}
		first := len(r.spans)
		r.scan(start, end)
		r.flush()
		var spans []Span
		if len(r.spans) > first {
			spans = r.spans[first:len(r.spans):len(r.spans)]
		}
		lines = append(lines, Line{N: len(lines) + 1, Spans: spans})
		i = next
	}
	if len(lines) == 0 {
		lines = nil
	}
	return Log{
		Lines:      lines,
		Truncated:  cut < len(b),
		ShownBytes: int64(cut),
		TotalBytes: int64(len(b)),
	}
}

// RenderText makes the hidden characters of a short field, such as an error
// message or a test name, visible. Newlines, carriage returns and tabs stay
// text; escape sequences are not interpreted, so an ESC shows as `\x1b`.
func RenderText(s string) []Span {
	r := renderer{src: s}
	r.scan(0, len(s))
	r.flush()
	return r.spans
}

// Visible makes campaign text safe to show on one line, in an attribute, a
// chart label or a ticket: everything that could hide, reorder or corrupt
// what a reader sees is replaced by the mark the error block shows for it.
// A NUL becomes ␀; a C0 control its caret form, such as ^G, or \x1b for ESC,
// and DEL \x7f; a C1 control or a format character (Unicode category Cf:
// bidi controls, zero-width characters, the BOM) its code point, such as
// \u202e; an invalid byte U+FFFD. Unlike RenderText it marks line breaks
// and tabs too. Every other character is kept, so nothing is cut short.
func Visible(s string) string {
	var b strings.Builder
	start := 0 // s[start:i] is kept text not yet written
	for i := 0; i < len(s); {
		c := s[i]
		if c >= ' ' && c < 0x7f {
			i++
			continue
		}
		mark, size := "", 1
		switch {
		case c == 0:
			mark = "␀"
		case c < utf8.RuneSelf:
			mark = controlEscape(rune(c))
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			size = n
			switch {
			case r == utf8.RuneError && n == 1:
				mark = "\uFFFD"
			case isControlRune(r):
				mark = controlEscape(r)
			default:
				i += n
				continue
			}
		}
		if start == 0 {
			b.Grow(len(s) + 16)
		}
		b.WriteString(s[start:i])
		b.WriteString(mark)
		i += size
		start = i
	}
	if start == 0 {
		return s
	}
	b.WriteString(s[start:])
	return b.String()
}

// Hidden reports whether Visible replaces r with a mark: r is a control or
// format character. (Visible marks invalid bytes too.)
func Hidden(r rune) bool {
	return r < 0x20 || r == 0x7f || isControlRune(r)
}

// RenderTail renders the end of a log that was cut: b's first line is
// dropped, since b may start inside it, unless it is b's only line (with or
// without its newline); lines are numbered 0, since how many came before
// is not known.
func RenderTail(b []byte) Log {
	if k := bytes.IndexByte(b, '\n'); k >= 0 && k < len(b)-1 {
		b = b[k+1:]
	}
	l := Render(b, len(b))
	for i := range l.Lines {
		l.Lines[i].N = 0
	}
	return l
}

// cutPoint returns how many bytes of b to show under limit.
func cutPoint(b []byte, limit int) int {
	if len(b) <= limit {
		return len(b)
	}
	if limit <= 0 {
		return 0
	}
	if k := bytes.LastIndexByte(b[:limit], '\n'); k >= 0 {
		return k + 1
	}
	// Step back over a UTF-8 sequence that the limit would split.
	for s := limit - 1; s >= 0 && s > limit-utf8.UTFMax; s-- {
		if !utf8.RuneStart(b[s]) {
			continue
		}
		if _, size := utf8.DecodeRune(b[s:]); s+size > limit {
			return s
		}
		break
	}
	return limit
}

// renderer accumulates spans, merging neighbours that look the same.
type renderer struct {
	src   string
	ansi  bool  // src is terminal output: interpret escape sequences
	style style // the current SGR state
	spans []Span

	// The span being built. While its text is one slice of src, text is
	// that slice and end its end offset; after a merge that is not
	// contiguous, the text (and hex) live in buf (and hexBuf) instead.
	open     bool
	kind     Kind
	look     style
	text     string
	hex      string
	start    int
	end      int
	buffered bool
	buf      []byte
	hexBuf   []byte
}

// scan renders src[i:e], which holds no line break when r.ansi is set.
func (r *renderer) scan(i, e int) {
	for i < e {
		if j := plainEnd(r.src, i, e, !r.ansi); j > i {
			r.add(Text, r.src[i:j], i, "")
			i = j
			continue
		}
		c := r.src[i]
		switch {
		case c == 0:
			r.add(NUL, "␀", -1, "")
			i++
		case c == esc && r.ansi:
			n, params, sgr := escape(r.src[i:e])
			if n == 0 {
				r.add(Control, controlEscape(esc), -1, "")
				i++
				continue
			}
			if sgr {
				r.style = r.style.apply(params)
			}
			i += n
		case c < utf8.RuneSelf:
			r.add(Control, controlEscape(rune(c)), -1, "")
			i++
		default:
			rn, size := utf8.DecodeRuneInString(r.src[i:e])
			if rn == utf8.RuneError && size == 1 {
				r.add(Invalid, "\uFFFD", -1, byteHex[c])
			} else {
				r.add(Control, controlEscape(rn), -1, "")
			}
			i += size
		}
	}
}

// applyStyles applies the SGR sequences in src[i:e] without rendering text.
func (r *renderer) applyStyles(i, e int) {
	for {
		k := strings.IndexByte(r.src[i:e], esc)
		if k < 0 {
			return
		}
		i += k
		n, params, sgr := escape(r.src[i:e])
		if sgr {
			r.style = r.style.apply(params)
		}
		i += max(n, 1)
	}
}

// add appends text of the given kind in the current style. at is the offset
// of text in src, or -1 when the text is generated.
func (r *renderer) add(kind Kind, text string, at int, hex string) {
	if !r.open || kind != r.kind || r.style != r.look {
		r.flush()
		r.open, r.kind, r.look = true, kind, r.style
		r.text, r.hex, r.start, r.end = text, hex, at, -1
		if at >= 0 {
			r.end = at + len(text)
		}
		return
	}
	if !r.buffered && at >= 0 && at == r.end {
		r.end += len(text)
		r.text = r.src[r.start:r.end]
		return
	}
	if !r.buffered {
		r.buffered = true
		r.buf = append(r.buf[:0], r.text...)
		r.hexBuf = append(r.hexBuf[:0], r.hex...)
	}
	r.buf = append(r.buf, text...)
	if hex != "" {
		r.hexBuf = append(append(r.hexBuf, ' '), hex...)
	}
}

// flush ends the span being built.
func (r *renderer) flush() {
	if !r.open {
		return
	}
	if r.buffered {
		r.text, r.hex = string(r.buf), string(r.hexBuf)
	}
	r.spans = append(r.spans, Span{Text: r.text, Kind: r.kind, Hex: r.hex, Class: r.look.class()})
	r.open, r.buffered = false, false
}

// plainEnd returns the end of the run of plain text that starts at s[i],
// stopping at e. Tabs are plain; so are "\n" and "\r" when breaks is set.
func plainEnd(s string, i, e int, breaks bool) int {
	for i < e {
		c := s[i]
		if c < utf8.RuneSelf {
			if !isPlainByte(c, breaks) {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:e])
		if r == utf8.RuneError && size == 1 || isControlRune(r) {
			return i
		}
		i += size
	}
	return i
}

// isPlainByte reports whether the ASCII byte c is shown as it is.
func isPlainByte(c byte, breaks bool) bool {
	return c >= ' ' && c != 0x7f || c == '\t' || breaks && (c == '\n' || c == '\r')
}

// isControlRune reports whether the non-ASCII rune r must be made visible:
// a C1 control, or a format character (category Cf), such as a
// bidirectional override that could reorder what the reader sees or a
// zero-width character that could hide in a word. Cf starts at U+00AD, so
// most text never reaches the table look-up.
func isControlRune(r rune) bool {
	return r >= 0x80 && r < 0xa0 || r >= 0xad && unicode.Is(unicode.Cf, r)
}

const esc = 0x1b

// caretEscapes holds the caret notation of the C0 controls, ESC excepted.
var caretEscapes = func() (t [0x20]string) {
	for c := range t {
		t[c] = "^" + string(rune('@'+c))
	}
	return t
}()

// byteHex holds "0x00" … "0xff".
var byteHex = func() (t [256]string) {
	for c := range t {
		t[c] = fmt.Sprintf("0x%02x", c)
	}
	return t
}()

// controlEscape returns the visible form of the control character r.
func controlEscape(r rune) string {
	switch {
	case r == esc:
		return `\x1b`
	case r < 0x20:
		return caretEscapes[r]
	case r == 0x7f:
		return `\x7f`
	}
	if r > 0xffff {
		return fmt.Sprintf(`\U%08x`, r)
	}
	return fmt.Sprintf(`\u%04x`, r)
}
