package triage

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestNormalizeLayer(t *testing.T) {
	tests := []struct{ in, want string }{
		{"interface", "interface"}, {"MCP", "interface"}, {"transport", "interface"},
		{" Sandbox ", "sandbox"}, {"env", "sandbox"}, {"harness", "test"}, {"tests", "test"},
		{"unclassified", ""}, {"", ""}, {"gremlins", ""},
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

func TestNormalizeLayerAndPrimitiveOfHarnessLabels(t *testing.T) {
	// What real harnesses write in their layer and primitive columns.
	tests := []struct{ column, in, want string }{
		{"layer", "mcp-layer", "interface"},
		{"layer", "MCP Layer", "interface"},
		{"layer", "Transport layer", "interface"},
		{"layer", "protocol-layer", "interface"},
		{"layer", "MCP_SERVER", "interface"},
		{"layer", "mcp client", "interface"},
		{"layer", "Tools", "interface"},
		{"layer", "Services", "interface"},
		{"layer", "platform", "sandbox"},
		{"layer", "infra", "sandbox"},
		{"layer", "Sandbox Layer", "sandbox"},
		{"layer", "VM", "sandbox"},
		{"layer", "kernel", "sandbox"},
		{"layer", "service", "interface"},
		{"layer", "harness", "test"},
		{"layer", "test", "test"},
		{"layer", "TestHarness", "test"},
		{"layer", "test_bug", "test"},
		{"layer", "Harness Errors", "test"},
		{"layer", "server", ""},
		{"layer", "host", ""},
		{"layer", "network", ""},
		{"layer", "Layer Errors", ""},

		{"primitive", "null bytes", "null-byte"},
		{"primitive", "NULL_BYTES", "null-byte"},
		{"primitive", "nullByte", "null-byte"},
		{"primitive", "nullbyte", "null-byte"},
		{"primitive", "Network Egress", "network-egress"},
		{"primitive", "NetworkEgress", "network-egress"},
		{"primitive", "network.egress", "network-egress"},
		{"primitive", "Process-Spawns", "process-spawn"},
		{"primitive", "process spawn failures", "process-spawn"},
		{"primitive", "FileSystem Permissions", "filesystem-permissions"},
		{"primitive", "filesystempermissions", "filesystem-permissions"},
		{"primitive", "Permission Denied", "filesystem-permissions"},
		{"primitive", "read-only fs", "filesystem-permissions"},
		{"primitive", "Timeouts", "cpu-time"},
		{"primitive", "time limit", "cpu-time"},
		{"primitive", "OOM-killed", "memory"},
		{"primitive", "OOMKilled", "memory"},
		{"primitive", "MemoryError", "memory"},
		{"primitive", "path traversal", "input-validation"},
		{"primitive", "Path Traversal Issues", "input-validation"},
		{"primitive", "invalid_params", "input-validation"},
		{"primitive", "disk full", "storage-persistence"},
		{"primitive", "Storage/Persistence", "storage-persistence"},
		{"primitive", "file vanished", "storage-persistence"},
		{"primitive", "binary-corruption", "encoding"},
		{"primitive", "UTF-8", "encoding"},
		{"primitive", "UnicodeDecodeError", "encoding"},
		{"primitive", "payload too large", "message-size"},
		{"primitive", "Truncated", "message-size"},
		{"primitive", "JSON-RPC", "protocol"},
		{"primitive", "schema", "protocol"},
		{"primitive", "DNS", "network-egress"},
		{"primitive", "offline", "network-egress"},
		{"primitive", "ModuleNotFoundError", "package-path"},
		{"primitive", "import-error", "package-path"},
		{"primitive", "LD_LIBRARY_PATH", "package-path"},
		{"primitive", "Session Expired", "session-lifecycle"},
		{"primitive", "teardown", "session-lifecycle"},
		{"primitive", "Test Bug", "harness"},
		{"primitive", "APIs", ""},
		{"primitive", "killed", ""},
		{"primitive", "denied", ""},
		{"primitive", "limit", ""},
		{"primitive", "connection", ""},
		{"primitive", "crash", ""},
		{"primitive", "sandbox", ""},
		{"primitive", "errors", ""},
		{"primitive", "---", ""},
		{"primitive", "network-egress" + strings.Repeat(" ", 256-len("network-egress")), "network-egress"},
		{"primitive", "network-egress" + strings.Repeat(" ", 257-len("network-egress")), ""},
		{"primitive", "network-egress" + strings.Repeat(" ", 10<<20), ""},
	}
	for _, tt := range tests {
		name := fmt.Sprintf("%s %q maps to %q", tt.column, tt.in, tt.want)
		if len(tt.in) > 40 {
			name = fmt.Sprintf("%s of %d bytes maps to %q", tt.column, len(tt.in), tt.want)
		}
		t.Run(name, func(t *testing.T) {
			normalize := NormalizePrimitive
			if tt.column == "layer" {
				normalize = NormalizeLayer
			}
			if got := normalize(tt.in); got != tt.want {
				t.Errorf("Normalize %s(%.40q) = %q, want %q", tt.column, tt.in, got, tt.want)
			}
		})
	}
}

func TestVocabSynonymsMapInAnySpelling(t *testing.T) {
	columns := []struct {
		name      string
		synonyms  map[string]string
		normalize func(string) string
		valid     func(string) bool
	}{
		{"layer", layerSynonyms, NormalizeLayer, ValidLayer},
		{"primitive", primitiveSynonyms, NormalizePrimitive, func(p string) bool { return LayerOf(p) != "" }},
	}
	for _, c := range columns {
		t.Run("every "+c.name+" synonym means one word of the vocabulary in any spelling", func(t *testing.T) {
			for k, want := range c.synonyms {
				if !c.valid(want) {
					t.Errorf("%s synonym %q maps to %q, which is not in the vocabulary", c.name, k, want)
				}
				// Two synonyms that fold alike but mean different words
				// fail here for one of them.
				for _, in := range []string{k, strings.ToUpper(k), strings.ReplaceAll(k, "-", "_"), camelCase(k), " " + k + " errors"} {
					if got := c.normalize(in); got != want {
						t.Errorf("%s %q = %q, want %q as for %q", c.name, in, got, want, k)
					}
				}
			}
		})
	}
}

// camelCase writes a hyphenated synonym as harnesses in Java or Go would:
// "network-egress" as "NetworkEgress".
func camelCase(k string) string {
	var b strings.Builder
	for w := range strings.SplitSeq(k, "-") {
		if w != "" {
			b.WriteString(strings.ToUpper(w[:1]) + w[1:])
		}
	}
	return b.String()
}

func TestNormalizePrimitiveAllocatesNothing(t *testing.T) {
	huge := strings.Repeat("x", 10<<20)
	for _, in := range []string{"network-egress", "Network Egress", "NetworkEgressErrors", "gremlins", huge} {
		t.Run(fmt.Sprintf("a label of %d bytes allocates nothing", len(in)), func(t *testing.T) {
			if got := testing.AllocsPerRun(100, func() { NormalizePrimitive(in) }); got != 0 {
				t.Errorf("NormalizePrimitive allocates %v times, want 0", got)
			}
		})
	}
}

// BenchmarkNormalizePrimitive shows that a label written as the vocabulary
// writes it costs one map lookup, and the others one fold on the stack.
func BenchmarkNormalizePrimitive(b *testing.B) {
	for _, bm := range []struct{ name, in string }{
		{"exact", "network-egress"},
		{"exact synonym", "oom"},
		{"folded", "Network Egress"},
		{"noise trimmed", "NetworkEgressErrors"},
		{"unknown", "gremlins"},
		{"10 MB", strings.Repeat("x", 10<<20)},
	} {
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				NormalizePrimitive(bm.in)
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

func FuzzNormalize(f *testing.F) {
	for _, s := range []string{"Network_Egress", "OOMKilled", "APIs", "MCP Layer errors", "naïve-Überlauf", "\xff\xfeNUL", "sses", "ies"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if l := NormalizeLayer(s); l != "" && !ValidLayer(l) {
			t.Errorf("NormalizeLayer(%q) = %q, not a layer", s, l)
		}
		if p := NormalizePrimitive(s); p != "" && LayerOf(p) == "" {
			t.Errorf("NormalizePrimitive(%q) = %q, not a primitive", s, p)
		}
	})
}
