package triage

import (
	"testing"

	"sandtrap"
)

func TestABugInTheTestItselfIsTestHarness(t *testing.T) {
	tests := []struct {
		name, err string
		want      string // layer/primitive
	}{
		{"a KeyError raised in the test's own file", "Traceback (most recent call last):\n" +
			"  File \"/runner/tests/test_files.py\", line 41, in test_roundtrip\n    out = result['stdout']\n" +
			"KeyError: 'stdout'", "test/harness"},
		{"a TypeError in a fixture of conftest.py", "Traceback (most recent call last):\n" +
			"  File \"/runner/conftest.py\", line 12, in sandbox\n    return make(cfg['image'])\n" +
			"TypeError: 'NoneType' object is not subscriptable", "test/harness"},
		{"a JavaScript TypeError thrown by a spec file", "TypeError: Cannot read properties of undefined (reading 'text')\n" +
			"    at Context.<anonymous> (/work/e2e/forms.spec.ts:27:31)\n    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)",
			"test/harness"},
		{"the same KeyError raised in the workflow's code is not the harness's", "Traceback (most recent call last):\n" +
			"  File \"/workspace/job.py\", line 41, in main\n    out = result['stdout']\n" +
			"KeyError: 'stdout'", "unclassified/"},
		{"a pytest fixture that is not found", "E       fixture 'sandbox_session' not found", "test/harness"},
	}
	c := NewClassifier(nil)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cl := c.Classify(Failure{Status: sandtrap.StatusFailed, Error: tt.err})
			if got := cl.Layer + "/" + cl.Primitive; got != tt.want {
				t.Errorf("got %s (by %s, signature %q), want %s", got, cl.By, cl.Signature, tt.want)
			}
			if tt.want == "test/harness" {
				if sev, _ := Severity(cl.Layer, cl.Primitive, cl.Signature); sev != sandtrap.SeverityLow {
					t.Errorf("got severity %s, want low", sev)
				}
			}
		})
	}
}

func TestSeverityOfNULFailuresSaysWhetherContentWasCut(t *testing.T) {
	for sig, want := range map[string]string{
		"downloaded <n> of <n> bytes: content truncated at first NUL byte":  sandtrap.SeverityCritical,
		"ValueError: embedded null byte":                                    sandtrap.SeverityHigh,
		"ValueError: source code string cannot contain null bytes":          sandtrap.SeverityHigh,
		"called `Result::unwrap()` on an `Err` value: NulError(<n>, [<n>])": sandtrap.SeverityHigh,
		"nul byte found in provided data at position: <n>":                  sandtrap.SeverityHigh,
	} {
		if got, _ := Severity(sandtrap.LayerInterface, "null-byte", sig); got != want {
			t.Errorf("Severity of %q: got %s, want %s", sig, got, want)
		}
	}
}
