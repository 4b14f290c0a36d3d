package main

import (
	"strings"
	"testing"
)

func TestRunRejectsWhatItCannotDo(t *testing.T) {
	sets := []string{"../../../testdata/eval/realworld6.jsonl", "../../../testdata/eval/realworld7.jsonl"}
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"a negative count of folds is refused", append([]string{"-folds", "-1"}, sets...), "need 2 to as many folds as sets"},
		{"one fold leaves no set out", append([]string{"-folds", "1"}, sets...), "need 2 to as many folds as sets"},
		{"a file that is not there is named", []string{"../../../testdata/eval/no-such-set.jsonl"}, "no-such-set.jsonl"},
		{"asking for help is no error", []string{"-h"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := run(tt.args)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("got %v, want no error", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("got %v, want an error naming %q", err, tt.wantErr)
			}
		})
	}
}
