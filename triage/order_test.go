package triage

import (
	"regexp"
	"strconv"
	"testing"
)

// TestADecisionDoesNotDependOnWhichFailureCameFirst holds the rules to the
// Classifier's contract: a decision is cached per failure key, so a rule
// must read only what the key keeps. Two labelled messages of one key
// that a rule told apart by a masked part would be decided by whichever
// came first.
func TestADecisionDoesNotDependOnWhichFailureCameFirst(t *testing.T) {
	all := labelledFailures(t)
	// Messages that differ only where the normaliser might mask: the
	// DevTools port tells a browser not running from a refusing proxy.
	fs := []Failure{
		{Status: "failed", Error: "Error: connect ECONNREFUSED 127.0.0.1:3128"},
		{Status: "failed", Error: "Error: connect ECONNREFUSED 127.0.0.1:9222"},
		{Status: "failed", Error: "Error: connect ECONNREFUSED [::1]:3128"},
		{Status: "failed", Error: "Error: connect ECONNREFUSED [::1]:9222"},
	}
	for i := 0; i < len(all); i += 2 { // half of them keeps make test quick
		fs = append(fs, all[i])
	}
	first := NewClassifier(nil)
	keys := map[string][]int{}
	decided := make([]Classification, len(fs))
	for i, f := range fs {
		decided[i] = first.Classify(f)
		key := decided[i].Signature + "\x00" + f.Target + "\x00" + f.Domain
		if f.ExitCode != nil {
			key += "\x00" + strconv.FormatInt(*f.ExitCode, 10)
		}
		keys[key] = append(keys[key], i)
	}
	reversed := NewClassifier(nil)
	shared := 0
	for _, idx := range keys {
		if len(idx) < 2 {
			continue
		}
		shared++
		for k := len(idx) - 1; k >= 0; k-- {
			i := idx[k]
			got, want := reversed.Classify(fs[i]), decided[i]
			if got.Layer != want.Layer || got.Primitive != want.Primitive || got.Cause != want.Cause {
				t.Errorf("%.120q: got %s/%s %s read last, want %s/%s %s as read first",
					fs[i].Error, got.Layer, got.Primitive, got.Cause, want.Layer, want.Primitive, want.Cause)
			}
		}
	}
	if shared == 0 {
		t.Fatal("no two labelled messages share a failure key; the test checks nothing")
	}
}

// TestARuleReadsOnlyWhatTheKeyKeeps covers rules that read a part of the
// message the normaliser masks (a folder, a number, a quoted name): the
// failure key keeps what they read, or they read only what it keeps, so
// two messages that normalise alike are decided the same way whichever
// comes first.
func TestARuleReadsOnlyWhatTheKeyKeeps(t *testing.T) {
	tests := []struct {
		name         string
		first, other string
		// wantOf is the class of other; empty, the one it gets alone,
		// which must not be want.
		want, wantOf string
	}{
		{
			name:  "AppArmor refusing an exec and refusing a file's open, which the key masks alike",
			first: `audit: type=1400 audit(1781605512.734:6720419): apparmor="DENIED" operation="exec" class="file" profile="snap.tool" name="/usr/sbin/blkid" pid=2101 comm="amd64" requested_mask="x" denied_mask="x"`,
			other: `audit: type=1400 audit(1781605512.734:6720419): apparmor="DENIED" operation="open" class="file" profile="snap.tool" name="/usr/sbin/blkid" pid=2101 comm="amd64" requested_mask="x" denied_mask="x"`,
			want:  "sandbox/process-spawn",
		},
		{
			name:   "a Windows path's folder named 0 before a file, and a NUL escape before a tab, which the key masks alike",
			first:  `Yaml file '..\mlruns\0\meta.yaml' does not exist.`,
			other:  `Yaml file '..\mlruns\0\t.yaml' does not exist.`,
			want:   "sandbox/storage-persistence",
			wantOf: "interface/null-byte",
		},
		{
			name:  "MediaWiki's badtoken quoted as a code and another code, which the key masks alike",
			first: `mwclient.errors.APIError: {"error":{"code":"badtoken"}}`,
			other: `mwclient.errors.APIError: {"error":{"code":"ratelimited"}}`,
			want:  "sandbox/session-lifecycle",
		},
		{
			name:   "a missing fixture under a deep path and a lost output beside it",
			first:  "FileNotFoundError: [Errno 2] No such file or directory: '/src/app/tests/data/sample_1.csv'",
			other:  "FileNotFoundError: [Errno 2] No such file or directory: '/src/app/tests/out/sample_1.csv'",
			want:   "test/harness",
			wantOf: "sandbox/storage-persistence",
		},
		{
			name:  "git's diffstat padded wide of a script as binary and of an image",
			first: "/srv/app/src/main.py |  Bin 2210 -> 2388 bytes",
			other: "/srv/app/src/logo.png |  Bin 2210 -> 2388 bytes",
			want:  "interface/null-byte",
		},
		{
			name:  "git's diffstat with a tab of a script as binary and of an image",
			first: "/srv/app/src/main.py | Bin\t2210 -> 2388 bytes",
			other: "/srv/app/src/logo.png | Bin\t2210 -> 2388 bytes",
			want:  "interface/null-byte",
		},
		{
			name:  "git's diffstat of a script as binary and of an image",
			first: "/srv/app/src/main.py | Bin 2210 -> 2388 bytes",
			other: "/srv/app/src/logo.png | Bin 2210 -> 2388 bytes",
			want:  "interface/null-byte",
		},
		{
			name:  "a quoted name closed by a NUL in caret notation and another name",
			first: "unexpected calendar 'julian^@}' in file aerosol.nc",
			other: "unexpected calendar 'julian}' in file aerosol.nc",
			want:  "interface/null-byte",
		},
		{
			name:  "a status 413 and a status 500, which the key masks alike",
			first: "We received an unexpected status code from the server. (413)",
			other: "We received an unexpected status code from the server. (500)",
			want:  "interface/message-size",
		},
		{
			name:   "two source lines of a full disk's message, one of them 413",
			first:  "ior ERROR: open64(\"/scratch/run/file.3\", 66, 0664) failed, errno 28, No space left on device (aiori-POSIX.c:413)",
			other:  "ior ERROR: open64(\"/scratch/run/file.3\", 66, 0664) failed, errno 28, No space left on device (aiori-POSIX.c:412)",
			want:   "sandbox/storage-persistence",
			wantOf: "sandbox/storage-persistence",
		},
		{
			name:  "PyTorch's shared tensor file and another file whose names the key masks",
			first: "RuntimeError: unable to write to file </torch_8289_606636967_0>: No space left on device (28)",
			other: "RuntimeError: unable to write to file </tmp_8289_606636967_0>: No space left on device (28)",
			want:  "sandbox/memory",
		},
		{
			name:  "which(1) and another program after a path the key masks",
			first: "/usr/bin/which: no hostapd in (/sbin:/bin:/usr/sbin:/usr/bin)",
			other: "/usr/bin/where: no hostapd in (/sbin:/bin:/usr/sbin:/usr/bin)",
			want:  "sandbox/package-path",
		},
		{
			name:   "bubblewrap and another program named by a path the key masks",
			first:  "/usr/bin/bwrap: Failed to make / slave: Permission denied",
			other:  "/usr/bin/mount: Failed to make / slave: Permission denied",
			want:   "sandbox/filesystem-permissions",
			wantOf: "sandbox/filesystem-permissions",
		},
		{
			name:   "bubblewrap could not read two of the kernel's files, whose names the key masks",
			first:  "bwrap: Can't read /proc/sys/kernel/overflowuid: No such file or directory",
			other:  "bwrap: Can't read /proc/sys/kernel/osrelease: No such file or directory",
			want:   "sandbox/process-spawn",
			wantOf: "sandbox/process-spawn",
		},
		{
			name:   "a missing fixture and a lost output up a relative path",
			first:  "Error: ENOENT: no such file or directory, stat '../fixtures/upload.pdf'",
			other:  "Error: ENOENT: no such file or directory, stat '../outputs/upload.pdf'",
			want:   "test/harness",
			wantOf: "sandbox/storage-persistence",
		},
		{
			name:   "Chromium's missing CORS header and another header's name, which the key masks",
			first:  "Failed to load resource: No 'Access-Control-Allow-Origin' header is present on the requested resource.",
			other:  "Failed to load resource: No 'Authorization' header is present on the requested resource.",
			want:   "sandbox/network-egress",
			wantOf: "sandbox/network-egress",
		},
		{
			name:   "a byte order mark and another character printed as decimal escapes",
			first:  "Setup: app.cabal:1: unrecognised field or section: \"\\65279Name: app\"",
			other:  "Setup: app.cabal:1: unrecognised field or section: \"\\8203Name: app\"",
			want:   "interface/encoding",
			wantOf: "interface/encoding",
		},
		{
			name:   "a program Python could not find and a data file it could not open",
			first:  "FileNotFoundError: [Errno 2] No such file or directory: 'soffice'",
			other:  "FileNotFoundError: [Errno 2] No such file or directory: 'History_series_0028C91B.002795_filled.parquet'",
			want:   "sandbox/package-path",
			wantOf: "sandbox/storage-persistence",
		},
		{
			name:   "env not finding a program and xargs not finding one",
			first:  "/usr/bin/env: lua: No such file or directory",
			other:  "/usr/bin/xargs: lua: No such file or directory",
			want:   "sandbox/package-path",
			wantOf: "sandbox/storage-persistence",
		},
		{
			name:   "a PromQL query that does not parse whichever parameter held it",
			first:  `Error executing query: invalid parameter "query": 1:49: parse error: unexpected character inside braces: '>'`,
			other:  `Error executing query: invalid parameter "match": 1:49: parse error: unexpected character inside braces: '>'`,
			want:   "test/harness",
			wantOf: "test/harness",
		},
		{
			name:  "an archive member climbing to a system folder and one climbing to a dotfile",
			first: `warning:  skipped "../" path component(s) in ../../etc/cron.d/backup`,
			other: `warning:  skipped "../" path component(s) in ../../.bashrc`,
			want:  "interface/input-validation",
			// The learned model's guess, which moves as it retrains.
			wantOf: "",
		},
		{
			name:   "BigQuery's NUL byte and another character it refused",
			first:  "Error while reading data, error message: Error detected while parsing row starting at position: 1048576. Error: Bad character (ASCII 0) encountered.",
			other:  "Error while reading data, error message: Error detected while parsing row starting at position: 1048576. Error: Bad character (ASCII 13) encountered.",
			want:   "interface/null-byte",
			wantOf: "interface/encoding",
		},
		{
			name:   "Xlib's lost display with one space and with two",
			first:  "XIO: fatal IO error 11 (Resource temporarily unavailable) on X server \":99\"",
			other:  "XIO: fatal IO error 11 (Resource temporarily unavailable) on X  server \":99\"",
			want:   "sandbox/session-lifecycle",
			wantOf: "sandbox/session-lifecycle",
		},
		{
			name:  "BuildKit's step out of memory and out of disk after a command longer than the key keeps",
			first: `ERROR: failed to solve: ResourceExhausted: process "/bin/sh -c apt-get update && apt-get install -y libpackage00-dev libpackage01-dev libpackage02-dev libpackage03-dev libpackage04-dev libpackage05-dev libpackage06-dev libpackage07-dev libpackage08-dev libpackage09-dev libpackage10-dev libpackage11-dev libpackage12-dev libpackage13-dev libpackage14-dev libpackage15-dev libpackage16-dev libpackage17-dev libpackage18-dev libpackage19-dev libpackage20-dev libpackage21-dev libpackage22-dev libpackage23-dev libpackage24-dev libpackage25-dev libpackage26-dev libpackage27-dev libpackage28-dev libpackage29-dev" did not complete successfully: cannot allocate memory`,
			other: `ERROR: failed to solve: ResourceExhausted: process "/bin/sh -c apt-get update && apt-get install -y libpackage00-dev libpackage01-dev libpackage02-dev libpackage03-dev libpackage04-dev libpackage05-dev libpackage06-dev libpackage07-dev libpackage08-dev libpackage09-dev libpackage10-dev libpackage11-dev libpackage12-dev libpackage13-dev libpackage14-dev libpackage15-dev libpackage16-dev libpackage17-dev libpackage18-dev libpackage19-dev libpackage20-dev libpackage21-dev libpackage22-dev libpackage23-dev libpackage24-dev libpackage25-dev libpackage26-dev libpackage27-dev libpackage28-dev libpackage29-dev" did not complete successfully: no space left on device`,
			want:  "sandbox/memory",
		},
		{
			name:   "a zip member's CRC-32 and CRC-64, which the key masks alike",
			first:  "zipfile.BadZipFile: Bad CRC-32 for file 'a.py'",
			other:  "zipfile.BadZipFile: Bad CRC-64 for file 'a.py'",
			want:   "interface/encoding",
			wantOf: "interface/encoding",
		},
		{
			name:   "Hugging Face's missing snapshot folder with one space and with two",
			first:  "cannot find the appropriate snapshot folder for the specified revision on the local disk",
			other:  "cannot find the appropriate snapshot  folder for the specified revision on the local disk",
			want:   "sandbox/network-egress",
			wantOf: "sandbox/network-egress",
		},
		{
			name:   "Node's refused request path with one space and with two",
			first:  "TypeError: Request path contains unescaped characters",
			other:  "TypeError: Request path  contains unescaped characters",
			want:   "interface/input-validation",
			wantOf: "interface/input-validation",
		},
		{
			name:   "Gradio's refused path with one space and with two",
			first:  "Cannot move /tmp/a.png to the gradio cache dir because it was not created by the application",
			other:  "Cannot move /tmp/a.png to the gradio cache dir because it was not  created by the application",
			want:   "interface/input-validation",
			wantOf: "interface/input-validation",
		},
		{
			name:   "WP-CLI outside WordPress with one space and with two",
			first:  "Error: This does not seem to be a WordPress install.",
			other:  "Error: This does not  seem to be a WordPress install.",
			want:   "test/harness",
			wantOf: "test/harness",
		},
		{
			name:   "Chrome's crash handler without its database with one space and with two",
			first:  "chrome_crashpad_handler: --database is required",
			other:  "chrome_crashpad_handler: --database  is required",
			want:   "sandbox/filesystem-permissions",
			wantOf: "sandbox/filesystem-permissions",
		},
		{
			name:   "git's diffstat of a script as binary with one space and with two",
			first:  " src/keys.py | Bin 6911 -> 7024 bytes",
			other:  " src/keys.py | Bin 6911  -> 7024 bytes",
			want:   "interface/null-byte",
			wantOf: "interface/null-byte",
		},
		{
			name:   "Jackson's NUL with one space and with two, which the key folds",
			first:  "com.fasterxml.jackson.core.JsonParseException: Illegal character ((CTRL-CHAR, code 0)): only regular white space (\\r, \\n, \\t) is allowed between tokens",
			other:  "com.fasterxml.jackson.core.JsonParseException: Illegal character ((CTRL-CHAR,  code 0)): only regular white space (\\r, \\n, \\t) is allowed between tokens",
			want:   "interface/null-byte",
			wantOf: "interface/null-byte",
		},
		{
			name:   "SELinux's denial of executable memory with one space in its braces and with two",
			first:  `type=AVC msg=audit(1480946786.958:3174): avc:  denied  { execmem } for  pid=32684 comm="radiusd" tclass=process`,
			other:  `type=AVC msg=audit(1480946786.958:3174): avc:  denied  {  execmem  } for  pid=32684 comm="radiusd" tclass=process`,
			want:   "sandbox/process-spawn",
			wantOf: "sandbox/process-spawn",
		},
		{
			name:   "a YAML reader's NUL and another control character it refused",
			first:  `ruamel.yaml.reader.ReaderError: unacceptable character #x0000: control characters are not allowed in "<unicode string>", position 61`,
			other:  `ruamel.yaml.reader.ReaderError: unacceptable character #x0080: control characters are not allowed in "<unicode string>", position 61`,
			want:   "interface/null-byte",
			wantOf: "interface/encoding",
		},
		{
			name:   "getUserMedia and another property read off undefined",
			first:  "TypeError: Cannot read properties of undefined (reading 'getUserMedia')",
			other:  "TypeError: Cannot read properties of undefined (reading 'toString')",
			want:   "test/harness",
			wantOf: "",
		},
		{
			name:   "a key whose name starts with a byte order mark read as Latin-1 and one without",
			first:  "KeyError: 'ï»¿id'",
			other:  "KeyError: 'id'",
			want:   "interface/encoding",
			wantOf: "",
		},
		{
			name:   "Jena's code point 0 written with four zeros and with eight",
			first:  "org.apache.jena.riot.RiotParseException: [line: 3, col: 12 ] Failed to find a prefix name or keyword: (0;0x0000)",
			other:  "org.apache.jena.riot.RiotParseException: [line: 3, col: 12 ] Failed to find a prefix name or keyword: (0;0x00000000)",
			want:   "interface/null-byte",
			wantOf: "interface/null-byte",
		},
		{
			name:   "Node's lookup of undefined and of a real host",
			first:  "Error: getaddrinfo ENOTFOUND undefined",
			other:  "Error: getaddrinfo ENOTFOUND registry.npmjs.org",
			want:   "test/harness",
			wantOf: "sandbox/network-egress",
		},
		{
			name:   "curl's lookup of null and of a real host",
			first:  "curl: (6) Could not resolve host: null; Name or service not known",
			other:  "curl: (6) Could not resolve host: zenodo; Name or service not known",
			want:   "test/harness",
			wantOf: "sandbox/network-egress",
		},
		{
			name:   "Go's lookup of a scheme and of a real host",
			first:  "dial tcp: lookup http on 127.0.0.11:53: no such host",
			other:  "dial tcp: lookup zenodo on 127.0.0.11:53: no such host",
			want:   "test/harness",
			wantOf: "sandbox/network-egress",
		},
		{
			name:   "OpenDAP's lookup of a scheme and of a real host",
			first:  "OPeNDAP Error: Couldn't resolve host 'http:'",
			other:  "OPeNDAP Error: Couldn't resolve host 'zenodo'",
			want:   "test/harness",
			wantOf: "sandbox/network-egress",
		},
		{
			name:   "urllib3's pool given a scheme for a host and a real host",
			first:  "ConnectionError: HTTPConnectionPool(host='http', port=80): Max retries exceeded with url: //influx.local:8086/query",
			other:  "ConnectionError: HTTPConnectionPool(host='influx', port=80): Max retries exceeded with url: //influx.local:8086/query",
			want:   "test/harness",
			wantOf: "sandbox/network-egress",
		},
		{
			name:   "a ZooKeeper client reading HTTP's first bytes as a length and a packet over its limit",
			first:  "java.io.IOException: Packet len1213486160 is out of range!",
			other:  "java.io.IOException: Packet len179414030 is out of range!",
			want:   "interface/protocol",
			wantOf: "",
		},
		{
			name:  "a timeout spelt out in seconds and one counted in milliseconds",
			first: "MongoServerSelectionError: Server selection timed out after 30 seconds",
			other: "MongoServerSelectionError: Server selection timed out after 30000 ms",
			want:  "sandbox/cpu-time",
			// The learned model's guess, which moves as it retrains.
			wantOf: "",
		},
		{
			name:  "a task's timeout in seconds and one in milliseconds",
			first: "npm ERR! Task timeout after 30 seconds",
			other: "npm ERR! Task timeout after 30000 ms",
			want:  "sandbox/cpu-time",
			// The learned model's guess, which moves as it retrains.
			wantOf: "",
		},
		{
			name:  "libcurl's timeout in seconds and one in milliseconds",
			first: "Error: Timeout of 30 seconds was reached",
			other: "Error: Timeout of 30000 ms was reached",
			want:  "sandbox/network-egress",
			// The learned model's guess, which moves as it retrains.
			wantOf: "",
		},
		{
			name:   "a page script's invalid URL whichever constructor refused it",
			first:  "Uncaught TypeError: Failed to construct 'URL': Invalid URL",
			other:  "Uncaught TypeError: Failed to construct 'Request': Invalid URL",
			want:   "test/harness",
			wantOf: "test/harness",
		},
	}
	for _, tt := range tests {
		for _, reversed := range []bool{false, true} {
			name := tt.name + ", read first"
			if reversed {
				name = tt.name + ", read second"
			}
			t.Run(name, func(t *testing.T) {
				c := NewClassifier(nil)
				a, b := Failure{Status: "failed", Error: tt.first}, Failure{Status: "failed", Error: tt.other}
				if reversed {
					c.Classify(b)
				}
				got := c.Classify(a)
				gotOf := c.Classify(b)
				if got.Signature != gotOf.Signature {
					t.Fatalf("signatures %q and %q differ; the test needs two messages that normalise alike", got.Signature, gotOf.Signature)
				}
				if g := got.Layer + "/" + got.Primitive; g != tt.want {
					t.Errorf("got %s for %q, want %s", g, tt.first, tt.want)
				}
				wantOf := tt.wantOf
				if wantOf == "" {
					alone := NewClassifier(nil).Classify(b)
					if wantOf = alone.Layer + "/" + alone.Primitive; wantOf == tt.want {
						t.Fatalf("%q alone is %s like %q; the test needs a message the rule does not decide", tt.other, wantOf, tt.first)
					}
				}
				if g := gotOf.Layer + "/" + gotOf.Primitive; g != wantOf {
					t.Errorf("got %s for %q, want %s", g, tt.other, wantOf)
				}
			})
		}
	}
}

func TestAJSONErrorPastTheFirstByteIsNotReadAsNoJSON(t *testing.T) {
	// Only the first says the reply held no JSON. Read first, its rule's
	// decision was cached under the key both normalise to; read second,
	// a key with no rule's decision falls through to the whole text, so
	// that order held before the key kept the mark and shows that the
	// order does not matter.
	noJSON := Failure{Status: "failed", Error: "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)"}
	further := Failure{Status: "failed", Error: "json.decoder.JSONDecodeError: Expecting value: line 4 column 1 (char 6)"}
	for _, tt := range []struct {
		name         string
		furtherFirst bool
	}{
		{"the error at the first byte read first", false},
		{"the later error read first", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := NewClassifier(nil)
			if tt.furtherFirst {
				c.Classify(further)
			}
			first := c.Classify(noJSON)
			if first.By != "rule:jsonrpc-parse" {
				t.Errorf("got %s for %q, want rule:jsonrpc-parse", first.By, noJSON.Error)
			}
			later := c.Classify(further)
			if later.By == "rule:jsonrpc-parse" {
				t.Errorf("got %s for %q, want a decision other than the rule's", later.By, further.Error)
			}
			if first.Signature != later.Signature {
				t.Errorf("signatures %q and %q differ; the test needs two messages that normalise alike", first.Signature, later.Signature)
			}
		})
	}
}

// TestTheRulesAgreeOnEveryMessageOfAKey reads every labelled message: two
// messages that share a failure key must be decided by the same rule on
// their first reading, since the decision is cached by the key. A rule
// that reads a part the normaliser masks (a quoted name, a path, a
// number) would tell them apart and fail this.
func TestTheRulesAgreeOnEveryMessageOfAKey(t *testing.T) {
	c := NewClassifier(nil)
	// decided names what decide caches under the key: the rule that
	// decided, and the log rules left to try.
	decided := func(f *Failure, src string) string {
		d := c.decide(f, src, "")
		out := d.fallback.By
		for _, r := range d.logRules {
			out += " " + r.By()
		}
		return out
	}
	byKey := map[string]map[string]string{} // key → decision → a message
	for _, f := range labelledFailures(t) {
		src := failureSource(&f)
		key := c.failureKey(&f, src, normalizeSource(src), "")
		if byKey[key] == nil {
			byKey[key] = map[string]string{}
		}
		byKey[key][decided(&f, src)] = src
	}
	for key, rules := range byKey {
		if len(rules) > 1 {
			t.Errorf("key %.100q: messages decided differently: %.300q", key, rules)
		}
	}
	if len(byKey) == 0 {
		t.Fatal("no labelled message has a key; the test checks nothing")
	}
}

// TestTheMojibakeReadingKeepsWhatTheEncodingRuleReads holds the reading's
// cheap gate (letters outside ASCII, in both cases) to the pattern the
// encoding rule matches, case folding included.
func TestTheMojibakeReadingKeepsWhatTheEncodingRuleReads(t *testing.T) {
	var reading maskedReading
	for _, m := range maskedReadings {
		if m.name == "mojibake" {
			reading = m
		}
	}
	rule := regexp.MustCompile(`(?i)` + mojibake)
	tests := []struct {
		name, text string
		want       bool
	}{
		{"Latin-1 read as cp1252 in a quoted value", `"locality": "ZÃ¼rich",`, true},
		{"the same in capitals", `"LOCALITY": "ZÃ¼RICH",`, true},
		{"an apostrophe read as cp1252", "donâ€™t", true},
		{"its capital form, which case folding matches", "DONÂ€™T", true},
		{"Cyrillic read as cp1252", "Ð”ÐµÐ»Ð¾", true},
		{"Chinese read as cp1252", "ä¸Šæµ·", true},
		{"a lead letter written as the Ångström sign, which case folding reads as å", "\u212B¸Š", true},
		{"plain ASCII", `"type": "Error",`, false},
		{"accented text that is no mojibake", "café crème", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := reading.reads(tt.text); got != tt.want || got != rule.MatchString(tt.text) {
				t.Errorf("got %v for %q, want %v, as the rule's pattern says %v", got, tt.text, tt.want, rule.MatchString(tt.text))
			}
		})
	}
}
