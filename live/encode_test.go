package live

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/a-h/templ"
	"github.com/starfederation/datastar-go/datastar"
)

// Found by FuzzPatchElements: datastar-go passes a bare CR through, and an
// event stream ends a line there.
func TestActionAnswersKeepEveryLineOfHTMLInsideADataField(t *testing.T) {
	tests := []struct {
		name, html string
		want       []string
	}{
		{"a bare CR cannot start a field", "<p id=\"x\">a\rretry: 1\revent: evil</p>",
			[]string{"data: elements <p id=\"x\">a", "data: elements retry: 1", "data: elements event: evil</p>"}},
		{"CRLF is one line end", "<pre id=\"x\">a\r\nb</pre>", []string{"data: elements <pre id=\"x\">a", "data: elements b</pre>"}},
		{"LF splits as before", "<p id=\"x\">a\ndata: selector #evil</p>", []string{"data: elements <p id=\"x\">a", "data: elements data: selector #evil</p>"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			if err := PatchElements(datastar.NewSSE(rec, httptest.NewRequest("POST", "/", nil)), templ.Raw(tt.html)); err != nil {
				t.Fatal(err)
			}
			want := "event: datastar-patch-elements\n" + strings.Join(tt.want, "\n") + "\n\n\n"
			if got := rec.Body.String(); got != want {
				t.Errorf("got %q, want %q", got, want)
			}
		})
	}
}
