package triage

import (
	"slices"
	"strings"
	"testing"

	"sandtrap"
)

// leaningModel is a severity model that learned "bypassed" and "vanished"
// only from critical failures and "retry" only from the others.
func leaningModel() *WordModel {
	return &WordModel{
		Classes: []string{classCritical, classNotCritical},
		Docs:    []int{20, 200},
		Words: map[string][]int{
			"bypassed": {20, 0},
			"vanished": {20, 0},
			"retry":    {0, 100},
			// Each seen once among the critical failures, never
			// among the others: together they lean critical past the
			// odds, by chance.
			"frobnicated": {1, 0},
			"wibbled":     {1, 0},
			"zonked":      {1, 0},
		},
	}
}

func TestSeverityByTheModelOnlyEverRaisesToCritical(t *testing.T) {
	tests := []struct {
		name                          string
		layer, primitive, signature   string
		wantSeverity, wantReasonStart string
	}{
		{"a signature the model is sure of is critical, with the words that decided",
			sandtrap.LayerSandbox, "network-egress", "allowlist bypassed and the upload vanished",
			sandtrap.SeverityCritical, "critical: reads like the failures people rated critical (bypassed, vanished"},
		{"an unclassified signature the model is sure of is critical too",
			sandtrap.LayerUnclassified, "", "allowlist bypassed and the upload vanished",
			sandtrap.SeverityCritical, "critical: reads like"},
		{"one leaning word is not enough",
			sandtrap.LayerSandbox, "network-egress", "allowlist bypassed",
			sandtrap.SeverityHigh, "high:"},
		{"words of the other class hold it back",
			sandtrap.LayerSandbox, "network-egress", "allowlist bypassed, upload vanished, retry",
			sandtrap.SeverityHigh, "high:"},
		{"words critical failures held only once do not count as leaning",
			sandtrap.LayerSandbox, "network-egress", "frobnicated, wibbled and zonked",
			sandtrap.SeverityHigh, "high:"},
		{"a bug in the test stays low whatever its words",
			sandtrap.LayerTest, "harness", "allowlist bypassed and the upload vanished",
			sandtrap.SeverityLow, "low:"},
		{"a refinement that names the phrasing wins over the model",
			sandtrap.LayerSandbox, "memory", "CUDA out of memory: allowlist bypassed and the upload vanished",
			sandtrap.SeverityMedium, "medium: the GPU names"},
		{"a primitive critical by default keeps its own reason",
			sandtrap.LayerInterface, "null-byte", "allowlist bypassed and the upload vanished",
			sandtrap.SeverityCritical, primitiveSeverity["null-byte"][1]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, reason := SeverityWith(leaningModel(), tt.layer, tt.primitive, tt.signature)
			if got != tt.wantSeverity || !strings.HasPrefix(reason, tt.wantReasonStart) {
				t.Errorf("got %s (%q), want %s (%q…)", got, reason, tt.wantSeverity, tt.wantReasonStart)
			}
		})
	}
}

func TestTheTrainedSeverityModelRatesWhatPeopleRateCritical(t *testing.T) {
	// Only primitives whose default is below critical consult the model:
	// storage-persistence is critical by default, and its lost files by
	// their words (TestSeverityOfTheDemoModes).
	tests := []struct {
		name, layer, primitive, signature string
		wantCritical                      bool
	}{
		{"a download that does not match its checksum", "sandbox", "network-egress", "sha256 checksum mismatch for downloaded file", true},
		{"a path let out of the workspace", "interface", "input-validation", "write_file accepted ../../etc/passwd and wrote outside the workspace", true},
		{"a module that is not installed", "sandbox", "package-path", "ModuleNotFoundError: No module named '<name>'", false},
		{"a host that does not resolve", "sandbox", "network-egress", "curl: (6) Could not resolve host: <host>", false},
		{"a traceback's header, unclassified", "unclassified", "", "RuntimeError Traceback (most recent call last)", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, _ := readsCritical(SeverityModel(), tt.layer, tt.primitive, tt.signature); got != tt.wantCritical {
				t.Errorf("readsCritical(%s/%s, %q) got %v, want %v", tt.layer, tt.primitive, tt.signature, got, tt.wantCritical)
			}
		})
	}
}

func TestSeverityFeaturesKeepTheShortWordsOfProseAndTheWordsOfNamesButNotTheMasks(t *testing.T) {
	got := strings.Join(severityFeatures("sandbox", "storage-persistence", "Data was not saved to <path>: ChunkedEncodingError <n>"), " ")
	want := "data was not saved chunkedencodingerror chunked encoding error class=sandbox/storage-persistence"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestSeverityAnswersAgainWhatItAnsweredFirst(t *testing.T) {
	tests := []struct{ name, layer, primitive, signature string }{
		{"a mode rated critical", "sandbox", "network-egress", "The download returns successfully but the file is truncated"},
		{"a mode of its primitive's default", "sandbox", "package-path", "ModuleNotFoundError: No module named '<name>'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantSeverity, wantReason := SeverityWith(SeverityModel(), tt.layer, tt.primitive, tt.signature)
			for range 2 {
				if got, reason := Severity(tt.layer, tt.primitive, tt.signature); got != wantSeverity || reason != wantReason {
					t.Errorf("got %s (%q), want %s (%q)", got, reason, wantSeverity, wantReason)
				}
			}
		})
	}
}

func TestSeverityFeaturesMarkASuccessThatDamagedItsData(t *testing.T) {
	tests := []struct {
		name, signature string
		want            bool
	}{
		{"a download that succeeded and is truncated", "The download returns successfully but the file is truncated", true},
		{"a tool that reports success and lands 0 bytes", "tool reported success; saved file is 0 bytes", true},
		{"a success alone", "Download completed: <path>", false},
		{"damage alone", "OSError: image file is truncated (<n> bytes not processed)", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := slices.Contains(severityFeatures("sandbox", "network-egress", tt.signature), succeededButDamaged)
			if got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}
