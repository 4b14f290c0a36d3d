package live

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/a-h/templ"
	"github.com/starfederation/datastar-go/datastar"
)

// checkFrames fails t unless stream is well-formed patch-elements events:
// no bare CR, which an event stream also reads as the end of a line; every
// line of an event a field of ours; and the elements' lines, joined, the
// HTML sent with its line ends as HTML reads them.
func checkFrames(t *testing.T, stream, html string) {
	t.Helper()
	if strings.Contains(stream, "\r") {
		t.Fatalf("the stream for %q holds a CR: %q", html, stream)
	}
	if !strings.HasSuffix(stream, "\n\n") {
		t.Fatalf("the stream for %q does not end an event: %q", html, stream)
	}
	var elements []string
	var event []string // the lines of the event being read
	for _, line := range strings.Split(stream, "\n") {
		if line == "" {
			event = nil // a blank line dispatches the event
			continue
		}
		if event = append(event, line); len(event) == 1 {
			if line != "event: datastar-patch-elements" {
				t.Fatalf("the stream for %q has an event starting %q", html, line)
			}
			continue
		}
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			t.Fatalf("the stream for %q has the line %q, not a data line", html, line)
		}
		if part, ok := strings.CutPrefix(data, "elements "); ok {
			elements = append(elements, part)
		}
	}
	if want := strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(html); strings.Join(elements, "\n") != want {
		t.Fatalf("the stream for %q carries the elements %q, want %q", html, strings.Join(elements, "\n"), want)
	}
}

// FuzzPatchElements checks the events that the handlers' actions answer
// with, through datastar-go, for any HTML a page could hold.
func FuzzPatchElements(f *testing.F) {
	f.Fuzz(func(t *testing.T, html string) {
		rec := httptest.NewRecorder()
		sse := datastar.NewSSE(rec, httptest.NewRequest("POST", "/modes/m/triage", nil))
		if err := PatchElements(sse, templ.Raw(html)); err != nil {
			t.Fatal(err)
		}
		checkFrames(t, rec.Body.String(), html)
	})
}

// FuzzPatchEvent checks the events the hub sends live pages.
func FuzzPatchEvent(f *testing.F) {
	f.Fuzz(func(t *testing.T, html string) {
		if html == "" {
			return // the hub sends no fragment without an element
		}
		checkFrames(t, string(patchEvent(map[string][]byte{"x": []byte(html)}, []string{"x"})), html)
	})
}
