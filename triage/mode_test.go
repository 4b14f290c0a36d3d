package triage

import (
	"strings"
	"testing"
)

func TestModeIDIsStable(t *testing.T) {
	// Golden values: triage decisions and tickets are stored under these
	// ids, so a change here orphans them. Never update them lightly.
	tests := []struct {
		layer, primitive, signature, want string
	}{
		{"sandbox", "network-egress", "page.goto: net::ERR_NAME_NOT_RESOLVED at <url>", "m-930f617f2663"},
		{"unclassified", "", "", "m-0ed5d269b01a"},
	}
	for _, tt := range tests {
		t.Run(tt.layer+"/"+tt.primitive+" keeps its id", func(t *testing.T) {
			if got := ModeID(tt.layer, tt.primitive, tt.signature); got != tt.want {
				t.Errorf("ModeID = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestModeIDSeparatesItsParts(t *testing.T) {
	a := ModeID("sandbox", "memory", "Killed")
	for _, other := range []string{
		ModeID("sandbox", "memoryKilled", ""),
		ModeID("sandbox", "memory", "Killed "),
		ModeID("sandbox", "cpu-time", "Killed"),
	} {
		if other == a {
			t.Errorf("different parts share id %s", a)
		}
	}
	if len(a) != 14 || !strings.HasPrefix(a, "m-") {
		t.Errorf("got %q, want m- and 12 hex digits", a)
	}
}

func TestSeverityOfTheDemoModes(t *testing.T) {
	tests := []struct {
		mode, layer, primitive, message, want string
	}{
		{"b64-corruption", "interface", "encoding", "artifact round trip mismatch: sha256 expected ab12cd34ef56 got 12ab34cd56ef for chart.png (48213 bytes)", "critical"},
		{"nul-truncation", "interface", "null-byte", "downloaded 4096 of 18234 bytes: content truncated at first NUL byte (offset 4096)", "critical"},
		{"mcp-size-limit", "interface", "message-size", "MCP error -32600: Invalid Request: message size 12582912 exceeds limit of 10485760 bytes", "medium"},
		{"jsonrpc-parse", "interface", "protocol", "JSON-RPC error -32700: Parse error: unexpected end of JSON input at position 65536", "high"},
		{"path-traversal-accepted", "interface", "input-validation", "write_file accepted path '../../../etc/cron.d/x' outside /workspace without validation", "critical"},
		{"site-packages-readonly", "sandbox", "filesystem-permissions", "PermissionError: [Errno 13] Permission denied: '/usr/lib/python3/dist-packages/numpy-1.26.4.dist-info'", "medium"},
		{"files-vanish", "sandbox", "storage-persistence", "FileNotFoundError: [Errno 2] No such file or directory: '/home/user/output/report-7f3a.csv'", "critical"},
		{"browser-oom-tabs", "sandbox", "memory", "page.goto: Target crashed", "high"},
		{"training-oom", "sandbox", "memory", "process exited with code 137 (SIGKILL): memory cgroup out of memory", "high"},
		{"cpu-timeout", "sandbox", "cpu-time", "TimeoutError: execution exceeded the 300 s CPU time limit", "medium"},
		{"spawn-denied", "sandbox", "process-spawn", "Error: spawn gcc EPERM", "high"},
		{"a PHP function its configuration disabled", "sandbox", "process-spawn", "PHP Warning:  proc_open() has been disabled for security reasons in <path> on line <n>", "medium"},
		{"pip-egress", "sandbox", "network-egress", "ERROR: Could not find a version that satisfies the requirement pandas (from versions: none)", "high"},
		{"browser-dns", "sandbox", "network-egress", "page.goto: net::ERR_NAME_NOT_RESOLVED at https://docs.example-42.com/start", "high"},
		{"module-not-on-path", "sandbox", "package-path", "ModuleNotFoundError: No module named 'sklearn'", "medium"},
		{"missing-shared-lib", "sandbox", "package-path", "ImportError: libGL.so.1: cannot open shared object file: No such file or directory", "medium"},
		{"session-expired", "sandbox", "session-lifecycle", "session sbx-4f2a91c0 expired after 1800 s: sandbox not found (HTTP 404)", "high"},
		{"harness-assert", "test", "harness", "AssertionError: expected 3 rows, got 4", "low"},
		{"harness-fixture", "test", "harness", "harness error: fixture 'login_page' not found", "low"},
		{"stream-closed", "interface", "protocol", "MCP error -32603: Internal error: response stream closed before the result was sent", "high"},
		{"disk-full", "sandbox", "storage-persistence", "OSError: [Errno 28] No space left on device: '/tmp/ckpt/epoch-3.pt'", "high"},
		{"an explicit MemoryError, which does not say what took the memory", "sandbox", "memory", "MemoryError", "high"},
		{"a GPU that names what it could not allocate", "sandbox", "memory", "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate <size>", "medium"},
		{"a timeout that names no limit", "sandbox", "cpu-time", "context deadline exceeded", "high"},
		{"PHP's maximum execution time as printed", "sandbox", "cpu-time", "PHP Fatal error:  Maximum execution time of 30 seconds exceeded in /var/www/index.php on line 12", "medium"},
		{"a named time limit beside a file that came out empty", "sandbox", "cpu-time", "TimeoutExpired: export completed but the file is empty", "critical"},
		{"a CPU time limit beside an archive cut short after an upload", "sandbox", "cpu-time", "upload completed, then CPU time limit hit; the archive is truncated", "critical"},
		{"an argument list too long beside an output that went missing", "sandbox", "process-spawn", "build succeeded, then argument list too long; output missing", "critical"},
		{"the kernel's argument list too long", "sandbox", "process-spawn", "/bin/sh: 1: /usr/bin/rm: Argument list too long", "medium"},
		{"Python's argument list too long", "sandbox", "process-spawn", "OSError: [Errno 7] Argument list too long: '/usr/bin/convert'", "medium"},
		{"Chromium as root as printed", "sandbox", "process-spawn", "[0601/120000.000000:ERROR:zygote_host_impl_linux.cc(100)] Running as root without --no-sandbox is not supported.", "medium"},
		{"a GPU of another maker that names what it could not allocate", "sandbox", "memory", "torch.OutOfMemoryError: HIP out of memory. Tried to allocate <size>", "medium"},
		{"a silent truncation", "interface", "message-size", "tool output truncated to 1048576 bytes", "critical"},
		{"a build log clipped at its limit", "interface", "message-size", "#12 0.812 [output clipped, log limit <size> reached]", "critical"},
		{"a response shorter than its Content-Length, answered 200", "interface", "message-size", "GET http://localhost:<n>/main.js net::ERR_CONTENT_LENGTH_MISMATCH <n> (OK)", "critical"},
		{"files lost on resume", "sandbox", "storage-persistence", "Workspace persistence lost after VM stop/start", "critical"},
		{"a stored file that reads as truncated", "sandbox", "storage-persistence", "OSError: Unable to open file (truncated file: eof = <n>, stored_eof = <n>)", "critical"},
		{"a filesystem whose contents are gone after a resume", "sandbox", "storage-persistence", "the sandbox wakes back up, but the filesystem contents are gone", "critical"},
		{"files that disappear from a mounted workspace", "sandbox", "storage-persistence", "all files disappear from the sandbox view", "critical"},
		{"data lost when the containers are recreated", "sandbox", "storage-persistence", `"Docker Compose Down" then "Docker Compose Up" loses the data because it creates a random volume every time`, "critical"},
		{"a download whose checksum differs", "sandbox", "network-egress", "Error: ETag does not match MD5 checksum", "critical"},
		{"a Go module whose checksum differs", "sandbox", "network-egress", "<host>/jackc/tern/v2@v2.<n>: verifying module: checksum mismatch", "critical"},
		{"a tool that fails silently on large content, whatever its primitive", "interface", "message-size", "write_file silently fails when content exceeds ~8 KB — tool call replaced with empty object", "critical"},
		{"a sandbox whose setup fails silently", "sandbox", "process-spawn", "Linux sandbox setup fails silently in hardened containers: codex exec exits 0, no command runs", "critical"},
		{"characters dropped from the middle of a result", "interface", "message-size", "list_pull_requests (100 PRs): ~46KB result → 36,159 characters dropped from middle", "critical"},
		{"a traversal named outside input validation", "interface", "null-byte", "Authenticated upload filename traversal can escape the configured file-storage root", "critical"},
		{"a checkpoint that does not unpickle, under any primitive", "sandbox", "package-path", "_pickle.UnpicklingError: invalid load key, 'v'.", "critical"},
		{"a safetensors header too large, before anything classified it", "unclassified", "", "safetensors_rust.SafetensorError: Error while deserializing header: HeaderTooLarge", "critical"},
		{"a test that says silently stays the test's", "test", "harness", "the fixture silently skips the teardown", "low"},
		{"a thread or process limit reached", "sandbox", "process-spawn", "[known:thread-or-process-limit] Thread or process limit reached: can't start new thread / fork: Resource temporarily unavailable", "high"},
		{"a download reported whole that was cut", "sandbox", "network-egress", "The download returns successfully but the file is truncated", "critical"},
		{"a write reported done that landed nothing", "interface", "protocol", "write_file completed; the saved file is empty", "critical"},
		{"a success alone", "sandbox", "network-egress", "Download completed: /tmp/run-7f3a.bin", "high"},
		{"a loss before a success", "sandbox", "network-egress", "Connection lost after the handshake completed", "high"},
		{"the test's own success over an empty file", "test", "harness", "fixture download completed but the file is empty", "low"},
		{"UTF-8 read under a legacy code page", "interface", "encoding", "UnicodeDecodeError: 'charmap' codec can't decode byte 0x9d in position 76: character maps to <undefined>", "critical"},
		{"text a codec cannot encode", "interface", "encoding", "UnicodeEncodeError: 'charmap' codec can't encode character '\\u2013' in position 5: character maps to <undefined>", "critical"},
		{"a JSON-RPC method the server lacks", "interface", "protocol", "MCP error -32601: Method not found: resources/templates/list", "medium"},
		{"a protocol error of another code stays high", "interface", "protocol", "MCP error -32602: Invalid params", "high"},
		{"a server's method not found, without its code", "interface", "protocol", "Error connecting to server 'search': Method not found", "medium"},
		{"an unknown primitive", "sandbox", "", "weird", "medium"},
		{"nothing classified", "unclassified", "", "weird", "medium"},
	}
	for _, tt := range tests {
		t.Run(tt.mode+" is "+tt.want, func(t *testing.T) {
			got, reason := Severity(tt.layer, tt.primitive, normalize(tt.message))
			if got != tt.want {
				t.Errorf("Severity = %s (%s), want %s", got, reason, tt.want)
			}
			if !strings.HasPrefix(reason, got+": ") {
				t.Errorf("reason %q does not start with %q", reason, got+": ")
			}
		})
	}
}

func TestTitle(t *testing.T) {
	long := strings.Repeat("lengthy ", 20) + "end"
	tests := []struct {
		name, layer, primitive, signature, want string
	}{
		{"pip egress", "sandbox", "network-egress", normalize("ERROR: Could not find a version that satisfies the requirement pandas (from versions: none)"), "pip cannot reach the package index (network-egress)"},
		{"a crashed tab", "sandbox", "memory", "page.goto: Target crashed", "Browser tab crashed: Target crashed (memory)"},
		{"a known pattern needs its primitive", "sandbox", "cpu-time", "page.goto: Target crashed", "page.goto: Target crashed (cpu-time)"},
		{"an unclassified mode names its layer", "unclassified", "", "ZeroDivisionError: division by zero", "ZeroDivisionError: division by zero (unclassified)"},
		{"a long signature is cut at a word", "unclassified", "", long, strings.TrimSpace(strings.Repeat("lengthy ", 10)) + "… (unclassified)"},
		{"an empty signature", "sandbox", "memory", "", "No error message (memory)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Title(tt.layer, tt.primitive, tt.signature); got != tt.want {
				t.Errorf("Title = %q, want %q", got, tt.want)
			}
		})
	}
}
