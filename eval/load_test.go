package eval

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoadRecords(t *testing.T) {
	dir := t.TempDir()
	a := writeFile(t, dir, "a.jsonl", `{"id": "r1", "exit_code": 137, "harness_layer": "MCP", "layer": "sandbox", "primitive": "memory", "severity": "high", "cause": "oom", "mode": "training-oom"}`+"\n\n")
	b := writeFile(t, dir, "b.jsonl", `{"id": "r2", "exit_code": null, "variant_of": "r1", "harness_primitive": "oom"}`+"\r\n")
	got, err := LoadRecords(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("got %d records, want 2 (the blank line skipped)", len(got))
	}
	tests := []struct{ name, got, want string }{
		{"the first file comes first", got[0].ID, "r1"},
		{"harness_layer is read", got[0].HarnessLayer, "MCP"},
		{"severity is read", got[0].Severity, "high"},
		{"cause is read", got[0].Cause, "oom"},
		{"mode is read", got[0].Mode, "training-oom"},
		{"variant_of is read", got[1].VariantOf, "r1"},
		{"harness_primitive is read through a CRLF ending", got[1].HarnessPrimitive, "oom"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("got %q, want %q", tt.got, tt.want)
			}
		})
	}
	t.Run("exit_code is a number or nil", func(t *testing.T) {
		if got[0].ExitCode == nil || *got[0].ExitCode != 137 || got[1].ExitCode != nil {
			t.Errorf("exit codes = %v, %v, want 137 and nil", got[0].ExitCode, got[1].ExitCode)
		}
	})
}

func TestLoadRecordsReadsTheCorpus(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "testdata", "corpus", "*.jsonl"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no corpus files: %v", err)
	}
	records, err := LoadRecords(paths...)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range records {
		if r.ID == "" || r.Layer == "" {
			t.Errorf("record %+v has no id or layer", r)
		}
	}
}

func TestLoadersNameTheFileAndLine(t *testing.T) {
	dir := t.TempDir()
	good := `{"id": "ok", "content": "x", "event": "E1"}` + "\n"
	tests := []struct {
		name, content string
		line          int
		msg           string
	}{
		{"bad JSON names its line", good + good + "{not json\n", 3, ""},
		{"a wrong type names its line", good + `{"id": 7, "event": 7}` + "\n", 2, ""},
		{"a line one byte over 1 MiB names its line", good + `"` + strings.Repeat("x", maxLine-1) + `"` + "\n", 2, "line longer than"},
		{"a line far over 1 MiB names its line", good + strings.Repeat("x", 3*maxLine) + "\n", 2, "line longer than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sub := t.TempDir()
			path := writeFile(t, sub, "bad.jsonl", tt.content)
			want := fmt.Sprintf("%s:%d: %s", path, tt.line, tt.msg)
			_, err := LoadRecords(path)
			if err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("LoadRecords error = %.200v, want it to start %q", err, want)
			}
			_, err = LoadLogs(sub)
			if err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("LoadLogs error = %.200v, want it to start %q", err, want)
			}
		})
	}
	t.Run("a missing file is an error", func(t *testing.T) {
		if _, err := LoadRecords(filepath.Join(dir, "missing.jsonl")); err == nil {
			t.Errorf("got no error, want one")
		}
	})
}

func TestLoadRecordsAcceptsALineOf1MiB(t *testing.T) {
	prefix, suffix := `{"id": "big", "log": "`, `"}`
	line := prefix + strings.Repeat("x", maxLine-len(prefix)-len(suffix)) + suffix
	path := writeFile(t, t.TempDir(), "big.jsonl", line+"\r\n")
	got, err := LoadRecords(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || len(got[0].Log) != maxLine-len(prefix)-len(suffix) {
		t.Errorf("got %d records, want 1 with the whole log", len(got))
	}
}

func TestLoadLogs(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "hdfs.jsonl", `{"content": "Receiving block blk_1", "event": "E1"}`+"\n"+`{"content": "Receiving block blk_2", "event": "E1"}`+"\n")
	writeFile(t, dir, "empty.jsonl", "")
	writeFile(t, dir, "notes.txt", "not a log")
	if err := os.Mkdir(filepath.Join(dir, "sub.jsonl"), 0o755); err != nil {
		t.Fatal(err)
	}
	logs, err := LoadLogs(dir)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		got  int
		want int
	}{
		{"only .jsonl files are read, keyed without the extension", len(logs), 2},
		{"every line of a file is read", len(logs["hdfs"]), 2},
		{"an empty file has no lines", len(logs["empty"]), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("got %d, want %d (logs %v)", tt.got, tt.want, logs)
			}
		})
	}
	t.Run("content and event are read", func(t *testing.T) {
		if got := logs["hdfs"][1]; got.Content != "Receiving block blk_2" || got.Event != "E1" {
			t.Errorf("got %+v, want blk_2 in E1", got)
		}
	})
	t.Run("a missing directory is an error", func(t *testing.T) {
		if _, err := LoadLogs(filepath.Join(dir, "missing")); err == nil {
			t.Errorf("got no error, want one")
		}
	})
}
