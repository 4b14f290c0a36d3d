package logview

import "fmt"

// bytesPerRow is the width of a hex dump.
const bytesPerRow = 16

// HexRow is one row of a hex dump.
type HexRow struct {
	Offset string // of the row's first byte, in hex: "00000010"
	Bytes  []HexByte
	ASCII  string // printable ASCII as it is, every other byte as '.'
}

// HexByte is one byte of a hex dump.
type HexByte struct {
	Hex     string // "0a"
	Differs bool
}

// Hex dumps at most limit bytes of b and reports whether it left some out.
func Hex(b []byte, limit int) (rows []HexRow, truncated bool) {
	n := min(len(b), max(limit, 0))
	return hexRows(b, 0, n, -1), n < len(b)
}

// HexAround dumps the rows of b within context bytes of offset, widened to
// whole rows, and marks the byte at offset as differing. An offset at or
// past the end of b, as FirstDiff returns when one side is a prefix of the
// other, dumps the tail of b with nothing marked. A negative offset dumps
// nothing.
func HexAround(b []byte, offset, context int) []HexRow {
	if offset < 0 {
		return nil
	}
	context = min(max(context, 0), len(b))
	at := min(offset, len(b))
	from := max(at-context, 0) / bytesPerRow * bytesPerRow
	to := (at + context + bytesPerRow) / bytesPerRow * bytesPerRow
	return hexRows(b, from, min(to, len(b)), offset)
}

// hexRows dumps b[from:to], which starts on a row boundary, marking the
// byte at offset mark.
func hexRows(b []byte, from, to, mark int) []HexRow {
	if from >= to {
		return nil
	}
	rows := make([]HexRow, 0, (to-from+bytesPerRow-1)/bytesPerRow)
	cells := make([]HexByte, to-from)
	for start := from; start < to; start += bytesPerRow {
		end := min(start+bytesPerRow, to)
		row := cells[start-from : end-from : end-from]
		var ascii [bytesPerRow]byte
		for i, c := range b[start:end] {
			row[i] = HexByte{Hex: byteHex[c][2:], Differs: start+i == mark}
			ascii[i] = '.'
			if c >= ' ' && c < 0x7f {
				ascii[i] = c
			}
		}
		rows = append(rows, HexRow{
			Offset: fmt.Sprintf("%08x", start),
			Bytes:  row,
			ASCII:  string(ascii[:end-start]),
		})
	}
	return rows
}

// FirstDiff returns the offset of the first byte where a and b differ, or -1
// when they are equal. When one is a prefix of the other, the difference is
// at the shorter one's length.
func FirstDiff(a, b []byte) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) == len(b) {
		return -1
	}
	return n
}
