package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEvalLeavesEachFileOutWhenAsked(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	line := `{"id":"%s","target":"code-interpreter","domain":"builds","error":"curl: (6) Could not resolve host: pypi.org","layer":"sandbox","primitive":"network-egress","severity":"high","cause":"dns"}` + "\n"
	one := write("one.jsonl", strings.ReplaceAll(line, "%s", "one-1")+strings.ReplaceAll(line, "%s", "one-2"))
	two := write("two.jsonl", strings.ReplaceAll(line, "%s", "two-1")+strings.ReplaceAll(line, "%s", "two-2"))
	tests := []struct {
		name      string
		args      []string
		wantErr   string
		wantOut   string
		forbidOut string
	}{
		{"one file cannot be left out of anything", []string{"--leave-one-out", one}, "--leave-one-out needs at least two labelled files", "", ""},
		{"two files are each scored by a model of the other", []string{"--leave-one-out", one, two}, "", "each set left out", ""},
		{"without the flag nothing is left out", []string{one, two}, "", "layer accuracy", "each set left out"},
		{"two files in two folds are each scored by a model of the other", []string{"--folds", "2", one, two}, "", "each set left out", ""},
		{"more folds than files is refused", []string{"--folds", "3", one, two}, "--folds 3: needs 2 to as many folds as labelled files (2)", "", ""},
		{"one fold leaves nothing out", []string{"--folds", "1", one, two}, "--folds 1: needs 2", "", ""},
		{"folds and leave-one-out together are refused", []string{"--folds", "2", "--leave-one-out", one, two}, "give one", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			err := runEval(context.Background(), tt.args, &stdout, &stderr)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got error %v, want one saying %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("got error %v, want none", err)
			}
			if !strings.Contains(stdout.String(), tt.wantOut) {
				t.Errorf("got output %q, want it to hold %q", stdout.String(), tt.wantOut)
			}
			if tt.forbidOut != "" && strings.Contains(stdout.String(), tt.forbidOut) {
				t.Errorf("got output holding %q, want none", tt.forbidOut)
			}
		})
	}
}
