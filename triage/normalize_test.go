package triage

import (
	"strings"
	"testing"
)

func TestNormalize(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"numbers become placeholders", "expected 3 rows, got 4", "expected <n> rows, got <n>"},
		{"errnos stay because they name the cause", "OSError: [Errno 28] No space left on device", "OSError: [Errno 28] No space left on device"},
		{"JSON-RPC codes stay", "MCP error -32700: Parse error at position 65536", "MCP error -32700: Parse error at position <n>"},
		{"exit codes, signals and HTTP statuses stay", "exited with code 137 after signal 9 (HTTP 404)", "exited with code 137 after signal 9 (HTTP 404)"},
		{"curl's error number stays", "curl: (6) Could not resolve host: pypi.org", "curl: (6) Could not resolve host: <host>"},
		{"sizes", "message size 12582912 exceeds limit of 10485760 bytes, 12 MB, 512M", "message size <n> exceeds limit of <size>, <size>, <size>"},
		{"durations", "after 300 s, 1.5s, 120ms and 1m30.5s", "after <dur>, <dur>, <dur> and <dur>"},
		{"hex digests and addresses", "sha256 expected 3f2a9c0b1d2e got 9b1c07aa1d2e at 0x7f3b2c1d5e50", "sha256 expected <hex> got <hex> at <hex>"},
		{"UUIDs", "session 7f3a9c2e-1b4d-4e8f-9a0b-c1d2e3f4a5b6 gone", "session <uuid> gone"},
		{"sandbox ids", "session sbx-4f2a91c0 expired", "session sbx-<hex> expired"},
		{"a sandbox id that happens to have no hex letter", "session sbx-74096212 expired", "session sbx-<hex> expired"},
		{"short numbers after a name are numbers, not ids", "worker-3 of pool-12 on port-8080", "worker-<n> of pool-<n> on port-<n>"},
		{"IP addresses with ports", "connect ECONNREFUSED 10.0.3.7:3128", "connect ECONNREFUSED <ip>:<n>"},
		{"a loopback address and its port are kept", "connect ECONNREFUSED 127.0.0.1:9222", "connect ECONNREFUSED 127.0.0.1:9222"},
		{"a port of localhost is kept", "connect ECONNREFUSED localhost:9222", "connect ECONNREFUSED localhost:9222"},
		{"a host whose name ends in localhost is another host", "connect ECONNREFUSED devlocalhost:9222", "connect ECONNREFUSED devlocalhost:<n>"},
		{"a number after another host's colon varies", "dial tcp web:8080: i/o timeout", "dial tcp web:<n>: i/o timeout"},
		{"host names under known TLDs", "Connection to pypi.org timed out", "Connection to <host> timed out"},
		{"dotted code names are not hosts", "numpy.linalg.LinAlgError: Singular matrix", "numpy.linalg.LinAlgError: Singular matrix"},
		{"URLs", "net::ERR_NAME_NOT_RESOLVED at https://docs.example-42.com/start?x=1.", "net::ERR_NAME_NOT_RESOLVED at <url>."},
		{"paths keep three directories and drop a data file's extension", "No such file: '/home/user/output/report-7f3a.csv'", "No such file: '/home/user/output/<file>'"},
		{"a lost chart and a lost report are one signature", "No such file: '/home/user/output/chart-2.png'", "No such file: '/home/user/output/<file>'"},
		{"shared libraries lose their name and version", "ImportError: libpangocairo-1.0.so.0: cannot open shared object file", "ImportError: lib<name>.so: cannot open shared object file"},
		{"deep paths collapse", "denied: '/usr/local/lib/python3.11/site-packages/numpy-1.26.4.dist-info'", "denied: '/usr/local/lib/…/site-packages/<file>.dist-info'"},
		{"a landmark deep in a path stays", "denied: '/usr/local/lib/python2.7/dist-packages/pythonds/basic/stack.py'", "denied: '/usr/local/lib/…/dist-packages/…/<file>'"},
		{"traversals collapse", "accepted path '../../../etc/cron.d/x'", "accepted path '../<path>'"},
		{"bare file names", "mismatch for chart.png (48213 bytes)", "mismatch for <file> (<size>)"},
		{"quoted names", "No module named 'sklearn'", "No module named '<name>'"},
		{"codec names are kept", "'utf-8' codec can't decode byte 0x89", "'utf-8' codec can't decode byte <hex>"},
		{"a zero byte is kept, since a NUL is the cause", `invalid byte sequence for encoding "UTF8": 0x00`, `invalid byte sequence for encoding "UTF8": 0x00`},
		{"a null pointer is kept however wide", "segfault at 0x0000000000000000 ip 0x7f3b2c1d5e50", "segfault at 0x00 ip <hex>"},
		{"the accounts file a traversal probe reads is kept", `read_file(path="/etc/passwd") and /etc/hosts`, `read_file(path="/etc/passwd") and /etc/<file>`},
		{"shared memory is kept, a device is an occurrence", `Operation not permitted: '/dev/shm' then '/dev/ttyACM0'`, `Operation not permitted: '/dev/shm' then '/dev/<file>'`},
		{"Docker's socket keeps its name, another daemon's is an occurrence", `dial unix /var/run/docker.sock then /run/php-fpm.sock`, `dial unix /var/run/docker.sock then /run/<file>.sock`},
		{"shared memory is kept with its slash too", `cannot create directory '/dev/shm/' nor '/dev/pts/'`, `cannot create directory '/dev/shm/' nor '/dev/<file>/'`},
		{"an escaped zero is kept, since a NUL is the cause, and another escaped number is masked", `lexical error at character '\0' and '\65279'`, `lexical error at character '\0' and '\<n>'`},
		{"JSON keys are kept", `{"code":-32602,"message":"Invalid params"}`, `{"code":-32602,"message":"Invalid params"}`},
		{"apostrophes are not quotes", "can't start new thread", "can't start new thread"},
		{"timestamps", "2026-06-30T08:31:02.123Z and 2026-06-30 08:31:02,123 at 08:31:02", "<ts> and <ts> at <time>"},
		{"generated ids", "in /tmp/x/tmpk3j2_x9a1 for ipykernel_48213", "in /tmp/x/<file> for ipykernel_<n>"},
		{"unquoted package names after pip's phrases", "ERROR: No matching distribution found for pandas==2.0", "ERROR: No matching distribution found for <pkg>"},
		{"spawned programs", "Error: spawn gcc EPERM", "Error: spawn <cmd> EPERM"},
		{"a spawn that failed before naming its program keeps its errno", "Error: spawn EAGAIN", "Error: spawn EAGAIN"},
		{"a program whose name looks like a word is still masked", "Error: spawn ENV ENOENT", "Error: spawn <cmd> ENOENT"},
		{"whitespace, ANSI colours and control bytes collapse", "\x1b[31mError:\x1b[0m  bad\t\x00 thing  ", "Error: bad thing"},
		{"invalid UTF-8 becomes a replacement character", "bad \xff byte", "bad \uFFFD byte"},
		{"a Python traceback is its exception line", "Traceback (most recent call last):\n  File \"/tmp/a.py\", line 1, in <module>\n    import torch\nModuleNotFoundError: No module named 'torch'", "ModuleNotFoundError: No module named '<name>'"},
		{"an error raised making multiprocessing's semaphore says so", "Traceback (most recent call last):\n  File \"/usr/local/lib/python3.11/multiprocessing/synchronize.py\", line 110, in __setstate__\n    self._semlock = _multiprocessing.SemLock._rebuild(*state)\nFileNotFoundError: [Errno 2] No such file or directory", "FileNotFoundError: [Errno 2] No such file or directory (creating a SemLock)"},
		{"an exception in the harness says so", "Traceback (most recent call last):\n  File \"/opt/harness/harness/report.py\", line 88, in summarize\n    rows = r['rows']\nKeyError: 'rows'", "KeyError: '<name>' (in harness/report.py)"},
		{"pip is its ERROR line and the retry reason", "WARNING: Retrying (Retry(total=0, connect=None, read=None, redirect=None, status=None)) after connection broken by 'NewConnectionError('<pip._vendor.urllib3.connection.HTTPSConnection object at 0x7f3b2c1d5e50>: Failed to establish a new connection: [Errno 101] Network is unreachable')': /simple/pandas/\nERROR: Could not find a version that satisfies the requirement pandas (from versions: none)\nERROR: No matching distribution found for pandas", "ERROR: Could not find a version that satisfies the requirement <pkg> (from versions: none) (cause: NewConnectionError: [Errno 101] Network is unreachable)"},
		{"a Caused by chain adds its last cause, keeping the OS error number", "error: could not execute process `rustc -vV` (never executed)\n\nCaused by:\n  Operation not permitted (os error 1)", "error: could not execute process `rustc -vV` (never executed) (cause: Operation not permitted (os error 1))"},
		{"the first error line of other output", "node:internal/child_process:413\n    throw errnoException(err, 'spawn');\n    ^\n\nError: spawn cargo EACCES\n    at ChildProcess.spawn (node:internal/child_process:413:11)", "Error: spawn <cmd> EACCES"},
		{"an empty message", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := normalize(tt.in); got != tt.want {
				t.Errorf("normalize(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestNormalizeCapsTheSignature(t *testing.T) {
	got := normalize(strings.Repeat("word ", 10_000) + "\xe2\x82\xac")
	if len(got) > maxSignatureLen {
		t.Errorf("got a signature of %d bytes, want at most %d", len(got), maxSignatureLen)
	}
	if !strings.HasPrefix(got, "word word") {
		t.Errorf("got %q, want it to start with the message", got[:20])
	}
}

func TestNormalizeLogUsesTheLastErrorLine(t *testing.T) {
	f := Failure{LogTail: []byte("ERROR: first problem 1\nstep 2 ok\nERROR: extract failed: No space left on device\n")}
	if got, want := normalizeSource(failureSource(&f)), "ERROR: first problem <n>"; got != want {
		t.Errorf("got %q, want %q (pip's rule: its first ERROR line)", got, want)
	}
	f = Failure{LogTail: []byte("running\nError: spawn gcc EPERM\nretrying\nError: spawn gcc EACCES\ndone\n")}
	if got, want := normalizeSource(failureSource(&f)), "Error: spawn <cmd> EACCES"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
