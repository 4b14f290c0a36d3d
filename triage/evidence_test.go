package triage

import (
	"strings"
	"testing"

	"sandtrap"
)

func TestTransferCountsReadOneTransfersTwoEnds(t *testing.T) {
	tests := []struct {
		name      string
		log       string
		sent, got int64
		ok        bool
	}{
		{"a download saved shorter than expected", "2025-03-14T22:31:16Z wf-0335 download saved /home/user/downloads/p.jpg expected_bytes=3818450 written_bytes=2056", 3818450, 2056, true},
		{"an upload stored larger than it came in", "step 3 tool=files.upload name=chart_q3.png size_in=361581 size_stored=581488", 361581, 581488, true},
		{"a read that returned other bytes than the source", "tool=read_file path=/home/user/out/blob.bin src_bytes=333665 src_sha256=fe08dbb389b95ff1 returned_bytes=334039", 333665, 334039, true},
		{"the last line with both ends wins", "expected_bytes=10 written_bytes=5\nexpected_bytes=2000 written_bytes=1000", 2000, 1000, true},
		{"counts with a unit", "size=56828B first_nul_offset=49475 expected_size=56828B received_size=49475B", 56828, 49475, true},
		{"a network's bytes in and out are no transfer", "proxy bytes_in=523 bytes_out=1200", 0, 0, false},
		{"one end alone says nothing", "call write_file path=/home/user/model.onnx encoding=base64 raw_bytes=21666972", 0, 0, false},
		{"counts under JSON keys", `{"tool": "write_file", "expected_bytes": 3818450, "written_bytes": 2056}`, 3818450, 2056, true},
		{"ends on two lines of a pretty-printed JSON log are one transfer", "{\n  \"expected_bytes\": 222127,\n  \"received_bytes\": 65536\n}", 222127, 65536, true},
		{"ends on two lines that say more are two transfers", "fetch a.jpg expected_bytes=3818450\nsaved b.png written_bytes=2056", 0, 0, false},
		{"a call and its answer that reports success are one transfer", "tool=sandbox.upload_file dest=~/.m2/lib/stats-0.9.jar declared_bytes=5419638\nsandbox.upload_file result={\"ok\":true,\"bytes_written\":1048576}", 5419638, 1048576, true},
		{"a call and an answer that reports no success are two", `{"ts": "22:09:13Z", "input_file_bytes": 780228, "input_chars": 225180}` + "\n" + `{"ts": "22:09:18Z", "child_stdout_bytes_read": 207503, "child_killed": true}`, 0, 0, false},
		{"a successful answer about another file is another transfer", "fetch a.jpg expected_bytes=3818450\nsaved b.png status=ok written_bytes=2056", 0, 0, false},
		{"ends on two lines of a key-per-line log are one transfer", "tool=run_command\nbytes_expected=222127\nbytes_received=65536\nduration_s=3.76", 222127, 65536, true},
		{"ends of a key-per-line log too far apart are two transfers", "bytes_expected=222127\na=1\nb=2\nc=3\nd=4\nbytes_received=65536", 0, 0, false},
		{"nothing received says nothing of how it was cut", "expected_bytes=3818450 written_bytes=0", 0, 0, false},
		{"bytes a command declared on stdin and the bytes it received", `call=ci.exec_stdin {"cmd":"hexdump -C"} stdin_declared=415688 stdin_received=8 rc=0`, 415688, 8, true},
		{"an upload's remote copy is what arrived", "step=upload-artifact tool=write_file args.path=/work/vendor/canvas-1.0.0.tgz local_bytes=11010286 remote_bytes=1048576 tool_result=ok", 11010286, 1048576, true},
		{"a download's local copy is what arrived", "tool=download_file path=/data/a.parquet remote_bytes=52000 local_bytes=40960", 52000, 40960, true},
		{"a client's copy is the other end of what was stored", "2025-06-12T22:10:12Z client_bytes=1815365 stored_bytes=3101378 client_head=89504e470d0a1a0a", 1815365, 3101378, true},
		{"a check of both copies just after a write reads the write's direction", "<- {\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"wrote 11050489 bytes to /workspace/a.npy\"}]}}\ncheck path=/workspace/a.npy local_bytes=8857007 remote_bytes=11050489", 8857007, 11050489, true},
		{"local and remote copies with no direction say nothing", "sync a.bin local_bytes=10 remote_bytes=5", 0, 0, false},
		{"the sandbox's copy is the remote one", "<- {\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"ok: wrote 1048576 bytes\"}],\"isError\":false}}\nlocal.bytes=6528831 sandbox.bytes=1048576 max_frame_bytes=1048576", 6528831, 1048576, true},
		{"and so in a client's and a sandbox's digest check's sizes", "check=sha256 upload client_bytes=1203322 sandbox_bytes=1204280", 1203322, 1204280, true},
		{"no log", "", 0, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sent, got, ok := transferCounts([]byte(tt.log))
			if sent != tt.sent || got != tt.got || ok != tt.ok {
				t.Errorf("got %d, %d, %v, want %d, %d, %v", sent, got, ok, tt.sent, tt.got, tt.ok)
			}
		})
	}
}

func TestTransferDamageSaysHowTheBytesChanged(t *testing.T) {
	tests := []struct {
		name          string
		sent, got     int64
		wantPrimitive string
	}{
		{"bytes that grew were re-encoded", 361581, 581488, "encoding"},
		{"bytes cut at a whole number of KiB hit a limit", 3818450, 1048576, "message-size"},
		{"bytes cut at a whole number of thousands hit a limit", 3818450, 1000000, "message-size"},
		{"a few bytes lost were rewritten as text, as CRLF turned to LF", 1565, 1523, "encoding"},
		{"bytes cut at a signed 32-bit length hit a limit", 2147483648, 2147483647, "message-size"},
		{"bytes cut anywhere else stopped where the content said", 3818450, 2056, "null-byte"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, _ := transferDamage(tt.sent, tt.got); got != tt.wantPrimitive {
				t.Errorf("got %s, want %s", got, tt.wantPrimitive)
			}
		})
	}
}

func TestReplacedBytesFindsUTF8ReplacementCharactersInAHexDump(t *testing.T) {
	tests := []logCase{
		{"a stored head that starts with EF BF BD", "client_head=89504e470d0a1a0a stored_head=efbfbd504e470d0a", true},
		{"the bytes dumped apart, as od prints them", "$ head -c 8 a.zip | od -An -tx1  -> 50 4b 03 04 ef bf bd 00", true},
		{"EF BF BD inside a longer run, on a byte boundary", "check head local=934e554d5059 remote=934eefbfbd4d", true},
		{"the digits off a byte boundary", "sha256=aefbfbd0c3", false},
		{"xxd's two-byte groups that split EF BF BD", "head -c 8 | xxd -> 00000000: efbf bd50 4e47 0d0d 0a  ...", true},
		{"xxd's groups with EF BF BD off a byte boundary", "00000000: 0efb fbd0 4e47 0d0d", false},
		{"no dump at all", "wrote 515317 bytes to /home/user/best.tar", false},
	}
	checkLog(t, func(log string) bool { return replacedBytes([]byte(log)) }, tests)
}

func TestLostAfterWriteNeedsTheHarnessToHaveSeenTheFile(t *testing.T) {
	tests := []struct {
		name, err, log string
		want           bool
	}{
		{"a file written ok and then missing", "FileNotFoundError: [Errno 2] No such file or directory: './out/summary.csv'",
			"wf-0914 step 5 write_file out/summary.csv ok\nwf-0914 step 8 run_code", true},
		{"a file missing after the sandbox restarted", "FileNotFoundError: [Errno 2] No such file or directory: 'data/x.npy'",
			"wf-0017 sandbox sbx_s77ip7s3wp restarted (reason=oom-recover) uptime_reset\nwf-0017 step 5 run_code", true},
		{"a read after a restart tool that the log shows failing", "Sandbox 'sbxzmij0' stopped. Workspace state is preserved.",
			"step=7 tool=restart_sandbox args={name:sbxzmij0} ok; next tool=read_file path=/sandbox/work/events.jsonl -> ENOENT", true},
		{"another file missing than the one written", "FileNotFoundError: [Errno 2] No such file or directory: 'config.yaml'",
			"step 2 write_file out/summary.csv ok", false},
		{"a write that failed", "FileNotFoundError: [Errno 2] No such file or directory: 'out/summary.csv'",
			"step 2 write_file out/summary.csv failed", false},
		{"a restart after the file went missing", "",
			"step 2 read_file path=/data/a.csv -> ENOENT\nstep 3 restart_sandbox ok", false},
		{"a missing file with no harness lines", "FileNotFoundError: [Errno 2] No such file or directory: 'out/summary.csv'", "", false},
		{"a written file that is not missing", "ValueError: bad row", "step 2 write_file out/summary.csv ok", false},
		{"a run resumed from checkpoints that found none", "No local checkpoint was found. Ray Tune will now start a new experiment.",
			`step=5 code_interpreter.run_code(resume=true, ckpt_dir="/home/user/runs/4us15z") exit=1`, true},
		{"a checkpoint missing after the sandbox's restarts", "Can't find a valid checkpoint at /home/user/ckpt",
			"step=2 tool=code_interpreter.run_code sandbox=sbx-9 restarts=1 exit=1", true},
		{"an upload the tool answered ok that the harness's check then did not find",
			`{"status":"ok","message":"Uploaded: archive_nov.zip → /workspace/data/archive_nov.zip"}`,
			"step 1 upload_file(dest=/workspace/data/archive_nov.zip, bytes=1142334)\nstep 7 post-check: stat /workspace/data/archive_nov.zip -> No such file or directory", true},
		{"an upload answered ok and another file missing", `{"status":"ok","message":"Uploaded: a.zip → /workspace/a.zip"}`,
			"step 1 upload_file(dest=/workspace/a.zip)\nstep 7 stat /workspace/b.csv -> No such file or directory", false},
		{"a run that was not resuming and found no checkpoint", "No local checkpoint was found. Ray Tune will now start a new experiment.",
			"step=5 code_interpreter.run_code(resume=false) restarts=0 exit=1", false},
		{"a daemon's socket missing after a restart is a service that did not come back", "lpstat: Bad file descriptor",
			"session=sbx-fc05d3 started cupsd pid=265\nsandbox.idle_s=300 snapshot=resumed container_restarts=1\n$ ls -l /run/cups/cups.sock\nls: cannot access '/run/cups/cups.sock': No such file or directory", false},
		{"a file named like a socket only at its start is still a file lost", "FileNotFoundError: [Errno 2] No such file or directory: '/data/x.sock.json'",
			"sandbox restarted\nstep 4 read_file /data/x.sock.json", true},
		{"psql that found no server's socket after a restart is a service that did not come back",
			"psql: could not connect to server: No such file or directory\n\tIs the server running locally and accepting\n\tconnections on Unix domain socket \"/var/run/postgresql/.s.PGSQL.5432\"?",
			`{"event": "exec", "cmd": "pg_ctl -D /home/user/pgdata start", "exit": 0}` + "\n" + `{"event": "sandbox.resumed", "restart_count": 1}`, false},
		{"a connect() that found no control socket after a restart is a service that did not come back",
			"ERROR: connect_unix_sock: connect(/run/kamailio//kamailio_ctl): No such file or directory",
			"kamailio started\nsandbox restarted\nkamcmd stats", false},
		{"psql 14's connection to a socket that is gone after a restart is a service that did not come back",
			`psql: error: connection to server on socket "/var/run/postgresql/.s.PGSQL.5432" failed: No such file or directory`,
			"pg_ctl start exit=0\nsandbox restarted\npsql -c 'select 1'", false},
		{"a client that failed to connect to no socket after a restart is a service that did not come back",
			"Failed to connect: No such file or directory (os error 2) (after 5 retries - daemon may be busy or unresponsive)",
			"daemon started\nsandbox restarted\nclient status", false},
		{"a file named connect.log written and then missing is still a file lost",
			"cat: out/connect.log: No such file or directory",
			"step 2 write_file out/connect.log ok", true},
		{"a file under a folder named connect that is missing after a restart is still a file lost",
			"ls: cannot access '/data/connect/out.csv': No such file or directory",
			"sandbox restarted\nstep 4 read_file /data/connect/out.csv", true},
		{"a file under kafka-connect that is missing after a restart is still a file lost",
			"open /etc/kafka-connect/connect-distributed.properties: no such file or directory",
			"sandbox restarted\nstep 4 read_file /etc/kafka-connect/connect-distributed.properties", true},
		{"a daemon's state file missing after a restart is still a file lost", "ERROR: can't open /run/samba/nmbd.pid: Error was No such file or directory",
			"samba started\nsandbox restarted\nnmbd exited", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := lostAfterWrite(&Failure{Error: tt.err, LogTail: []byte(tt.log)}); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestReportedSuccessReadsTheLastExitCodeOrStatusOfTheLog(t *testing.T) {
	tests := []struct {
		name, log string
		want      bool
	}{
		{"an exit of 0", "step=3 tool=run_code exit=0 bytes=12", true},
		{"a JSON exit code of 0", `{"step": 6, "mcp_tool": "run_python", "exit_code": 0}`, true},
		{"an rc of ok", "tool=fetch rc=ok", true},
		{"a step that exited 0 before one that failed", "step 2 rc=0\nstep 3 rc=1", false},
		{"an exit of 137", "step=3 exit=137", false},
		{"no exit code at all", "step=3 tool=read_file -> ENOENT", false},
		{"a word that only starts like one", "step=3 exits=0 rcpt=0", false},
		{"a status of success", `{"tool": "upload_file", "status": "success", "bytes": 5120}`, true},
		{"a restore whose reported status is completed", "action=restore snapshot=snap-1 restore_status_reported=completed uid_after=65534", true},
		{"a download whose state is completed", "browser_download -> saved 0 bytes (content-length 0) state=completed", true},
		{"a status of ok before a check that exited 1", "workflow steps 1-4 status=ok; check exit=1", false},
		{"an exit of 0 before a status of error", "exit=0 status=error", false},
		{"an HTTP status says nothing of how the call ended", "step=3 exit=0 status=200", true},
		{"a status of failed", "tool=fetch status=failed", false},
		{"a status that says neither after an exit of 0 says nothing", "step=3 exit=0 status=running", false},
		{"nor does it let an earlier step's exit of 0 speak", "step=2 exit=0\nstep=3 status=running", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := reportedSuccess(&Failure{Status: "failed", LogTail: []byte(tt.log)}, Classification{}); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestReportedSuccessTakesTheHarnessExitCodeWhenTheLogSaysNothing(t *testing.T) {
	zero, one := int64(0), int64(1)
	tests := []struct {
		name, status, err, log string
		by                     string
		exit                   *int64
		want                   bool
	}{
		{"an exit code of 0 and no log", "failed", "", "", "", &zero, true},
		{"an exit code of 0 and a log with no exit or status", "failed", "", "step=3 tool=read_file bytes=0", "", &zero, true},
		{"an exit code of 0 and a log whose marks hold no field", "failed", "", "process exited normally", "", &zero, true},
		{"an exit code of 0 and a log whose status says neither", "failed", "", "step=3 tool=upload state=running", "", &zero, true},
		{"an exit code of 1 and no log", "failed", "", "", "", &one, false},
		{"no exit code and no log", "failed", "", "", "", nil, false},
		{"an exit code of 0 under a log whose last word is a failure", "failed", "", "tool=fetch status=failed", "", &zero, false},
		{"an exit code of 1 under a log whose last word is an exit of 0", "failed", "", "step=3 exit=0", "", &one, true},
		{"an exit code of 0 on a result that could not run", "error", "", "", "", &zero, false},
		{"an exit code of 0 beside a process the error says was killed", "failed", "Killed", "", "", &zero, false},
		{"an exit code of 0 beside an OOM kill the log shows", "failed", "worker exited", "", OOMKilledRule, &zero, false},
		{"an exit code of 0 beside Go's word that its child was killed", "failed", "exec: signal: killed", "", "", &zero, false},
		{"an exit code of 0 under a log whose status says neither but whose exit code failed", "failed", "", "step=3 exit=1 status=running", "", &zero, false},
		{"an exit code of 0 under a log whose state is stopped", "failed", "", "step=3 tool=server state=stopped", "", &zero, false},
		{"an exit code of 0 under a proxy's header, which is no status", "failed", "", "HTTP/1.1 403 Forbidden\nProxy-Status: squid", "", &zero, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &Failure{Status: tt.status, Error: tt.err, LogTail: []byte(tt.log), ExitCode: tt.exit}
			if got := reportedSuccess(f, Classification{By: tt.by}); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestAFailureWhoseCallExitedZeroIsAModeOfItsOwnAndCritical(t *testing.T) {
	zero, one := int64(0), int64(1)
	c := NewClassifierWith(nil, withoutRecords(GuessModel()))
	const msg = `invalid byte sequence for encoding "UTF8": 0x00`
	silent := c.Classify(Failure{Status: "failed", Error: msg, ExitCode: &zero})
	loud := c.Classify(Failure{Status: "failed", Error: msg, ExitCode: &one})
	if !strings.HasPrefix(silent.ModeSignature(), toolSucceeded) {
		t.Errorf("got mode signature %q, want it to start %q", silent.ModeSignature(), toolSucceeded)
	}
	if got, _ := Severity(silent.Layer, silent.Primitive, silent.ModeSignature()); got != sandtrap.SeverityCritical {
		t.Errorf("got severity %s for the call that exited 0, want critical", got)
	}
	if strings.HasPrefix(loud.ModeSignature(), toolSucceeded) {
		t.Errorf("got mode signature %q for the call that exited 1, want no %q", loud.ModeSignature(), toolSucceeded)
	}
	if got, _ := Severity(loud.Layer, loud.Primitive, loud.ModeSignature()); got == sandtrap.SeverityCritical {
		t.Errorf("got severity %s for the call that exited 1, want below critical", got)
	}
	fixture := NewClassifierWith(nil, sureOfFixtures()).Classify(Failure{Status: "failed",
		Error: "FileNotFoundError: [Errno 2] No such file or directory: 'data/input.csv'", LogTail: []byte("collected by conftest from fixtures"), ExitCode: &zero})
	if got := fixture.Layer + "/" + fixture.Primitive; got != "test/harness" || strings.HasPrefix(fixture.ModeSignature(), toolSucceeded) {
		t.Errorf("got %s with mode signature %q for a fixture the model found missing, want test/harness with no %q", got, fixture.ModeSignature(), toolSucceeded)
	}
	leak := c.Classify(Failure{Status: "failed", Error: "connect failed: https://ci:supers3cret99@pypi.example.com/simple", ExitCode: &zero})
	if !strings.HasPrefix(leak.ModeSignature(), secretLeaked) || strings.Contains(leak.ModeSignature(), toolSucceeded) {
		t.Errorf("got mode signature %q for a leak whose call exited 0, want it to start %q alone", leak.ModeSignature(), secretLeaked)
	}
}

func TestLeaksSecretFindsCredentialsNotPlaceholders(t *testing.T) {
	tests := []struct {
		name, err string
		want      bool
	}{
		{"a token in a URL's query", "Max retries exceeded with url: /notes?fields=id,title&token=71eccadd12daed9732c94078248b715db0aea258", true},
		{"a GitHub token", "fatal: could not read from https://ghp_abcdefghijklmnopqrstuvwxyz0123456789@github.com/x/y", true},
		{"an AWS access key id", "InvalidClientTokenId: AKIAIOSFODNN7EXAMPLE is not valid", true},
		{"a bearer token", "401 Unauthorized: header Authorization: Bearer eyJhbGciOi1JIUzI1NiJ9abcdef0123456789", true},
		{"a password in a connection string", "Database connection to 'host=db port=5432 user=analyst password=AbMvKXy4J54JPK sslmode=disable' is not available", true},
		{"a password in a printed Go map", "error putting [map[connection_uri:http://rabbit-01 name:connection password:6YKJz7yqBDYeW]]", true},
		{"an access key in JSON", `init({"browserName":"firefox","accessKey":"6a51e966-0246-45b9-b60d-d7699523e519"})`, true},
		{"a password that is a word", "FATAL: password: incorrect for user analyst", false},
		{"a placeholder named after an environment variable", "connect to wss://chrome.browserless.io?token=BROWSERLESS_TOKEN failed", false},
		{"a masked token", "request to /api?token=****************** failed", false},
		{"a token too short to be a credential", "/api?token=abc123", false},
		{"a browser's published Google key", "https://maps.googleapis.com/maps/api/js?key=AIzaSyBukfGfN2Ayd_LgVqjEGEtJneT-D-r4Zv4 - Failed to load resource", false},
		{"a password in a URL", "Ignoring indexes: https://user:supers3cret@pypi.example.com/root/ci/+simple/", true},
		{"a word as the password in a URL", "Cloning https://username:password@github.com/example/private.git to ...", true},
		{"a masked password in a URL", "Downloading http://joebloggs:****@someurl.com/my-requirement.whl (12 kB)", false},
		{"a placeholder for the password in a URL", "Connecting to MQTT broker at mqtt://<username>:<password>@<host>:<port>", false},
		{"a GitLab token in an index URL a console wrapped", "--index-url\n                             https://__token__:glpat-5Gti9pZ15SrhhQLekcN2\n                             @gitlab.example.com/api/v4/projects/624/packages/pypi/simple", true},
		{"a Hugging Face token", "401 Client Error for url: https://huggingface.co/api/whoami-v2 (token hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789)", true},
		{"a judge's submission token, which is a UUID", `"token": "2289dfc3-cd54-4288-a849-8b0ca77a035e", "message": "Time limit exceeded (wall clock)"`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := leaksSecret(&Failure{Error: tt.err}); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestTheHarnessLogDecidesWhatTheErrorCannot(t *testing.T) {
	tests := []struct {
		name, err, log     string
		want, wantSeverity string
		wantCause          string
	}{
		{"a truncated image whose log shows the download came back short is a NUL cut",
			"OSError: image file is truncated (2056 bytes not processed)",
			"tool=browser.download url=https://cdn.example.com/p.jpg\ndownload saved /home/user/p.jpg expected_bytes=3818450 written_bytes=2056",
			"interface/null-byte", sandtrap.SeverityCritical, "nul-cut-payload"},
		{"JSON that ended early when the output was exactly a pipe's buffer was cut at its size",
			"report.go:88: JSON parsing failed with error unexpected end of JSON input for out/report-0412.jsonl",
			`{"ts": "2025-03-15T00:14:52Z", "workflow": "wf-627-report", "step": 3, "tool": "run_code", "status": "ok", "stdout_bytes": 65536, "next_step_exit_code": 1}`,
			"interface/message-size", sandtrap.SeverityCritical, ""},
		{"jq's input that ended in a string when the captured stdout was a pipe's buffer was cut at its size",
			"jq: parse error: Unfinished string at EOF at line 2326, column 13",
			"$ bunny dns zones list --output json | jq .\nproducer_exit=0 stderr_bytes=0\ncaptured_stdout_bytes=65536 same_cmd_to_file_bytes=396272\nconsumer_exit=2",
			"interface/message-size", sandtrap.SeverityCritical, ""},
		{"JSON that ended early at a size no buffer has stays the parser's",
			"report.go:88: JSON parsing failed with error unexpected end of JSON input for out/report-0412.jsonl",
			`{"ts": "2025-03-15T00:14:52Z", "workflow": "wf-627-report", "step": 3, "tool": "run_code", "status": "error", "stdout_bytes": 61234, "exit_code": 1}`,
			"interface/protocol", sandtrap.SeverityHigh, "jsonrpc-invalid-json"},
		{"a buffer's size that a setting names is no count of the output",
			"report.go:88: JSON parsing failed with error unexpected end of JSON input for out/report-0412.jsonl",
			`{"tool": "run_code", "chunk_size": 65536, "max_output_length": 8192, "status": "error", "exit_code": 1}`,
			"interface/protocol", sandtrap.SeverityHigh, "jsonrpc-invalid-json"},
		{"a script not found whose log shows its lines end in CRLF had them rewritten as text",
			": No such file or directory",
			"[03:47:27] $ file scripts/run_step.py -> Python script text executable, with CRLF line terminators\n[03:47:32] $ ./scripts/run_step.py --in reads.fastq.gz -> exit=127",
			"interface/encoding", sandtrap.SeverityCritical, "crlf-line-endings"},
		{"od's carriage return, escaped again in a JSON log line, says the same",
			"exec /app/entrypoint.sh: no such file or directory",
			`{"step": "inspect", "cmd": "head -c 24 ./app/entrypoint.sh | od -c | head -2", "stdout": "0000000   #   !   /   b   i   n   /   s   h  \\r  \\n   s   e   t"}`,
			"interface/encoding", sandtrap.SeverityCritical, "crlf-line-endings"},
		{"a Windows file's CRLF says nothing of the NUL bytes its error names",
			`invalid byte sequence for encoding "UTF8": 0x00`,
			`{"note": "file(1)", "path": "export.txt", "result": "Little-endian UTF-16 Unicode text, with CRLF line terminators"}`,
			"interface/null-byte", sandtrap.SeverityMedium, "nul-in-database-text"},
		{"a package whose hash failed after its upload grew is the transfer's encoding",
			"npm ERR! code EINTEGRITY\nnpm ERR! integrity checksum failed when using sha512: wanted sha512-w0XZ== but got sha512-ZaDQ==",
			"ts=2026-12-02T02:01:35Z step=upload-artifact tool=write_file args.path=/work/dist/typescript-1.0.0.tgz local_bytes=481056 remote_bytes=822605 tool_result=ok",
			"interface/encoding", sandtrap.SeverityCritical, "transfer-digest-mismatch"},
		{"an image that does not open whose stored bytes hold U+FFFD was decoded as text on its way",
			"UnidentifiedImageError: cannot identify image file <_io.BytesIO object at 0x7f3c2a91d5e0>",
			`{"jsonrpc":"2.0","id":87,"method":"tools/call","params":{"name":"upload_file"}}` + "\nupload done stored_head=52494646efbfbdef",
			"interface/encoding", sandtrap.SeverityCritical, "transfer-digest-mismatch"},
		{"a NUL the error names is the NUL's, though the bytes dumped beside it hold U+FFFD too",
			"psycopg.DataError: PostgreSQL text fields cannot contain NUL (0x00) bytes",
			"23:50:32 columns_read=382 comment_bytes_max=180\n23:50:32 hexdump comment[17]: ef bf bd 00 eb b9 84 ec 9c a8",
			"interface/null-byte", sandtrap.SeverityMedium, "nul-in-database-text"},
		{"Jackson's NUL the error names is the NUL's too, beside a dump that holds U+FFFD",
			"com.fasterxml.jackson.core.JsonParseException: Illegal character ((CTRL-CHAR, code 0)): only regular white space (\\r, \\n, \\t) is allowed between tokens",
			"23:50:32 bytes_read=4096\n23:50:32 hexdump body[0:10]: ef bf bd 00 7b 22 69 64 22 3a",
			"interface/null-byte", sandtrap.SeverityCritical, ""},
		{"a NUL named only in the log does not stand over a dump that shows U+FFFD",
			"sox FAIL formats: can't open input `test.wav': WAVE: RIFF header not found",
			`--> {"jsonrpc": "2.0", "id": 743, "method": "tools/call", "params": {"name": "read_file", "arguments": {"path": "test.wav"}}}` + "\n" +
				`<-- {"jsonrpc": "2.0", "id": 743, "result": {"content": [{"type": "text", "text": "RIFF\ufffd\ufffd\u0001\u0000WAVEfmt ..."}], "isError": false}}` + "\n" +
				"# sha256_src=9f1c..e2 sha256_dst=41ab..07 first4_src=52494646 first4_dst=efbfbd52\n# [22:48:15] exec exit=2",
			"interface/encoding", sandtrap.SeverityCritical, "transfer-digest-mismatch"},
		{"a NUL the error names beside U+FFFD in the error is the dump's encoding",
			"psycopg.DataError: PostgreSQL text fields cannot contain NUL (0x00) bytes: '\ufffd\x00'",
			"23:50:32 hexdump comment[17]: ef bf bd 00 eb b9 84 ec 9c a8",
			"interface/encoding", sandtrap.SeverityCritical, "transfer-digest-mismatch"},
		{"YAML's control characters, naming none, are the dump's encoding",
			"decode kubeconfig: yaml: control characters are not allowed",
			"head -c 8 ~/.kube/config | xxd -> 00000000: efbf bd50 4e47 0d0d",
			"interface/encoding", sandtrap.SeverityCritical, "transfer-digest-mismatch"},
		{"counts of one transfer on two lines of a key-per-line log are read together",
			"json read error: line 1 column 65536: premature end of input",
			"wf=flatten-api-dump\nstep=3/4\ntool=run_command\ntool_exit=0\nbytes_expected=222127\nbytes_received=65536\nduration_s=3.76\nexit_code=1",
			"interface/message-size", sandtrap.SeverityCritical, "transfer-cut-at-limit"},
		{"a bare kill whose run took its time limit, with memory to spare, is the time limit's",
			"Killed",
			"2026-12-01T23:45:20Z cargo-build-ripgrep-25/4 download_file timeout_s=300 elapsed_s=302 rss_peak_mb=255 limits.mem=4096Mi exit=137",
			"sandbox/cpu-time", sandtrap.SeverityHigh, ""},
		{"a bare kill whose run took its time limit with memory at its limit stays memory's",
			"Killed",
			"2026-12-01T23:45:20Z cargo-build-ripgrep-25/4 download_file timeout_s=300 elapsed_s=302 rss_peak_mb=4000 mem_limit_mb=4096 exit=137",
			"sandbox/memory", sandtrap.SeverityHigh, "oom-killed"},
		{"a kill well inside a wall limit stays memory's",
			"Killed",
			"ts=2025-03-15T05:51:14Z\nworkflow=spidy-crawl\nmcp_tool=run_command\nelapsed_s=2710\nwall_limit_s=3600",
			"sandbox/memory", sandtrap.SeverityHigh, "oom-killed"},
		{"a clone whose log names no OOM kill and shows the wall limit taken is the limit's",
			"Clone failed. Source control repository operation cloneRepository failed for unknown: The source control operation could not be completed.",
			"tool=run_command timeout_s=120\nelapsed_s=120.01 wall_limit_s=120 signal_sent=SIGKILL\ncgroup peak_rss_mb=380 mem_limit_mb=4096 oom_kill_events=0\nexit_code=1",
			"sandbox/cpu-time", sandtrap.SeverityHigh, ""},
		{"a kill that names memory stays memory's whatever the clock says",
			"Out of memory: Killed process 4121 (cc1plus)",
			"timeout_s=300 elapsed_s=302 rss_peak_mb=255 exit=137",
			"sandbox/memory", sandtrap.SeverityHigh, "oom-killed"},
		{"a failure no rule places whose run took its time limit is cpu-time",
			"Process aborted or coredumped: #<Process::Status: pid 386 SIGUSR2 (signal 12)>",
			"2026-12-01T22:27:51Z wf-8670 tool=exec_command argv=[\"make\",\"-j4\"] limit_s=1800 elapsed_s=1801 cpu_s=1634 exit=140",
			"sandbox/cpu-time", sandtrap.SeverityHigh, ""},
		{"a browser that closed with its renderer near its memory is memory",
			"Error: Protocol error (Runtime.callFunctionOn): Target closed.",
			"wf=wf-2982 tool=browser_navigate url=https://news.example.org/ pages_visited=281 rss_mb=2789 shm_mb=64",
			"sandbox/memory", sandtrap.SeverityHigh, ""},
		{"a browser that closed at 80 % of the limit the log names is memory",
			"Error: Protocol error (Runtime.callFunctionOn): Target closed.",
			"step=build_table tool=browser_evaluate html_bytes=142606336 renderer_rss_peak_mb=985 container_limit_mb=1024",
			"sandbox/memory", sandtrap.SeverityHigh, ""},
		{"a browser that closed while uploading 100 MB is over the message limit",
			"Error: Protocol error (Runtime.callFunctionOn): Target closed.",
			`wf-0240 | step 9 | browser_file_upload paths=["/tmp/agent/uploads/cover_letter.docx"] file_bytes=108289219 | transport=streamable-http`,
			"interface/message-size", sandtrap.SeverityMedium, ""},
		{"a time limit the log names is not a memory limit",
			"Error: Protocol error (Runtime.callFunctionOn): Target closed.",
			"wf=wf-2982 tool=browser_navigate limit_s=60 rss_mb=100",
			"sandbox/session-lifecycle", sandtrap.SeverityHigh, "cdp-session-closed"},
		{"a browser that closed where the log shows the OOM killer is memory's kill",
			"Error: Protocol error (Page.captureScreenshot): Target closed.",
			"22:39:24 scrollHeight=48211 viewport=1920x1080 fullPage=true\n22:39:24 cgroup limit=1024M peak=1017M\n22:39:24 cgroup events: oom_kill 1 (task=chrome pid=7856)",
			"sandbox/memory", sandtrap.SeverityHigh, "oom-killed"},
		{"a browser that closed where the log counts no OOM kill stays the session's",
			"Error: Protocol error (Page.captureScreenshot): Target closed.",
			"wf=wf-2982 tool=browser_take_screenshot oom_kill_events=0 rss_mb=300",
			"sandbox/session-lifecycle", sandtrap.SeverityHigh, "cdp-session-closed"},
		{"a browser that closed with nothing in the log to say why stays the session's",
			"Error: Protocol error (Runtime.callFunctionOn): Target closed.",
			"wf=wf-2982 tool=browser_navigate url=https://news.example.org/ file_bytes=2048 rss_mb=300",
			"sandbox/session-lifecycle", sandtrap.SeverityHigh, "cdp-session-closed"},
		{"an archive cut at a size limit is message-size, not storage",
			"zipfile.BadZipFile: File is not a zip file",
			"download saved /home/user/d.zip expected_bytes=3735668 written_bytes=1048576",
			"interface/message-size", sandtrap.SeverityCritical, "transfer-cut-at-limit"},
		{"a NUL in a result whose bytes grew was an encoding",
			`result: "\ufffd\u0000\ufffd"`,
			"tool=read_file path=/home/user/out/blob.bin src_bytes=333665 returned_bytes=334039",
			"interface/encoding", sandtrap.SeverityCritical, "transfer-digest-mismatch"},
		{"a NUL the error names in a file whose bytes grew was padded with zeros",
			"/workspace/svc/internal/lsp/handler.go:12:2: read /workspace/svc/internal/lsp/server.go: unexpected NUL in input",
			"tool=write_file path=/workspace/svc/internal/lsp/server.go src_bytes=4180 stored_bytes=8192",
			"interface/null-byte", sandtrap.SeverityCritical, "nul-padded-in-transfer"},
		{"text a decoder refused, whose bytes shrank in transfer, stays an encoding: lossy decoding drops bytes",
			"Error in read.table(file) : invalid multibyte string at '<e9>t<e9>'",
			"tool=read_file path=/home/user/data/clients.csv src_bytes=48213 returned_bytes=48190",
			"interface/encoding", sandtrap.SeverityCritical, "utf8-decode-failed"},
		{"bytes Ruby could not decode, far fewer in the log, stay an encoding though a NUL is among them: a decoder drops what it cannot read",
			"registry.rb:652:in `encode': incomplete \"\\x00\" on UTF-16LE (Encoding::InvalidByteSequenceError)",
			"tool=write_file path=/workspace/live/loop.rb src_bytes=4813 stored_bytes=2056",
			"interface/encoding", sandtrap.SeverityCritical, ""},
		{"a network failure that cut a download stays the network's",
			"curl: (56) Recv failure: Connection reset by peer",
			"download saved /home/user/p.jpg expected_bytes=3818450 written_bytes=2056",
			"sandbox/network-egress", sandtrap.SeverityHigh, ""},
		{"a file the harness wrote that is gone after a restart is lost, and critical",
			"FileNotFoundError: [Errno 2] No such file or directory: './data/cache/embeddings.npy'",
			"step 4 write_file ./data/cache/embeddings.npy ok\nsandbox sbx_wnm8 restarted (reason=oom-recover)\nstep 5 run_code",
			"sandbox/storage-persistence", sandtrap.SeverityCritical, "files-lost"},
		{"a run resumed from checkpoints that found none lost them, and is critical",
			"INFO trial_runner.py:510 -- No local checkpoint was found. Ray Tune will now start a new experiment.",
			`step=5 code_interpreter.run_code(resume=true, ckpt_dir="/home/user/runs/4us15z") sandbox=sbx-y98x restarts=2 exit=1`,
			"sandbox/storage-persistence", sandtrap.SeverityCritical, "files-lost"},
		{"a missing program stays the package path whatever the harness wrote",
			"FileNotFoundError: [Errno 2] No such file or directory: 'latex': 'latex'",
			"step 4 write_file report.tex ok\nsandbox restarted",
			"sandbox/package-path", sandtrap.SeverityMedium, "program-missing"},
		{"a tool that wrote where its arguments climbed out of the workspace accepted a traversal",
			"Content successfully written to notes.txt",
			`2025-12-03T04:30:08Z wf-54507 step=9 call=file_writer args={"filename":"notes.txt","directory":"/tmp/../var/www","overwrite":true}`,
			"interface/input-validation", sandtrap.SeverityCritical, "path-traversal-accepted"},
		{"a read that returned less than the file's stat size was cut at a NUL",
			"read_file_string gave 12069 bytes of 53168",
			"2026-11-19T00:37:28.576Z | wf-9015-209v2 | step 2 | call fs.read_file path=artifacts/model.idx | stat.size=53168 | returned_len=12069",
			"interface/null-byte", sandtrap.SeverityCritical, "nul-cut-payload"},
		{"the same read that the tool reported as a success is that finding's mode, apart from the known cause",
			"read_file_string gave 12069 bytes of 53168",
			"2026-11-19T00:37:28.576Z | wf-9015-209v2 | step 2 | call fs.read_file path=artifacts/model.idx | stat.size=53168 | returned_len=12069 | status=ok",
			"interface/null-byte", sandtrap.SeverityCritical, ""},
		{"a tool that refused a path that climbs out keeps the refusal",
			"Error: Access denied - path outside allowed directories: /var/www",
			`step=9 call=write_file args={"path":"/workspace/../var/www/index.html"}`,
			"interface/input-validation", sandtrap.SeverityMedium, "path-beyond-allowed-refused"},
		{"a zip that does not open, saved from a web page the log shows served, is an error page saved",
			"zipfile.BadZipFile: File is not a zip file",
			`step=fetch tool=files.download args={"url":"https://downloads.example.org/q3.zip"} http=200 content_type=text/html; charset=utf-8 bytes=3672 status=ok`,
			"sandbox/network-egress", sandtrap.SeverityCritical, ""},
		{"a PDF that starts with an API's JSON error body is an error page saved",
			`PyPDF2.errors.PdfReadError: PDF starts with '{"err', but '%PDF-' expected`,
			`tool=files.download url=https://files.example.io/r.pdf http=200 "Content-Type": "application/json" bytes=88`,
			"sandbox/network-egress", sandtrap.SeverityCritical, ""},
		{"a web page served to a download whose file opened is no error page saved",
			"FileNotFoundError: [Errno 2] No such file or directory: 'latex'",
			`tool=files.download http=200 content_type=text/html bytes=3672`,
			"sandbox/package-path", sandtrap.SeverityMedium, "program-missing"},
		{"a database's refusal of a NUL after a tool that reported success is critical, and no known cause",
			`invalid byte sequence for encoding "UTF8": 0x00`,
			"wf=wf-1431 step=4 tool=fetch.get rc=0 out_bytes=332568 persist=events -> error",
			"interface/null-byte", sandtrap.SeverityCritical, ""},
		{"the same refusal after a tool that failed stays medium",
			`invalid byte sequence for encoding "UTF8": 0x00`,
			"wf=wf-1431 step=4 tool=fetch.get rc=1 out_bytes=332568 persist=events -> error",
			"interface/null-byte", sandtrap.SeverityMedium, "nul-in-database-text"},
		{"a request the client gave up on while the tool ran to success stays a time limit",
			"McpError: Timed out while waiting for response to ClientRequest. Waited 10.0 seconds.",
			"step=1 call run_notebook started; server-side duration 34.5s (from server log, completed rc=0)",
			"sandbox/cpu-time", sandtrap.SeverityMedium, "mcp-request-timeout"},
		{"grep meeting a binary file in the log leaves a failed lookup to the network",
			"step failed\ncurl: (6) Could not resolve host: pypi.org",
			"grep: ./__pycache__/a.cpython-312.pyc: binary file matches",
			"sandbox/network-egress", sandtrap.SeverityHigh, "dns-lookup-failed"},
		{"MariaDB's warning that it runs without io_uring leaves a failed lookup to the network",
			"step failed\ncurl: (6) Could not resolve host: mirror.example.org",
			"[Warning] mysqld: io_uring_queue_init() failed with ENOSYS: check seccomp filters, and the kernel version (newer than 5.1 required)\nexit=6",
			"sandbox/network-egress", sandtrap.SeverityHigh, "dns-lookup-failed"},
		{"abbreviated digests that differ are a round trip that changed the bytes",
			"encoding cp1252\nvalue 'Gr??enordnung'",
			"tool=sandbox.write_file args path=C:\\work\\out.json bytes=1131\ntool result isError=false; readback sha256 8c856e058bac… != sent f16423e83942…",
			"interface/encoding", sandtrap.SeverityCritical, "transfer-digest-mismatch"},
	}
	// The evidence is read here without the model's overrules, which
	// TestTheModelOverrulesARuleWhenSurerThanItsRecord covers: a log's words
	// ("max_output_length") can lean the model where no evidence rule went.
	c := NewClassifierWith(nil, withoutRecords(GuessModel()))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cl := c.Classify(Failure{Status: "failed", Error: tt.err, LogTail: []byte(tt.log)})
			if got := cl.Layer + "/" + cl.Primitive; got != tt.want {
				t.Errorf("got %s (%s), want %s", got, cl.By, tt.want)
			}
			name, _, _ := KnownCauseOf(cl.Cause)
			if name != tt.wantCause {
				t.Errorf("got cause %q, want %q", name, tt.wantCause)
			}
			if got, _ := Severity(cl.Layer, cl.Primitive, cl.ModeSignature()); got != tt.wantSeverity {
				t.Errorf("got severity %s, want %s", got, tt.wantSeverity)
			}
		})
	}
}

func TestALeakedSecretIsCriticalAndItsOwnMode(t *testing.T) {
	c := NewClassifier(nil)
	leak := c.Classify(Failure{Status: "failed", Error: "API request timed out after 30s: HTTPConnectionPool(host='127.0.0.1', port=41184): Max retries exceeded with\nurl: /notes?fields=id&token=71eccadd12daed9732c94078248b715db0aea2582a63ad44"})
	plain := c.Classify(Failure{Status: "failed", Error: "API request timed out after 30s: HTTPConnectionPool(host='127.0.0.1', port=41184): Max retries exceeded with\nurl: /notes?fields=id"})
	if !strings.HasPrefix(leak.ModeSignature(), secretLeaked) {
		t.Errorf("got mode signature %q, want it to start %q", leak.ModeSignature(), secretLeaked)
	}
	if got, _ := Severity(leak.Layer, leak.Primitive, leak.ModeSignature()); got != sandtrap.SeverityCritical {
		t.Errorf("got severity %s for the leak, want critical", got)
	}
	if got, _ := Severity(plain.Layer, plain.Primitive, plain.ModeSignature()); got == sandtrap.SeverityCritical {
		t.Errorf("got severity %s without the leak, want less than critical", got)
	}
}

func TestALeakedSecretIsTheInterfacesUnlessTheHarnessOrItsOwnCodeSaysOtherwise(t *testing.T) {
	const token = "&token=71eccadd12daed9732c94078248b715db0aea2582a63ad44"
	tests := []struct {
		name                string
		f                   Failure
		wantLayer, wantPrim string
		wantBy              string
	}{
		{"a request that failed with a token in its URL",
			Failure{Status: "failed", Error: "HTTPConnectionPool(host='api.example.com', port=443): Max retries exceeded with url: /notes?fields=id" + token},
			"interface", "input-validation", SecretShownRule},
		{"a harness that names the sandbox layer keeps it",
			Failure{Status: "failed", HarnessLayer: "sandbox", Error: "HTTPConnectionPool(host='api.example.com', port=443): Max retries exceeded with url: /notes?fields=id" + token},
			"sandbox", "network-egress", ByHarness},
		{"a fixture of the test's own that prints one stays the test's",
			Failure{Status: "failed", Error: "ERROR at setup of test_notes: fixture 'client' raised: login failed for /notes?fields=id" + token},
			"test", "harness", "rule:harness-error"},
	}
	c := NewClassifier(nil)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := c.Classify(tt.f)
			if got.Layer != tt.wantLayer || got.Primitive != tt.wantPrim || got.By != tt.wantBy {
				t.Errorf("got %s/%s by %s, want %s/%s by %s", got.Layer, got.Primitive, got.By, tt.wantLayer, tt.wantPrim, tt.wantBy)
			}
			if !strings.HasPrefix(got.ModeSignature(), secretLeaked) {
				t.Errorf("got mode signature %q, want it to start %q", got.ModeSignature(), secretLeaked)
			}
		})
	}
}

func TestMegabytesReadsTheUnitFromTheKeyTheSuffixOrTheSize(t *testing.T) {
	tests := []struct {
		name, key, value, unit string
		want                   float64
	}{
		{"a key in megabytes", "rss_mb", "2789", "", 2789},
		{"a key in gigabytes", "heap_gb", "3", "", 3072},
		{"a suffix in gibibytes", "heap", "1.5", "GiB", 1536},
		{"a key in kilobytes", "rss_kb", "2048", "", 2},
		{"a bare figure too large for megabytes is bytes", "mem", "2147483648", "", 2048},
		{"a bare small figure is megabytes", "rss", "985", "", 985},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := megabytes(tt.key, tt.value, tt.unit); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestMemoryNearLimitReadsACapApartFromMemoryUsed(t *testing.T) {
	tests := []logCase{
		{"usage at 80 % of a named limit", "rss_mb=3300 mem_limit_mb=4096", true},
		{"cgroup v2's memory.max is a cap, not memory used", `{"rss_mib":850,"mem_max_mib":4096}`, false},
		{"usage near memory.max", `{"rss_mib":3900,"mem_max_mib":4096}`, true},
		{"a container's memory cap is no usage", "container_mem_cap_mb=2048 rss_at_exit_mb=398", false},
		{"a usage's peak is memory used", "rss_max_mb=1900", true},
		{"a large usage far under the limit the log names is not near it", "sample rss_mb=2489 limit_mb=16384", false},
	}
	checkLog(t, memoryNearLimit, tests)
}

func TestReachedTimeLimitComparesTheRunWithTheShortestTimeLimitOfTheLog(t *testing.T) {
	tests := []logCase{
		{"a run that took its limit", "tool=exec_command argv=[make -j4] limit_s=1800 elapsed_s=1801 cpu_s=1634 exit=140", true},
		{"a limit in milliseconds and a wall time in seconds", "step=4 timeout_ms=30000 wall_s=30.1", true},
		{"a run well inside its limit", "limit_s=1800 elapsed_s=95", false},
		{"a memory limit is not a time limit", "mem_limit_mb=1024 elapsed_s=2000", false},
		{"a wall limit is not the time the run took", "elapsed_s=203 wall_limit_s=3600", false},
		{"no elapsed time at all", "limit_s=60 exit=137", false},
		{"a count of processes is not a time limit", `"timeout_s": 1800 compile_process_limit=6 exit_status=1 elapsed=136.40s`, false},
		{"a process's timeout is a time limit", "process_timeout=300 elapsed=301s", true},
		{"a count's limit whose key ends in seconds is a time limit", "job_limit_s=60 elapsed_s=61", true},
		{"a count of timeouts is not a time limit", "step=poll timeout_hits=3 elapsed=187s", false},
		{"a limit whose key only holds the letters of hit is no count", "white_list_limit_s=60 elapsed=61s", true},
		{"a count of a limit's hits is not a time limit", "cgroup limit_bytes=2147483648 vm_ram_mb=2048\nusage_bytes=2147467264 limit_hits=58\nexit=1 elapsed=187s", false},
		{"CPU seconds used up to the limit are the limit's", "exec tool=ocrmypdf limit_wall_s=180 limit_cpu_s=180\ncpu_used_s=180.02 rss_mb=361", true},
		{"CPU seconds well under the limit are not", "limit_cpu_s=180 cpu_used_s=12.5 rss_mb=2048", false},
		{"a count's limit with a time unit is a time limit", "row_limit=60s elapsed=61s", true},
		{"a connection that took its connect timeout never opened: no run's time limit", "dial 10.40.2.31:502 connect_timeout_ms=5000\ndial 10.40.2.31:502 elapsed_ms=5005 bytes_sent=0", false},
		{"a run past its connect timeout but inside its time limit did not reach the limit", "connect_timeout_s=10 limit_s=120 elapsed_s=30", false},
		{"a run that took its time limit beside a connect timeout is the limit's", "connect_timeout_s=10 limit_s=120 elapsed_s=121", true},
		{"a rate limit's interval is no time limit on the run", "journald.conf RateLimitIntervalSec=30s RateLimitBurst=10000\nunit=run-job.service exit_status=0 wall=31.2s", false},
		{"nor is its window", "iopub_data_rate_limit=1000000.0 rate_limit_window_s=3\nexecute_reply elapsed_s=3.1", false},
		{"a time limit beside a rate limit's interval is still read", "RateLimitIntervalSec=30s timeout_s=60 wall=61s", true},
		{"and a run inside it did not reach it", "RateLimitIntervalSec=30s timeout_s=60 wall=45s", false},
		{"a timeout's interval is a time limit", "timeoutIntervalForRequest=60s elapsed_s=60.2", true},
		{"so is a window's timeout", "window_timeout_s=300 elapsed_s=301", true},
		{"a connect timeout in camel case is one too", "ConnectTimeout=5000ms elapsed_ms=5003", false},
		{"and in milliseconds", "connectTimeoutMillis=3000 waited_ms=3001", false},
		{"a reconnect's timeout is a time limit", "reconnect_timeout_s=30 elapsed_s=30", true},
		{"so is a connector's", "connector_timeout_s=60 elapsed_s=61", true},
		{"a connection's timeout is a time limit, not a connect timeout", "connection_timeout=60 elapsed_s=60.1", true},
		{"so is a disconnect's", "disconnect_timeout_s=300 elapsed_s=300", true},
	}
	checkLog(t, reachedTimeLimit, tests)
}

func TestReachedPidsLimitComparesTheProcessCountWithTheCgroupsCap(t *testing.T) {
	tests := []logCase{
		{"a count over the cap", "[23:28:34] cgroup pids.current=629 pids.max=512 pids.events max=0", true},
		{"a count at the cap, in snake case", "step=cgroup pids_max=128 pids_current=128 threads=126", true},
		{"a count at the cap in a JSON line", `{"devpts_mounted":false,"pids_max":64,"pids_current":64,"exit":1}`, true},
		{"the count reaching the cap on a later line", "pids.max=32 pids.current=21\npids.current=32 fork_failures=+5", true},
		{"forks the cap refused", "cgroup pids.events max=29", true},
		{"a count well under the cap", "pids.current=41 pids.max=64 ; workers_requested=10", false},
		{"a cap with no count", "limits: mem.max=4294967296 pids.max=1024", false},
		{"no fork refused", "pids.events max=0", false},
		{"a cap that is no cap", "pids.max=max pids.current=12", false},
		{"a cap of zero, which some tools write for none", "pids.max=0 pids.current=12", false},
		{"another cgroup's count beside this one's cap", "host: pids.current=412 pids.max=max\nsandbox: pids.current=12 pids.max=64", false},
		{"a count held against its own line's cap, not a cap lowered later", "pids.max=1024 pids.current=300\npids.max=256 pids.current=12", false},
		{"a count at a cap named after it on a later line", "pids.current=64\npids.max=64", false},
		{"refused forks after a colon", "cat pids.events -> pids.events: max 29", true},
		{"a cap and a count with a prefix joined by an underscore", "cgroup_pids_max=64 cgroup_pids_current=64", true},
		{"a max on the line after the events file is not its count", "cat pids.events\nmax 29", false},
		{"no pids at all", "elapsed_s=12 rss_mb=300", false},
	}
	checkLog(t, reachedPidsLimit, tests)
}

func TestARunAtItsProcessCapIsProcessSpawnWhateverTheToolSaid(t *testing.T) {
	tests := []struct {
		name, err, log string
		want, wantBy   string
	}{
		{"fork's no memory at the process cap", "Failed to fork a worker process: Cannot allocate memory",
			"ts=2025-06-15T01:27:34Z step=cgroup pids_max=64 pids_current=64 threads=62\nts=2025-06-15T01:27:36Z step=exit status=12 rss_mb=336",
			"sandbox/process-spawn", PidsLimitRule},
		{"a worker gone at the process cap", "RuntimeError: DataLoader worker (pid(s) 296430) exited unexpectedly",
			"tool=run_command cmd=\"python train.py --workers 16\"\npids.max=32 pids.current=21\npids.current=32 fork_failures=+5",
			"sandbox/process-spawn", PidsLimitRule},
		{"a run at its process cap and its time limit is the cap's, under one prefix", "Killed",
			"pids_max=64 pids_current=64\nlimit_s=600 elapsed_s=601 exit=137",
			"sandbox/process-spawn", PidsLimitRule},
		{"fork's no memory under the cap stays memory's", "Failed to fork a worker process: Cannot allocate memory",
			"step=cgroup pids_max=512 pids_current=40 rss_mb=4090 mem_max_mb=4096",
			"sandbox/memory", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cl := NewClassifier(nil).Classify(Failure{Status: "failed", Error: tt.err, LogTail: []byte(tt.log)})
			if got := cl.Layer + "/" + cl.Primitive; got != tt.want {
				t.Errorf("got %s by %s, want %s", got, cl.By, tt.want)
			}
			if tt.wantBy != "" && cl.By != tt.wantBy {
				t.Errorf("got %s, want %s", cl.By, tt.wantBy)
			}
			if tt.wantBy == PidsLimitRule && (!strings.HasPrefix(cl.Signature, processLimitReached+": ") || strings.Contains(cl.Signature, timeLimitReached)) {
				t.Errorf("got signature %q, want it to say the process cap was reached, once", cl.Signature)
			}
			if tt.wantBy == PidsLimitRule && !strings.Contains(cl.Cause, "thread-or-process-limit") {
				t.Errorf("got known cause %q, want the thread or process limit's", cl.Cause)
			}
		})
	}
}

// logCase is a log's end and whether a check finds what it looks for.
type logCase struct {
	name, log string
	want      bool
}

// checkLog runs found on each case's log.
func checkLog(t *testing.T, found func(log string) bool, cases []logCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			if got := found(tt.log); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// errLogCase is an error, a log's end, and whether a check finds what it
// looks for in the two.
type errLogCase struct {
	name, err, log string
	want           bool
}

// checkErrLog runs found on each case's error and log.
func checkErrLog(t *testing.T, found func(errText, log string) bool, cases []errLogCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			if got := found(tt.err, tt.log); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// evidenceCase is a failure whose class the harness's log decides.
type evidenceCase struct {
	name, err, log, harnessLayer string
	want, wantBy                 string
}

// evidencePrefixes are the prefixes the harness's evidence puts before a
// signature; a signature holds one at the most.
var evidencePrefixes = []string{timeLimitReached, processLimitReached, wrongPort, testSuppliedValue, networkUnanswered}

// checkEvidence classifies each case by the built-in rules and a model
// with no rule's record, and wants its class and, when one is named, its
// By. When prefix is named, a failure the evidence's By placed wants its
// signature under that prefix alone, and any other none of it.
func checkEvidence(t *testing.T, by, prefix string, cases []evidenceCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			cl := NewClassifierWith(nil, withoutRecords(GuessModel())).Classify(Failure{Status: "failed", Error: tt.err, LogTail: []byte(tt.log), HarnessLayer: tt.harnessLayer})
			if got := cl.Layer + "/" + cl.Primitive; got != tt.want {
				t.Errorf("got %s by %s, want %s", got, cl.By, tt.want)
			}
			if tt.wantBy != "" && cl.By != tt.wantBy {
				t.Errorf("got %s, want %s", cl.By, tt.wantBy)
			}
			if prefix == "" {
				return
			}
			if cl.By != by {
				if strings.Contains(cl.Signature, prefix) {
					t.Errorf("got signature %q, want the rule's own, without %q", cl.Signature, prefix)
				}
				return
			}
			if !strings.HasPrefix(cl.Signature, prefix+": ") {
				t.Errorf("got signature %q, want it under %q", cl.Signature, prefix)
			}
			for _, other := range evidencePrefixes {
				if other != prefix && strings.Contains(cl.Signature, other) {
					t.Errorf("got signature %q, want %q alone, not %q beside it", cl.Signature, prefix, other)
				}
			}
		})
	}
}

func TestAFileTheStorageRulesReadWhoseMountIsReadOnlyIsAPermission(t *testing.T) {
	tests := []evidenceCase{
		{"a mkdir that found no folder on a read-only overlay", "ENOENT: no such file or directory, mkdir '/app/test-results/.playwright'",
			"2024-06-12T06:13:27Z stat /root -> drwx------ 0:0\n2024-06-12T06:13:28Z mount /app -> overlay ro\n2024-06-12T06:13:46Z exit_status=1",
			"", "sandbox/filesystem-permissions", ReadOnlyMountRule},
		{"findmnt's options in a key=value line", "proj_create: Open of /opt/conda/share/proj failed",
			"$ findmnt -no OPTIONS /home/user -> ro,nodev\nexit=1", "", "sandbox/filesystem-permissions", ReadOnlyMountRule},
		{"a mount the harness says is not read-only says nothing", "java.io.FileNotFoundException: /home/user/gat/target/stale/extract (No such file or directory)",
			"stat target/stale: owner=0:0 mode=0555 mount=/workspace (ro=false)\nexit_status=1", "", "sandbox/storage-persistence", ""},
		{"a rule that is not the storage rules' keeps its class", "OSError: [Errno 28] No space left on device",
			"mount: /etc/localtime ro,bind\ndf -h /workspace -> 100%", "", "sandbox/storage-persistence", ""},
	}
	checkEvidence(t, "", "", tests)
}

func TestConnectedToWrongPortComparesTheRefusedPortWithTheOnesListening(t *testing.T) {
	tests := []errLogCase{
		{"a refused port beside ss's listener on another", "curl: (7) Failed to connect to localhost port 3000 after 0 ms: Connection refused",
			`tool=exec cmd="ss -ltnp" stdout="LISTEN 0 511 0.0.0.0:3080 users:((node,pid=311))"`, true},
		{"a dev server's own line names its port", "Error: page.goto: net::ERR_CONNECTION_REFUSED at http://localhost:8080/",
			"stdout=\"  ➜  Local:   http://localhost:5173/\"\nexec cmd=\"npx playwright test\"", true},
		{"an error with no port takes the port the test targeted", "socket.error: [Errno 111] Connection refused",
			"step=start_server listen=127.0.0.1:8089\nstep=exec cmd=\"python probe.py\" target=127.0.0.1:8098", true},
		{"the refused port is the one listening", "dial tcp 127.0.0.1:7687: connect: connection refused",
			"ss -ltn -> LISTEN 0.0.0.0:7474, LISTEN 0.0.0.0:7687", false},
		{"no listener shown at all", "connect ECONNREFUSED 127.0.0.1:5432", "exec pg_ctl start exit=0", false},
		{"the listener went away with a restart", "dial tcp 127.0.0.1:8100: connect: connection refused",
			"vault server -dev-listen-address=127.0.0.1:8200 &\nsandbox resumed from snapshot uptime_s=10", false},
		{"a port the log says nothing listens on is not a listener", "Error connecting to Redis on 127.0.0.1:6380 (ECONNREFUSED)",
			"ss -ltn sport = :6379 -> no listener", false},
		{"a remote host's refusal is not the sandbox's port", "curl: (7) Failed to connect to pypi.org port 443: Connection refused",
			"listening on :8000", false},
		{"a tool named listen is no listener", `[ERROR] Failed to POST: Post "http://localhost:4242/webhook": dial tcp [::1]:4242: connect: connection refused`,
			`forwarder cmd="stripe listen" forward_to="localhost:4242/webhook"`, false},
		{"not refused at all", "Error: page.goto: Timeout 30000ms exceeded. navigating to http://localhost:3000/", "Local: http://localhost:5173/", false},
		{"a time of day is no listener", "connect ECONNREFUSED 127.0.0.1:5432", "run started at 10:15:07\nListening at 10:15:07", false},
		{"a remote host's refusal does not fall back to the test's target", "curl: (7) Failed to connect to pypi.org port 443 after 3 ms: Connection refused",
			"db connected=127.0.0.1:5432\napp listening on :8000", false},
	}
	checkErrLog(t, connectedToWrongPort, tests)
}

func TestARefusedPortBesideAServerListeningElsewhereIsTheTests(t *testing.T) {
	tests := []evidenceCase{
		{"a browser sent to the wrong port", "Error: page.goto: net::ERR_CONNECTION_REFUSED at http://127.0.0.1:8080/",
			"exec cmd=\"npm run dev\" background=true\nstdout=\"  ➜  Local:   http://localhost:5173/\"", "", "test/harness", WrongPortRule},
		{"an upstream left at the wrong port", "connect() failed (111: Connection refused) while connecting to upstream, upstream: \"http://127.0.0.1:3000/\"",
			"case.upstream=127.0.0.1:3000 app.listen=0.0.0.0:8000\nss -ltnp stdout=\"LISTEN 0 511 0.0.0.0:8000\"", "", "test/harness", WrongPortRule},
		{"the harness's word that it is the sandbox's stands", "Error: page.goto: net::ERR_CONNECTION_REFUSED at http://127.0.0.1:8080/",
			"Local: http://localhost:5173/", sandtrap.LayerSandbox, "sandbox/network-egress", ""},
		{"a refusal on the port that listens stays egress", "Error: page.goto: net::ERR_CONNECTION_REFUSED at http://127.0.0.1:5173/",
			"Local: http://localhost:5173/", "", "sandbox/network-egress", ""},
	}
	checkEvidence(t, WrongPortRule, wrongPort, tests)
}

func TestAKillAfterTheCPULimitsSignalIsCPUTime(t *testing.T) {
	tests := []evidenceCase{
		{"a shell's Killed: 9 after SIGXCPU", "run_train.sh: line 12: 4242 Killed: 9",
			"ulimit -t -> 3600\nsignals SIGXCPU@3600s then SIGKILL@3601s exit_status=137", "", "sandbox/cpu-time", LimitReachedRule},
		{"the signal's words, with memory near its limit", "Killed",
			"rss_mb=8000 limit_mb=8192\nCPU time limit exceeded (core dumped)", "", "sandbox/cpu-time", LimitReachedRule},
		{"a kill with no CPU signal and memory at its limit stays memory's", "run_train.sh: line 12: 4242 Killed",
			"rss_mb=8190 limit_mb=8192 exit_status=137", "", "sandbox/memory", ""},
		{"an error that names memory keeps memory's words", "Out of memory: Killed process 4242 (python)",
			"signals SIGXCPU@3600s", "", "sandbox/memory", ""},
	}
	checkEvidence(t, "", "", tests)
}

func TestValueFromTestFindsTheErrorsValueOnAFixtureOrConfigLine(t *testing.T) {
	tests := []errLogCase{
		{"a path a fixture gave", "OSError: [Errno 2] No such file or directory: '/media/GARMIN/Garmin/Activity'",
			"[05:24:22] fixture device_dir=/media/GARMIN/Garmin/Activity (from tests/conf/device.yaml)\n[05:24:32] exit 255", true},
		{"a host and port the test's configuration gave", "dial tcp 127.0.0.1:7860: connect: connection refused",
			"test_config tunnel.upstream=127.0.0.1:7860 (tests/conftest.py:14)", true},
		{"a file conftest.py named", "FileNotFoundError: [Errno 2] No such file or directory: 'data/train_small.csv'",
			"conftest.py: DATA = 'data/train_small.csv'", true},
		{"the value on a line that is not the test's", "OSError: [Errno 2] No such file or directory: '/data/out/report.csv'",
			"wrote /data/out/report.csv ok\nsandbox restarted", false},
		{"a folder that only ends in fixture is not the test's word", "Error: Path not allowed: /tmp/dc-fixture/a.txt",
			"validatePath /tmp/dc-fixture/a.txt -> /private/tmp/dc-fixture/a.txt", false},
		{"a value of under four characters says nothing", "KeyError: 'row'", "fixture key=row", false},
		{"a path that only begins the fixture's longer one", "mkdir: cannot create directory '/data': Permission denied", "fixture dataset_dir=/data/imagenet", false},
		{"a fixture's line that echoes the error", "HTTPSConnectionPool(host='huggingface.co', port=443): Max retries exceeded",
			"fixture hf_model setup failed: ConnectionError: HTTPSConnectionPool(host='huggingface.co', port=443)", false},
		{"a full disk whatever path the fixture gave", "OSError: [Errno 28] No space left on device: '/workspace/out'", "fixture out_dir=/workspace/out", false},
		{"a host inside the URL the test's configuration gave", "HTTPSConnectionPool(host='api.exmaple.com', port=443): Max retries exceeded", "test_config base_url=https://api.exmaple.com/v1", true},
		{"a source file a traceback names says nothing", `File "/app/tests/helpers.py", line 3, in load`, "fixture loader=/app/tests/helpers.py", false},
		{"no fixture or configuration line", "OSError: [Errno 2] No such file or directory: '/media/x/y'", "ls /media -> x", false},
	}
	checkErrLog(t, valueFromTest, tests)
}

func TestAValueTheTestSuppliedIsTheTestsWhateverTheToolSaid(t *testing.T) {
	tests := []evidenceCase{
		{"a missing file the fixture named", "OSError: [Errno 2] No such file or directory: '/media/GARMIN/Garmin/Activity'",
			"fixture device_dir=/media/GARMIN/Garmin/Activity\nexit 255", "", "test/harness", TestValueRule},
		{"a host the test's configuration named", "requests.exceptions.ConnectionError: HTTPSConnectionPool(host='api.exmaple.com', port=443): Max retries exceeded",
			"test_config base_url=https://api.exmaple.com/v1\nexit=1", "", "test/harness", TestValueRule},
		{"the harness's word that it is the sandbox's stands", "OSError: [Errno 2] No such file or directory: '/media/GARMIN/Garmin/Activity'",
			"fixture device_dir=/media/GARMIN/Garmin/Activity", sandtrap.LayerSandbox, "sandbox/storage-persistence", ""},
		{"a file the fixture wrote and the sandbox lost stays lost", "FileNotFoundError: [Errno 2] No such file or directory: '/workspace/out/model.pt'",
			"fixture wrote /workspace/out/model.pt bytes=52311 ok\nsandbox restarted\nls /workspace/out -> (empty)", "", "sandbox/storage-persistence", LostFileRule},
		{"a memory kill is not a value", "Killed", "fixture dataset=/data/big.parquet rss_mb=8190 limit_mb=8192", "", "sandbox/memory", ""},
	}
	checkEvidence(t, TestValueRule, testSuppliedValue, tests)
}

func TestNetworkNeverAnsweredReadsConnectionsWithoutAReply(t *testing.T) {
	tests := []logCase{
		{"ss's SYN-SENT", "ss -tn -> SYN-SENT 0 1 10.0.0.5:51234 151.101.0.223:443", true},
		{"netstat's SYN_SENT", "tcp 0 1 10.0.0.5:40122 140.82.112.3:443 SYN_SENT", true},
		{"no SYN-ACK", "tcp_connect pypi.org:443 syn_sent=3 no syn-ack after 30s", true},
		{"a SYN retransmitted", "tcpdump: 3 SYN retransmits to 104.16.0.35:443", true},
		{"a firewall's rules say nothing was dropped", "iptables -P OUTPUT DROP", false},
		{"getent finding no other kind of name is not the network", "getent passwd agent -> exit=2", false},
		{"getent resolving an address that starts with a 2", "getent hosts example.com -> 2.16.4.5 example.com", false},
		{"a SYN-ACK that came in under a millisecond", "probe: SYN-ACK received after 0.21 ms", false},
		{"a SYN-ACK count of zero", "tcp_connect pypi.org:443 syn_ack=0 retries=3", true},
		{"getent finding no host", "getent hosts registry.npmjs.org -> exit=2", true},
		{"an established connection", "ss -tn -> ESTAB 0 0 10.0.0.5:51234 151.101.0.223:443", false},
		{"getent resolving the name", "getent hosts github.com -> 140.82.112.3 github.com", false},
		{"a SYN-ACK that came", "syn-ack received in 12ms", false},
		{"the word synthetic", "synthetic data: 1000 rows dropped_nulls=0", false},
	}
	checkLog(t, networkNeverAnswered, tests)
}

func TestAConnectionTheNetworkNeverAnsweredIsEgressWhateverTheToolSaid(t *testing.T) {
	tests := []evidenceCase{
		{"a tool's time-out", "TimeoutError: command timed out after 300 seconds",
			"ss -tn -> SYN-SENT 0 1 10.0.0.5:51234 151.101.0.223:443\nexit=1", "", "sandbox/network-egress", UnansweredRule},
		{"a wait that ran into the time limit", "Killed",
			"limit_s=600 elapsed_s=601\ntcp 0 1 10.0.0.5:40122 140.82.112.3:443 SYN_SENT\nexit=137", "", "sandbox/network-egress", UnansweredRule},
		{"a wait that ran into the time limit while the tool said it succeeded", "Killed",
			"limit_s=600 elapsed_s=601\ntcp 0 1 10.0.0.5:40122 140.82.112.3:443 SYN_SENT\nexit=0", "", "sandbox/network-egress", UnansweredRule},
		{"a file written then lost stays lost beside a connection never answered", "FileNotFoundError: [Errno 2] No such file or directory: './out/summary.csv'",
			"write_file out/summary.csv ok\nss -tn -> SYN-SENT 0 1 10.0.0.5:51234 151.101.0.223:443", "", "sandbox/storage-persistence", ""},
		{"a package that never arrived", "ModuleNotFoundError: No module named 'requests'",
			"pip install requests -> retrying\ngetent hosts pypi.org -> exit=2", "", "sandbox/network-egress", UnansweredRule},
		{"an egress rule keeps its own signature", "ReadTimeoutError: HTTPSConnectionPool(host='files.pythonhosted.org', port=443): Read timed out.",
			"ss -tn -> SYN-SENT 0 1 10.0.0.5:51234 151.101.0.223:443", "", "sandbox/network-egress", ""},
		{"an interface rule keeps its class", "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xff in position 0: invalid start byte",
			"ss -tn -> SYN-SENT 0 1 10.0.0.5:51234 151.101.0.223:443", "", "interface/encoding", ""},
	}
	checkEvidence(t, UnansweredRule, networkUnanswered, tests)
}

func TestAnOutcomeTheLogRecordsDecidesOverTheErrorsWords(t *testing.T) {
	tests := []evidenceCase{
		{"a program which did not find is not installed", "Command ['make', 'examples/bernoulli/bernoulli'] error during processing No such file or directory",
			"which g++ -> (none) ; which make -> (none)\nexit=1", "", "sandbox/package-path", ProgramAbsentRule},
		{"a program command -v did not find is not installed", "/bin/sh: 1: chromium: Permission denied",
			"command -v chromium -> exit=1", "", "sandbox/package-path", ProgramAbsentRule},
		{"a package dpkg says is not installed", "OSError: [Errno 2] No such file or directory: '/opt/render/lib/libcairo.so.2'",
			"dpkg-query: no packages found matching libcairo2", "", "sandbox/package-path", ProgramAbsentRule},
		{"prose that says which was not found is no outcome", "OSError: [Errno 2] No such file or directory: '/workspace/out/report.csv'",
			"load config key which was not found; using defaults", "", "sandbox/storage-persistence", ""},
		{"NUL bytes counted in UTF-16 text are its encoding", "PowerShell commonly emits UTF-16LE (\\xff\\xfe h\\x00e\\x00l\\x00l\\x00o\\x00), which arrives corrupted",
			"out.txt nul_bytes=412", "", "interface/encoding", ""},
		{"a NUL the harness found decides over a decoder's words", "duckdb::Exception: String value is not valid UTF8",
			"arg_bytes_sent=2065 arg_bytes_received=189 first_0x00_at=61", "", "interface/null-byte", NULFoundRule},
		{"a NUL the harness found decides over the test's assertion", "AssertionError",
			"payload nul_bytes=3 at 244", "", "interface/null-byte", NULFoundRule},
		{"a renderer DevTools reported crashed is memory", "Error: Protocol error (Runtime.callFunctionOn): Session closed. Most likely the page has been closed.",
			`{"cdp_event": "Inspector.targetCrashed", "t": 1201}`, "", "sandbox/memory", RendererCrashedRule},
		{"the harness's word on the layer stands", "AssertionError", "first_0x00_at=12", sandtrap.LayerTest, "test/harness", ""},
		{"a traversal the tool accepted stays the finding beside a crashed renderer", "Content successfully written to notes.txt",
			`{"tool": "write_file", "arguments": {"directory": "/tmp/../var/www", "name": "notes.txt"}}` + "\n" + `{"cdp_event": "Inspector.targetCrashed"}`, "", "interface/input-validation", TraversalRule},
		{"a kill the kernel recorded as OOM stays memory's, whatever time the run took", "Killed",
			"limit_s=600 elapsed_s=601\nmemory.events oom_kill=1\nexit=137", "", "sandbox/memory", ""},
		{"an OOM kill the kernel recorded is memory, whatever the client said", "ReadTimeoutError: HTTPConnectionPool(host='localhost', port=8000): Read timed out. (read timeout=120)",
			"worker pid=4242 rss_mb=3900\nkernel: python3 invoked oom-killer: gfp_mask=0x100cca\nexit=1", "", "sandbox/memory", OOMKilledRule},
		{"no OOM kill recorded is no outcome", "Killed", "limit_s=600 elapsed_s=601\nmemory.events oom_kill=0\nexit=137", "", "sandbox/cpu-time", LimitReachedRule},
		{"a cgroup's throttled CPU is cpu-time", "ReadTimeoutError: HTTPConnectionPool(host='inference.internal', port=8000): Read timed out. (read timeout=120)",
			"cpu.stat nr_periods=1200 nr_throttled=1180 throttled_usec=95000000", "", "sandbox/cpu-time", CPUThrottledRule},
		{"U+FFFD counted in received text is encoding", "FileNotFoundError: [Errno 2] No such file or directory: '/workspace/out/report.csv'",
			"received report.csv bytes=4096 replacement_chars=37", "", "interface/encoding", ReplacedCountRule},
		{"a program found is no outcome", "Failed to launch the browser process: spawn /usr/bin/google-chrome EACCES",
			"command -v google-chrome -> /usr/bin/google-chrome", "", "sandbox/filesystem-permissions", ""},
		{"a count of no NULs is no outcome", "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xff in position 0: invalid start byte",
			"nul_bytes=0 replacement_chars=12", "", "interface/encoding", ""},
	}
	checkEvidence(t, "", "", tests)
}

func TestRunsStoppedAtTheirTimeLimitAreOneModeWhateverTheToolSaid(t *testing.T) {
	c := NewClassifier(nil)
	g := NewGrouper()
	for _, f := range []Failure{
		{Status: "failed", Error: "getaddrinfo ENOTFOUND pypi.org while resolving the index"},
		{Status: "failed", Error: "websocket: close 1009 (message too big)"},
		{Status: "failed", Error: "PermissionError: [Errno 13] Permission denied: '/usr/lib/python3/dist-packages/x'"},
		{Status: "failed", Error: "OSError: [Errno 28] No space left on device"},
	} {
		g.AssignClassified(g.Settle(c.Classify(f), f.LogTail), f.LogTail)
	}
	atLimit := []Failure{
		{Status: "failed", Error: "clang-14: error: unable to execute command: Killed", LogTail: []byte("step=build cmd=make limit_s=600 elapsed_s=601 rss_peak_mb=310 mem_limit_mb=4096 exit=137")},
		{Status: "failed", Error: "e2b.sandbox.TimeoutError", LogTail: []byte(`{"step": "train", "timeout_s": 300, "elapsed_s": 300.4}`)},
	}
	var modes []string
	for _, f := range atLimit {
		cl := g.Settle(c.Classify(f), f.LogTail)
		if got, want := cl.By, LimitReachedRule; got != want {
			t.Fatalf("got %s for %q, want %s", got, f.Error, want)
		}
		modes = append(modes, g.Resolve(g.AssignClassified(cl, nil).ModeID))
	}
	if modes[0] != modes[1] {
		t.Errorf("got modes %s and %s, want one", modes[0], modes[1])
	}
}
