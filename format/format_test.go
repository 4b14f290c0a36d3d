package format

import (
	"math"
	"testing"
	"time"
)

func TestFormat(t *testing.T) {
	tests := []struct {
		name, got, want string
	}{
		{"small numbers have no separator", Int(999), "999"},
		{"thousands are separated", Int(1234567), "1,234,567"},
		{"negative numbers keep their sign", Int(-1234), "-1,234"},
		{"a rate is a percentage with one decimal", Percent(0.8812), "88.1%"},
		{"a tiny negative rate is not -0.0%", Percent(-0.00001), "0.0%"},
		{"a rate that is not a number is a dash", Percent(math.NaN()), "—"},
		{"a rise is signed", Points(0.012), "+1.2 pts"},
		{"a fall takes a minus sign", Points(-0.004), "−0.4 pts"},
		{"no change is ±0", Points(0.00001), "±0.0 pts"},
		{"one takes the singular", Plural(1, "failure"), "1 failure"},
		{"many take the plural, separated", Plural(1204, "failure"), "1,204 failures"},
		{"an irregular plural is given", PluralOf(3, "was", "were"), "3 were"},
		{"a time is to the minute in UTC", Time(time.Date(2026, 7, 1, 2, 3, 59, 0, time.FixedZone("x", 3600))), "2026-07-01 01:03 UTC"},
		{"a zero time is unknown", Time(time.Time{}), "unknown"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("got %q, want %q", tt.got, tt.want)
			}
		})
	}
}
