package views

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/a-h/templ"

	"sandtrap/logview"
)

// formInput is an <input> with attrs whose value the form must send back
// exactly as it is, such as a filter on a target whose name holds a bidi
// override. Hidden characters in it are written as character references:
// the browser reads them back into the value, and the page's bytes hold
// none of them raw.
func formInput(attrs templ.Attributes, value string) templ.Component {
	return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		var b strings.Builder
		b.WriteString("<input")
		for _, k := range slices.Sorted(maps.Keys(attrs)) {
			fmt.Fprintf(&b, ` %s="%s"`, templ.EscapeString(k), templ.EscapeString(fmt.Sprint(attrs[k])))
		}
		b.WriteString(` value="` + characterReferences(value) + `">`)
		_, err := io.WriteString(w, b.String())
		return err
	})
}

// characterReferences escapes s for HTML text or an attribute value, and
// writes each hidden character (logview.Hidden) but a newline or a tab as
// a numeric character reference, so that the text is exact in the DOM but
// never raw in the page. A NUL and an invalid byte become U+FFFD, as an
// HTML parser would make them.
func characterReferences(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == 0 || r == utf8.RuneError && size == 1:
			b.WriteString("&#xfffd;")
		case logview.Hidden(r) && r != '\n' && r != '\t':
			fmt.Fprintf(&b, "&#x%x;", r)
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '"':
			b.WriteString("&#34;")
		case r == '\'':
			b.WriteString("&#39;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
