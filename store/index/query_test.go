package index

import "testing"

func TestContainsFoldFindsTextInAnyCase(t *testing.T) {
	tests := []struct {
		s, sub string
		want   bool
	}{
		{"page.goto: Target crashed", "TARGET CRASHED", true},
		{"page.goto: Target crashed", "target crashes", false},
		{"PermissionError: [Errno 13]", "errno 13", true},
		{"a", "ab", false},
		{"Straße kaputt", "STRASSE", false}, // no multi-rune folding, as strings.EqualFold
		{"\u212aELVIN is the Kelvin sign", "kelvin", true},
		{"status: skipped", "SKIP", true},
		{"ümlaut Ärger", "ärger", true},
		{"", "", true},
	}
	for _, tt := range tests {
		if got := containsFold(tt.s, tt.sub); got != tt.want {
			t.Errorf("containsFold(%q, %q): got %v, want %v", tt.s, tt.sub, got, tt.want)
		}
	}
}
