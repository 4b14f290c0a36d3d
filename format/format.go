// Package format writes numbers, rates and times the one way every page,
// ticket, alert and CLI report of sandtrap shows them.
package format

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// Int writes n with thousands separators: 1234567 → "1,234,567".
func Int(n int) string {
	digits := strconv.Itoa(n)
	sign := ""
	if n < 0 {
		sign, digits = "-", digits[1:]
	}
	if len(digits) <= 3 {
		return sign + digits
	}
	var b strings.Builder
	b.WriteString(sign)
	head := len(digits) % 3
	if head == 0 {
		head = 3
	}
	b.WriteString(digits[:head])
	for i := head; i < len(digits); i += 3 {
		b.WriteByte(',')
		b.WriteString(digits[i : i+3])
	}
	return b.String()
}

// Percent writes a fraction as a percentage with one decimal: 0.8812 →
// "88.1%". A fraction that is not a number is shown as a dash.
func Percent(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "—"
	}
	pct := math.Round(f*1000) / 10
	if pct == 0 {
		pct = 0 // turns -0 into 0, so a tiny negative never prints "-0.0%"
	}
	return strconv.FormatFloat(pct, 'f', 1, 64) + "%"
}

// Points writes a change of a rate in percentage points, signed: "+1.2
// pts", "−0.4 pts", "±0.0 pts".
func Points(f float64) string {
	pts := math.Round(f*1000) / 10
	switch {
	case pts > 0:
		return "+" + strconv.FormatFloat(pts, 'f', 1, 64) + " pts"
	case pts < 0:
		return "−" + strconv.FormatFloat(-pts, 'f', 1, 64) + " pts"
	}
	return "±0.0 pts"
}

// Plural writes a count with its noun: "1 failure", "1,204 failures".
// Nouns whose plural is not noun+"s" use PluralOf.
func Plural(n int, noun string) string { return PluralOf(n, noun, noun+"s") }

// PluralOf writes a count with the singular or the plural given.
func PluralOf(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return Int(n) + " " + many
}

// TimeLayout is how times are written: to the minute, in UTC.
const TimeLayout = "2006-01-02 15:04 UTC"

// Time writes t in TimeLayout, and a zero time as "unknown".
func Time(t time.Time) string {
	if t.IsZero() {
		return "unknown"
	}
	return t.UTC().Format(TimeLayout)
}
