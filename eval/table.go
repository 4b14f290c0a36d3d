package eval

import (
	"fmt"
	"io"
	"unicode/utf8"
)

// WriteTable writes scores to w as an aligned text table under title, one
// class a line with its precision, recall, F1 and support. It is meant for
// a terminal report, so a failed write is the terminal's problem and not
// returned. The class "" is shown as "" so that its row has a name.
func WriteTable(w io.Writer, title string, scores []Score) {
	width := len("class")
	for _, s := range scores {
		width = max(width, utf8.RuneCountInString(className(s.Class)))
	}
	fmt.Fprintf(w, "%s\n", title)
	fmt.Fprintf(w, "%-*s  %9s  %6s  %6s  %7s\n", width, "class", "precision", "recall", "F1", "support")
	for _, s := range scores {
		fmt.Fprintf(w, "%-*s  %9.3f  %6.3f  %6.3f  %7d\n", width, className(s.Class), s.Precision, s.Recall, s.F1, s.Support)
	}
}

func className(c string) string {
	if c == "" {
		return `""`
	}
	return c
}
