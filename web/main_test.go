package main

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestCommandLineMistakesAreUsageErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no command", nil, "no command"},
		{"an unknown command", []string{"frobnicate"}, `unknown command "frobnicate"`},
		{"serve without a campaign", []string{"serve"}, "at least one campaign file"},
		{"init-db without a file", []string{"init-db"}, "exactly one file"},
		{"demo with an argument", []string{"demo", "extra"}, "no arguments"},
		{"an unknown flag", []string{"serve", "--nope", "x.db"}, "nope"},
		{"mcp without a campaign", []string{"mcp"}, "at least one campaign file"},
		{"a negative index memory", []string{"serve", "--index-memory", "-5", "x.db"}, "--index-memory -5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			err := run(context.Background(), tt.args, &out, &errOut)
			var ue usageError
			if !errors.As(err, &ue) {
				t.Fatalf("got %v, want a usage error (exit 2)", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %q, want it to say %q", err, tt.want)
			}
		})
	}
}

func TestInitDBWritesAnEmptyCampaign(t *testing.T) {
	path := filepath.Join(t.TempDir(), "empty.db")
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"init-db", path}, &out, &errOut); err != nil {
		t.Fatalf("init-db: %v (%s)", err, errOut.String())
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("got no file: %v", err)
	}
	err := run(context.Background(), []string{"init-db", path}, &out, &errOut)
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("got %v on a second init-db, want a refusal naming %s", err, path)
	}
}

func TestServeStopsAtOnceOnABadCampaign(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.db")
	os.WriteFile(bad, []byte("definitely not sqlite, but long enough to look like a file header......"), 0o644)
	var out, errOut bytes.Buffer
	err := run(context.Background(), []string{"serve", "--addr", "127.0.0.1:0", "--state", filepath.Join(dir, "s.db"), bad}, &out, &errOut)
	if err == nil || !strings.Contains(err.Error(), "bad.db") {
		t.Errorf("got %v, want an error naming bad.db", err)
	}
}

func TestServeBeyondLoopbackNeedsAToken(t *testing.T) {
	t.Setenv("SANDTRAP_TOKEN", "")
	var out, errOut bytes.Buffer
	err := run(context.Background(), []string{"serve", "--addr", "0.0.0.0:0", "--state", filepath.Join(t.TempDir(), "s.db"), "x.db"}, &out, &errOut)
	var ue usageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "SANDTRAP_TOKEN") {
		t.Errorf("got %v, want a usage error asking for the token", err)
	}
}

func TestServeNamesABadCampaignOnce(t *testing.T) {
	dir := t.TempDir()
	noDomain := filepath.Join(dir, "nodomain.db")
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"init-db", noDomain}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", noDomain)
	if err != nil {
		t.Fatal(err)
	}
	_, err = db.Exec(`ALTER TABLE results DROP COLUMN domain`)
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path, want string
	}{
		{"a missing file", filepath.Join(dir, "gone.db"), "campaign " + filepath.Join(dir, "gone.db") + " is missing: no such file"},
		{"a missing column", noDomain, "campaign " + noDomain + ` does not follow the contract: table "results" has no column "domain"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := run(context.Background(), []string{"serve", "--addr", "127.0.0.1:0", "--state", filepath.Join(t.TempDir(), "s.db"), tt.path}, &out, &errOut)
			if err == nil || err.Error() != tt.want {
				t.Errorf("got %v, want %q: main prints it after \"sandtrap: \", so no prefix of its own", err, tt.want)
			}
		})
	}
}

func TestUsageListsEveryFlagOfEveryCommand(t *testing.T) {
	flagLine := regexp.MustCompile(`(?m)^  -([\w-]+)`)
	for _, s := range synopses {
		t.Run(s.command, func(t *testing.T) {
			var out, errOut bytes.Buffer
			err := run(context.Background(), []string{s.command, "-h"}, &out, &errOut)
			var ue usageError
			if !errors.As(err, &ue) {
				t.Fatalf("got %v for -h, want a usage error", err)
			}
			help := errOut.String()
			if !strings.HasPrefix(help, commandUsage(s.command)+"\n") {
				t.Errorf("got -h starting %q, want the synopsis %q", help, commandUsage(s.command))
			}
			flags := flagLine.FindAllStringSubmatch(help, -1)
			if len(flags) == 0 && s.command != "init-db" {
				t.Fatalf("got no flags in %s -h:\n%s", s.command, help)
			}
			for _, f := range flags {
				name := "--" + f[1]
				if len(f[1]) == 1 {
					name = "-" + f[1]
				}
				if !strings.Contains(s.line, "["+name) && !strings.Contains(s.line, name+" ") {
					t.Errorf("got a synopsis without %s: %q", name, s.line)
				}
			}
			if !strings.Contains(usage, s.line) {
				t.Errorf("got a usage text without the synopsis of %s:\n%s", s.command, usage)
			}
		})
	}
}
