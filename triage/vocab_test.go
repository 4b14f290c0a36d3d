package triage

import (
	"slices"
	"testing"
)

func TestNormalizeLayer(t *testing.T) {
	tests := []struct{ in, want string }{
		{"interface", "interface"}, {"MCP", "interface"}, {"transport", "interface"},
		{" Sandbox ", "sandbox"}, {"env", "sandbox"}, {"harness", "test"}, {"tests", "test"},
		{"unclassified", ""}, {"", ""}, {"kernel", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in+" maps to "+tt.want, func(t *testing.T) {
			if got := NormalizeLayer(tt.in); got != tt.want {
				t.Errorf("NormalizeLayer(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestNormalizePrimitive(t *testing.T) {
	tests := []struct{ in, want string }{
		{"network-egress", "network-egress"}, {"network", "network-egress"}, {"Network_Egress", "network-egress"},
		{"fs", "filesystem-permissions"}, {"oom", "memory"}, {"OOM", "memory"}, {"transport", "protocol"},
		{"mcp", "protocol"}, {"size", "message-size"}, {"nul", "null-byte"}, {"b64", "encoding"},
		{"disk full", "storage-persistence"}, {"timeout", "cpu-time"}, {"seccomp", "process-spawn"},
		{"import", "package-path"}, {"session", "session-lifecycle"}, {"fixture", "harness"},
		{"", ""}, {"gremlins", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in+" maps to "+tt.want, func(t *testing.T) {
			if got := NormalizePrimitive(tt.in); got != tt.want {
				t.Errorf("NormalizePrimitive(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestVocabulary(t *testing.T) {
	tests := []struct {
		name string
		got  bool
		want bool
	}{
		{"unclassified is a layer", ValidLayer("unclassified"), true},
		{"a synonym is not a layer", ValidLayer("mcp"), false},
		{"memory is a sandbox primitive", ValidPrimitive("sandbox", "memory"), true},
		{"memory is not an interface primitive", ValidPrimitive("interface", "memory"), false},
		{"an empty layer has no primitives", ValidPrimitive("", "memory"), false},
		{"harness is the test primitive", ValidPrimitive("test", "harness"), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("got %v, want %v", tt.got, tt.want)
			}
		})
	}
}

func TestPrimitives(t *testing.T) {
	got := Primitives("interface")
	want := []string{"encoding", "null-byte", "message-size", "protocol", "input-validation"}
	if !slices.Equal(got, want) {
		t.Errorf("Primitives(interface) = %v, want %v", got, want)
	}
	got[0] = "changed"
	if Primitives("interface")[0] != "encoding" {
		t.Errorf("changing the returned slice changed the vocabulary")
	}
	if got := Primitives("unclassified"); got != nil {
		t.Errorf("Primitives(unclassified) = %v, want nil", got)
	}
	total := 0
	for _, layer := range Layers() {
		for _, p := range Primitives(layer) {
			if got := LayerOf(p); got != layer {
				t.Errorf("LayerOf(%s) = %s, want %s", p, got, layer)
			}
			total++
		}
	}
	if total != 14 {
		t.Errorf("got %d primitives, want 14", total)
	}
}
