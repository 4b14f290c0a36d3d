package handlers

import (
	"strings"
	"testing"
)

func TestClipLabel(t *testing.T) {
	huge := strings.Repeat("x", 10<<20)
	tests := []struct {
		name, label, want string
	}{
		{"a short label is shown whole", "mcp-layer", "mcp-layer"},
		{"a label of 256 bytes is shown whole", strings.Repeat("a", 256), strings.Repeat("a", 256)},
		{"a 10 MB label is cut with its size", huge, strings.Repeat("x", 256) + "… (cut: 10485760 bytes)"},
		{"a cut never splits a character", strings.Repeat("é", 200), strings.Repeat("é", 128) + "… (cut: 400 bytes)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := clipLabel(tt.label); got != tt.want {
				t.Errorf("got %q (%d bytes), want %q", got[:min(len(got), 80)], len(got), tt.want[:min(len(tt.want), 80)])
			}
		})
	}
}
