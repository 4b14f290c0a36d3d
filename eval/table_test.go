package eval

import (
	"strings"
	"testing"
)

func TestWriteTable(t *testing.T) {
	scores, _ := PerClass(
		[]string{"network-egress", "network-egress", "memory", ""},
		[]string{"network-egress", "memory", "memory", ""},
	)
	var b strings.Builder
	WriteTable(&b, "primitive (test half)", scores)
	want := `primitive (test half)
class           precision  recall      F1  support
""                  1.000   1.000   1.000        1
memory              0.500   1.000   0.667        1
network-egress      1.000   0.500   0.667        2
`
	if got := b.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
