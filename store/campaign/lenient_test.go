package campaign

import (
	"math"
	"testing"
)

// Found by FuzzResultRow: reals without an integer part read as garbage.
func TestNumbersTheHarnessWroteReadAsNumbersOrUnknown(t *testing.T) {
	tests := []struct {
		name      string
		v         any
		want      int64
		wantValid bool
		wantRaw   string
	}{
		{"an integer is itself", int64(-9), -9, true, ""},
		{"a real is its integer part", 1.5, 1, true, ""},
		{"numeric text with blanks is its number", "  42 ", 42, true, ""},
		{"real text is its integer part", "2.75", 2, true, ""},
		{"NULL is unknown", nil, 0, false, ""},
		{"empty text is unknown", "", 0, false, ""},
		{"words are junk", "twice", 0, false, "twice"},
		{"NaN as text is junk, though Go would parse it", "NaN", 0, false, "NaN"},
		{"infinity as text is junk", "-Infinity", 0, false, "-Infinity"},
		{"a real past int64 is junk", 1e300, 0, false, "1e+300"},
		{"a real just past int64 is junk", math.Ldexp(1, 63), 0, false, "9.223372036854776e+18"},
		{"text past int64 is junk", "-1e19", 0, false, "-1e19"},
		{"the smallest int64 as a real is itself", float64(math.MinInt64), math.MinInt64, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var n lenientInt
			if err := n.Scan(tt.v); err != nil {
				t.Fatal(err)
			}
			if n.Int64 != tt.want || n.Valid != tt.wantValid || n.Raw != tt.wantRaw {
				t.Errorf("got %d (valid %v, raw %q) for %#v, want %d (valid %v, raw %q)", n.Int64, n.Valid, n.Raw, tt.v, tt.want, tt.wantValid, tt.wantRaw)
			}
		})
	}
}
