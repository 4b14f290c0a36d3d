package reports

import (
	"bytes"
	"errors"
	"testing"
	"unicode/utf8"
)

// checkReport fails t unless parsing data gave a report or an *Error that
// says where: a line or a field. A report's results each have a test name
// and an attempt.
func checkReport(t *testing.T, format string, data []byte, rep Report, err error) {
	t.Helper()
	if err != nil {
		var e *Error
		if !errors.As(err, &e) || e.Line <= 0 && e.Field == "" {
			t.Fatalf("%s of %q: got %v, want an error with its line or field", format, data, err)
		}
		if e.Line > bytes.Count(data, []byte("\n"))+1 {
			t.Fatalf("%s of %q: got %v, past the last line", format, data, err)
		}
		return
	}
	for i, r := range rep.Results {
		if r.Test == "" || r.Attempt < 1 || r.Status == "" {
			t.Fatalf("%s of %q: result %d is %+v, without a test, an attempt or a status", format, data, i, r)
		}
	}
}

// FuzzParseJUnit checks that reading any bytes as JUnit XML never panics,
// and that a refusal names its line. A report in UTF-8 gives test names in
// UTF-8: the runes that stand for raw bytes while it is read never leak.
func FuzzParseJUnit(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		rep, err := ParseJUnit(bytes.NewReader(data))
		checkReport(t, "ParseJUnit", data, rep, err)
		for _, r := range rep.Results {
			if !utf8.ValidString(r.Test) && utf8.Valid(data) {
				t.Fatalf("ParseJUnit of %q: test name %q is not UTF-8, though the report is", data, r.Test)
			}
		}
	})
}

// FuzzParseCTRF checks that reading any bytes as CTRF JSON never panics,
// and that a refusal names its line or field.
func FuzzParseCTRF(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		rep, err := ParseCTRF(bytes.NewReader(data))
		checkReport(t, "ParseCTRF", data, rep, err)
	})
}
