package handlers

import (
	"bytes"
	"strings"

	"github.com/a-h/templ"
	"github.com/starfederation/datastar-go/datastar"
)

// lineEnds turns CRLF and a bare CR into LF. An event stream ends a line at
// any of them, and datastar-go splits the elements into data lines at LF
// only, so a CR left in would let the text after it start a field of its
// own. HTML reads CR and CRLF as LF, so the page gets the same content.
var lineEnds = strings.NewReplacer("\r\n", "\n", "\r", "\n")

// patch sends c to the page as one Datastar patch-elements event, every
// line of it inside a data field.
func patch(sse *datastar.ServerSentEventGenerator, c templ.Component) error {
	var b bytes.Buffer
	if err := c.Render(sse.Context(), &b); err != nil {
		return err
	}
	return sse.PatchElements(lineEnds.Replace(b.String()))
}
