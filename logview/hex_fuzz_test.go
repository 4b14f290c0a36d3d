package logview

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"testing"
)

// FuzzHex checks that the hex views never panic; that every row starts on
// a row boundary with its offset, each byte's hex is that byte, and the
// ASCII column shows printable ASCII only; that Hex shows the first bytes
// up to its limit; and that HexAround marks the byte FirstDiff finds, and
// no other.
func FuzzHex(f *testing.F) {
	f.Fuzz(func(t *testing.T, a, b []byte, limit, context int) {
		rows, truncated := Hex(a, limit)
		n := min(len(a), max(limit, 0))
		if got := checkRows(t, a, rows); got[0] != 0 && n > 0 || got[1] != n || truncated != (n < len(a)) {
			t.Fatalf("Hex(%q, %d) dumps bytes %v, truncated %v; want [0 %d), truncated %v", a, limit, got, truncated, n, n < len(a))
		}
		at := FirstDiff(a, b)
		switch {
		case bytes.Equal(a, b) != (at == -1):
			t.Fatalf("FirstDiff(%q, %q) = %d", a, b, at)
		case at >= 0 && at < min(len(a), len(b)) && (a[at] == b[at] || !bytes.Equal(a[:at], b[:at])):
			t.Fatalf("FirstDiff(%q, %q) = %d, not the first difference", a, b, at)
		case at >= min(len(a), len(b)) && !bytes.HasPrefix(a, b) && !bytes.HasPrefix(b, a):
			t.Fatalf("FirstDiff(%q, %q) = %d, past a difference", a, b, at)
		}
		around := HexAround(a, at, context)
		if at < 0 && around != nil {
			t.Fatalf("HexAround(%q, %d, %d) dumps %d rows for no difference", a, at, context, len(around))
		}
		span := checkRows(t, a, around)
		marked := -1
		for _, row := range around {
			for _, c := range row.Bytes {
				if c.Differs && marked >= 0 {
					t.Fatalf("HexAround(%q, %d, %d) marks more than one byte", a, at, context)
				}
				if c.Differs {
					marked = at
				}
			}
		}
		if inside := at >= 0 && at < len(a); inside != (marked >= 0) || inside && (at < span[0] || at >= span[1]) {
			t.Fatalf("HexAround(%q, %d, %d) dumps %v and marks %d", a, at, context, span, marked)
		}
	})
}

// checkRows fails t unless rows dump consecutive whole rows of b, and
// returns the range of b they cover.
func checkRows(t *testing.T, b []byte, rows []HexRow) [2]int {
	t.Helper()
	if len(rows) == 0 {
		return [2]int{0, 0}
	}
	var start int
	fmt.Sscanf(rows[0].Offset, "%x", &start)
	pos := start
	for i, row := range rows {
		if row.Offset != fmt.Sprintf("%08x", pos) || pos%bytesPerRow != 0 || len(row.Bytes) == 0 ||
			len(row.Bytes) > bytesPerRow || len(row.ASCII) != len(row.Bytes) || i < len(rows)-1 && len(row.Bytes) != bytesPerRow {
			t.Fatalf("row %d is %+v, not the row at %d", i, row, pos)
		}
		for j, c := range row.Bytes {
			if c.Hex != hex.EncodeToString(b[pos+j:pos+j+1]) {
				t.Fatalf("byte %d reads %q, want %x", pos+j, c.Hex, b[pos+j])
			}
			want := b[pos+j]
			if want < ' ' || want >= 0x7f {
				want = '.'
			}
			if row.ASCII[j] != want {
				t.Fatalf("the ASCII column shows %q for byte %#x, want %q", row.ASCII[j], b[pos+j], want)
			}
		}
		pos += len(row.Bytes)
	}
	return [2]int{start, pos}
}
