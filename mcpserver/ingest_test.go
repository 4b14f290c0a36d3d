package mcpserver_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/base64"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"sandtrap/ingest"
	"sandtrap/mcpserver"
)

func TestAgentsRecordRunsThroughTheIngestTools(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "ingest.db")
	in, err := ingest.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close() })
	srv := mcpserver.New(mcpserver.Config{Ingest: in})
	serverEnd, clientEnd := mcp.NewInMemoryTransports()
	if _, err := srv.Connect(ctx, serverEnd, nil); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, clientEnd)

	log := []byte("step 1\x00binary \xff\xfe tail\n")
	started := call(t, cs, "start_run", map[string]any{"id": "agent-run-1", "name": "Agent run"})
	if started["created"] != true {
		t.Errorf("got %v, want a created run", started)
	}
	again := call(t, cs, "start_run", map[string]any{"id": "agent-run-1", "name": "Agent run"})
	if again["created"] != false {
		t.Errorf("starting the run again: got %v, want created false", again)
	}
	result := map[string]any{"key": "k1", "test": "file-io/png", "target": "code-interpreter", "domain": "file-io",
		"status": "failed", "error": "PermissionError: [Errno 13] Permission denied: '/workspace/x'", "log_base64": base64.StdEncoding.EncodeToString(log)}
	for i, want := range []map[string]any{{"accepted": float64(1), "duplicates": float64(0)}, {"accepted": float64(0), "duplicates": float64(1)}} {
		got := call(t, cs, "record_result", map[string]any{"run": "agent-run-1", "results": []any{result}})
		if got["accepted"] != want["accepted"] || got["duplicates"] != want["duplicates"] {
			t.Errorf("call %d: got %v, want %v", i+1, got, want)
		}
	}
	if msg := callError(t, cs, "record_result", map[string]any{"run": "agent-run-1", "results": []any{map[string]any{"test": "x", "target": "t", "domain": "d"}}}); !strings.Contains(msg, "status") {
		t.Errorf("got error %q, want it to name the missing status", msg)
	}
	call(t, cs, "finish_run", map[string]any{"run": "agent-run-1"})
	if msg := callError(t, cs, "record_result", map[string]any{"run": "agent-run-1", "results": []any{map[string]any{"key": "k2", "test": "x", "target": "t", "domain": "d", "status": "passed"}}}); msg == "" {
		t.Error("a result for a finished run was accepted")
	}

	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var (
		n        int
		stored   []byte
		finished sql.NullString
	)
	if err := db.QueryRow(`SELECT count(*), max(log) FROM results WHERE run_id = 'agent-run-1'`).Scan(&n, &stored); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(`SELECT finished_at FROM runs WHERE id = 'agent-run-1'`).Scan(&finished); err != nil {
		t.Fatal(err)
	}
	if n != 1 || !bytes.Equal(stored, log) || !finished.Valid {
		t.Errorf("got %d results, log %q, finished %v; want 1 result, the log byte for byte, a finished run", n, stored, finished)
	}
}

func TestIngestToolsComeOnlyWithIngest(t *testing.T) {
	ctx := context.Background()
	srv := mcpserver.New(mcpserver.Config{})
	serverEnd, clientEnd := mcp.NewInMemoryTransports()
	if _, err := srv.Connect(ctx, serverEnd, nil); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, clientEnd)
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		if tool.Name == "start_run" || tool.Name == "record_result" || tool.Name == "finish_run" {
			t.Errorf("got tool %s without --ingest", tool.Name)
		}
	}
}
