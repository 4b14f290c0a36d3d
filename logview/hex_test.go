package logview

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// hexDump flattens rows into one line per row, "offset hex… |ascii|", with
// a '*' after each differing byte, so tests can compare whole dumps.
func hexDump(rows []HexRow) []string {
	var lines []string
	for _, row := range rows {
		var b strings.Builder
		b.WriteString(row.Offset)
		for _, c := range row.Bytes {
			b.WriteString(" " + c.Hex)
			if c.Differs {
				b.WriteString("*")
			}
		}
		fmt.Fprintf(&b, " |%s|", row.ASCII)
		lines = append(lines, b.String())
	}
	return lines
}

func TestHex(t *testing.T) {
	tests := []struct {
		name          string
		in            string
		limit         int
		want          []string
		wantTruncated bool
	}{
		{
			name:  "empty input has no rows",
			in:    "",
			limit: 64,
			want:  nil,
		},
		{
			name:  "rows hold 16 bytes and non-printables show as dots",
			in:    "Hello,\x00world\n\xff0123456789",
			limit: 64,
			want: []string{
				"00000000 48 65 6c 6c 6f 2c 00 77 6f 72 6c 64 0a ff 30 31 |Hello,.world..01|",
				"00000010 32 33 34 35 36 37 38 39 |23456789|",
			},
		},
		{
			name:  "the limit cuts the dump and reports it",
			in:    strings.Repeat("A", 20),
			limit: 17,
			want: []string{
				"00000000 41 41 41 41 41 41 41 41 41 41 41 41 41 41 41 41 |AAAAAAAAAAAAAAAA|",
				"00000010 41 |A|",
			},
			wantTruncated: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows, truncated := Hex([]byte(tt.in), tt.limit)
			if got := hexDump(rows); !slices.Equal(got, tt.want) || truncated != tt.wantTruncated {
				t.Errorf("Hex(%q, %d) = %q, %v, want %q, %v", tt.in, tt.limit, got, truncated, tt.want, tt.wantTruncated)
			}
		})
	}
}

func TestHexAround(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789abcdef"), 4)
	tests := []struct {
		name    string
		in      []byte
		offset  int
		context int
		want    []string
	}{
		{
			name:    "the rows around the offset are shown and its byte is marked",
			in:      data,
			offset:  37,
			context: 4,
			want: []string{
				"00000020 30 31 32 33 34 35* 36 37 38 39 61 62 63 64 65 66 |0123456789abcdef|",
			},
		},
		{
			name:    "context reaching over a row boundary widens to whole rows",
			in:      data,
			offset:  17,
			context: 4,
			want: []string{
				"00000000 30 31 32 33 34 35 36 37 38 39 61 62 63 64 65 66 |0123456789abcdef|",
				"00000010 30 31* 32 33 34 35 36 37 38 39 61 62 63 64 65 66 |0123456789abcdef|",
			},
		},
		{
			name:    "an offset at the end shows the tail with nothing marked",
			in:      data[:20],
			offset:  20,
			context: 2,
			want: []string{
				"00000010 30 31 32 33 |0123|",
			},
		},
		{
			name:    "a negative offset shows nothing",
			in:      data,
			offset:  -1,
			context: 8,
			want:    nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := hexDump(HexAround(tt.in, tt.offset, tt.context)); !slices.Equal(got, tt.want) {
				t.Errorf("HexAround(%q, %d, %d) = %q, want %q", tt.in, tt.offset, tt.context, got, tt.want)
			}
		})
	}
}

func TestFirstDiff(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		want int
	}{
		{"equal inputs have no difference", "same", "same", -1},
		{"two empty inputs have no difference", "", "", -1},
		{"a prefix differs at its length", "abc", "abcd", 3},
		{"a longer first input differs at the shorter length", "abcd", "abc", 3},
		{"differing bytes differ at the first of them", "abcXeX", "abcYeY", 3},
		{"an empty input differs at zero", "", "a", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := FirstDiff([]byte(tt.a), []byte(tt.b)); got != tt.want {
				t.Errorf("FirstDiff(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
			}
		})
	}
}
