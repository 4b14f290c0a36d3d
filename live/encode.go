package live

import (
	"bytes"
	"context"
	"net/http"
	"strings"

	"github.com/a-h/templ"
	"github.com/starfederation/datastar-go/datastar"
)

// lineEnds turns CRLF and a bare CR into LF. An event stream ends a line at
// any of them, and datastar-go splits the elements into data lines at LF
// only, so a CR left in would let the text after it start a field of its
// own. HTML reads CR and CRLF as LF, so the page gets the same content.
var lineEnds = strings.NewReplacer("\r\n", "\n", "\r", "\n")

// PatchElements sends c to the page as one Datastar patch-elements event,
// every line of it inside a data field.
func PatchElements(sse *datastar.ServerSentEventGenerator, c templ.Component) error {
	var b bytes.Buffer
	if err := c.Render(sse.Context(), &b); err != nil {
		return err
	}
	return sse.PatchElements(lineEnds.Replace(b.String()))
}

// ConnectedEvent tells a page its stream is up again.
var ConnectedEvent = encode(func(sse *datastar.ServerSentEventGenerator) error {
	return sse.PatchSignals([]byte(`{"_reconnecting": false}`))
})

// KeepAlive is an event-stream comment: it keeps proxies from closing an
// idle stream and dispatches nothing.
var KeepAlive = []byte(": keep-alive\n\n")

// patchEvent is one Datastar patch-elements event carrying the listed
// fragments, encoded once by datastar-go for every client of a view;
// Datastar morphs each fragment into the element with its id.
func patchEvent(html map[string][]byte, ids []string) []byte {
	var elements strings.Builder
	for i, id := range ids {
		if i > 0 {
			elements.WriteByte('\n')
		}
		elements.WriteString(lineEnds.Replace(string(html[id])))
	}
	return encode(func(sse *datastar.ServerSentEventGenerator) error {
		return sse.PatchElements(elements.String())
	})
}

// encode returns the bytes datastar-go writes for send. Writing to memory
// cannot fail, and the context is never cancelled, so neither can send.
func encode(send func(*datastar.ServerSentEventGenerator) error) []byte {
	var w eventBuffer
	r, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, "/", nil)
	if err := send(datastar.NewSSE(&w, r)); err != nil {
		panic("live: encoding an event in memory: " + err.Error())
	}
	return w.buf.Bytes()
}

// eventBuffer is the response writer encode hands datastar-go: it keeps
// the body and drops the headers.
type eventBuffer struct {
	buf    bytes.Buffer
	header http.Header
}

func (w *eventBuffer) Header() http.Header {
	if w.header == nil {
		w.header = http.Header{}
	}
	return w.header
}

func (w *eventBuffer) Write(b []byte) (int, error) { return w.buf.Write(b) }
func (w *eventBuffer) WriteHeader(int)             {}
func (w *eventBuffer) Flush()                      {}
