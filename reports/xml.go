package reports

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"unicode/utf8"
)

// escBase is the first of 256 private-use runes that stand for raw bytes
// while encoding/xml reads a report: byte b is written as escBase+b. XML 1.0
// forbids NUL, most control characters and invalid UTF-8, yet reports carry
// them in captured output, and the log must keep them byte for byte.
const escBase = 0x10FF00

// xmlChar reports whether XML 1.0 allows r as it is and it is not one of
// the runes that stand for raw bytes.
func xmlChar(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D ||
		r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD ||
		r >= 0x10000 && r < escBase
}

// escapeXML returns in with every byte that encoding/xml would refuse
// replaced by the rune that stands for it: raw bytes outside XML's
// characters, and character references to them (&#0;, &#27;). Runes of
// the escape range itself are escaped byte by byte, so unescape restores
// the input exactly. In comments, CDATA sections and processing
// instructions a reference is literal text, so only raw bytes change there.
// Newlines are never escaped, so line numbers stay the same.
func escapeXML(in []byte) []byte {
	out := make([]byte, 0, len(in)+len(in)/64)
	raw := func(p []byte) {
		for len(p) > 0 {
			r, n := utf8.DecodeRune(p)
			if (r == utf8.RuneError && n == 1) || !xmlChar(r) {
				for _, b := range p[:n] {
					out = utf8.AppendRune(out, escBase+rune(b))
				}
			} else {
				out = append(out, p[:n]...)
			}
			p = p[n:]
		}
	}
	literal := func(i int, open, close string) int {
		end := bytes.Index(in[i+len(open):], []byte(close))
		if end < 0 {
			end = len(in)
		} else {
			end += i + len(open) + len(close)
		}
		raw(in[i:end])
		return end
	}
	start := 0 // of the bytes not yet copied
	for i := 0; i < len(in); {
		switch {
		case in[i] == '<' && bytes.HasPrefix(in[i:], []byte("<![CDATA[")):
			raw(in[start:i])
			i = literal(i, "<![CDATA[", "]]>")
			start = i
		case in[i] == '<' && bytes.HasPrefix(in[i:], []byte("<!--")):
			raw(in[start:i])
			i = literal(i, "<!--", "-->")
			start = i
		case in[i] == '<' && bytes.HasPrefix(in[i:], []byte("<?")):
			raw(in[start:i])
			i = literal(i, "<?", "?>")
			start = i
		case in[i] == '&' && bytes.HasPrefix(in[i:], []byte("&#")):
			r, n := charRef(in[i:])
			if n == 0 || xmlChar(r) || r > utf8.MaxRune || (r >= 0xD800 && r <= 0xDFFF) {
				i++ // left for the decoder, which reads it or reports it
				continue
			}
			raw(in[start:i])
			for _, b := range utf8.AppendRune(nil, r) {
				out = utf8.AppendRune(out, escBase+rune(b))
			}
			i += n
			start = i
		default:
			i++
		}
	}
	raw(in[start:])
	return out
}

// charRef reads a character reference (&#NN; or &#xHH;) at the start of p
// and returns its rune and length, or a length of 0 when p holds none.
func charRef(p []byte) (rune, int) {
	i, base := 2, 10
	if len(p) > 2 && p[2] == 'x' {
		i, base = 3, 16
	}
	end := bytes.IndexByte(p[:min(len(p), i+10)], ';')
	if end <= i {
		return 0, 0
	}
	v, err := strconv.ParseUint(string(p[i:end]), base, 32)
	if err != nil {
		return 0, 0
	}
	return rune(v), end + 1
}

// unescape turns the runes that escapeXML wrote back into their bytes.
func unescape(s []byte) []byte {
	// Every escape rune's UTF-8 starts with 0xF4; most text has none.
	if bytes.IndexByte(s, 0xF4) < 0 {
		return s
	}
	out := make([]byte, 0, len(s))
	for len(s) > 0 {
		r, n := utf8.DecodeRune(s)
		if r >= escBase && r <= escBase+0xFF {
			out = append(out, byte(r-escBase))
		} else {
			out = append(out, s[:n]...)
		}
		s = s[n:]
	}
	return out
}

// node is one element of a report, with where it starts.
type node struct {
	name     string
	attrs    map[string]string
	children []*node
	text     []byte // its character data, escaped
	line     int
}

func (n *node) attr(name string) string { return n.attrs[name] }

// chardata is the element's own text, byte for byte.
func (n *node) chardata() []byte { return unescape(n.text) }

// lineIndex finds the line of a byte offset.
type lineIndex []int // offsets of the newlines

func newLineIndex(data []byte) lineIndex {
	var idx lineIndex
	for i, b := range data {
		if b == '\n' {
			idx = append(idx, i)
		}
	}
	return idx
}

func (idx lineIndex) line(offset int64) int {
	return 1 + sort.SearchInts(idx, int(offset))
}

// parseXML reads a whole XML document into a tree of nodes. A syntax error
// names its line.
func parseXML(data []byte) (*node, error) {
	esc := escapeXML(data)
	lines := newLineIndex(esc)
	d := xml.NewDecoder(bytes.NewReader(esc))
	d.CharsetReader = func(label string, _ io.Reader) (io.Reader, error) {
		return nil, fmt.Errorf("only UTF-8 is read; write the report as UTF-8")
	}
	var root *node
	var stack []*node
	for {
		off := d.InputOffset()
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			if root == nil {
				return nil, &Error{Line: lines.line(off), Msg: "no XML element found"}
			}
			return root, nil
		}
		if err != nil {
			msg := err.Error()
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				msg = "bad XML: " + se.Msg
			}
			return nil, &Error{Line: lines.line(d.InputOffset()), Msg: string(unescape([]byte(msg)))}
		}
		switch t := tok.(type) {
		case xml.StartElement:
			n := &node{name: t.Name.Local, attrs: make(map[string]string, len(t.Attr)), line: lines.line(off)}
			for _, a := range t.Attr {
				n.attrs[a.Name.Local] = string(unescape([]byte(a.Value)))
			}
			switch {
			case len(stack) > 0:
				parent := stack[len(stack)-1]
				parent.children = append(parent.children, n)
			case root != nil:
				return nil, &Error{Line: n.line, Msg: fmt.Sprintf("a second root element <%s>; a report has one", n.name)}
			default:
				root = n
			}
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				top := stack[len(stack)-1]
				top.text = append(top.text, t...)
			}
		}
	}
}
