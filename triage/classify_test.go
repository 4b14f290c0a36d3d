package triage

import (
	"regexp"
	"strings"
	"sync"
	"testing"

	"sandtrap"
	"sandtrap/logview"
)

func ptr(n int64) *int64 { return &n }

func TestClassifyPrecedence(t *testing.T) {
	userRules := []Rule{{
		Name: "corp-proxy", ErrorRegex: regexp.MustCompile(`ProxyError|407 Proxy Authentication`),
		Layer: "sandbox", Primitive: "network-egress",
	}, {
		Name: "slow-imports", ErrorRegex: regexp.MustCompile(`No module named`), Targets: []string{"browser"},
		Layer: "test", Primitive: "harness",
	}}
	c := NewClassifier(userRules)
	tests := []struct {
		name string
		f    Failure
		want Classification
	}{
		{
			"the harness's valid columns decide",
			Failure{Error: "Killed", HarnessLayer: "interface", HarnessPrimitive: "protocol"},
			Classification{Layer: "interface", Primitive: "protocol", By: ByHarness, Signature: "Killed"},
		},
		{
			"harness synonyms are normalised",
			Failure{Error: "x", HarnessLayer: "MCP", HarnessPrimitive: "transport"},
			Classification{Layer: "interface", Primitive: "protocol", By: ByHarness, Signature: "x"},
		},
		{
			"a harness primitive alone decides its layer",
			Failure{Error: "x", HarnessPrimitive: "oom"},
			Classification{Layer: "sandbox", Primitive: "memory", By: ByHarness, Signature: "x"},
		},
		{
			"a harness layer alone takes the primitive of the first rule of that layer",
			Failure{Error: "Killed", ExitCode: ptr(137), HarnessLayer: "sandbox"},
			Classification{Layer: "sandbox", Primitive: "memory", By: ByHarness, Signature: "Killed"},
		},
		{
			"a harness layer skips rules of other layers",
			Failure{Error: "Killed", HarnessLayer: "interface"},
			Classification{Layer: "interface", By: ByHarness, Signature: "Killed"},
		},
		{
			"a harness layer with a primitive of another layer keeps the layer",
			Failure{Error: "MCP error -32700: Parse error", HarnessLayer: "interface", HarnessPrimitive: "memory"},
			Classification{Layer: "interface", Primitive: "protocol", By: ByHarness, Signature: "MCP error -32700: Parse error"},
		},
		{
			"the test layer has one primitive, so it is filled",
			Failure{Error: "KeyError: 'x'", HarnessLayer: "harness"},
			Classification{Layer: "test", Primitive: "harness", By: ByHarness, Signature: "KeyError: '<name>'"},
		},
		{
			"an unclassified harness label decides nothing",
			Failure{Error: "Killed", HarnessLayer: "unclassified"},
			Classification{Layer: "sandbox", Primitive: "memory", By: "rule:killed", Signature: "Killed"},
		},
		{
			"user rules come before built-in ones",
			Failure{Error: "ProxyError: Cannot connect to proxy (Network is unreachable)"},
			Classification{Layer: "sandbox", Primitive: "network-egress", By: "rule:corp-proxy", Signature: "ProxyError: Cannot connect to proxy (Network is unreachable)"},
		},
		{
			"a user rule's target must match",
			Failure{Target: "code-interpreter", Error: "ModuleNotFoundError: No module named 'x'"},
			Classification{Layer: "sandbox", Primitive: "package-path", By: "rule:package-path", Signature: "ModuleNotFoundError: No module named '<name>'"},
		},
		{
			"a user rule with a matching target wins",
			Failure{Target: "browser", Error: "ModuleNotFoundError: No module named 'x'"},
			Classification{Layer: "test", Primitive: "harness", By: "rule:slow-imports", Signature: "ModuleNotFoundError: No module named '<name>'"},
		},
		{
			"exit code 137 alone is a memory kill",
			Failure{ExitCode: ptr(137)},
			Classification{Layer: "sandbox", Primitive: "memory", By: "rule:exit-oom-kill"},
		},
		{
			"exit code 137 with a line that names another resource is that resource's",
			Failure{ExitCode: ptr(137), Error: "Status: Failed\nReason: Evicted\nMessage: The node was low on resource: ephemeral-storage."},
			Classification{Layer: "sandbox", Primitive: "storage-persistence", By: "rule:storage-truncated", Signature: "Message: The node was low on resource: ephemeral-storage."},
		},
		{
			"exit code 137 with lines no rule reads stays a memory kill",
			Failure{ExitCode: ptr(137), Error: "step 3 of 9\nworker gone"},
			Classification{Layer: "sandbox", Primitive: "memory", By: "rule:exit-oom-kill", Signature: "step <n> of <n>"},
		},
		{
			"nothing matching leaves it unclassified",
			Failure{Error: "ZeroDivisionError: division by zero"},
			Classification{Layer: "unclassified", By: ByNone, Signature: "ZeroDivisionError: division by zero"},
		},
		{
			"an empty error is classified from the log",
			Failure{LogTail: []byte("$ python a.py\nModuleNotFoundError: No module named 'polars'\n")},
			Classification{Layer: "sandbox", Primitive: "package-path", By: "rule:package-path", Signature: "ModuleNotFoundError: No module named '<name>'"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := c.Classify(tt.f)
			got.Cause, got.Context = "", "" // TestKnownCauses and TestRunContext cover them
			if got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestClassifyLogRulesReadEachFailuresLog(t *testing.T) {
	c := NewClassifier([]Rule{{
		Name: "tabs", ErrorRegex: regexp.MustCompile(`Target crashed`), LogRegex: regexp.MustCompile(`\b1\d tabs open`),
		Layer: "sandbox", Primitive: "memory",
	}, {
		Name: "other-crash", ErrorRegex: regexp.MustCompile(`Target crashed`), Layer: "test", Primitive: "harness",
	}})
	tests := []struct {
		name, log, wantBy string
	}{
		{"the log matches", "opening tab\n12 tabs open\n", "rule:tabs"},
		{"the same key with another log falls through", "2 tabs open\n", "rule:other-crash"},
		{"the first log matches again after a miss", "15 tabs open", "rule:tabs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := c.Classify(Failure{Error: "page.goto: Target crashed", LogTail: []byte(tt.log)})
			if got.By != tt.wantBy {
				t.Errorf("got %s, want %s", got.By, tt.wantBy)
			}
		})
	}
}

func TestAJSONRPCFrameInTheLogIsNoEvidenceOfAProtocolFailure(t *testing.T) {
	c := NewClassifier(nil)
	tests := []struct {
		name, log    string
		wantProtocol bool
	}{
		{"a call and its successful answer say only that a frame was sent",
			`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"run_code"}}` + "\n" + `{"jsonrpc": "2.0", "id": 7, "result": {"status": "ok"}}`, false},
		{"an answer with JSON-RPC's parse error is one",
			`{"jsonrpc":"2.0","id":7,"error":{"code":-32700,"message":"Parse error"}}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := c.Classify(Failure{Error: "step 4 returned nothing the agent could use", LogTail: []byte(tt.log)})
			if isProtocol := got.Primitive == "protocol"; isProtocol != tt.wantProtocol {
				t.Errorf("got %s/%s by %s, want protocol %v", got.Layer, got.Primitive, got.By, tt.wantProtocol)
			}
		})
	}
}

func TestAByteRangeInTheLogIsNoNULByte(t *testing.T) {
	c := NewClassifier(nil)
	tests := []struct {
		name, log string
		wantNUL   bool
	}{
		{"a grep for non-ASCII bytes names the range from \\x00", `sandbox: LC_ALL=C grep -n -P '[^\x00-\x7F]' app/build.sbt -> 1 line, bytes e2 80 a8`, false},
		{"a dump that shows a NUL byte is one", `sandbox: head -c 16 out.csv | od -c -> id,name\x00\x00\x00`, true},
		{"a key whose value is null before a byte count names no NUL", "tool_result status=ok content_items=0 structured=null bytes=522", false},
		{"a signal of null before a byte counter names no NUL", "child exited code=127 signal=null bytes_from_stdout=0", false},
		{"a log that says null bytes names them", "tool_result status=ok bytes=522 (3 null bytes in the text)", true},
		{"a log line that starts with null bytes names them", "read_file ok\nnull bytes at offset 12", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := c.Classify(Failure{Error: "sbt compile failed", LogTail: []byte(tt.log)})
			if byRule := got.By == "rule:nul-byte"; byRule != tt.wantNUL {
				t.Errorf("got %s/%s by %s, want the NUL byte rule %v", got.Layer, got.Primitive, got.By, tt.wantNUL)
			}
		})
	}
}

func TestAZeroOOMCounterInTheLogIsNoOOMKill(t *testing.T) {
	c := NewClassifier(nil)
	const assertion = "Failed   ClockTest.Clocks_with_negative_minute\nError Message:\n Assert.Equal() Failure\nExpected: 03:-20\nActual:   02:40"
	tests := []struct {
		name, log  string
		wantMemory bool
	}{
		{"a cgroup's oom_kill=0 after a failed assertion says no OOM kill happened",
			"01:48:30 Starting test execution, please wait...\n01:48:33 exit=1 elapsed_ms=12591 cgroup peak_bytes=253755392 oom_kill=0", false},
		{"a harness's oom_kill_events: 0 says the same",
			"step 3: dotnet test -> exit 1\ncgroup: oom_kill_events: 0", false},
		{"a harness's oom=0 says the same",
			"sandbox: exit=1 rss_mb=212 oom=0 throttled=0", false},
		{"memory.events' own line, oom_kill 0, says the same",
			"step 3: dotnet test -> exit 1\nmem.events: low 0 high 0 max 0 oom 0 oom_kill 0", false},
		{"a JSON counter and a prefixed one say the same",
			`{"exit": 1, "oom_kill": 0, "container_oom_kill=0": true}`, false},
		{"a counter of one is an OOM kill",
			"01:48:33 exit=137 elapsed_ms=12591 cgroup peak_bytes=536870912 oom_kill=1", true},
		{"a counter that went from zero to one is an OOM kill",
			"01:48:33 exit=137 cgroup oom_kill 0->1", true},
		{"a counter that went from zero to two is an OOM kill",
			"01:48:33 exit=137 memory.events oom_kill: 0 => 2", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := c.Classify(Failure{Error: assertion, LogTail: []byte(tt.log)})
			if isMemory := got.Primitive == "memory"; isMemory != tt.wantMemory {
				t.Errorf("got %s/%s by %s, want memory %v", got.Layer, got.Primitive, got.By, tt.wantMemory)
			}
		})
	}
}

// TestTheRuleDecidesNotTheModel names the rule that must decide each
// message, so that a tool nobody trained on is read the same way and a
// retrained model cannot hide a rule that stopped matching. Each message
// has a classifier of its own: a decision cached under a key another case
// shares would not test its rule.
func TestTheRuleDecidesNotTheModel(t *testing.T) {
	tests := []struct{ name, error, want, wantBy string }{
		{"Spark's futures timed out after seconds are a time limit", "java.util.concurrent.TimeoutException: Futures timed out after [3 seconds]", "sandbox/cpu-time", "rule:cpu-time"},
		{"Spark's futures timed out after minutes are the same time limit", "java.util.concurrent.TimeoutException: Futures timed out after [5 minutes]", "sandbox/cpu-time", "rule:cpu-time"},
		{"a snapshot that timed out after hours is a time limit", "Operation timed out after 6 hours. Consider reducing the amount of work performed", "sandbox/cpu-time", "rule:cpu-time"},
		{"a job that timed out after 1 min is a time limit", "job timed out after 1 min", "sandbox/cpu-time", "rule:cpu-time"},
		{"uWSGI's harakiri on a worker is its request time limit", "Tue Mar 26 14:03:21 2024 - *** HARAKIRI ON WORKER 2 (pid: 289, try: 1, graceful: yes) ***", "sandbox/cpu-time", "rule:cpu-time"},
		{"uWSGI's harakiri on a mule is the same limit", "*** HARAKIRI ON MULE 1 HANDLING SIGNAL 17 (pid: 4012) ***", "sandbox/cpu-time", "rule:cpu-time"},
		{"uWSGI's harakiri on the spooler is the same limit", "*** HARAKIRI ON THE SPOOLER (pid: 4013) ***", "sandbox/cpu-time", "rule:cpu-time"},
		// A Beats listener reads a frame's first byte as its protocol
		// version: JSON's "{" is 123, an HTTP request's "G" 71.
		{"Fluentd's Beats input given an HTTP request speaks another protocol", "2017-06-09 12:19:26 +0000 [error]: unexpected error error=\"unsupported protocol 71\"", "interface/protocol", "rule:protocol-version"},
		{"Logstash's invalid Beats version speaks another protocol", "Handling exception: Invalid version of beats protocol: 123", "interface/protocol", "rule:protocol-version"},
		{"Logstash's frame exception alone speaks another protocol", "io.netty.handler.codec.DecoderException: org.logstash.beats.InvalidFrameProtocolException", "interface/protocol", "rule:protocol-version"},
		{"Mosquitto given a protocol level it does not speak speaks another protocol", "1586378499: Invalid protocol version 3 in CONNECT from 5.35.166.169.", "interface/protocol", "rule:protocol-version"},
		// ZeroC Ice names its per-message limit a memory limit;
		// Ice.MessageSizeMax and the exception's name say which.
		{"Ice's memory limit on a message is its size", "protocol error: memory limit exceeded:\nrequested 2764919 bytes", "interface/message-size", "rule:message-size"},
		{"Ice's MemoryLimitException is its size", "Ice.UnknownLocalException: exception ::Ice::UnknownLocalException\n{\n    unknown = ConnectionI.cpp:1573: Ice::MemoryLimitException:\n}", "interface/message-size", "rule:message-size"},
		{"a message over Ice.MessageSizeMax is its size", "dispatch exception: requested 8388624 bytes, maximum allowed is 1048576 bytes (see Ice.MessageSizeMax)", "interface/message-size", "rule:message-size"},
		// PHP 8 calls a function its disable_functions removed undefined.
		{"PHP 8's undefined exec is a disabled process function", "PHP Fatal error:  Uncaught Error: Call to undefined function exec() in /var/www/flarum/vendor/flarum/core/src/Foundation/Console/InfoCommand.php:198", "sandbox/process-spawn", "rule:php-process-functions-disabled"},
		{"PHP 8's undefined proc_open in a namespace is the same", "Error: Call to undefined function Symfony\\Component\\Process\\proc_open()", "sandbox/process-spawn", "rule:php-process-functions-disabled"},
		// Elasticsearch's flood-stage block, named by its index block alone.
		{"an index made read-only by the flood stage is a full disk", "Error in one or more bulk request actions: index: /detail_model/_doc/1 caused index [detail_model] blocked by: [FORBIDDEN/12/index read-only / allow delete (api)];", "sandbox/storage-persistence", "rule:store-full-or-damaged"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := NewClassifier(nil)
			got := c.Classify(Failure{Error: tt.error, Target: "code-interpreter", Domain: "data-analysis", ExitCode: ptr(1)})
			if got.Layer+"/"+got.Primitive != tt.want || got.By != tt.wantBy {
				t.Errorf("got %s/%s by %s, want %s by %s", got.Layer, got.Primitive, got.By, tt.want, tt.wantBy)
			}
		})
	}
}

// notDecidedBy is one error a rule must leave to the others.
type notDecidedBy struct{ name, error string }

// checkNotDecidedBy fails each case the rule named by decides.
func checkNotDecidedBy(t *testing.T, by string, exitCode int64, tests []notDecidedBy) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := NewClassifier(nil).Classify(Failure{Error: tt.error, Target: "code-interpreter", Domain: "builds", ExitCode: ptr(exitCode)})
			if got.By == by {
				t.Errorf("got %s/%s by %s, want a decision by another rule or the model", got.Layer, got.Primitive, got.By)
			}
		})
	}
}

func TestA413ThatIsNoStatusIsNotABodyOverALimit(t *testing.T) {
	// The message-size rule reads the status 413; the same digits as a
	// value, a path's id or a duration are not one.
	checkNotDecidedBy(t, "rule:message-size", 1, []notDecidedBy{
		{"a count in a JSON field", `{"count":413}`},
		{"a value after an equals sign", "worker stopped: rss_mb=413 exit=1"},
		{"an id in a URL's path", "GET /api/items/413 failed: not found"},
		{"a duration", "request finished after 413.27s without a reply"},
		{"a path's part after the word status", "GET /api/Status/413 failed: not found"},
	})
}

func TestTheStatus413IsReadAfterTheWordsThatNameAStatus(t *testing.T) {
	tests := []struct{ name, error string }{
		{"after HTTP, before a comma", "upload: got HTTP 413, retrying"},
		{"after a status code's colon, before a comma", "reply status: 413, body empty"},
		{"in a JSON field", `{"statusCode":413,"error":"x"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := NewClassifier(nil).Classify(Failure{Status: "failed", Error: tt.error})
			if got.By != "rule:message-size" {
				t.Errorf("got %s/%s by %s, want rule:message-size", got.Layer, got.Primitive, got.By)
			}
		})
	}
}

func TestAnExtensionsUndefinedFunctionIsNotADisabledOne(t *testing.T) {
	// PHP's core process functions are undefined only when disabled; an
	// extension's are undefined when it was not built or not loaded.
	checkNotDecidedBy(t, "rule:php-process-functions-disabled", 255, []notDecidedBy{
		{"IMAP's header decoder", "Call to undefined function imap_mime_header_decode()"},
		{"pcntl's fork", "PHP Fatal error:  Uncaught Error: Call to undefined function pcntl_fork() in /app/worker.php:12"},
		{"a user function named like one", "Call to undefined function App\\Helpers\\system_info()"},
	})
}

func TestAZeroNamedBesideNoByteIsNotANUL(t *testing.T) {
	// 0x00 is a NUL only as a byte's or a character's value; a register,
	// a reply, a version or a range's start that happens to be zero is not.
	checkNotDecidedBy(t, "rule:nul-byte", 1, []notDecidedBy{
		{"avrdude's reply byte out of sync", "avrdude: stk500_getsync() attempt 10 of 10: not in sync: resp=0x00"},
		{"a protocol version of zero", "Unsupported protocol version 0x00"},
		{"a fault address of zero", "Guru Meditation Error: Core  1 panic'ed (LoadProhibited). EXCVADDR: 0x00"},
		{"a range of control characters", "control characters 0x00-0x1F are not allowed in strings"},
	})
}

func TestMillisecondsAreNotSecondsSpeltOut(t *testing.T) {
	// A number of ms is as often a connection's wait as a time limit, so
	// the time limit's rule reads seconds spelt out, not "milliseconds".
	got := NewClassifier(nil).Classify(Failure{Error: "Failed to connect to database: Timed out after 5000 milliseconds.", Target: "code-interpreter", Domain: "data-analysis", ExitCode: ptr(1)})
	if got.By == "rule:cpu-time" {
		t.Errorf("got %s/%s by %s, want a decision other than the cpu-time rule's", got.Layer, got.Primitive, got.By)
	}
}

func TestWithoutZeroOOM(t *testing.T) {
	tests := []struct{ name, log, want string }{
		{"a zero counter after an equals sign goes", "exit=1 oom_kill=0 rss=3", "exit=1  rss=3"},
		{"memory.events' spaced zero goes", "oom 0 oom_kill 0", " "},
		{"a prefixed counter goes and keeps its prefix", "container_oom_kill=0;", "container_;"},
		{"a counter of one stays", "oom_kill=1", "oom_kill=1"},
		{"a zero that became one stays", "oom_kill 0->1", "oom_kill 0->1"},
		{"a fraction stays", "oom=0.5", "oom=0.5"},
		{"a score adjustment stays", "oom_score_adj=0", "oom_score_adj=0"},
		{"a hex value stays", "oom=0x1", "oom=0x1"},
		{"a word ending in oom stays", "zoom=0", "zoom=0"},
		{"a zero on the next line is not the counter's", "checking OOM:\n0 tests failed", "checking OOM:\n0 tests failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := withoutZeroOOM(tt.log); got != tt.want {
				t.Errorf("withoutZeroOOM(%q) = %q, want %q", tt.log, got, tt.want)
			}
		})
	}
}

func TestTheRulesSecondReadingReadsEveryLineOfTheError(t *testing.T) {
	c := NewClassifier(nil)
	tests := []struct {
		name, err, log string
		wantCrash      bool // decided by the browser-crash rule
	}{
		{"a cause on an unremarkable line of the error decides",
			"Aw, Snap!\nSomething went wrong while displaying this web page.\nError code: RESULT_CODE_INVALID_CMDLINE_URL", "", true},
		{"the same words on an unremarkable line of the log do not",
			"step 4 returned nothing the agent could use", "opening page\nAw, Snap!\nstep 4 done", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := c.Classify(Failure{Error: tt.err, LogTail: []byte(tt.log), Target: "browser"})
			if crash := got.By == "rule:browser-crash"; crash != tt.wantCrash {
				t.Errorf("got %s/%s by %s, want the browser-crash rule %v", got.Layer, got.Primitive, got.By, tt.wantCrash)
			}
		})
	}
}

func TestClassifyToolRules(t *testing.T) {
	c := NewClassifier([]Rule{{Name: "uploads", Tools: []string{"upload_file"}, Layer: "interface", Primitive: "encoding"}})
	tests := []struct {
		name   string
		tools  []string
		wantBy string
	}{
		{"a step used the tool", []string{"run_code", "upload_file"}, "rule:uploads"},
		{"no step used the tool", []string{"run_code"}, ByNone},
		{"no steps", nil, ByNone},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := c.Classify(Failure{Error: "odd failure", Tools: tt.tools}); got.By != tt.wantBy {
				t.Errorf("got %s, want %s", got.By, tt.wantBy)
			}
		})
	}
}

func TestClassifierIsSafeForConcurrentUse(t *testing.T) {
	records := loadCorpus(t)
	want := make([]Classification, len(records))
	for i, r := range records {
		want[i] = NewClassifier(nil).Classify(r.failure())
	}
	c := NewClassifier(nil)
	var wg sync.WaitGroup
	errs := make(chan string, 8*len(records))
	for range 8 {
		wg.Go(func() {
			for i, r := range records {
				if got := c.Classify(r.failure()); got != want[i] {
					errs <- r.ID
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for id := range errs {
		t.Errorf("%s: concurrent classification differs from a fresh classifier's", id)
	}
}

func TestBuiltinRulesStayInTheVocabulary(t *testing.T) {
	for _, r := range builtinRules {
		if !ValidLayer(r.Layer) || !ValidPrimitive(r.Layer, r.Primitive) {
			t.Errorf("built-in rule %s: %s/%s is outside the vocabulary", r.Name, r.Layer, r.Primitive)
		}
	}
}

func TestFingerprintChangesWithTheRulesAndTheGuessModelOnly(t *testing.T) {
	rule := func(pattern string) Rule {
		return Rule{Name: "egress", ErrorRegex: regexp.MustCompile(pattern), Layer: "sandbox", Primitive: "network-egress"}
	}
	base := NewClassifier([]Rule{rule(`proxy refused`)}).Fingerprint()
	tests := []struct {
		name     string
		other    string
		wantSame bool
	}{
		{"the same rules give the same fingerprint", NewClassifier([]Rule{rule(`proxy refused`)}).Fingerprint(), true},
		{"another pattern gives another", NewClassifier([]Rule{rule(`proxy denied`)}).Fingerprint(), false},
		{"no user rules give another", NewClassifier(nil).Fingerprint(), false},
		{"the built-in guess model named gives the same", NewClassifierWith([]Rule{rule(`proxy refused`)}, GuessModel()).Fingerprint(), true},
		{"another guess model gives another", NewClassifierWith([]Rule{rule(`proxy refused`)}, leaningModel()).Fingerprint(), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.other == base; got != tt.wantSame {
				t.Errorf("got same %v, want %v", got, tt.wantSame)
			}
		})
	}
}

func TestBuiltinRulesReadWhatToolsPrint(t *testing.T) {
	c := NewClassifier(nil)
	tests := []struct{ name, error, want string }{
		{"PHP's mbstring function undefined is an extension not installed", "PHP Fatal error:  Uncaught Error: Call to undefined function mb_strlen() in php shell code:1", "sandbox/package-path"},
		{"PHP's iconv undefined inside a namespace is an extension not installed", "Fatal error: Uncaught Error: Call to undefined function App\\Lib\\iconv() in /var/www/html/Field.php:222", "sandbox/package-path"},
		{"Rust's thread that overflowed its stack is memory, not a thread refused", "thread 'tokio-runtime-worker-3' has overflowed its stack\nfatal runtime error: stack overflow\nAborted (core dumped)", "sandbox/memory"},
		{"PHP's BCMath function undefined is an extension not installed", "PHP Fatal error:  Uncaught Error: Call to undefined function bcpowmod() in /app/lib/Math.php:40", "sandbox/package-path"},
		{"PHP's gettext plural undefined is an extension not installed", "Fatal error: Uncaught Error: Call to undefined function ngettext() in /var/www/html/i18n.php:12", "sandbox/package-path"},
		{"sleep refusing its duration is the test's argument", "sleep: invalid time interval '5.0m'\nTry 'sleep --help' for more information.", "test/harness"},
		{"coreutils' timeout refusing its duration is the test's argument", "timeout: invalid time interval `5.0m'\nTry `timeout --help' for more information.", "test/harness"},
		{"bash's command not found in Chinese is a missing package", "./test-claude.sh: 行 49: jq: 未找到命令", "sandbox/package-path"},
		{"bash's command not found in German is a missing package", "bash: jq: Kommando nicht gefunden.", "sandbox/package-path"},
		{"bash's command not found in Taiwanese Chinese, after a full-width colon, is a missing package", "bash: jq：指令找不到", "sandbox/package-path"},
		{"bash's command not found in French, after a no-break space, is a missing package", "bash: jq\u00a0: commande introuvable", "sandbox/package-path"},
		{"bash's carriage return read as a command in Spanish is a script rewritten to CRLF", "./run.sh: línea 2: $'\\r': orden no encontrada", "interface/encoding"},
		{"the JVM's AbstractMethodError is a library of another version", "java.lang.AbstractMethodError: org.slf4j.impl.Log4jLoggerAdapter.isTraceEnabled()Z", "sandbox/package-path"},
		{"runc's older refusal to exec into a stopped container is session-lifecycle", "OCI runtime exec failed: exec failed: cannot exec in a stopped container: unknown", "sandbox/session-lifecycle"},
		{"runc's refusal of a container that ran and stopped is session-lifecycle", "rpc error: code = 2 desc = oci runtime error: exec failed: cannot exec a container that has run and stopped", "sandbox/session-lifecycle"},
		{"JUnit's class without one public constructor is the test's", "java.lang.Exception: Test class should have exactly one public constructor", "test/harness"},
		{"a write to a full non-blocking stdout pipe is message-size, not a process limit", "Exception ignored in: <_io.TextIOWrapper name='<stdout>' mode='w' encoding='UTF-8'>\nBlockingIOError: [Errno 11] write could not complete without blocking", "interface/message-size"},
		{"a fork refused with EAGAIN stays a process limit", "BlockingIOError: [Errno 11] Resource temporarily unavailable", "sandbox/process-spawn"},
		{"the JVM's IncompatibleClassChangeError is a library of another version", "java.lang.IncompatibleClassChangeError: Found class git4idea.repo.GitRepositoryManager, but interface was expected", "sandbox/package-path"},
		{"JUnit's test class with no runnable methods is the test's", "There was 1 failure:\n1) initializationError(com.example.TodoController)\njava.lang.Exception: No runnable methods", "test/harness"},
		{"runc refusing to exec into a stopped container is session-lifecycle", "OCI runtime exec failed: exec failed: cannot exec a container that has stopped: unknown", "sandbox/session-lifecycle"},
		{"nginx's request body over client_max_body_size is message-size", "2017/06/23 15:06:29 [error] 6#6: *75297 client intended to send too large body: 1080562 bytes, client: 10.4.3.1, server: localhost, request: \"POST /upload HTTP/1.1\"", "interface/message-size"},
		{"PHP's upload over upload_max_filesize is message-size", "The uploaded file exceeds the upload_max_filesize directive in php.ini.", "interface/message-size"},
		{"zsh that reads a carriage return as a command ran a script whose line ends became CRLF", "/home/agent/.oh-my-zsh/custom/plugins/zsh-z/zsh-z.plugin.zsh:61: command not found: ^M", "interface/encoding"},
		{"zsh's parse error at a carriage return inside a word is a CRLF rewrite", "/home/agent/.antigen/bundles/robbyrussell/oh-my-zsh/lib/git.zsh:31: parse error near `in^M'", "interface/encoding"},
		{"a command zsh cannot find stays a missing package", "/home/agent/.zshrc:12: command not found: antigen", "sandbox/package-path"},
		{"NeDB's corrupt data file is a damaged store", "Error: More than 10% of the data file is corrupt, the wrong beforeDeserialization hook may be used. Cautiously refusing to start NeDB to prevent dataloss", "sandbox/storage-persistence"},
		{"pyusb with no libusb lacks a package", "  File \"/usr/lib/python3/dist-packages/usb/core.py\", line 1309, in find\n    raise NoBackendError('No backend available')\nusb.core.NoBackendError: No backend available", "sandbox/package-path"},
		{"zsh that finds a carriage return where a name should be ran a script whose line ends became CRLF", "/home/agent/.oh-my-zsh/lib/cli.zsh:3: not an identifier: list^M", "interface/encoding"},
		{"NeDB's corrupt share above its threshold is a damaged store", "Error: 33% of the data file is corrupt, more than given corruptAlertThreshold (10%). Cautiously refusing to start Datastore to prevent dataloss.", "sandbox/storage-persistence"},
		{"Python's UnicodeDecodeError whose bytes hold a quote is shown in double quotes, and is encoding too", `UnicodeDecodeError('utf-8', b"it's\x00\xff", 5, 6, 'invalid start byte')`, "interface/encoding"},
		{"an MQTT payload Home Assistant could not decode is encoding, whatever NUL it shows", `Can't decode payload b'{"Time":"2021-03-18T220\xf5\x02\x00\x18Pracovna/tele/HASS_STATE{"Version":"8.1.0.2(tasmota)"}' on Pracovna/tele/SENSOR with encoding utf-8`, "interface/encoding"},
		{"Python's UnicodeDecodeError shown as a value is encoding, whatever NUL its bytes hold", `Unrecoverable error: UnicodeDecodeError('utf-8', b'N\xfd\x17=\x00\x00', 1, 2, 'invalid start byte')`, "interface/encoding"},
		{"Ruby's invalid byte sequence is encoding, though the byte is a NUL", "registry.rb:652:in `encode': incomplete \"\\x00\" on UTF-16LE (Encoding::InvalidByteSequenceError)", "interface/encoding"},
		{"a NUL in bytes no decoder refused stays a NUL", `OSC string cannot begin with a null byte: b'\x00\x00\x00\x00'`, "interface/null-byte"},
		{"the JVM's missing method is a library of another version", `Exception in thread "main" java.lang.NoSuchMethodError: 'org.apache.jena.riot.system.IRIResolver org.apache.jena.riot.system.IRIResolver.create()'`, "sandbox/package-path"},
		{".NET's missing method is a library of another version, not JSON-RPC's unknown method", "HarmonyLib.HarmonyException: Patching exception in method static void UnityEngine.Application::Quit() ---> System.MissingMethodException: Method not found: Mono.Cecil.MethodDefinition MonoMod.Utils.DynamicMethodDefinition.get_Definition()", "sandbox/package-path"},
		{"JSON-RPC's unknown method stays the protocol's", `{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"Method not found"}}` + "\nError: Method not found", "interface/protocol"},
		{"bubblewrap that may not make its new root private could not set up the child's namespaces", "# bwrap: Failed to make / slave: Permission denied\n[ERROR] The compilation of ocamlfind.1.9.6 failed at \"make all\".", "sandbox/process-spawn"},
		{"bubblewrap that finds no overflow uid was given no user namespace", "# bwrap: Can't read /proc/sys/kernel/overflowuid: No such file or directory", "sandbox/process-spawn"},
		{"bubblewrap that cannot reach a bind source is the file's permissions", "bwrap: Can't find source path /home/agent/workspace: Permission denied", "sandbox/filesystem-permissions"},
		{"a full disk whose message ends in a source line 413 is storage", "ior ERROR: open64(\"/scratch/io500/mdt_hard/file.mdtest.3.20417\", 66, 0664) failed, errno 28, No space left on device (aiori-POSIX.c:413)", "sandbox/storage-persistence"},
		{"a status 413 in parentheses is a body over the server's limit", "We received an unexpected status code from the server. (413)", "interface/message-size"},
		{"which(1) that finds a program on no folder of the PATH lacks the package", "which: no hostapd in (/sbin:/bin:/usr/sbin:/usr/bin)", "sandbox/package-path"},
		{"PyVista with no X server lacks a display", "This system does not appear to be running an xserver.\nPyVista will likely segfault when rendering.\n\nTry starting a virtual frame buffer with xvfb, or using\n  ``pyvista.start_xvfb()``\n\n  warnings.warn(", "sandbox/package-path"},
		{"a NaN a JSON encoder refuses is input it should not have been given", "  File \"/usr/lib/python3.8/json/encoder.py\", line 257, in iterencode\n    return _iterencode(o, 0)\nValueError: Out of range float values are not JSON compliant", "interface/input-validation"},
		{"SQLite's integrity check reporting damage is a damaged store", "*** in database main ***\nTree 19 page 25: btreeInitPage() returns error code 11\nTree 54 page 91 cell 29: Extends off end of page", "sandbox/storage-persistence"},
		{"tcmalloc's large alloc before a kernel restart is memory", "Oct 18, 2019, 7:54:49 AM | WARNING | WARNING:root:kernel b9e44794-c591-416b-a281-1a0873e0ca43 restarted\n-- | -- | --\nOct 18, 2019, 7:54:49 AM | INFO | KernelRestarter: restarting kernel (1/5), keep random ports\nOct 18, 2019, 7:54:04 AM | WARNING | tcmalloc: large alloc 3011936256 bytes == 0x5bbf0000", "sandbox/memory"},
		{"gpg that cannot open /dev/tty is a process started without a terminal", "gpg: cannot open '/dev/tty': No such device or address", "sandbox/process-spawn"},
		{"tcmalloc's large alloc beside a lookup that failed is the lookup's failure", "tcmalloc: large alloc 1073741824 bytes == 0x55d4c000 @\ncurl: (6) Could not resolve host: example.com", "sandbox/network-egress"},
		{"a JPEG warning before a lookup that failed is the lookup's failure", "Corrupt JPEG data: premature end of data segment\ncurl: (6) Could not resolve host: example.com", "sandbox/network-egress"},
		{"a JPEG cut before its end is a message cut short", "Corrupt JPEG data: premature end of data segment\n*** Error in `node': double free or corruption (fasttop): 0x00007fa864016f00 ***", "interface/message-size"},
		{"an import Python says is most likely circular is the test's own module", "ImportError: cannot import name 'KeycloakOpenID' from partially initialized module 'keycloak' (most likely due to a circular import) (/work/keycloak.py)", "test/harness"},
		{"a module attribute missing from a circular import is the test's too", "AttributeError: partially initialized module 'onnx' has no attribute '__version__' (most likely due to a circular import)", "test/harness"},
		{"a shell script with no terminal to open is a process started without one", "/media/fat/Scripts/wifi.sh: line 30: /dev/tty: No such device or address", "sandbox/process-spawn"},
		{"Python opening /dev/tty with no terminal is a process started without one", "OSError: [Errno 6] No such device or address: '/dev/tty'", "sandbox/process-spawn"},
		{"gpg with no tty for its pinentry is a process started without a terminal", "gpg: signing failed: Inappropriate ioctl for device", "sandbox/process-spawn"},
		{"AppArmor refusing a process's ptrace is a refused process", "[1822.905113] audit: type=1400 audit(1796591544.207:117): apparmor=\"DENIED\" operation=\"ptrace\" profile=\"docker-default\" pid=4188 comm=\"ps\" requested_mask=\"trace\" denied_mask=\"trace\" peer=\"docker-default\"", "sandbox/process-spawn"},
		{"AppArmor refusing an exec is a refused process", "audit: type=1400 audit(1781605512.734:6720419): apparmor=\"DENIED\" operation=\"exec\" class=\"file\" profile=\"snap.tool\" name=\"/usr/sbin/blkid\" pid=2101 comm=\"amd64\" requested_mask=\"x\" denied_mask=\"x\"", "sandbox/process-spawn"},
		{"Rust's NulError is a C string that met a NUL", "thread 'main' panicked at 'called `Result::unwrap()` on an `Err` value: NulError(3, [114, 117, 110, 0, 49])', src/window.rs:392:47", "interface/null-byte"},
		{"Rust's FromBytesWithNulError is a C string with a NUL inside it", "called `Result::unwrap()` on an `Err` value: FromBytesWithNulError { kind: InteriorNul(12) }", "interface/null-byte"},
		{"a shared object with no ELF header and nothing else said is a module for another platform", "ImportError: /home/user/venv/lib/python3.11/site-packages/fastlib/_core.so: invalid ELF header", "sandbox/package-path"},
		{"a library of the wrong ELF class is a module for another platform", "ImportError: /opt/lib/libfoo.so: wrong ELF class: ELFCLASS32", "sandbox/package-path"},
		{"Rust's newer InteriorNul is a C string that met a NUL", "called `Result::unwrap()` on an `Err` value: InteriorNul { position: 12 }", "interface/null-byte"},
		{"a script that starts processes with no main guard is the test's", "Traceback (most recent call last):\n  File \"/usr/lib/python3.11/multiprocessing/spawn.py\", line 140, in _check_not_importing_main\n    raise RuntimeError('''\nRuntimeError:\n        An attempt has been made to start a new process before the\n        current process has finished its bootstrapping phase.", "test/harness"},
		{"V8's string past its largest length is a message's size", "Uncaught RangeError: Invalid string length", "interface/message-size"},
		{"git that cannot write a file of its checkout ran out of disk", "error: unable to write file techlibs/ecp5/cells_sim.v\nerror: unable to write file techlibs/ecp5/cells_bb.v", "sandbox/storage-persistence"},
		{"protobuf bytes that are no message of their type were changed on their way", "google.protobuf.message.DecodeError: Error parsing message with type 'transit_realtime.FeedMessage'", "interface/encoding"},
		{"Chrome run as root without its sandbox flag is a refused spawn, whatever its crash handler says", "Failed to launch the browser process!\nchrome_crashpad_handler: --database is required\nTry 'chrome_crashpad_handler --help' for more information.\n[0603/101010.123456:ERROR:zygote_host_impl_linux.cc(100)] Running as root without --no-sandbox is not supported. See https://crbug.com/638180.", "sandbox/process-spawn"},
		{"Open MPI short of slots could not start its ranks", "There are not enough slots available in the system to satisfy the 12\nslots that were requested by the application:\n\n  ./solver\n\nEither request fewer slots for your application, or make more slots\navailable for use.", "sandbox/process-spawn"},
		{"a JSON parser that names byte 0x00 refused a NUL", "ERROR[35]: parse_json_stream: byte[512]: 0x00 is not allowed by the JSON spec\nERROR[1]: ./jparse: invalid JSON", "interface/null-byte"},
		{"Jena's code point 0 is a NUL", "org.apache.jena.riot.RiotParseException: [line: 9, col: 4 ] Failed to find a prefix name or keyword: (0;0x0000)", "interface/null-byte"},
		{"a UTF-8 byte order mark read as Latin-1 is encoding", `## [1] "ï»¿id" "name"`, "interface/encoding"},
		{"a byte order mark in a hex dump is encoding", "[1] ef bb bf 7b 22 61 22", "interface/encoding"},
		{"an MCP server that no longer knows a quoted session id is the protocol's session", `Error 500 status sending message to http://127.0.0.1:9000/mcp: {"code":-32603,"message":"Session \"0B1C2D3E-4F50-6172-8394-A5B6C7D8E9F0\" not found"}`, "interface/protocol"},
		{"opkg short of room on the overlay is a full disk", "Collected errors:\n * verify_pkg_installable: Only have 96kb available on filesystem /overlay, pkg curl needs 412\n * opkg_install_cmd: Cannot install package curl.", "sandbox/storage-persistence"},
		{"a module a test file imports that pytest cannot find is the test's", "tests/test_api.py:4: in <module>\n    from app.settings import load\nE   ModuleNotFoundError: No module named 'app.settings'", "test/harness"},
		{"the same module missing outside pytest's report is a missing package", "ModuleNotFoundError: No module named 'app.settings'", "sandbox/package-path"},
		{"opkg short of blocks on the root is a full disk", "Collected errors:\nOnly have 0 available blocks on filesystem /, pkg lighttpd needs 1452", "sandbox/storage-persistence"},
		{"a harness that counts the zero bytes of a file names NUL", "check: count of 0x00 bytes in failing file = 30720", "interface/null-byte"},
		{"an MCP server that ended a quoted session is the protocol's session", `MCP error -32600: Session "7c1e" terminated`, "interface/protocol"},
		{"libmdbx's full map is the store out of room", "mdbx_put: MDBX_MAP_FULL: Environment mapsize limit reached", "sandbox/storage-persistence"},
		{"libav's errno -28 is a full disk", "[11:02:17] avio_open2 failed, errno -28", "sandbox/storage-persistence"},
		{"a script whose shebang ends in a carriage return had its bytes rewritten as text", "/usr/bin/env: 'sh\\r': No such file or directory", "interface/encoding"},
		{"bash's ^M in an interpreter's name is a CRLF rewrite, not a missing program", "-bash: ./mvnw: /bin/sh^M: bad interpreter: No such file or directory", "interface/encoding"},
		{"a kubelet's volume it could not attach is storage", "kubelet: FailedAttachVolume: AttachVolume.Attach failed for volume pvc-data: rpc error, volume is still being detached", "sandbox/storage-persistence"},
		{"a volume attached elsewhere is storage", `Multi-Attach error for volume "pvc-8c2f" Volume is already exclusively attached to one node and can't be attached to another`, "sandbox/storage-persistence"},
		{"an emulator that needs KVM on a host without it may not run, whatever is installed", "emulator: ERROR: x86_64 emulation currently requires hardware acceleration!\nCPU acceleration status: KVM is not installed on this machine (/dev/kvm is missing).", "sandbox/process-spawn"},
		{"a WebSocket that was not upgraded speaks another protocol", "WebSocketException: Connection to 'http://127.0.0.1:50489/D9voQYkoTug=/ws#' was not upgraded to websocket", "interface/protocol"},
		{"a zip without its central directory was cut when stored", "Error: End of central directory record signature not found. Either not a zip file, or file is truncated.", "sandbox/storage-persistence"},
		{"a WebM without its EBML header was cut when stored", "[matroska,webm @ 0x5581e02a7d40] EBML header parsing failed", "sandbox/storage-persistence"},
		{"a screenshot path whose extension names no image type is the caller's input", `Error: path: unsupported mime type "null"`, "interface/input-validation"},
		{"fluent-ffmpeg without ffmpeg lacks the package", "Error: Cannot find ffmpeg\n    at /srv/mcp-media/node_modules/fluent-ffmpeg/lib/processor.js:136:22", "sandbox/package-path"},
		{"MySQL refusing a 4-byte character in a 3-byte column is encoding", "SQLSTATE[HY000]: General error: 1366 Incorrect string value: '\\xF0\\x9F\\x9A\\x80' for column 'subject' at row 1", "interface/encoding"},
		{"YAML's invalid UTF-8 octet is encoding", "Error: YAML parse error on app/templates/deploy.yaml: error converting YAML to JSON: yaml: invalid leading UTF-8 octet", "interface/encoding"},
		{"ntpdate that reaches no server is blocked egress", "ntpdate[22256]: no server suitable for synchronization found", "sandbox/network-egress"},
		{"a locale that was never generated lacks the package", "locale.Error: unsupported locale setting", "sandbox/package-path"},
		{"tar's compressor that cannot be executed is missing", "tar (child): zstd: Cannot exec: No such file or directory", "sandbox/package-path"},
		{"Vulkan without a driver lacks the package", "vkCreateInstance failed with VK_ERROR_INCOMPATIBLE_DRIVER", "sandbox/package-path"},
		{"Lighthouse without Chrome lacks the package", "Runtime error encountered: Error: No Chrome installations found.", "sandbox/package-path"},
		{"a program Go may not exec is a refused spawn", "Error: Failed to instantiate provider \"aws\" to obtain schema: fork/exec /work/.terraform/plugins/linux_amd64/terraform-provider-aws_v2.47.0_x4: permission denied", "sandbox/process-spawn"},
		{"a program that may not be executed from a noexec mount is the mount's permission", "fork/exec /tmp/go-build123/b001/exe/main: permission denied (/tmp is mounted noexec)", "sandbox/filesystem-permissions"},
		{"a read-only file system wrapped across two lines is still read-only", "Failed to create //.cache for shader cache (Read-only file\nsystem)---disabling.", "sandbox/filesystem-permissions"},
		{"a test page's bare module import is the test's", "Uncaught TypeError: Failed to resolve module specifier \"three\". Relative references must start with either \"/\", \"./\", or \"../\".", "test/harness"},
		{"Terraform's variables file missing is the test's path", "Error: Failed to read variables file\n\nGiven variables file ./variables.tfvars does not exist.", "test/harness"},
		{"a browser's canvas memory limit is memory", "Total canvas memory use exceeds the maximum limit (256 MB).", "sandbox/memory"},
		{"Elasticsearch's tripped circuit breaker is its heap", "FATAL  [circuit_breaking_exception] [parent] Data too large, data for [<http_request>] would be [1017560880/970.4mb]", "sandbox/memory"},
		{"Elasticsearch's index blocked at the disk watermark is a full disk", "cluster_block_exception: index [logs] blocked by: [TOO_MANY_REQUESTS/12/disk usage exceeded flood-stage watermark, index has read-only-allow-delete block]", "sandbox/storage-persistence"},
		{"a vector of the wrong dimension is the caller's input", "chromadb.errors.InvalidDimensionException: Embedding dimension 384 does not match collection dimensionality 768", "interface/input-validation"},
		{"a prompt truncated to the context is cut by size", "level=WARN source=runner.go:131 msg=\"truncating input prompt\" limit=2048 prompt=9311 keep=5 new=2048", "interface/message-size"},
		{"a term over Lucene's byte limit is cut by size", "Document contains at least one immense term in field=\"text\" (whose UTF8 encoding is longer than the maximum length 32766), all of which were skipped.", "interface/message-size"},
		{"Node's spawn that failed before naming a program is the process limit", "Error: spawn EAGAIN\n    at exports._errnoException (util.js:745:11)", "sandbox/process-spawn"},
		{"an SSH length read from a shell banner's text is the stream, not a size", "Error: Packet length 1349281121 exceeds max length of 262144", "interface/protocol"},
		{"OpenSSH's message too long by a billion bytes is text in the stream", "Received message too long 1214606444", "interface/protocol"},
		{"an SFTP subsystem the remote host lacks is a package missing", "subsystem request failed on channel 0\nscp: Connection closed", "sandbox/package-path"},
		{"rclone's sizes that differ after a transfer are a cut", "ERROR : exports/ledger.parquet: corrupted on transfer: sizes differ 0 vs 18874368", "interface/message-size"},
		{"rclone's hashes that differ after a transfer are changed bytes", "ERROR : db.sqlite: corrupted on transfer: md5 hash differ \"3b1f\" vs \"9a2c\"", "interface/encoding"},
		{"rsync's failed verification is changed bytes", "WARNING: DB/psql/235949.dat failed verification -- update retained (will try again).", "interface/encoding"},
		{"a native-messaging host's text read as a length is the stream's framing", "Native application tried to send a message of 1836017711 bytes, which exceeds the limit of 1048576 bytes.", "interface/protocol"},
		{"an extension message over Chrome's limit is its size", "Error: Message length exceeded maximum allowed length.", "interface/message-size"},
		{"a CI job's log cut at its limit is its size", "Job's log exceeded limit of 4194304 bytes. Job execution will continue but no more output will be collected.", "interface/message-size"},
		{"a query over the server's parameter limit is its size", "The incoming request has too many parameters. The server supports a maximum of 2100 parameters.", "interface/message-size"},
		{"a dashboard refusing the page's origin is the caller's input", "ERROR:bokeh.server.views.ws:Refusing websocket connection from Origin 'http://localhost:8891'", "interface/input-validation"},
		{"Slurm's job cancelled at its time limit is cpu-time", "slurmstepd: error: *** JOB 965420 ON r2i5n4 CANCELLED AT 2019-07-10T13:57:18 DUE TO TIME LIMIT ***", "sandbox/cpu-time"},
		{"PySpark's gateway that exited before its port is Java missing", "[JAVA_GATEWAY_EXITED] Java gateway process exited before sending its port number.", "sandbox/package-path"},
		{"a runtime's exec that finds no program on the PATH lacks the package", "OCI runtime exec failed: exec failed: container_linux.go:380: starting container process caused: exec: \"bash\": executable file not found in $PATH: unknown", "sandbox/package-path"},
		{"a profile lock the browser may not create is the directory's permission", "Failed to create /srv/profiles/ext-e2e/SingletonLock: Permission denied", "sandbox/filesystem-permissions"},
		{"a lambda that cannot be pickled is the test's code", "_pickle.PicklingError: Can't pickle <function <lambda> at 0x7fb178651c10>: attribute lookup <lambda> on __main__ failed", "test/harness"},
		{"an unpacked extension without its manifest is the test's path", "Failed to load extension File /workspace/ext-under-review Error Manifest file is missing or unreadable Could not load manifest.", "test/harness"},
		{"IndexedDB's backing store that will not open is storage", "UnknownError: Internal error opening backing store for indexedDB.open.", "sandbox/storage-persistence"},
		{"a JSON file that starts with a byte-order mark is encoding", "ERROR: file isn't valid JSON: SyntaxError: Unexpected token \ufeff in JSON at position 0", "interface/encoding"},
		{"subresource integrity that fails is changed bytes", "Failed to find a valid digest in the 'integrity' attribute for resource 'https://cdn.example/app.js' with computed SHA-256 integrity 'PDEns+m'", "interface/encoding"},
		{"a pooler's prepared statement clash is the wire protocol", "Error querying the database: db error: ERROR: prepared statement \"s0\" already exists", "interface/protocol"},
		{"a keyring without a backend lacks the package", "keyring.errors.NoKeyringError: No recommended backend was available. Install a recommended 3rd party backend package", "sandbox/package-path"},
		{"Tesseract without its language data lacks the package", "pytesseract.pytesseract.TesseractError: (1, 'Error opening data file ./fra.traineddata Please make sure the TESSDATA_PREFIX environment variable is set')", "sandbox/package-path"},
		{"CMake without a package's configuration lacks the package", "CMake Error at cmake/verify-toolchain.cmake:70 (find_package):\n  Could not find a package configuration file provided by \"Zephyr-sdk\"", "sandbox/package-path"},
		{"a board id that does not exist is the test's", "UnknownBoard: Unknown board ID 'esp32-devkit-v1'", "test/harness"},
		{"an Electron app the test points to that is not there is the test's", "Unable to find Electron app at /workspace/desktop-app/dist-electron/main.js", "test/harness"},
		{"Chrome's SUID helper that is not set up is the file's permissions", "[31739:0311/091752.049986:FATAL:setuid_sandbox_host.cc(163)] The SUID sandbox helper binary was found, but is not configured correctly.", "sandbox/filesystem-permissions"},
		{"a USB device the user may not open is the file's permissions", "Error: libusb_open() failed with LIBUSB_ERROR_ACCESS", "sandbox/filesystem-permissions"},
		{"R's refusal of a multibyte string is a decoding", "Error in gsub(pattern, '', x) : invalid multibyte string at '<fc>ber'", "interface/encoding"},
		{"Rust's stream that was not UTF-8 is a decoding", "Error: Custom { kind: InvalidData, error: \"stream did not contain valid UTF-8\" }", "interface/encoding"},
		{"Hardhat told to run a script that is not there is the test's", "Error HH601: Script scripts/seed.ts doesn't exist.", "test/harness"},
		{"a conda environment file the test names that is not there is the test's", "EnvironmentFileNotFound: '/workspace/envs/ci.yml' file not found", "test/harness"},
		{"getUserMedia missing from an insecure page is the test's origin", "TypeError: Cannot read properties of undefined (reading 'getUserMedia')", "test/harness"},
		{"a pkg-config file that is not installed lacks the package", "Package opus was not found in the pkg-config search path.\nNo package 'opus' found", "sandbox/package-path"},
		{"a cargo subcommand that is not installed lacks the package", "error: no such subcommand: `nextest`", "sandbox/package-path"},
		{"a compiler without libFuzzer lacks the package", "clang: error: unsupported option '-fsanitize=fuzzer' for target 'x86_64-unknown-linux-musl'", "sandbox/package-path"},
		{"a binary for another CPU lacks the right package", "Error: spawn Unknown system error -86", "sandbox/package-path"},
		{"a browser permission the client does not know is the caller's input", "browser.newContext: Unknown permission: camera", "interface/input-validation"},
		{"a STUN server that never answers is the network's", "The server stun:stun.example.net:3478 returned an error with code=701: STUN allocate request timed out.", "sandbox/network-egress"},
		{"ethers that cannot reach its node is the network's", `Error: could not detect network (event="noNetwork", code=NETWORK_ERROR, version=providers/5.7.2)`, "sandbox/network-egress"},
		{"a data channel whose send queue is full is over its size", "OperationError: Failed to execute 'send' on 'RTCDataChannel': RTCDataChannel send queue is full", "interface/message-size"},
		{"Jupyter's output over its data rate is cut at a size", "IOPub data rate exceeded.\nThe notebook server will temporarily stop sending output", "interface/message-size"},
		{"AFL's short write to its queue is the disk's", "[-] PROGRAM ABORT : Short write to /out/default/.cur_input, fd 7 (4096 of 65536 bytes)", "sandbox/storage-persistence"},
		{"a BOM that ESLint reads as whitespace changed the bytes", "/workspace/app/index.js:1:1: Irregular whitespace not allowed", "interface/encoding"},
		{"env's CR in a program's name in double quotes and another language is a CRLF rewrite", `/usr/bin/env: "python3\r": Datei oder Verzeichnis nicht gefunden`, "interface/encoding"},
		{"a Dockerfile that copies from outside its build context is the test's", "COPY failed: file not found in build context or excluded by .dockerignore: stat conf/app.ini: file does not exist", "test/harness"},
		{"a Playwright storage state the test names that is not there is the test's", `Error: Error reading storage state from .auth/user.json ENOENT: no such file or directory, open ".auth/user.json"`, "test/harness"},
		{"a command-line flag the tool does not have is the test's", "Error: no such option: -x", "test/harness"},
		{"an answer that is not JSON at its first byte is the protocol's", "requests.exceptions.JSONDecodeError: Expecting value: line 1 column 1 (char 0)", "interface/protocol"},
		{"a ROS topic name the graph refuses is the caller's input", "rclcpp::exceptions::InvalidTopicNameError: Invalid topic name: topic name must not contain characters other than alphanumerics", "interface/input-validation"},
		{"pyperclip without a clipboard program lacks the package", "pyperclip.PyperclipException: Pyperclip could not find a copy/paste mechanism for your system.", "sandbox/package-path"},
		{"xclip without an X server lacks the package that provides one", "Error: Can't open display: :99", "sandbox/package-path"},
		{"an upload whose temporary file is gone lost it from storage", "Error: Uploaded file is no longer available on disk and has no buffer fallback", "sandbox/storage-persistence"},
		{"a target URL without its scheme is the test's", "requests.exceptions.MissingSchema: Invalid URL 'staging.example.test/login': No scheme supplied. Perhaps you meant https://staging.example.test/login?", "test/harness"},
		{"Go's request to a URL without a scheme is the test's", `Get "": unsupported protocol scheme ""`, "test/harness"},
		{"a newman reporter that is not installed lacks the package", `newman: "junitfull" reporter could not be loaded.`, "sandbox/package-path"},
		{"Netty that cannot start its event loop's threads may not spawn", "java.lang.IllegalStateException: failed to create a child event loop\n\tat io.netty.util.concurrent.MultithreadEventExecutorGroup.<init>", "sandbox/process-spawn"},
		{"a replacement character deep in a response body is a decoding", "< HTTP/1.1 200 OK\n< Content-Type: text/plain\n<\n{\n  \"city\": \"S\ufffdo Paulo\"\n}", "interface/encoding"},
		{"an escaped replacement character is a decoding", `received body "caf\\ufffd" where the stub held "café"`, "interface/encoding"},
		{"Chrome run as root that closes at launch may not start its sandbox", "pyppeteer.errors.BrowserError: Browser closed unexpectedly:\n[0101/000000.000000:ERROR:zygote_host_impl_linux.cc(90)] Running as root without --no-sandbox is not supported.", "sandbox/process-spawn"},
		{"Graphviz's dot not on the PATH lacks the package", "graphviz.backend.ExecutableNotFound: failed to execute ['dot', '-Tsvg'], make sure the Graphviz executables are on your systems' PATH", "sandbox/package-path"},
		{"Graphviz reading Latin-1 as UTF-8 is a decoding", "Warning: Invalid 2-byte UTF8 found in input of graph G - treated as Latin-1.", "interface/encoding"},
		{"an MQTT broker that refuses the client's protocol level is the protocol's", "on_disconnect: Connection Refused: unacceptable protocol version.", "interface/protocol"},
		{"protobuf's message over its decoder's limit is over its size", "[libprotobuf ERROR coded_stream.cc:207] A protocol message was rejected because it was too big (more than 67108864 bytes).", "interface/message-size"},
		{"a .proto path the test names that is not there is the test's", "Could not make proto path relative: schemas/order.proto: No such file or directory", "test/harness"},
		{"generated protobuf code older than its runtime lacks the right package", "TypeError: Descriptors cannot not be created directly.\nIf this call came from a _pb2.py file, your generated code is out of date", "sandbox/package-path"},
		{"a protoc plugin not on the PATH lacks the package", "protoc-gen-grpc-web: program not found or is not executable", "sandbox/package-path"},
		{"a log file a broker may not open for writing is the file's permissions", "1700000000: Error: Unable to open log file /mosquitto/log/mosquitto.log for writing.", "sandbox/filesystem-permissions"},
		{"libxml's invalid character in a JUnit report is a decoding", "report.xml:12: parser error : PCDATA invalid Char value 27", "interface/encoding"},
		{"PHP without its MySQL extension lacks the package", "Your PHP installation appears to be missing the MySQL extension which is required by WordPress.", "sandbox/package-path"},
		{"Cyrillic UTF-8 shown as Windows-1252 is a decoding", "post title saved as: ÐŸÑ€Ð¸Ð²ÐµÑ‚", "interface/encoding"},
		{"crates.io's upload that timed out because the crate is large is over its size", "Caused by:\n  Request timed out after 30 seconds. If you're trying to upload a crate it may be too large.", "interface/message-size"},
		{"gdb's debuginfod download that timed out could not reach its server", "Downloading separate debug info for /lib/x86_64-linux-gnu/libc.so.6...\nDownload failed: Timer expired.  Continuing without separate debug info for /lib/x86_64-linux-gnu/libc.so.6.", "sandbox/network-egress"},
		{"perf's lost chunks are events dropped on the way", "Warning: Processed 18822 events and lost 311 chunks!  Check IO/CPU overload!", "interface/message-size"},
		{"bpftrace's lost events are events dropped on the way", "Attaching 1 probe...\nLost 4595 events", "interface/message-size"},
		{"perf_event_open refused is the sandbox refusing the call", "[WARN] perf_event_open for TID 24137 failed: Permission denied", "sandbox/process-spawn"},
		{"py-spy asking for SYS_PTRACE is the sandbox refusing the call", "Permission Denied: It looks like you are running in a docker container. Please make sure you started your container with the SYS_PTRACE capability.", "sandbox/process-spawn"},
		{"bcc without kernel headers lacks the package", "modprobe: FATAL: Module kheaders not found in directory /lib/modules/5.10.76-linuxkit\nUnable to find kernel headers.", "sandbox/package-path"},
		{"a JFR recording with an event of size 0 was cut short on disk", "org.openjdk.jmc.flightrecorder.CouldNotLoadRecordingException: Found event with invalid size (0)", "sandbox/storage-persistence"},
		{"a judge's SIGXFSZ is output over its limit", "Runtime Error (SIGXFSZ) (ID: 6)", "interface/message-size"},
		{"Rails' blank fields are input the API refused", `{"source_code":["can't be blank"],"language_id":["can't be blank"]}`, "interface/input-validation"},
		{"NLTK data not downloaded lacks the package", "LookupError: \n  Resource stopwords not found.\n  Please use the NLTK Downloader to obtain the resource:", "sandbox/package-path"},
		{"a model id the Hub does not list is the test's", "OSError: vicuna-13b-v1.3 is not a local folder and is not a valid model identifier listed on 'https://huggingface.co/models'", "test/harness"},
		{"a Hub push over its file size limit is over its size", "remote: Your push was rejected because it contains files larger than 10M.", "interface/message-size"},
		{"an expired OAuth grant ends the session", "google.auth.exceptions.RefreshError: ('invalid_grant: Bad Request', {'error': 'invalid_grant'})", "sandbox/session-lifecycle"},
		{"Drive's storage quota is the storage's", `pydrive2.files.ApiRequestError: <HttpError 403 returned "The user has exceeded their Drive storage quota">`, "sandbox/storage-persistence"},
		{"a batch over an API's item limit is over its size", `{"type": "INVALID_RECORDS", "message": "A maximum of 10 records can be created per request but you have provided 25."}`, "interface/message-size"},
		{"a PDF without its EOF marker was cut short", "PyPDF2.utils.PdfReadError: EOF marker not found", "interface/message-size"},
		{"a glyph missing from the font lacks the package", "[WARNING] Missing character: There is no 中 (U+4E2D) (U+4E2D) in font [lmroman10-regular]:mapping=tex", "sandbox/package-path"},
		{"TeX that may not write its log is the file's permissions", "! I can't write on file `report.log'.", "sandbox/filesystem-permissions"},
		{"fontconfig without a writable cache is the file's permissions", "Fontconfig error: No writable cache directories", "sandbox/filesystem-permissions"},
		{"a compile over its time limit ran out of time", "Your project exceeded the compile timeout limit on our free plan.", "sandbox/cpu-time"},
		{"tmux's command too long is over its size", "command too long", "interface/message-size"},
		{"no pty devices left is the sandbox refusing a process", "  File \"/usr/lib/python2.7/pty.py\", line 29, in openpty\n    master_fd, slave_name = _open_terminal()\nOSError: out of pty devices", "sandbox/process-spawn"},
		{"a missing file alone is still the storage's", "FileNotFoundError: [Errno 2] No such file or directory: '/home/user/out/report.csv'", "sandbox/storage-persistence"},
		{"an ngrok tunnel that is gone ended with its session", "Tunnel 3835-94-213-232-61.ngrok.io not found (ERR_NGROK_3200)", "sandbox/session-lifecycle"},
		{"a module without the attribute the code calls is the wrong version of the package", "AttributeError at /shop/checkout/ module 'stripe' has no attribute 'CardError'", "sandbox/package-path"},
		{"a browser that refuses to start as root may not start its sandbox", "Failed to connect to browser\n---------------------\nOne of the causes could be when you are running as root.\nIn that case you need to pass no_sandbox=True", "sandbox/process-spawn"},
		{"Cloudflare's firewall block is the egress refused", "CloudflareError 1020, Access denied (Custom Firewall Rules)", "sandbox/network-egress"},
		{"a captcha over the solver's size limit is over its size", "RuntimeError: 2Captcha Error: ERROR_TOO_BIG_CAPTCHA_FILESIZE.", "interface/message-size"},
		{"a puppeteer-extra plugin's missing dependency lacks the package", "A plugin listed 'puppeteer-extra-plugin-stealth/evasions/chrome.app' as dependency, which is currently missing. Please install it:", "sandbox/package-path"},
		{"DVC's cache entry not found is storage that lost it", "WARNING: Cache 'd3b07384d113edec49eaa6238ad5ff00' not found. File 'foo' won't be created.", "sandbox/storage-persistence"},
		{"a Git LFS clone without git-lfs lacks the package", "You seem to have cloned a repository without having git-lfs installed. Please install git-lfs and run `git lfs install`", "sandbox/package-path"},
		{"a tag over its length limit is over its size", "400 Bad Request: invalid tag 'dataset:abc'. must be between 1 and 64 characters", "interface/message-size"},
		{"a gRPC client on an HTTP/1 port speaks the wrong protocol", "[ExceptionsHandler] 14 UNAVAILABLE: Trying to connect an http1.x server +37ms", "interface/protocol"},
		{"an ONNX runtime older than the model's IR lacks the right package", "Unsupported model IR version: 9, max supported IR version: 8", "sandbox/package-path"},
		{"pg_restore given a plain SQL dump is the test's", "pg_restore: error: input file appears to be a text format dump. Please use psql.", "test/harness"},
		{"mysqldump without its authentication plugin lacks the package", "mysqldump: Got error: 2059: Authentication plugin 'caching_sha2_password' cannot be loaded: The specified module could not be found.", "sandbox/package-path"},
		{"pg_dump older than its server lacks the right package", "pg_dump: server version: 11.1; pg_dump version: 10.5\npg_dump: aborting because of server version mismatch", "sandbox/package-path"},
		{"restic's repository locked by a process that is gone is a session's leftover", "Fatal: unable to create lock in backend: repository is already locked exclusively by PID 13", "sandbox/session-lifecycle"},
		{"borg's unexpected RPC data is the protocol's", "Got unexpected RPC data format from server:", "interface/protocol"},
		{"GitHub's bad credentials mid-run are a token that expired with its session", "RequestError [HttpError]: Bad credentials", "sandbox/session-lifecycle"},
		{"Ruby's byte that US-ASCII cannot hold is a decoding", `MCP error -32600: Internal error: "\xE2" on US-ASCII`, "interface/encoding"},
		{"Rust's Utf8Error is a decoding", "called `Result::unwrap()` on an `Err` value: Utf8Error { valid_up_to: 41584, error_len: Some(1) }", "interface/encoding"},
		{"a GraphQL variable not provided is input the API refused", `Variable "$id" of required type "ID!" was not provided.`, "interface/input-validation"},
		{"GHC's runtime that cannot commit memory ran out of it", "graphql-engine: internal error: Unable to commit 1048576 bytes of memory", "sandbox/memory"},
		{"a JSON parser's 0x00 token is a NUL byte", "JSON parser error on line 3:  invalid token: 0x00 = <>", "interface/null-byte"},
		{"GHC that cannot create an OS thread hit the thread limit", "ghc-head: failed to create OS thread: Cannot allocate memory", "sandbox/process-spawn"},
		{"a language server's missing Content-Length is framing broken", "Client ElixirLS: connection to server is erroring. Header must provide a Content-Length property.", "interface/protocol"},
		{"Java's unmappable character is a decoding", "java.nio.charset.UnmappableCharacterException: Input length = 1", "interface/encoding"},
		{"an SSH banner that never came is the egress refused", "Exception (client): Error reading SSH protocol banner", "sandbox/network-egress"},
		{"a target without Python lacks the package", `"module_stdout": "/bin/sh: /usr/bin/python: No such file or directory\r\n"`, "sandbox/package-path"},
		{"no Secret Service provider lacks the package", "Error: The name org.freedesktop.secrets was not provided by any .service files", "sandbox/package-path"},
		{"a websocket closed before it opened is the protocol's", "Websocket Connection to 'wss://awx.example/websocket' failed: WebSocket is closed before the connection is established.", "interface/protocol"},
		{"a kubeconfig exec plugin of another API version is the protocol's", `error: exec plugin: invalid apiVersion "client.authentication.k8s.io/v1alpha1"`, "interface/protocol"},
		{"Windows' credential store refusing a large blob is over its size", "fatal: Failed to write item to store. [0x6f7]\nfatal: The stub received bad data", "interface/message-size"},
		{"UTF-16 printed with its NULs is a NUL byte", `password: 't\x00e\x00s\x00t\x00'`, "interface/null-byte"},
		{"n8n's file guard refusing a path is input refused", "Problem in node 'Read/Write Files from Disk': Access to the file is not allowed. Allowed paths: /home/node", "interface/input-validation"},
		{"n8n's task that no runner took ended with its runner's session", "Task request timed out after 60 seconds. Your Code node task was not matched to a runner within the timeout period.", "sandbox/session-lifecycle"},
		{"ping's sendto refused is egress blocked", "ping: sendmsg: Operation not permitted", "sandbox/network-egress"},
		{"ping that may not open its raw socket is the sandbox refusing it", "ping: icmp open socket: Operation not permitted", "sandbox/process-spawn"},
		{"a CDP target the browser no longer knows is the protocol's", "Error: Protocol error (Target.attachToTarget): No target with given id found", "interface/protocol"},
		{"postMessage's data that cannot be cloned is over its size", "DataCloneError: Failed to execute 'postMessage' on 'Worker': Data cannot be cloned, out of memory.", "interface/message-size"},
		{"Playwright without Chrome lacks the package", "Error: Could not find Google Chrome executable for channel 'stable' at:\n - /opt/google/chrome/chrome", "sandbox/package-path"},
		{"a command Windows does not know lacks the package", "'functions-framework' is not recognized as an internal or external command, operable program or batch file.", "sandbox/package-path"},
		{"a JDK missing from the image lacks the package", "ERROR: JAVA_HOME is not set and no 'java' command could be found in your PATH.", "sandbox/package-path"},
		{"a test reading a cross-origin frame's DOM is the test's", "Uncaught SecurityError: Failed to read the 'contentDocument' property from 'HTMLIFrameElement'", "test/harness"},
		{"an API Gateway answer without its envelope is the protocol's", "Function returned an invalid response (must include one of: body, headers or statusCode in the response object)", "interface/protocol"},
		{"an S3 upload whose hash the SDK cannot verify is a decoding", "com.amazonaws.SdkClientException: Unable to verify integrity of data upload. Client calculated content hash didn't match", "interface/encoding"},
		{"Gradle's cache without the version listing lost it", "> No cached version listing for com.google.gms:google-services:4.3.+ available for offline mode.", "sandbox/storage-persistence"},
		{"localStorage over its quota is the storage's", "Failed to execute 'setItem' on 'Storage': Setting the value of 'k' exceeded the quota.", "sandbox/storage-persistence"},
		{"Mesa without its software driver lacks a package", "libGL error: failed to load driver: swrast", "sandbox/package-path"},
		{"a PostgreSQL extension whose library is missing lacks a package", `ERROR:  could not access file "$libdir/timescaledb-2.19.2": No such file or directory`, "sandbox/package-path"},
		{"a torn write-ahead log is the storage's", `msg="last page of the wal is torn, filling it with zeros" segment=/prometheus/wal/00000017`, "sandbox/storage-persistence"},
		{"a chain's CSV cut short is the storage's", "ValueError: line 412: bad draw, expecting 2400017 items, found 1048211", "sandbox/storage-persistence"},
		{"a Kerberos cache others may read is the filesystem's permissions", "klist: Credentials cache permissions incorrect (filename: /dev/shm/ccache)", "sandbox/filesystem-permissions"},
		{"nginx refusing a header too big is a size limit", "upstream sent too big header while reading response header from upstream", "interface/message-size"},
		{"a screenshot of zero width is a parameter accepted unchecked", "Protocol error (Page.captureScreenshot): Cannot take screenshot with 0 width.", "interface/input-validation"},
		{"TLS spoken to a plain-text gRPC server is the protocol's", `connection error: desc = "transport: http2Server.HandleStreams received bogus greeting from client: \"\\x16\\x03\\x01\"`, "interface/protocol"},
		{"a NUL in caret notation after a word is a NUL", "interpolator_mod: Model and file calendars ( julian^@ ) differ for file aerosol.nc", "interface/null-byte"},
		{"a NUL in caret notation closing a path in braces is a NUL", "nightly.tar{etc/app/settings.yaml^@}:a match...", "interface/null-byte"},
		{"a NUL in caret notation after a quote is a NUL", "rdflib.plugins.parsers.notation3.BadSyntax: at line 1 of <>:\nBad syntax (expected directive or statement) at ^ in:\n\"^@", "interface/null-byte"},
		{"git's diffstat of a script as binary is a NUL in it", " tools/report/collect.py | Bin 2210 -> 2388 bytes\n 1 file changed, 0 insertions(+), 0 deletions(-)", "interface/null-byte"},
		{"Xlib's connection to a display that went away is the session's, not a process limit", "XIO:  fatal IO error 11 (Resource temporarily unavailable) on X server \":99\"\n      after 908 requests (908 known processed) with 0 events remaining.", "sandbox/session-lifecycle"},
		{"gdb's register packet too long for its stub is a protocol's version skew", "Remote 'g' packet reply is too long (expected 308 bytes, got 344 bytes): 0000000000000000", "interface/protocol"},
		{"NightConfig's file without enough data is a config file of NULs", "Caused by: com.electronwill.nightconfig.core.io.ParsingException: Not enough data available", "interface/null-byte"},
		{"Gradio refusing a file outside its allowed folders is a path refused", "gradio.exceptions.InvalidPathError: Cannot move /mnt/data/out/chart.png to the gradio cache dir because it was not created by the application or it is not located in either the current working directory or your system's temp directory.", "interface/input-validation"},
		{"git refusing a checkout another user owns is the folder's permissions", "fatal: detected dubious ownership in repository at '/workspace/app'", "sandbox/filesystem-permissions"},
		{"asyncio's stream that ended before its frame is the protocol's, not a size limit", "    raise exceptions.IncompleteReadError(incomplete, n)\nasyncio.exceptions.IncompleteReadError: 117 bytes read on a total of 512 expected bytes", "interface/protocol"},
		{"Python's HTTP client refusing a URL's control characters is input refused", "httplib.InvalidURL: URL can't contain control characters. '/files/r\\xc3\\xa9sum\\xc3\\xa9.pdf' (found at least '\\xc3')", "interface/input-validation"},
		{"Node refusing a request path's unescaped characters is input refused", "TypeError [ERR_UNESCAPED_CHARACTERS]: Request path contains unescaped characters\n    at new ClientRequest (_http_client.js:155:13)", "interface/input-validation"},
		{"Hugging Face's hub client that reached neither the hub nor its cache is egress, not a disk", "huggingface_hub.errors.LocalEntryNotFoundError: An error happened while trying to locate the file on the Hub and we cannot find the appropriate snapshot folder for the specified revision on the local disk. Please check your internet connection and try again.", "sandbox/network-egress"},
		{"BuildKit's step that could not allocate memory is memory, not a message over its limit", `ERROR: failed to build: failed to solve: ResourceExhausted: process "/bin/sh -c make -j2" did not complete successfully: cannot allocate memory`, "sandbox/memory"},
		{"Page.printToPDF in a headed browser is a method the browser does not serve", "ProtocolError: Protocol error (Page.printToPDF): Printing is not available\n    at /work/node_modules/puppeteer-core/lib/cjs/puppeteer/common/Connection.js:268:24", "interface/protocol"},
		{"ChromeDriver's Chrome that crashed as it started never spawned, whatever is said of /dev/shm", "unknown error: Chrome failed to start: crashed\n  (Driver info: chromedriver=2.25.426924,platform=Linux 4.4.27-moby x86_64)\nnote: /dev/shm is 64M", "sandbox/process-spawn"},
		{"ChromeDriver that does not support its Chrome lacks the right package, though Chrome failed to start", "session not created: Chrome failed to start: crashed.\n  (session not created: This version of ChromeDriver only supports Chrome version 114\nCurrent browser version is 120.0.6099.109 with binary path /usr/bin/chromium)", "sandbox/package-path"},
		{"Python's HTTP client refusing a NUL in a URL is a NUL", "URL can't contain control characters. '/a\\x00b' (found at least '\\x00')", "interface/null-byte"},
		{"an Android device too full for the package is a full disk", "adb: failed to install app-debug.apk: Failure [INSTALL_FAILED_INSUFFICIENT_STORAGE]", "sandbox/storage-persistence"},
		{"apt without room for its archives is a full disk", "E: You don't have enough free space in /var/cache/apt/archives/.", "sandbox/storage-persistence"},
		{"Postfix's queue without free space is a full disk, though it names its message size limit", "postfix/smtpd[782]: warning: not enough free space in mail queue: 9679581184 bytes < 1.5*message size limit", "sandbox/storage-persistence"},
		{"a zip member that fails its CRC was changed on the way", "zipfile.BadZipFile: Bad CRC-32 for file 'pkg/_core.cpython-311-x86_64-linux-gnu.so'", "interface/encoding"},
		{"Keycloak's token that is no longer active is the session's", "Error connecting to streamableHttp server, falling back to SSE: Token is not active", "sandbox/session-lifecycle"},
		{"Chrome's crash handler without its database is a folder it could not write, not the reset after it", "Error: Failed to launch the browser process!\nchrome_crashpad_handler: --database is required\nTry 'chrome_crashpad_handler --help' for more information.\n[0101/000000.000:ERROR:socket.cc(120)] recvmsg: Connection reset by peer (104)", "sandbox/filesystem-permissions"},
		{"Flask-WTF's session that lost its CSRF token is the session's", "Bad Request\nThe CSRF session token is missing.", "sandbox/session-lifecycle"},
		{"WP-CLI run outside WordPress's folder is the test's", "Error: This does not seem to be a WordPress install.\nPass --path=`path/to/wordpress` or run `wp core download`.", "test/harness"},
		{"TeX's NUL in its own caret notation is a NUL", "! Text line contains an invalid character.\nl.12 ^^@", "interface/null-byte"},
		{"git's diffstat of a renamed script as binary is a NUL in it", " src/{parse.py => parser.py} | Bin 2210 -> 2388 bytes", "interface/null-byte"},
		{"a metric registered twice is the test's", "ValueError: Duplicated timeseries in CollectorRegistry: {'predict_created', 'predict_total'}", "test/harness"},
		{"a fixture's TOTP secret that is not base32 is the test's", "binascii.Error: Non-base32 digit found", "test/harness"},
		{"a WebAssembly module cut short is a size limit", `WebAssembly.instantiate(): section (code 10, "Code") extends past end of the module (length 2112025, remaining bytes 113423) @+17941`, "interface/message-size"},
		{"a WASI directory not granted is the filesystem's permissions", `thread 'main' panicked at 'write failed: Os { code: 76, kind: Other, message: "Capabilities insufficient" }'`, "sandbox/filesystem-permissions"},
		{"a compiler terminated at the limit ran out of time", "gfortran: fatal error: Terminated signal terminated program f951", "sandbox/cpu-time"},
		{"libsndfile missing lacks a package", "OSError: sndfile library not found", "sandbox/package-path"},
		{"a NUL in an XML file is a NUL", "Failed to parse the configuration file at config.xml '.', hexadecimal value 0x00 is an invalid character. Line 1, position 1.", "interface/null-byte"},
		{"RabbitMQ reaping a consumer that did not acknowledge is the session's", "PRECONDITION_FAILED - delivery acknowledgement on channel 1 timed out. Timeout value used: 1800000 ms.", "sandbox/session-lifecycle"},
		{"Redis that cannot save its snapshot is the storage's", "MISCONF Redis is configured to save RDB snapshots, but it is currently not able to persist on disk.", "sandbox/storage-persistence"},
		{"ffmpeg refusing an unsafe file name is validation", "[concat @ 0x555db56da2c0] Unsafe file name 'Stepping Back 1-2.wav' filelist.txt: Operation not permitted", "interface/input-validation"},
		{"a Perl module not in @INC lacks a package", "Can't locate JSON.pm in @INC (you may need to install the JSON module) (@INC contains: /etc/perl /usr/local/share/perl/5.22.1)", "sandbox/package-path"},
		{"Tk without a display lacks a package", `_tkinter.TclError: couldn't connect to display ":0.0"`, "sandbox/package-path"},
		{"an interpreter a shebang names that is not there lacks a package", "zsh: ./bin/dope: bad interpreter: /usr/local/bin/lua: no such file or directory", "sandbox/package-path"},
		{"an interpreter a shebang names that is not there lacks a package, in bash's words too", "bash: ./convert.lua: /usr/bin/lua: bad interpreter: No such file or directory", "sandbox/package-path"},
		{"a converter not found on the host lacks a package", `OSError: No command "dcm2niix" found on host 7c1e9a2b4f0d. Please check that the corresponding package is installed.`, "sandbox/package-path"},
		{"a NUL in a JUnit report is a NUL", "TEST-junit-jupiter.xml:57: parser error : Char 0x0 out of allowed range", "interface/null-byte"},
		{"a Perl script the test names that is not there is the test's", `Can't open perl script "/work/repo/t/lib/run-fixture.pl": No such file or directory`, "test/harness"},
		{"a flag passed as a file name is the test's", "General Error: Cannot open file --run-as=root (CWD: /tmp/tmpezsrx7yc) : [Errno 2] No such file or directory: '--run-as=root'", "test/harness"},
		{"a language server's header lost in stdout is the protocol's", "rpc.lua:33: Content-Length not found in header: <environment: namespace:lang>", "interface/protocol"},
		{"gdb's register packet of the wrong size is the protocol's", "Remote 'g' packet reply is too long (expected 308 bytes, got 344 bytes): 3100000000", "interface/protocol"},
		{"Chrome's zygote refusing its threads is process spawning", "[0312/021455.118201:FATAL:zygote_main_linux.cc(161)] Check failed: sandbox::ThreadHelpers::IsSingleThreaded().", "sandbox/process-spawn"},
		{"Chrome's sad tab above its error code is memory", "Aw, Snap!\nSomething went wrong while displaying this web page.\nError code: RESULT_CODE_INVALID_CMDLINE_URL", "sandbox/memory"},
		{"PHP writing nothing for want of disk is the storage's", "Warning: file_put_contents(): Only 0 of 34063 bytes written, possibly out of free disk space in /var/www/cache.php on line 12", "sandbox/storage-persistence"},
		{"PHP's memory limit is memory", "PHP Fatal error:  Allowed memory size of 134217728 bytes exhausted (tried to allocate 20480 bytes)", "sandbox/memory"},
		{"Magento that cannot create its directory is the filesystem's permissions", "main.CRITICAL: Can't create directory /var/www/magento2/generated/code/Magento/Framework/.", "sandbox/filesystem-permissions"},
		{"PHP's refusal of a path with a NUL is a NUL", "Warning: is_readable() expects parameter 1 to be a valid path, string given", "interface/null-byte"},
		{"a PHP extension missing lacks a package", "requires ext-intl * -> the requested PHP extension intl is missing from your system.", "sandbox/package-path"},
		{"proc_open disabled is process spawning", `The Process class relies on proc_open, which is not available on your PHP installation.`, "sandbox/process-spawn"},
		{"curl that received nothing before its timeout is egress", "curl error 28 while downloading https://repo.magento.com/packages.json: Operation timed out after 10004 milliseconds with 0 bytes received", "sandbox/network-egress"},
		{"an MCP line with no newline is a size limit", "ValueError: MCP server message exceeds 65536 bytes with no newline delimiter", "interface/message-size"},
		{"an MCP session the server no longer knows is the protocol's", `Streamable HTTP error: Error POSTing to endpoint: {"type":"error","error":{"type":"not_found_error","message":"MCP session has been terminated or no longer exists on the server."}}`, "interface/protocol"},
		{"DevTools refusing a Host header is the protocol's", "Host header is specified and is not an IP address or localhost.", "interface/protocol"},
		{"a Tailscale node logged out is the session's", "# Health check: #     - You are logged out. The last login error was: invalid key: API key does not exist", "sandbox/session-lifecycle"},
		{"a script blocked by CORS is egress", "Access to script at 'https://unpkg.com/@google/model-viewer/dist/model-viewer.js' from origin 'http://127.0.0.1:8080' has been blocked by CORS policy", "sandbox/network-egress"},
		{"a packet whose VarInt does not parse is the protocol's", "java.lang.RuntimeException: Invalid VarInt found! Packet structure may have changed.", "interface/protocol"},
		{"a path built from a variable never set is the test's", "Error: ENOENT: no such file or directory, open 'null/configuration.yaml'", "test/harness"},
		{"a terminal that cannot fork its pty is process spawning", "The terminal process failed to launch: A native exception occurred during launch (forkpty(3) failed.).", "sandbox/process-spawn"},
		{"PostgreSQL that cannot extend a file has a full disk", `[fatal] bulk insert into "osm_building_polygon": SQL Error: pq: could not extend file "base/16384/49834.8": wrote only 4096 of 8192 bytes at block 1174869`, "sandbox/storage-persistence"},
		{"a socket that timed out connecting is egress", "  File \"/venv/lib/python3.6/site-packages/urllib3/util/connection.py\", line 70, in create_connection\n    sock.connect(sa)\nsocket.timeout: timed out", "sandbox/network-egress"},
		{"Haskell's http-client failing to connect is egress", `pandoc: FailedConnectionException2 "upload.wikimedia.org" 443 True <socket: 3>: hPutBuf: resource vanished (Broken pipe)`, "sandbox/network-egress"},
		{"an expired token is the session's", `Content: b'{"ResponseStatus":{"ErrorCode":"ExpiredToken","Message":"Expired token"}}'`, "sandbox/session-lifecycle"},
		{"pandoc given a file that does not exist is the test's", "pandoc: —pdf-engine=xelatex: openBinaryFile: does not exist (No such file or directory)", "test/harness"},
		{"a command killed at its timeout ran out of time", "execute timeout: 10 min. signal: killed", "sandbox/cpu-time"},
		{"Python 2's subprocess that cannot find its program lacks a package", "  File \"/usr/lib/python2.7/subprocess.py\", line 1327, in _execute_child\n    raise child_exception\nOSError: [Errno 2] No such file or directory", "sandbox/package-path"},
		{"a server that does not know a command it is sent is the protocol's", "Unknown command add_zone", "interface/protocol"},
		{"a byte PostgreSQL cannot decode that is not a NUL is its encoding", "Adding ways to database...\nERROR:  invalid byte sequence for encoding \"UTF8\": 0xd1\nCONTEXT:  COPY pgroute_ways, line 876", "interface/encoding"},
		{"an X server that cannot make its socket directory lacks permission", "_XSERVTransmkdir: ERROR: euid != 0,directory /tmp/.X11-unix will not be created.", "sandbox/filesystem-permissions"},
		{"a file time that may not be set is the file's permission", "WARNING[1500] pbx_spool.c: Unable to set utime on /var/spool/asterisk/outgoing/200.73419: Operation not permitted", "sandbox/filesystem-permissions"},
		{"an image SikuliX cannot find on screen is the test's", "FindFailed: sortie_top_combat.png: (68x22) seen at (830, 154) with 1,00 in S(0)[0,0 1366x768] E:Y, T:3,0", "test/harness"},
		{"a job past its maximum wait time ran out of time", "The JCL submitted with job id JOB03777 but appears to be a long running job that exceeded its maximum wait time of 10 second(s).", "sandbox/cpu-time"},
		{"a record truncated on write is cut at a size", "cp: FSUM6260 write error on file \"//'SBX.COBOL.SOURCE(PAYROLL)'\": EDC5003I Truncation of a record occurred during an I/O operation.", "interface/message-size"},
		{"a real-time priority that is refused is process spawning", "HHC90020W 'hthread_setschedparam()' failed at loc=impl.c:985: rc=22: Invalid argument", "sandbox/process-spawn"},
		{"a socket that timed out in Node's request is egress", `"error":{"code":"ESOCKETTIMEDOUT","connect":false}`, "sandbox/network-egress"},
		{"a Docker daemon whose socket is gone is the session's", "FATA[0000] Post http:///var/run/docker.sock/v1.16/images/create?fromImage=spack%2Fubuntu-jammy%3Alatest: dial unix /var/run/docker.sock: no such file or directory", "sandbox/session-lifecycle"},
		{"curl built without TLS lacks a package", "==> Fetching https://sourceware.org/pub/bzip2/bzip2-1.0.8.tar.gz\ncurl: (1) Protocol https not supported or disabled in libcurl", "sandbox/package-path"},
		{"no FUSE device in the sandbox refuses the mount", "fuse: device not found, try 'modprobe fuse' first\nCannot mount AppImage, please check your FUSE setup.", "sandbox/process-spawn"},
		{"no FUSE module for the kernel refuses the mount", "modprobe: FATAL: Module fuse not found in directory /lib/modules/6.1.102-sbx", "sandbox/process-spawn"},
		{"Open MPI's cross-memory reads refused are process spawning", "[7d21c9e0aa14:00213] Read -1, expected 98304, errno = 1", "sandbox/process-spawn"},
		{"an image that Pillow finds cut short was cut at a size", "OSError: image file is truncated (37 bytes not processed)", "interface/message-size"},
		{"an RQ work-horse killed by signal 9 ran out of memory", "Moving job to FailedJobRegistry (work-horse terminated unexpectedly; waitpid returned 9)", "sandbox/memory"},
		{"nginx's upstream that timed out reading its answer ran out of time", "2024/05/02 13:22:03 [error] 21#21: *173314 upstream timed out (110: Connection timed out) while reading response header from upstream, client: 10.0.3.17", "sandbox/cpu-time"},
		{"a USB device the tool may not open is a permission", "usb_open error -3\nPlease fix the device permissions, e.g. by installing the udev rules file rtl-sdr.rules", "sandbox/filesystem-permissions"},
		{"a language server libuv could not spawn is missing", "Error performing documentSymbol: ENOENT: no such file or directory, uv_spawn 'typescript-language-server'", "sandbox/package-path"},
		{"a client whose version differs from the server's speaks another protocol", "Client version 1.5.0dev2 differs with server version 1.5.0dev1", "interface/protocol"},
		{"an MCP server connected twice to a transport is the protocol's", "Already connected to a transport. Call close() before connecting to a new transport, or use a separate Protocol instance per connection.", "interface/protocol"},
		{"SQLite's disk I/O error is the storage's", "[error] --- SQL error updateCachedValues: disk I/O error", "sandbox/storage-persistence"},
		{"GHC's stack that overflowed ran out of memory", "pandoc: Stack space overflow: current size 33624 bytes.\npandoc: Use `+RTS -Ksize -RTS' to increase it.", "sandbox/memory"},
		{"a SPARQL query that uses a prefix it never declared is the test's", "org.openrdf.query.parser.sparql.ast.VisitorException: QName 'nonsensical:1' uses an undefined prefix", "test/harness"},
		{"a flake the task names that lacks the attribute asked for is the test's", "error: flake 'git+file:///home/cenk/nixos-orangepi-5x' does not provide attribute 'packages.x86_64-linux.default' or 'defaultPackage.x86_64-linux'", "test/harness"},
		{"a PHP extension Composer finds missing is a missing package", "Root composer.json requires PHP extension ext-intl * but it is missing from your system", "sandbox/package-path"},
		{"a PHP class not found is a missing package", "Error from line 93 of /srv/mediawiki/w/extensions/Bootstrap/Bootstrap.php: Class 'Bootstrap\\Hooks\\SetupAfterCache' not found", "sandbox/package-path"},
		{"Composer's autoloader that is not there is a missing package", "Warning: require_once(/var/www/extensions/AWS/s3/../vendor/autoload.php): failed to open stream: No such file in /var/www/extensions/AWS/s3/AmazonS3FileBackend.php on line 25", "sandbox/package-path"},
		{"nixpkgs missing from the Nix search path is a missing package", "error: file 'nixpkgs' was not found in the Nix search path (add it using $NIX_PATH or -I)", "sandbox/package-path"},
		{"an ImageMagick delegate that failed to run is a missing program", "convert-im6.q16: delegate failed `'potrace' --svg --output '%o' '%i'' @ error/delegate.c/InvokeDelegate/1966.", "sandbox/package-path"},
		{"names whose letters became question marks lost their encoding", "Processing ????????????_???????_NAS_(Openfiler)...", "interface/encoding"},
		{"protobuf's invalid wire type is a message whose bytes changed", `throw Error("invalid wire type " + wireType + " at offset " + this.pos);`, "interface/encoding"},
		{"a CSRF token the wiki no longer takes is the session's", "wikibaseintegrator.wbi_core.MWApiError: {'error': {'code': 'badtoken', 'info': 'Invalid CSRF token.'}}", "sandbox/session-lifecycle"},
		{"a Nix daemon socket that refuses is a daemon gone with its session", "error: cannot connect to socket at '/nix/var/nix/daemon-socket/socket': Connection refused", "sandbox/session-lifecycle"},
		{"k6's browser process killed is its session ended", "process with PID 282373 unexpectedly ended: signal: killed", "sandbox/session-lifecycle"},
		{"a web server without permission to write its upload directory is a permission", `Could not open lock file for "mwstore://local-backend/local-public/3/3f/Diagram.png". Make sure your upload directory is configured correctly and your web server has permission to write to that directory.`, "sandbox/filesystem-permissions"},
		{"Go's signal: killed ran out of memory", "failed to generate SBOM: syft command failed: signal: killed", "sandbox/memory"},
		{"a Java thread pthread_create could not start is a process limit", "java.lang.OutOfMemoryError: pthread_create (stack size 16384 bytes) failed: Try again", "sandbox/process-spawn"},
		{"YAML's control characters in a config are NUL bytes", `decode kubeconfig from "/home/sandbox/.kube/config": decode data: : yaml: control characters are not allowed`, "interface/null-byte"},
		{"PyYAML's unacceptable #x0000 is a NUL byte", `yaml.reader.ReaderError: unacceptable character #x0000: special characters are not allowed`, "interface/null-byte"},
		{"ruamel's unacceptable control character other than NUL is bytes read in another encoding", `ruamel.yaml.reader.ReaderError: unacceptable character #x009f: control characters are not allowed in "<unicode string>", position 61`, "interface/encoding"},
		{"SnakeYAML's unacceptable code point other than NUL is bytes read in another encoding", `Caused by: unacceptable code point '' (0x81) special characters are not allowed in "'string'", position 37`, "interface/encoding"},
		{"SnakeYAML's unacceptable code point in capitals other than NUL is bytes read in another encoding", `Caused by: unacceptable code point '' (0xFFFD) special characters are not allowed in "'string'", position 37`, "interface/encoding"},
		{"SnakeYAML's unacceptable code point 0 is a NUL byte", `Caused by: unacceptable code point '' (0x0) special characters are not allowed in "'string'", position 37`, "interface/null-byte"},
		{"an image reference in an invalid format is input not validated", `couldn't parse image reference "<s1-helper-image>:<s1-helper-tag>": invalid reference format`, "interface/input-validation"},
		{"a name that does not match its schema's pattern is input not validated", "tools.56.FrontendRemoteMcpToolDefinition.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'", "interface/input-validation"},
		{"an SVG whose root tag never closes was cut short", "Error in plugin 'gulp-svgmin' Unclosed root tag", "interface/message-size"},
		{"a PNG without enough image data was cut short", "vipspng: IDAT: invalid stored block lengths\nvipspng: Not enough image data", "interface/message-size"},
		{"Node's argument that must be a string without null bytes holds a NUL", "ERR_INVALID_ARG_VALUE: The argument args[1] must be a string without null bytes.", "interface/null-byte"},
		{"an XML character 0x0 is a NUL byte", "org.apache.xmlbeans.impl.piccolo.io.IllegalCharException: Illegal XML character: 0x0", "interface/null-byte"},
		{"a TSIG key whose base64 was altered is bytes changed", "named[88412]: /etc/bind/keys/xfr-secondary.key:4: bad secret 'bad base64 encoding'", "interface/encoding"},
		{"a DNS message overflowing its header size is a size cap", "plugin/errors: 2 login.microsoftonline.com. A: dns: overflowing header size", "interface/message-size"},
		{"Matrix's M_TOO_LARGE is a size cap", `{"errcode":"M_TOO_LARGE","error":"Requested file is too large > 41943040 bytes"}`, "interface/message-size"},
		{"a crawl stopped at its size threshold was cut at a cap", `{"logLevel":"info","context":"general","message":"Size threshold reached 4302013563 >= 4294967296, stopping"}`, "interface/message-size"},
		{"a crawl stopped as its disk fills is the storage's", `{"logLevel":"info","context":"general","message":"Disk utilization projected to reach threshold 90% > 90%, stopping"}`, "sandbox/storage-persistence"},
		{"Elasticsearch that could not find java is a missing package", "elasticsearch[26057]: could not find java; set JAVA_HOME or ensure java is in PATH", "sandbox/package-path"},
		{"a class moved to another package is a package to install", "`BaseSettings` has been moved to the `pydantic-settings` package. See https://docs.pydantic.dev/2.7/migration/ for more details.", "sandbox/package-path"},
		{"a URL with its scheme twice is the test's", "ERROR - ES Url http://http://elasticsearch-master:9200", "test/harness"},
		{"a Kafka Connect connector class not found is a plugin missing", "org.apache.kafka.connect.errors.ConnectException: Failed to find any class that implements Connector and which name matches io.confluent.connect.jdbc.JdbcSinkConnector", "sandbox/package-path"},
		{"a Pulsar connector that failed to load is a plugin missing", "WARN  org.apache.pulsar.functions.utils.io.ConnectorUtils - Failed to load connector from /pulsar/./connectors/pulsar-io-debezium-postgres-2.10.nar", "sandbox/package-path"},
		{"etcd's database space exceeded is the storage's quota", "etcdserver: mvcc: database space exceeded", "sandbox/storage-persistence"},
		{"a renderer without an X or EGL display lacks one", "terminate called after throwing an instance of 'std::runtime_error'\n  what():  Failed to obtain a valid EGL display.\nAborted", "sandbox/package-path"},
		{"Leaflet's map container not found is the test's page", "Uncaught Error: Map container not found.\n    at e._initContainer (Map.js:1092:10)", "test/harness"},
		{"a private key that no longer parses as PEM had its bytes changed", "Error: Failed to parse private key: Error: Invalid PEM formatted message.", "interface/encoding"},
		{"imaplib's line cap is a size limit", "imaplib.error: command: FETCH => got more than 10000 bytes", "interface/message-size"},
		{"a PDF without its cross-reference table was cut", "WARNING: report.pdf (offset 102607): xref not found", "interface/message-size"},
		{"qpdf that cannot find the trailer of a damaged file read a cut one", "qpdf: bug.pdf: unable to find trailer dictionary while recovering damaged file", "interface/message-size"},
		{"a CDP message over the websocket's cap is a size limit", "Capacity(MessageTooLong { size: 47175864, max_size: 16777216 })", "interface/message-size"},
		{"an IMAP command sent in the wrong state is the test's order", "imaplib.error: command SEARCH illegal in state AUTH, only allowed in states SELECTED", "test/harness"},
		{"an ACME name the CA's policy forbids is the test's choice", "Error creating new order :: Policy forbids issuing for name", "test/harness"},
		{"a Terraform provider of another plugin protocol speaks another protocol", `Error: Failed to instantiate provider "hyperv" to obtain schema: Incompatible API version with plugin. Plugin version: 4, Client versions: [5]`, "interface/protocol"},
		{"paperless without Ghostscript lacks the package", "Error occurred while consuming document scan.pdf: MissingDependencyError: gs", "sandbox/package-path"},
		{"CUPS's orphaned spool files lost their jobs", `E [16/Oct/2004:01:50:04 +0400] LoadAllJobs: Orphaned print file "/var/spool/cups/d343661-001"!`, "sandbox/storage-persistence"},
		{"Puma's request element over its limit is a size limit", "HTTP parse error, malformed request (127.0.0.1): #<Puma::HttpParserError: HTTP element QUERY_STRING is longer than the (1024 * 10) allowed length (was 24876)>", "interface/message-size"},
		{"a tar archive that ends early was cut", "__MACOSX/box/._README.md: Truncated tar archive", "interface/message-size"},
		{"javac that cannot target the release has an older JDK", "Fatal error compiling: error: invalid target release: 17 -> [Help 1]", "sandbox/package-path"},
		{"an Android SDK without its build tools lacks the package", "> Failed to find Build Tools revision 26.0.0", "sandbox/package-path"},
		{"ClickHouse's query time limit is a time limit", "Code: 159. DB::Exception: Timeout exceeded: elapsed 5.060592159 seconds, maximum: 3. (TIMEOUT_EXCEEDED)", "sandbox/cpu-time"},
		{"Tomcat's reaped upload folder lost its files", "java.io.IOException: The temporary upload location [/tmp/tomcat.6239989728636105816.19530/work/Tomcat/localhost/ROOT] is not valid", "sandbox/storage-persistence"},
		{"two adb versions speak two protocols", "adb server version (31) doesn't match this client (39); killing..", "interface/protocol"},
		{"Go's module zip that is not a zip was cut", "github.com/leodido/go-urn: zip: not a valid zip file", "interface/message-size"},
		{"an index's upload limit is a size limit", "HTTPError: 400 Client Error: File too large. for url: https://upload.pypi.org/legacy/", "interface/message-size"},
		{"setuptools-rust without rustc lacks the package", "running build_rust\nerror: can't find Rust compiler", "sandbox/package-path"},
		{"a dotnet tool that is not installed lacks the package", "You intended to execute a .NET Core program, but dotnet-ef does not exist.", "sandbox/package-path"},
		{"MSBuild given a project path that does not exist is the test's path", "MSBUILD : error MSB1009: Project file does not exist.\nSwitch: ./build/Build.csproj", "test/harness"},
		{"JSON that starts with a NUL byte carries a NUL", "System.Text.Json.JsonException: '0x00' is an invalid start of a value. Path: $ | LineNumber: 0 | BytePositionInLine: 0.", "interface/null-byte"},
		{"DeepSpeed's JIT build without CUDA_HOME is a package path", "deepspeed.ops.op_builder.builder.MissingCUDAException: CUDA_HOME does not exist, unable to compile CUDA op(s)", "sandbox/package-path"},
		{"Emacs's missing load file is a package path", "Error loading autoloads: (file-missing Cannot open load file No such file or directory /home/andries/.emacs.d/elpa-30.1/zig-mode/zig-mode-autoloads)", "sandbox/package-path"},
		{"a Clojure namespace off the classpath is a package path", "java.io.FileNotFoundException: Could not locate mcp_clj/http__init.class, mcp_clj/http.clj or mcp_clj/http.cljc on classpath.", "sandbox/package-path"},
		{"a Lua module that require cannot find is a package path", "E5113: Error while calling lua chunk: [string \":lua\"]:1: module 'lazy' not found:\n\tno field package.preload['lazy']\n\tno file './lazy.lua'", "sandbox/package-path"},
		{"a CI watchdog's silence limit is a time limit", "No output has been received in the last 10m0s, this potentially indicates a stalled build or something wrong with the build itself.", "sandbox/cpu-time"},
		{"Java's writeUTF cap is a size limit", "java.io.UTFDataFormatException: encoded string too long: 65538 bytes", "interface/message-size"},
		{"Neovim's refusal of a line with newlines is input validation", "vim/_core/mcursor:247: 'replacement string' item contains newlines", "interface/input-validation"},
		{"Thrift's status -128 is a transport mismatch", "org.apache.thrift.transport.TTransportException: Invalid status -128", "interface/protocol"},
		{"Horovod's workers that never reached each other are the network's", "Timed out waiting for tasks to start. Please check connectivity between servers. You may need to increase the --start-timeout parameter if you have too many servers.", "sandbox/network-egress"},
		{"an MP4 without its index is a file cut short, whose transfer counts say where", "[mov,mp4,m4a,3gp,3g2,mj2 @ 0x5611a4c07f80] moov atom not found\n/home/user/work/pw-video-7c1e.mp4: Invalid data found when processing input", "sandbox/storage-persistence"},
		{"an ffmpeg built without a device is a package path", "Unknown input format: 'x11grab'", "sandbox/package-path"},
		{"gpg without its dirmngr is a package path", "gpg: connecting dirmngr at '/tmp/apt-key-gpghome.voA0lZRTwz/S.dirmngr' failed: IPC connect call failed\ngpg: keyserver receive failed: No dirmngr", "sandbox/package-path"},
		{"a gpg-agent that never started is a process spawn", "gpg: signing failed: No agent running\nerror: gpg failed to sign the data", "sandbox/process-spawn"},
		{"Triton's shared memory pool that cannot grow is memory", "Failed to increase the shared memory pool size for key 'triton_python_backend_shm_region_7' to 1073741824 bytes. If you are running Triton inside docker, use '--shm-size' flag to control the shared memory region size. Error: Connection timed out", "sandbox/memory"},
		{"a prompt over the server's token budget is a size limit", "Input validation error: `inputs` tokens + `max_new_tokens` must be <= 1512. Given: 1000 `inputs` tokens and 1024 `max_new_tokens`", "interface/message-size"},
		{"Ray's object store on a full disk is storage", "/tmp/ray/session_2023-08-09_22-27-32_558284_37 is over 95% full, available space: 60427313152; capacity: 1599538507776. Object creation will fail if spilling is required.", "sandbox/storage-persistence"},
		{"R's download that timed out is the network's", "Warning in download.file(url, destfile, method, mode = \"wb\", ...) :\n  URL 'https://cloud.r-project.org/src/contrib/Rcpp_1.0.12.tar.gz': Timeout of 60 seconds was reached", "sandbox/network-egress"},
		{"R's library folder it cannot install to is a filesystem permission", "Error: ERROR: no permission to install to directory '/usr/lib/R/site-library'", "sandbox/filesystem-permissions"},
		{"a snapshot of another size than the baseline is the test's expectation", "Expected an image 190px by 240px, received 187px by 237px.", "test/harness"},
		{"a compiler's stray Unicode character other than NUL is the text's encoding", "[error] [/home/user/CH08/build.sbt]:53: illegal character '\\u2028'", "interface/encoding"},
		{"a compiler's stray NUL is a NUL byte", "Foo.java:1: error: illegal character: '\\u0000'", "interface/null-byte"},
		{"an XML parser's NUL is a NUL byte", "An invalid XML character (Unicode: 0x0) was found in the element content of the document.", "interface/null-byte"},
		{"pygame without a video driver is a package path", "pygame.error: No available video device", "sandbox/package-path"},
		{"SQLite's blob limit is a size limit", "what():  Error when binding SQL parameter 3. SQLite error (18): string or blob too big", "interface/message-size"},
		{"a file missing from the test's data folder is the test's own", "FileNotFoundError: [Errno 2] No such file or directory: '/src/app/tests/data/sample_1.csv'", "test/harness"},
		{"a fixture file missing next to the test is the test's own", "Error: ENOENT: no such file or directory, stat '../fixtures/upload.pdf'", "test/harness"},
		{"a file missing under a test-results folder is still storage", "Error: ENOENT: no such file or directory, open '/app/test-results/run-3/report.json'", "sandbox/storage-persistence"},
		{"the BEAM under a latin1 locale is the text's encoding", "warning: the VM is running with native name encoding of latin1 which may cause Elixir to malfunction as it expects utf8.", "interface/encoding"},
		{"GHC's handle that cannot write a character is the text's encoding", "site/index.html: commitBuffer: invalid argument (invalid character)", "interface/encoding"},
		{"a byte order mark printed as its decimal escape is the text's encoding", "Setup: app.cabal:1: unrecognised field or section: \"\\65279Name: app\"", "interface/encoding"},
		{"Hex's tarball over its limit is a size limit", "** (Mix) Creating tarball failed: tarball is too big", "interface/message-size"},
		{"a value too long for its column is a size limit", "sqlalchemy.exc.DataError: (pymysql.err.DataError) (1406, \"Data too long for column 'value' at row 1\")", "interface/message-size"},
		{"an etcd snapshot without its hash was cut short", "Error: snapshot missing hash but --skip-hash-check=false", "interface/message-size"},
		{"etcd's full backend is storage", "etcdserver: mvcc: database space exceeded", "sandbox/storage-persistence"},
		{"a task log gone from its worker is storage", "*** Log file does not exist: /opt/airflow/logs/etl/load/2026-12-01T02:00:00+00:00/1.log", "sandbox/storage-persistence"},
		{"a build stopped at its time limit is cpu time", "Build exited due to time out", "sandbox/cpu-time"},
		{"a migration tool run where its config is not is the test's own", "FAILED: No config file 'alembic.ini' found, or file has no '[alembic]' section", "test/harness"},
		{"a DAG the test named that does not exist is the test's own", "airflow.exceptions.DagNotFound: Dag id nightly_load not found in DagModel", "test/harness"},
		{"dotnet without an SDK is a package path", "It was not possible to find any installed .NET Core SDKs", "sandbox/package-path"},
		{"an MCP result that fails the client's schema is the protocol", "pydantic_core._pydantic_core.ValidationError: 3 validation errors for CallToolResult", "interface/protocol"},
		{"Erlang's enospc is a full disk", "no match of right hand value {error,enospc}", "sandbox/storage-persistence"},
		{"Colab's runtime out of RAM is memory", "Your session crashed after using all available RAM.", "sandbox/memory"},
		{"SBCL's exhausted heap is memory, not a size limit", "Heap exhausted during garbage collection: 0 bytes available, 48 requested.", "sandbox/memory"},
		{"headless Chrome with no DevTools target is the protocol", "ERROR: No inspectable targets", "interface/protocol"},
		{"a JSON-RPC method the server lacks is the protocol", "Error connecting to server 'search': Method not found", "interface/protocol"},
		{"a ComfyUI model list emptied is storage", "Prompt outputs failed validation: CheckpointLoaderSimple: - Value not in list: ckpt_name: 'sd_xl_base_1.0.safetensors' not in []", "sandbox/storage-persistence"},
		{"a ComfyUI model the test misnamed is the test's own", "Prompt outputs failed validation: CheckpointLoaderSimple: - Value not in list: ckpt_name: 'sd_xl.ckpt' not in ['sd_xl_base_1.0.safetensors']", "test/harness"},
		{"an Optuna search space that changes between trials is the test's own", "ValueError: CategoricalDistribution does not support dynamic value space.", "test/harness"},
		{"bitsandbytes without the CUDA runtime is a package path", "CUDA_SETUP: WARNING! libcudart.so not found in any environmental path. Searching in backup paths...", "sandbox/package-path"},
		{"Pyomo without its solver is a package path", "The SolverFactory was unable to create the solver \"glpk\" and returned an UnknownSolver object.", "sandbox/package-path"},
		{"XLA out of device memory is memory, not a size limit", "RuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 50331648 bytes.", "sandbox/memory"},
		{"a header value beyond Latin-1 is the text's encoding", "TypeError: Cannot convert argument to a ByteString because the character at index 23 has a value of 8217 which is greater than 255.", "interface/encoding"},
		{"a Debian build without its build dependencies is a package path", "dpkg-checkbuilddeps: error: Unmet build dependencies: debhelper (>= 9)", "sandbox/package-path"},
		{"Flink without a connector's jar is a package path", "org.apache.flink.table.api.ValidationException: Could not find any factory for identifier 'kafka' that implements 'org.apache.flink.table.factories.DynamicTableFactory' in the classpath.", "sandbox/package-path"},
		{"a state directory that cannot be made is a filesystem permission", "org.apache.kafka.streams.errors.ProcessorStateException: base state directory [/var/lib/kafka-streams] doesn't exist and couldn't be created", "sandbox/filesystem-permissions"},
		{"a remote build cache out of reach is the network's", "<target> failed: I/O Error in remote cache/executor: Socket closed.", "sandbox/network-egress"},
		{"a build step past its kill timeout is cpu time", "++ quiet su -l -c 'cd /home/agent/app && make' agent\n<kill-timeout reached>", "sandbox/cpu-time"},
		{"a fixture path that names itself before the error is the test's own", "../test-data/orders.csv: No such file or directory", "test/harness"},
		{"a file missing from a test-data folder is the test's own", "FileNotFoundError: [Errno 2] No such file or directory: 'project/test-data/orders.csv'", "test/harness"},
		{"a REPL wire frame the other end cannot read is the protocol", "Control thread stopping: (:SWANK-DATA-ERROR #<SB-INT:SIMPLE-READER-ERROR>)", "interface/protocol"},
		{"a worker's task log gone is storage", "No log file available", "sandbox/storage-persistence"},
		{"a linker of a long name that is not there is a package path", "error: linker `x86_64-linux-gnu-gcc` not found", "sandbox/package-path"},
		{"a container the OOM killer ended is memory", "\"OOMKilled\": true,", "sandbox/memory"},
		{"DuckDB's invalid unicode is the text's encoding, whatever its dialect's escape", "Invalid unicode (byte sequence mismatch) detected.\n  escape = \\0 (Auto-Detected)", "interface/encoding"},
		{"an escaped zero in od's output is a NUL", "0000020   s   >   <   K   e   y   >  \\0   <   /   K", "interface/null-byte"},
		{"LMDB's map full is storage, not a message size", "lmdb.MapFullError: mdb_put: MDB_MAP_FULL: Environment mapsize limit reached", "sandbox/storage-persistence"},
		{"LevelDB's damaged block is storage", "Fatal LevelDB error: Corruption: block checksum mismatch: /home/user/work/index/000412.ldb", "sandbox/storage-persistence"},
		{"a Hugging Face repository the test misnamed is the test's own", "Repository Not Found for url: https://huggingface.co/api/models/acme/no-such-model/revision/main.", "test/harness"},
		{"asyncio.run inside a running loop is the test's own", "RuntimeError: asyncio.run() cannot be called from a running event loop", "test/harness"},
		{"a mocha test that never calls done is the test's own", "Error: timeout of 2000ms exceeded. Ensure the done() callback is being called in this test.", "test/harness"},
		{"a package subpath its exports hide is a package path", "Error [ERR_PACKAGE_PATH_NOT_EXPORTED]: Package subpath './bin/utils.js' is not defined by \"exports\" in /node_modules/y-websocket/package.json", "sandbox/package-path"},
		{"nox without the session's interpreter is a package path", "nox > Session lint skipped: Python interpreter 3.8 not found.", "sandbox/package-path"},
		{"a Space that never became healthy hit its launch time limit", "Launch timed out, space was not healthy after 30 min", "sandbox/cpu-time"},
		{"a protobuf message cut short is its size", "google.protobuf.message.DecodeError: Truncated message.", "interface/message-size"},
		{"a sandbox the platform failed to create is its lifecycle", "500: error when creating instance: failed to create sandbox 'q7d1mz4c': [Internal] failed to init envd", "sandbox/session-lifecycle"},
		{"a malformed HTTP request line is the protocol", "WARNING:  Invalid HTTP request received.", "interface/protocol"},
		{"a YAML document over the parser's limit is its size", "org.yaml.snakeyaml.error.YAMLException: The incoming YAML document exceeds the limit: 3145728 code points.", "interface/message-size"},
		{"EC2 user data over its limit is its size", "InvalidParameterValue: User data is limited to 16384 bytes", "interface/message-size"},
		{"a crontab the test wrote wrong is the test's own", "\"config/crontab.list\":2: bad minute\nerrors in crontab file, can't install", "test/harness"},
		{"JAX tracing Python control flow is the test's own", "jax._src.errors.ConcretizationTypeError: Abstract tracer value encountered where concrete value is expected", "test/harness"},
		{"a PM2 daemon older than its CLI is the protocol", ">>>> In-memory PM2 is out-of-date, do:\n>>>> $ pm2 update", "interface/protocol"},
		{"meson without a Fortran compiler is a package path", "../../meson.build:57:0: ERROR: Unknown compiler(s): [['gfortran'], ['flang']]", "sandbox/package-path"},
		{"supervisord's program not on PATH is a package path", "celery-worker                    FATAL     can't find command 'celery'", "sandbox/package-path"},
		{"TensorFlow's save over a disk quota is storage, not memory", "tensorflow.python.framework.errors_impl.ResourceExhaustedError: disk quota exceeded [Op:SaveV2]", "sandbox/storage-persistence"},
		{"Scrapy's own memory limit is memory", "2018-07-19 19:05:53 [scrapy.extensions.memusage] ERROR: Memory usage exceeded 8M. Shutting down Scrapy...", "sandbox/memory"},
		{"a Postgres extension missing from the image is a package path, not storage", "ERROR:  extension \"vector\" is not available\nDETAIL:  Could not open extension control file \"/usr/share/postgresql/16/extension/vector.control\": No such file or directory", "sandbox/package-path"},
		{"a gem's native extension without its headers is a package path", "checking for libpq-fe.h... no\nCan't find the 'libpq-fe.h header\n*** extconf.rb failed ***", "sandbox/package-path"},
		{"xarray without the engine's backend is a package path", "ValueError: unrecognized engine netcdf4 must be one of: ['scipy', 'store', 'zarr']", "sandbox/package-path"},
		{"Postgres recovering after an unclean stop is the session's lifecycle", "LOG:  database system was not properly shut down; automatic recovery in progress", "sandbox/session-lifecycle"},
		{"a dump pg_restore finds too short is its size", "pg_restore: [archiver] input file too short (read 0, expected 5)", "interface/message-size"},
		{"a layer missing from an image store's tree is storage", "Error: 1 error occurred:\n\t* layer not found in layer tree: \"9f4c2a61d07be3e85f1c\"", "sandbox/storage-persistence"},
		{"an image store's damaged layer is storage", "Damaged layer c859be561ea8e463cec1:\n138 errors occurred:", "sandbox/storage-persistence"},
		{"a Postgres killed for memory stays memory after its recovery line", "LOG:  server process (PID 24643) was terminated by signal 9: Killed\nLOG:  database system was not properly shut down; automatic recovery in progress", "sandbox/memory"},
		{"a user without subordinate ids is a file permission", "ERRO[0000] cannot find UID/GID for user agent: No subuid ranges found for user \"agent\" in /etc/subuid", "sandbox/filesystem-permissions"},
		{"a containers.conf the test wrote wrong is the test's own", "ERRO[0000] error validating containers config: log size max should be negative or >= 8192", "test/harness"},
		{"Splash past its render timeout is cpu time", "\"description\": \"Timeout exceeded rendering page\", \"error\": 504, \"type\": \"GlobalTimeoutError\"", "sandbox/cpu-time"},
		{"Node's spawn that names no program found none to run", "events.js:72\n        throw er; // Unhandled 'error' event\n              ^\nError: spawn ENOENT\n    at errnoException (child_process.js:1001:11)", "sandbox/package-path"},
		{"pnpm's command that failed with ENOENT is a program missing", "ENOENT  Command failed with ENOENT: mcp-server\nspawn mcp-server ENOENT", "sandbox/package-path"},
		{"gpg that cannot start its helper has no helper installed", "gpg: failed to start the dirmngr '/usr/bin/dirmngr': No such file or directory\ngpg: keyserver refresh failed: No dirmngr", "sandbox/package-path"},
		{"Ruby's exec of a program that is not there is a program missing", "/opt/puppetlabs/puppet/lib/ruby/vendor_ruby/puppet/util/execution.rb:360:in `exec': No such file or directory - /usr/sbin/named-checkconf (Errno::ENOENT)", "sandbox/package-path"},
		{"an auth plugin's exec that found no program is a program missing", "thread 'main' panicked at 'auth error: unable to run auth exec: No such file or directory (os error 2)', kubectl-watch/src/main.rs:20:13", "sandbox/package-path"},
		{"GLib's child process that could not be executed is a program missing", "warning: g_spawn_sync failed (-1): gs: Failed to execute child process \u201cgs\u201d (No such file or directory)", "sandbox/package-path"},
		{"python -m of a module that is not installed is a package missing, whatever the kernel's restarts", "[I 01:05:48.485 NotebookApp] Kernel started: 950f0da7\n/usr/bin/python: No module named ir_kernel\n[I 01:05:51.997 NotebookApp] KernelRestarter: restarting kernel (1/5)", "sandbox/package-path"},
		{"a liveness probe that timed out is time, not the network", `Liveness probe failed: Get "http://10.42.0.57:9990/live": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`, "sandbox/cpu-time"},
		{"Airflow's task log that is not on disk is storage, whatever the fetch after it says", "*** Log file does not exist: /opt/airflow/logs/example-task/snapshot/2021-05-12T12:00:46.658485+00:00/1.log\n*** Fetching from: http://:8793/log/example-task/snapshot/1.log", "sandbox/storage-persistence"},
		{"IndexedDB's failure unrelated to the database itself is its store on disk", "UnknownError: The operation failed for reasons unrelated to the database itself and not covered by any other error code.", "sandbox/storage-persistence"},
		{"a DevTools stream handle the browser no longer knows is protocol", "Error: Protocol error (IO.read): Invalid parameters handle: string value expected", "interface/protocol"},
		{"a DevTools url that is not a string is the input's", "Protocol error (Page.navigate): Invalid parameters url: string value expected", "interface/input-validation"},
		{"an event the test waited for and never saw is the test's", `TimeoutError: page.waitForEvent: Timeout 15000ms exceeded while waiting for event "download"`, "test/harness"},
		{"a file WebDriver was given that the browser's machine lacks is the input's", "Selenium::WebDriver::Error::InvalidArgumentError:  invalid argument: File not found : /home/app/spec/files/dummy.pdf", "interface/input-validation"},
		{"a WebSocket refused for its headers' size is a message size", "Error during WebSocket handshake: Unexpected response code: 431", "interface/message-size"},
		{"the JVM's largest array is a size limit, not the heap", `Exception in thread "Exec Stream Pumper" java.lang.OutOfMemoryError: Required array length 2147483639 + 39 is too large`, "interface/message-size"},
		{"xgettext's carriage return in a message is a line ending rewritten", "data/levels/Missingno.stl:535: warning: internationalized messages should not contain the '\\r' escape sequence", "interface/encoding"},
		{"an axe include selector that matches nothing is the test's", "Error: JavascriptError: javascript error: No elements found for include in page Context\n  (Session info: chrome-headless-shell=127.0.6533.99)", "test/harness"},
		{"the Angular CLI run outside a project is the test's", "The serve command requires to be run in an Angular project, but a project definition could not be found.", "test/harness"},

		{"cwltool's file name with characters it refuses is the input's", "Workflow error:\nInvalid filename: 'whale#1.txt' contains illegal characters", "interface/input-validation"},
		{"MLflow's experiment id that is not one is the input's", "MlflowException: Invalid experiment ID: '.ipynb_checkpoints'", "interface/input-validation"},
		{"chrome-launcher with no Chrome to launch is a program missing", "Runtime error encountered: The environment variable CHROME_PATH must be set to executable of a build of Chromium version 54.0 or later.", "sandbox/package-path"},
		{"localedef's missing character map is locale data not installed", "character map file `UTF-8' not found: No such file or directory", "sandbox/package-path"},
		{"asdf with no version for a command has none installed for it", "asdf: No version set for command iex\nyou might want to add one of the following in your .tool-versions file:", "sandbox/package-path"},
		{"Vite's client that cannot reach its WebSocket is protocol", "[vite] failed to connect to websocket.\nyour current setup:\n  (browser) localhost:3000/app/ <--[HTTP]--> localhost:5173/app/ (server)", "interface/protocol"},
		{"Redis's damaged append-only file is storage, not a kill", "412:M 05 Dec 2026 02:31:07.240 # Bad file format reading the append only file: make a backup of your AOF file, then use ./redis-check-aof --fix <filename>", "sandbox/storage-persistence"},
		{"InnoDB's data file of the wrong size is storage", "2017-03-10 15:42:09 140455990131528 [ERROR] InnoDB: auto-extending data file ./ibdata1 is of a different size 0 pages (rounded down to MB) than specified in the .cnf file", "sandbox/storage-persistence"},
		{"Dask's client and workers on other versions disagree on the protocol", "distributed.worker - WARNING - Mismatched versions found\n+---------+--------+-----------+", "interface/protocol"},
		{"a RESP3 hello to a server that does not know it is protocol", "ResponseError: unknown command HELLO, with args beginning with: 3", "interface/protocol"},
		{"redis-py's value of a type it cannot send is the input's", "redis.exceptions.DataError: Invalid input of type: 'list'. Convert to a bytes, string, int or float first.", "interface/input-validation"},
		{"Dask's graph too large to send is a message size", "distributed/client.py:3361: UserWarning: Sending large graph of size 13.23 MiB.\nThis may cause some slowdown.", "interface/message-size"},
		{"XML cut before its end is a message size", "-:31877: parser error : Premature end of data in tag record line 2", "interface/message-size"},
		{"bytes before an XML prolog are an encoding", "Content is not allowed in prolog", "interface/encoding"},
		{"lxml given text that declares its encoding is an encoding", "ValueError: Unicode strings with encoding declaration are not supported. Please use bytes input or XML fragments without declaration.", "interface/encoding"},
		{"an XPath the test wrote wrong is the test's", "lxml.etree.XPathEvalError: Invalid predicate", "test/harness"},

		{"xsltproc that must fetch a stylesheet its catalog lacks is a package missing", "I/O error : Attempt to load network entity http://docbook.sourceforge.net/release/xsl/current/manpages/docbook.xsl", "sandbox/package-path"},
		{"pydicom with no image handler installed is a package missing", "NotImplementedError: No available image handler could decode this transfer syntax JPEG 2000 Image Compression", "sandbox/package-path"},
		{"Dask's worker space it cannot lock is a file's permissions", "distributed.diskutils - ERROR - Could not acquire workspace lock on path: /home/user/work/dask-worker-space/worker-3h_0x1qz.dirlock .Continuing without lock.", "sandbox/filesystem-permissions"},
		{"a JVM that may not create a thread is a process limit", `"java/lang/OutOfMemoryError" "Failed to create a thread: retVal -1073741830, errno 11"`, "sandbox/process-spawn"},
		{"a Wasm runtime out of fuel ran out of its instruction budget", "Error during function excecution (wasm trap: all fuel consumed by WebAssembly): error while executing at wasm backtrace:", "sandbox/cpu-time"},
		{"wasm-pack that cannot download binaryen is egress", "Error: failed to download from https://github.com/WebAssembly/binaryen/releases/download/version_111/binaryen-version_111-x86_64-linux.tar.gz\nTo disable `wasm-opt`, add `wasm-opt = false` to your package metadata in your `Cargo.toml`.", "sandbox/network-egress"},
		{"a Rust target that is not installed is a package missing", "error[E0463]: can't find crate for `std`\n  |\n  = note: the `wasm32-unknown-unknown` target may not be installed", "sandbox/package-path"},
		{"a server on the sandbox's loopback that refuses is not running there", "Error: connect ECONNREFUSED 127.0.0.1:6379\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1247:16)", "sandbox/session-lifecycle"},
		{"Redis on localhost that refuses is not running there", "ConnectionError: Error 111 connecting to localhost:6379. Connection refused.", "sandbox/session-lifecycle"},
		{"a proxy on the loopback that refuses is the way out closed", `Get "https://proxy.golang.org/github.com/onsi/ginkgo/@v/v1.16.3.mod": proxyconnect tcp: dial tcp 127.0.0.1:3001: connect: connection refused`, "sandbox/network-egress"},
		{"a resolver on the loopback that refuses is the way out closed", "dial tcp: lookup site.com on [::1]:53: read udp [::1]:58403->[::1]:53: read: connection refused", "sandbox/network-egress"},
		{"npm's package for another platform is a package that does not fit", "npm ERR! code EBADPLATFORM\nnpm ERR! notsup Unsupported platform for @esbuild/darwin-arm64@0.21.5: wanted {\"os\":\"darwin\",\"arch\":\"arm64\"} (current: {\"os\":\"linux\",\"arch\":\"x64\"})", "sandbox/package-path"},
		{"CmdStanPy with no CmdStan is a package missing", "INFO:cmdstanpy:No CmdStan installation found.\nINFO:cmdstanpy:Cannot determine whether version is before 2.27.", "sandbox/package-path"},
		{"Ansible's become whose chmod takes no ACL has no setfacl installed", `fatal: [localhost]: FAILED! => {"msg": "Failed to set permissions on the temporary files Ansible needs to create when becoming an unprivileged user (rc: 1, err: chmod: invalid mode: 'A+user:nobody:rx:allow'\nTry 'chmod --help' for more information.\n})"}`, "sandbox/package-path"},
		{"Ansible's become that may not set permissions is a file's permissions", `fatal: [x.x.x.x]: FAILED! => {"failed": true, "msg": "Failed to set permissions on the temporary files Ansible needs to create when becoming an unprivileged user. For information on working around this, see https://docs.ansible.com"}`, "sandbox/filesystem-permissions"},
		{"conda's checksum mismatch is the bytes changed", "ChecksumMismatchError: Conda detected a mismatch between the expected content and downloaded content for url 'https://conda.anaconda.org/nvidia/linux-64/libcublas-12.1.0.26-0.tar.bz2'.", "interface/encoding"},
		{"mamba's repodata cache it cannot parse is storage", "RuntimeError: Could not read JSON repodata file (/opt/conda/pkgs/cache/c3c3a4e6.json) parse error line 1", "sandbox/storage-persistence"},
		{"a Salt minion that is not connected is the session's", "Minion did not return. [Not connected]", "sandbox/session-lifecycle"},
		{"Nominatim's query that is not UTF-8 is an encoding", "Bad Request\nNominatim has encountered an error with your request.\nDetails: Illegal query string (not an UTF-8 string)", "interface/encoding"},
		{"sftp's message too long with no length is the shell's text in the stream", "Received message too long", "interface/protocol"},
		{"rsync's protocol incompatibility is protocol", "rsync error: protocol incompatibility (code 2) at compat.c(178) [sender=3.1.2]", "interface/protocol"},
		{"a lookup refused by the loopback resolver is the way out closed, whatever its source port", "dial tcp: lookup proxy.golang.org on 127.0.0.53:53: read udp 127.0.0.1:49521->127.0.0.53:53: read: connection refused", "sandbox/network-egress"},
		{"a loopback address inside a URL is masked, so a fetch refused there is not read as a local server", "FetchError: request to http://localhost:3000/api failed, reason: connect ECONNREFUSED ::1:3000", "sandbox/network-egress"},
		{"a quoted loopback address is masked, so MySQL refused there is not read as a local server", "ERROR 2003 (HY000): Can't connect to MySQL server on 'localhost:3306' (111 Connection refused)", "sandbox/network-egress"},
		{"Playwright's wait for an event whose page closed is not the test's", "page.waitForEvent: Target page, context or browser has been closed\n=========================== logs ===========================\nwaiting for event \"download\"", "sandbox/session-lifecycle"},
		{"a semaphore multiprocessing could not open is the sandbox's shared memory refused, not a file lost", "Traceback (most recent call last):\n  File \"/usr/local/lib/python3.11/multiprocessing/synchronize.py\", line 110, in __setstate__\n    self._semlock = _multiprocessing.SemLock._rebuild(*state)\nFileNotFoundError: [Errno 2] No such file or directory", "sandbox/process-spawn"},
		{"a semaphore multiprocessing may not create is not a file's permissions", "Traceback (most recent call last):\n  File \"/usr/lib/python3.8/multiprocessing/synchronize.py\", line 57, in __init__\n    sl = self._semlock = _multiprocessing.SemLock(\nPermissionError: [Errno 13] Permission denied", "sandbox/process-spawn"},
		{"a DevTools call refused with no parameter named is protocol", "Error: Protocol error (Emulation.setDeviceMetricsOverride): Invalid parameters\n    at Object.chrome.debugger.sendCommand.result [as callback] (chrome-extension://blipmdconlkpinefehnmjammfjpmpbjk/scripts/lighthouse-background.js:8113:31)", "interface/protocol"},
		{"a DevTools object id that does not deserialize is protocol", "Protocol error (DOMDebugger.getEventListeners): Invalid parameters Failed to deserialize params.objectId - BINDINGS: mandatory field missing at position 2", "interface/protocol"},
		{"a DevTools cookie that does not deserialize is the input's", "Protocol error (Network.setCookies): Invalid parameters Failed to deserialize params.cookies.name - BINDINGS: mandatory field missing at position 88", "interface/input-validation"},
		{"Playwright's goto to a file that downloads is the test's", "page.goto: Download is starting\nCall log:\n  - navigating to \"https://example.com/report.pdf\", waiting until \"load\"", "test/harness"},
		{"a branch the test asked git for that the remote lacks is the test's", "warning: Could not find remote branch v0.5.1 to clone.\nfatal: Remote branch v0.5.1 not found in upstream origin", "test/harness"},
		{"an upload the index refuses as too large is over its size", "HTTPError: 400 Client Error: File too large. Limit for project 'birdnet' is 100 MB.", "interface/message-size"},
		{"a file too large for the filesystem stays storage's", "OSError: [Errno 27] File too large: '/workspace/dump.bin'", "sandbox/storage-persistence"},
		{"Conan's transfer cut short is over a size", "ERROR: Download failed, check server, possibly try again\nTransfer interrupted before complete: 1097971 < 44245525", "interface/message-size"},
		{"a mount with no helper for its filesystem lacks the package", "mount: /mnt/media: bad option; for several filesystems (e.g. nfs, cifs) you might need a /sbin/mount.<type> helper program.", "sandbox/package-path"},
		{"ssh refusing a config others may write is a permission", "Bad owner or permissions on /home/agent/.ssh/config", "sandbox/filesystem-permissions"},
		{"a permission denied in Chinese is a permission", "/usr/bin/bash: ./vcpkg/configure: 权限不够", "sandbox/filesystem-permissions"},
		{"protobuf's reserved wire type is bytes that are not its protocol", "proto: cannot parse reserved wire type", "interface/protocol"},
		{"an estimator used before it was fitted is the test's", "sklearn.exceptions.NotFittedError: This StandardScaler instance is not fitted yet. Call 'fit' with appropriate arguments before using this estimator.", "test/harness"},
		{"a parameter the pipeline does not have is the test's", "ValueError: Invalid parameter n_estimators for estimator Pipeline(memory=None,", "test/harness"},
		{"a jq filter that does not fit its data is the test's", "jq: error (at <stdin>:0): Cannot index array with string \"content\"", "test/harness"},
		{"a jq program that does not parse is the test's", "jq: error: syntax error, unexpected IDENT, expecting $end (Unix shell quoting issues?) at <top-level>, line 1:", "test/harness"},
		{"go run outside its module is the test's", "go: go.mod file not found in current directory or any parent directory; see 'go help modules'", "test/harness"},
		{"JSON that ends mid-term was cut at a size", "parse error: Unfinished JSON term at EOF at line 41767, column 20", "interface/message-size"},
		{"a hook git ignored for its mode is a permission", "hint: The '.husky/pre-commit' hook was ignored because it's not set as executable.", "sandbox/filesystem-permissions"},
		{"gRPC reading an HTTP/1 answer as an HTTP/2 frame is the protocol, not a size", `rpc error: code = Unavailable desc = connection error: desc = "error reading server preface: http2: frame too large"`, "interface/protocol"},
		{"a PromQL query the test wrote that does not parse is the test's", `Error executing query: invalid parameter "query": 1:49: parse error: unexpected character inside braces: '>'`, "test/harness"},
		{"Prometheus's bad_data parse error is the test's query", `"error": "bad_data: parse error at char 149: bad duration syntax: \"2m1\": details: "`, "test/harness"},
		{"Pillow refusing a font size the test gave is the test's", "OSError: invalid pixel size", "test/harness"},
		{"Chrome failing to decode a body by its Content-Encoding is encoding", "Error 330 (net::ERR_CONTENT_DECODING_FAILED)", "interface/encoding"},
		{"TextDecoder refusing bytes as UTF-8 is encoding", "TypeError: The encoded data was not valid for encoding utf-8", "interface/encoding"},
		{"fontconfig without its configuration is a package not installed", "Fontconfig error: Cannot load default config file: No such file: (null)", "sandbox/package-path"},
		{"Python missing a program under a bin folder is a package not installed", "FileNotFoundError: [Errno 2] No such file or directory: '/usr/local/bin/ffmpeg'", "sandbox/package-path"},
		{"a shell missing a program under a bin folder is a package not installed", "/usr/bin/ffprobe: No such file or directory", "sandbox/package-path"},
		{"a missing file outside the bin folders is still storage", "FileNotFoundError: [Errno 2] No such file or directory: '/workspace/bin/out/report.csv'", "sandbox/storage-persistence"},
		{"zig's name server failure is egress", "error: unable to discover remote git server capabilities: TemporaryNameServerFailure", "sandbox/network-egress"},
		{"zig's child output over its cap is a size", "error: StderrStreamTooLong", "interface/message-size"},
		{"zig without a C compiler to spawn lacks a package", "error: unable to create compilation: UnableToSpawnCCompiler", "sandbox/package-path"},
		{"env not finding an interpreter lacks a package", "/usr/bin/env: lua: No such file or directory", "sandbox/package-path"},
		{"Arrow's array over its capacity is a size", "Capacity error: array cannot contain more than 2147483646 bytes, have 2147489180", "interface/message-size"},
		{"R's string over 2^31-1 bytes is a size", "Error in paste(apply(x, 1, paste, collapse = \",\"), collapse = \"\\n\") :    result would exceed 2^31-1 bytes", "interface/message-size"},
		{"bcrypt's password over 72 bytes is a size", "ValueError: password cannot be longer than 72 bytes, truncate manually if necessary (e.g. my_password[:72])", "interface/message-size"},
		{"pgAdmin not finding pg_dump on its binary path lacks a package", "pg_dump: not found on the specified binary path.", "sandbox/package-path"},
		{"TLS sent to werkzeug's plain HTTP server is protocol, not a NUL byte", `code 400, message Bad request version ('testserver\x00\x17\x00\x00\xff\x01\x00\x01\x00\x00')`, "interface/protocol"},
		{"Django's notice of HTTPS sent to its HTTP server is protocol", "You're accessing the development server over HTTPS, but it only supports HTTP.", "interface/protocol"},
		{"h11's body longer than its Content-Length is protocol", "h11._util.LocalProtocolError: Too much data for declared Content-Length", "interface/protocol"},
		{"BuildKit's refused h2c upgrade is protocol, not egress", "failed to dial gRPC: unable to upgrade to h2c, received 404", "interface/protocol"},
		{"HTTP's first bytes read as a ZooKeeper packet's length are protocol", "java.io.IOException: Packet len1213486160 is out of range!", "interface/protocol"},
		{"HTTP's first bytes read as a packet size are protocol, not a size", "Warning: invalid packet size (1213486160). Must over 10 and less than 4096.", "interface/protocol"},
		{"GET read as Kafka's receive size is protocol", "org.apache.kafka.common.network.InvalidReceiveException: Invalid receive (size = 1195725856 larger than 104857600)", "interface/protocol"},
		{"BigQuery's ASCII 0 in a row is a NUL byte", "Error while reading data, error message: Error detected while parsing row starting at position: 1048576. Error: Bad character (ASCII 0) encountered.", "interface/null-byte"},
		{"uvicorn not importing the app module the test named is the test's", `ERROR:    Error loading ASGI app. Could not import module "main".`, "test/harness"},
		{"uvicorn not finding the app the test named in its module is the test's", `ERROR:    Error loading ASGI app. Attribute "app" not found in module "main".`, "test/harness"},
		{"a byte-order mark read as Latin-1 before JSON is encoding", "failed to form statements: invalid character 'ï' looking for beginning of value", "interface/encoding"},
		{"a map library's tile still gzipped is encoding", "Error: Unable to parse the tile at https://tiles.example.net/12/2047/1362.pbf, please make sure the data is not gzipped and that you have configured the relevant header in the server.", "interface/encoding"},
		{"an XML serializer refusing half a surrogate pair is encoding", "JsonRPC Error code: 0, Message: Illegal character (d83c)", "interface/encoding"},
		{"libxml2's huge input lookup is a size limit", "lxml.etree.XMLSyntaxError: internal error: Huge input lookup, line 479944, column 25", "interface/message-size"},
		{"Moment Timezone without its zone data lacks a package", "Moment Timezone has no data for Asia/Qostanay", "sandbox/package-path"},
		{"base64-js refusing a string whose length is not a multiple of 4 is encoding", "Uncaught Error: Invalid string. Length must be a multiple of 4", "interface/encoding"},
		{"SQLite without SpatiaLite's module lacks a package", "sqlite3.OperationalError: no such module: VirtualSpatialIndex", "sandbox/package-path"},
		{"Datasette asked for SpatiaLite it has not loaded lacks a package", "Error: It looks like you're trying to load a SpatiaLite database without first loading the SpatiaLite module.", "sandbox/package-path"},
		{"an API asked for a model that does not exist is the test's", "openai.error.InvalidRequestError: The model `gtp-4` does not exist or you do not have access to it.", "test/harness"},
		{"a test killed at its timeout ran out of time, not memory", "test case exceeded its 600s timeout and was killed.", "sandbox/cpu-time"},
		{"git's warning that it will rewrite a file's line endings is its bytes changed as text", "warning: in the working copy of 'docs/chart.PNG', CRLF will be replaced by LF the next time Git touches it", "interface/encoding"},
		{"a shell's carriage return in capitals is still a CRLF rewrite", "./configure: Line 16: $'\\r': Command not found.", "interface/encoding"},
		{"pip asked to install a directory without a project ran in the wrong directory", "ERROR: Directory '.' is not installable. Neither 'setup.py' nor 'pyproject.toml' found.", "test/harness"},
		{"a build that timed out and was killed ran out of time, not memory", "lib.installable INFO     Build timed out and was killed (/tmp/staging/e3a6457c)", "sandbox/cpu-time"},
		{"DuckDB's block it cannot offload is the temp directory it spills to, not memory", "Out of Memory Error: failed to offload data block of size 16.0 MiB (9.8 GiB/9.8 GiB used). This limit was set by the 'max_temp_directory_size' setting.", "sandbox/storage-persistence"},
		{"a notebook whose JSON is empty lost what was written", `Unreadable Notebook: /work/nb/c3.ipynb NotJSONError("Notebook does not appear to be JSON: ''...")`, "sandbox/storage-persistence"},
		{"Chrome's download failed for permissions is the download directory's", "Failed - Insufficient Permissions", "sandbox/filesystem-permissions"},
		{"a browser's storage quota is storage", "sw.js:1 Uncaught (in promise) DOMException: Quota exceeded.", "sandbox/storage-persistence"},
		{"DuckDB finding no Parquet footer read a file cut when stored", "Error: Invalid Input Error: No magic bytes found at end of file 'data/part-0.parquet'", "sandbox/storage-persistence"},
		{"Jupyter's bad kernel_info reply is the kernel's wire protocol", "[E 12:35:50.466 NotebookApp] Bad kernel_info reply", "interface/protocol"},
		{"gymnasium's unregistered environment is the test's request", "gymnasium.error.NameNotFound: Environment `Chess` doesn't exist.", "test/harness"},
		{"Flask outside its application context is the test's setup", "RuntimeError: Working outside of the application context.", "test/harness"},
		{"MkDocs without its config file ran in the wrong directory", "INFO     -  Building documentation... Error: Config file 'mkdocs.yml' does not exist.", "test/harness"},
		{"a test's own fixture file missing is the test's", "FileNotFoundError: [Errno 2] No such file or directory: 'tests/resources/fixtures/sample.sqlite'", "test/harness"},
		{"env without the program it is asked for lacks the package", "/usr/bin/env: ‘python’: No such file or directory", "sandbox/package-path"},
		{"env's unquoted carriage return is a CRLF rewrite", "env: bash\\r: No such file or directory", "interface/encoding"},
		{"a renderer without a display lacks the display stack", "GLFW error: 65544, desc: X11: The DISPLAY environment variable is missing", "sandbox/package-path"},
		{"LaTeX without -shell-escape may not start programs", "! Package minted Error: You must invoke LaTeX with the -shell-escape flag.", "sandbox/process-spawn"},
		{"SQLite's text it cannot decode to UTF-8 is encoding", "sqlite3.OperationalError: Could not decode to UTF-8 column 'typeName' with text 'Dossier'", "interface/encoding"},
		{"two ends of an RPC that disagree on their API number is protocol", "The API number is not compatible between Unity and python. Python API : API-3, Unity API : API-2.", "interface/protocol"},
		{"a file missing inside an installed package is the package's", "Error: ENOENT: no such file or directory, open '/root/.npm/_npx/a81f55c0e6b93d27/node_modules/playwriter/dist/prompt.md'", "sandbox/package-path"},
		{"a user's file missing, in an error that names a package's frame, is still a file missing", "Error: ENOENT: no such file or directory, open 'data/input.csv' at Object.openSync (/app/node_modules/csv-loader/index.js:12:9)", "sandbox/storage-persistence"},
		{"Portuguese UTF-8 read as Latin-1 is mojibake", "conexÃ£o com banco de dados", "interface/encoding"},
		{"git without an extension's subcommand lacks the package", "git: 'lfs' is not a git command. See 'git --help'.", "sandbox/package-path"},
		{"SQLite refusing to write a read-only database is the file's permissions", "SQLITE_READONLY: attempt to write a readonly database", "sandbox/filesystem-permissions"},
		{"Jupyter's server forgetting a session is the kernel's session", "[W 02:00:29.818 NotebookApp] Session not found: session_id='a2c03b23-d41a-43fd-bd64-14969d9e4da9'", "sandbox/session-lifecycle"},
		{"a sandbox's command that timed out ran out of time", "✗ Failed (exit -1)\n  └ pytest -q tests/\n    sandbox error: command timed out", "sandbox/cpu-time"},
		{"an MCP server's JSON-RPC invalid session ID is the protocol's", `Streamable HTTP error: Error POSTing to endpoint: {"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid session ID: ff1fb4f7"},"id":11}`, "interface/protocol"},
		{"an MCP session unknown to a replica is the protocol's", "-32001 Service Unavailable: MCP session is unknown on this API instance. If you run multiple replicas, enable sticky sessions", "interface/protocol"},
		{"WebDriver's invalid session id stays the session's", "selenium.common.exceptions.InvalidSessionIdException: Message: invalid session id", "sandbox/session-lifecycle"},
		{"a file watch on a path out of inotify watches is a process limit", "[nodemon] Internal watch failed: watch /workspace/app/node_modules/.bin/sha.js ENOSPC", "sandbox/process-spawn"},
		{"cargo's failed checksum is a download whose bytes changed on the way", "error: failed to verify the checksum of `tokio v1.37.0`", "interface/encoding"},
		{"MySQL's packet limit is a message size", "Packet for query is too large (1,287,879 > 1,048,576)", "interface/message-size"},
		{"an agent's bare request timeout is a tool past its wait", "Agent error: Request timed out.", "sandbox/cpu-time"},
		{"Py4J's empty answer is the JVM behind it gone for memory", "py4j.protocol.Py4JNetworkError: Answer from Java side is empty", "sandbox/memory"},
		{"a pickle that starts with '<' is an HTML page downloaded in its place", "UnpicklingError: invalid load key, '<'.", "sandbox/network-egress"},
		{"undici's body timeout on an MCP client is a stream gone quiet", "Error connecting to http://mcp-gw.internal:8931/sse: 0 TypeError: terminated: Body Timeout Error", "interface/protocol"},
		{"a remote browser that closed the CDP connection is the session's", "BrowserType.connect_over_cdp: Connection closed while reading from the driver", "sandbox/session-lifecycle"},
		{"WebdriverIO's wait for an element is the test's", `Error: element ("[class*=\"list-item\"]") still not visible after 5000ms`, "test/harness"},
		{"an accelerator's OOM is memory though it says ResourceExhausted", "tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating tensor with shape[1024,1024,64]", "sandbox/memory"},
		{"a Dask worker over its memory budget is memory", "distributed.nanny - WARNING - Worker exceeded 95% memory budget. Restarting", "sandbox/memory"},
		{"Jupyter's kernel that appears to have died was killed from outside, for memory", "The kernel appears to have died. It will restart automatically.", "sandbox/memory"},
		{"a time out that a sandbox client blames on the network is the time limit", "Failed to execute code, which is likely a network issue, please check if the sandbox service is running. ( Error: timed out )", "sandbox/cpu-time"},
		{"H2's file corrupted while reading is a stored file cut", `org.h2.message.DbException: File corrupted while reading record: "/data/q.mv.db". Possible solution: use the recovery tool [90030-214]`, "sandbox/storage-persistence"},
		{"a safetensors header cut short is a stored file cut", "SafetensorError: Error while deserializing header: MetadataIncompleteBuffer", "sandbox/storage-persistence"},
		{"glibc's failed TLS set-up for a new thread is process spawn", "Inconsistency detected by ld.so: ../elf/dl-tls.c: 481: _dl_allocate_tls_init: Assertion `listp != NULL' failed!", "sandbox/process-spawn"},
		{"uv's invalid peer certificate is TLS interception, the network's", "error: Failed to download https://github.com/x/y.tar.gz\n  Caused by: Request failed after 3 retries\n  Caused by: client error (Connect)\n  Caused by: invalid peer certificate: UnknownIssuer", "sandbox/network-egress"},
		{"Chrome's first DevTools call closing is a browser that died as it launched", "Protocol error (Target.setDiscoverTargets): Target closed", "sandbox/process-spawn"},
		{"a judge's bare TimeLimitExceeded is the time limit", "TimeLimitExceeded", "sandbox/cpu-time"},
		{"BuildKit's clipped log is a size limit", "#10 0.197 [output clipped, log limit 8MiB reached]", "interface/message-size"},
		{"a kernel gateway culling an idle kernel is the session's", "[W 2026-12-01 23:00:56.472 EnterpriseGatewayApp] Culling 'idle' kernel 'python_kubernetes' (3e588894-729d-409e-aef0-a9c1fede7cbd) with 0 connections due to 4111 seconds of inactivity.", "sandbox/session-lifecycle"},
		{"a PDF whose page closed while printing is over the DevTools message limit", "TargetCloseError: Protocol error (Page.printToPDF): Target closed", "interface/message-size"},
		{"a converter that could not find its program's binary is package-path", "Error converting file: Error: Could not find soffice binary", "sandbox/package-path"},
		{"tar's unexpected end of an archive is a stored file cut short", "tar: Unexpected EOF in archive", "sandbox/storage-persistence"},
		{"curl that cannot write what it downloads is storage, not the network", "curl: (23) Failed writing body (0 != 1161)", "sandbox/storage-persistence"},
		{"a JSON body cut at a column in the millions is a size limit", "org.openqa.selenium.WebDriverException: Failed parsing JSON source: JsonReader at line 1 column 25498852 to Json", "interface/message-size"},
		{"a CI runner that lost the server is the session's", "The hosted runner: GitHub Actions 5 lost communication with the server.", "sandbox/session-lifecycle"},
		{"a sandbox that wasn't found is the session's", `Error: sandbox "i8f2k" wasn't found`, "sandbox/session-lifecycle"},
		{"a test runner's hook timeout is the harness's", "Hook timed out in 10000ms", "test/harness"},
		{"malformed tool arguments are input validation, not protocol", "Could not parse tool input: {'name': 'search'} because the arguments is not valid JSON.", "interface/input-validation"},
		{"a tool schema array without items is input validation", "tool parameters array type must have items", "interface/input-validation"},
		{"Postgres refusing U+0000 is a NUL byte", "ERROR: unsupported Unicode escape sequence (SQLSTATE 22P05): U+0000 cannot be converted to text", "interface/null-byte"},
		{"text decoded in the wrong code page is encoding", "caf\u00c3\u00a9 na\u00c3\u00afve \u00e2\u20ac\u201cquoted\u00e2\u20ac\u009d", "interface/encoding"},
		{"Go's dialer failing is network egress", "dial tcp: lookup proxy.golang.org on 127.0.0.11:53: server misbehaving", "sandbox/network-egress"},
		{"a deadline exceeded is a time limit", "context deadline exceeded", "sandbox/cpu-time"},
		{"a missing MSVC is a package path", "error: Microsoft Visual C++ 14.0 or greater is required.", "sandbox/package-path"},
		{"a program Python's subprocess could not find is a package path", "FileNotFoundError: [Errno 2] No such file or directory: 'ffmpeg': 'ffmpeg'", "sandbox/package-path"},
		{"a wrapper that could not find its program is a package path", "RuntimeError: Failed to process string with tex because latex could not be found", "sandbox/package-path"},
		{"a driver that is not on the PATH is a package path", "WebDriverException: Message: 'chromedriver' executable needs to be in PATH.", "sandbox/package-path"},
		{"an init that cannot exec its program is a package path", "[FATAL tini (6)] exec uvicorn failed: No such file or directory", "sandbox/package-path"},
		{"a data file that is gone stays storage", "FileNotFoundError: [Errno 2] No such file or directory: '/workspace/out/report.csv'", "sandbox/storage-persistence"},
		{"a program Go could not exec is a package path", "fork/exec /usr/bin/google-chrome: no such file or directory", "sandbox/package-path"},
		{"uv without a Python is a package path", "error: No interpreter found in managed installations or search path", "sandbox/package-path"},
		{"a program subprocess could not spawn is a package path in any language", "  File \"/opt/conda/lib/python3.8/site-packages/matplotlib/texmanager.py\", line 233, in _run_checked_subprocess\n    report = subprocess.check_output(\n  File \"/opt/conda/lib/python3.8/subprocess.py\", line 1704, in _execute_child\n    raise child_exception_type(errno_num, err_msg, err_filename)\nFileNotFoundError: [Errno 2] 没有那个文件或目录: 'latex'\n\nThe above exception was the direct cause of the following exception:", "sandbox/package-path"},
		{"an MCP request that timed out is cpu time", "Error: Failed to execute tool 'nb_multi_step_execute': MCP error -32001: Request timed out", "sandbox/cpu-time"},
		{"the Python SDK's wait for an answer is cpu time", "mcp.shared.exceptions.McpError: Timed out while waiting for response to ClientRequest. Waited 5.0 seconds.", "sandbox/cpu-time"},
		{"a Jupyter message with the wrong HMAC is protocol", "ValueError: Invalid Signature: 'f54efdfa8edf4383defb654e8fada95a'", "interface/protocol"},
		{"file watchers out of inotify watches is a process limit", "Error: watch /app/src ENOSPC { code: 'ENOSPC', syscall: 'watch' }", "sandbox/process-spawn"},
		{"a line that says what disappeared is read though it says no error", "Starting a Gradle Daemon (subsequent builds will be faster)\nThe message received from the daemon indicates that the daemon has disappeared.\nBuild request sent: Build{id=1}", "sandbox/memory"},
		{"a locator that matches two elements is the test's", "locator.click: Error: strict mode violation: getByRole('button') resolved to 2 elements", "test/harness"},
		{"a stale element is the test's", "selenium.common.exceptions.StaleElementReferenceException: Message: stale element reference: element is not attached to the page document", "test/harness"},
		{"a harness passing a flag its tool lacks is the test's", "error: unrecognized arguments: --timeout 300", "test/harness"},
		{"V8's last GCs before its heap ran out are memory", "<--- Last few GCs --->\n[17:0x5]    26490 ms: Mark-Compact (reduce) 2042.7 -> 2036.3 MB", "sandbox/memory"},
		{"torch writing to a full /dev/shm is memory", "RuntimeError: unable to write to file </torch_31911_952036340_6686>: No space left on device (28)", "sandbox/memory"},
		{"Chrome that cannot write DevToolsActivePort is process spawn", "selenium.common.exceptions.WebDriverException: Message: unknown error: DevToolsActivePort file doesn't exist", "sandbox/process-spawn"},
		{"a config directory that is not writable is a filesystem permission", "Matplotlib created a temporary cache directory at /tmp/matplotlib-x because the default path (/home/u/.config/matplotlib) is not a writable directory", "sandbox/filesystem-permissions"},
		{"a browser profile locked by another browser is the session's", "The browser is already running for /data/profile. Use a different `userDataDir` or stop the running browser first.", "sandbox/session-lifecycle"},
		{"Playwright MCP's locked profile is the session's", "Error: Browser is already in use for /root/.cache/ms-playwright/mcp-chrome-1a2b3c, use --isolated to run multiple instances of the same browser", "sandbox/session-lifecycle"},
		{"a plan's limit on concurrent sessions is the session's", `{"detail": "Too many concurrent active sessions. Please wait for one to finish, kill one, or upgrade your plan."}`, "sandbox/session-lifecycle"},
		{"a kernel the restarter restarts is the session's", "KernelRestarter: restarting kernel (1/5), keep random ports", "sandbox/session-lifecycle"},
		{"a bare Chromium network error code is egress", "ERR_NAME_NOT_RESOLVED", "sandbox/network-egress"},
		{"a workspace whose files disappear is storage", "The mounted workspace path remains present, but all files disappear from the sandbox view.", "sandbox/storage-persistence"},
		{"a sandbox that does not persist files is storage", "Paused sandbox is not persisting the file changes after the second resume", "sandbox/storage-persistence"},
		{"unreachable Chrome defers to the driver's version on a later line", "WebDriverException: Message: unknown error: cannot connect to chrome at 127.0.0.1:9515\nfrom session not created: This version of ChromeDriver only supports Chrome version 114", "sandbox/package-path"},
		{"unreachable Chrome alone is the session's", "selenium.common.exceptions.WebDriverException: Message: chrome not reachable", "sandbox/session-lifecycle"},
		{"a zod type error wrapped in an MCP internal error is the arguments'", `McpError: MCP error -32603: [\n  {\n    "code": "invalid_type",\n    "expected": "string",\n    "received": "undefined"\n  }\n]`, "interface/input-validation"},
		{"a session id the SSE server has no transport for is protocol", "Error POSTing to endpoint (HTTP 400): No transport found for sessionId", "interface/protocol"},
		{"a tool that reads /etc/shadow for the agent is a traversal", "Using the `read_file` tool with `filePath: \"/etc/shadow\"` exposes hashed passwords", "interface/input-validation"},
		{"a path resolved with no containment check is a traversal", "the server resolves user-supplied paths with no containment check against the project root", "interface/input-validation"},
		{"PowerShell's UTF-16 read as bytes is encoding, not a NUL", "WSL help text prints extra null characters in Powershell", "interface/encoding"},
		{"a Go module whose checksum the sum database disagrees with is egress", "github.com/jackc/tern/v2@v2.2.1: verifying module: checksum mismatch\n\tdownloaded: h1:92gw=\n\tsum.golang.org: h1:kric=", "sandbox/network-egress"},
		{"binary files that come back corrupt are encoding", "Files that are downloaded using get 127.0.0.1 file binary are corrupt. This is only for binary files.", "interface/encoding"},
		{"a websocket closed with 1009 is a message too big", "DEBUG:websockets.server:! failing connection with code 1009", "interface/message-size"},
		{"a fork a policy refused is process spawn, whichever program asked", "javac: fork refused by policy", "sandbox/process-spawn"},
		{"fork refused for memory reads as memory: a RAM cap refuses tasks before a pids limit", "nsenter: Unable to fork: Cannot allocate memory", "sandbox/memory"},
		{"a compiler killed by a signal is memory", "c++: fatal error: signal terminated program cc1plus", "sandbox/memory"},
		{"a local file set wiped is storage", "Random disconnect and the entire local file set wiped.", "sandbox/storage-persistence"},
		{"a package cache that appears corrupted is storage", "CondaVerificationError: The package for scipy located at /opt/conda/pkgs/scipy-1.1.0 appears to be corrupted.", "sandbox/storage-persistence"},
		{"text with U+FFFD in it was decoded with the wrong codec", "Monsters.Ball.\ufffd\ufffd\ufffd.HR-HDTV.mp4", "interface/encoding"},
		{"an image whose bytes are not its declared media type is encoding", `{"type":"invalid_request_error","message":"messages.28.content.1.image.source.base64.data: Image does not match the provided media type image/jpeg"}`, "interface/encoding"},
		{"Playwright's Chromium sandboxing failed is process spawn", "Chromium sandboxing failed!\nTo workaround sandboxing issues, do either of the following:", "sandbox/process-spawn"},
		{"an SSE stream not found is the protocol's, not a program not found", "Error from remote server: StreamableHTTPError: Streamable HTTP error: Failed to open SSE stream: Not Found", "interface/protocol"},
		{"a shell's lower-case not found is still a program missing", "sh: 1: pdflatex: not found", "sandbox/package-path"},
		{"a FUSE mount gone from under a file is storage", "python3: can't open file '/home/user/volume/scripts/finetune.py': [Errno 107] Transport endpoint is not connected", "sandbox/storage-persistence"},
		{"ENOTCONN without a path is the mount's too", "OSError: [Errno 107] Transport endpoint is not connected", "sandbox/storage-persistence"},
		{"an MCP -32001 whose next line says the session is unknown is the session's", "proxy downstream error (404): {\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32001,\n\"message\":\"Not Found: MCP session is unknown or expired on this API instance.\"}}", "interface/protocol"},
		{"an MCP -32001 with a timeout's words is a request timed out", "McpError: MCP error -32001: Request timed out", "sandbox/cpu-time"},
		{"an MCP -32001 without words is the protocol's", `{"code":-32001,"data":{"timeout":60000},"name":"McpError"}`, "interface/protocol"},
		{"pytest's ERROR for a test is its setup's, the harness's", "ERROR tests/harness/test_session.py::test_teardown - RuntimeError: Event loop is closed", "test/harness"},
		{"a websocket text frame that is not UTF-8 is encoding", "WebSocket connection to 'wss://sandbox.example.net/api/kernels/x/channels' failed: Could not decode a text frame as UTF-8.", "interface/encoding"},
		{"a response body evicted from DevTools' cache is message size", "response.json: Protocol error (Network.getResponseBody): Request content was evicted from inspector cache", "interface/message-size"},
		{"an upload refused for its size is message size", "Cannot upload file (>25 MB) 'events_152mb.npz'", "interface/message-size"},
		{"a browser channel that is not installed is the package's", "Error: browserType.launch: Chromium distribution 'chrome' is not found at /opt/google/chrome/chrome", "sandbox/package-path"},
		{"a program past its run time limit is cpu time", "TimeLimitError: Program exceeded run time limit. on line 12", "sandbox/cpu-time"},
		{"a directory made straight under / that cannot be is permissions", "Error: ENOENT: no such file or directory, mkdir '/.playwright-mcp'", "sandbox/filesystem-permissions"},
		{"a directory made deeper that is missing stays storage", "Error: ENOENT: no such file or directory, mkdir '/work/out/run-3/charts'", "sandbox/storage-persistence"},
		{"a WAL that does not replay after a kill is storage, not memory", "INTERNAL Error: Failure while replaying WAL file\nprev_session=killed(SIGKILL)", "sandbox/storage-persistence"},
		{"SQLite that cannot open its file is permissions", "ServerDB: Failed initialization: unable to open database file", "sandbox/filesystem-permissions"},
		{"a Docker daemon that is not running is the session's", "docker: Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?.", "sandbox/session-lifecycle"},
		{"a spawn refused for the file's permissions is permissions", "Error: spawn /app/node_modules/puppeteer/.local-chromium/linux-564778/chrome-linux/chrome EACCES", "sandbox/filesystem-permissions"},
		{"ChromeDriver's characters outside the BMP are encoding", "WebDriverError: unknown error: ChromeDriver only supports characters in the BMP", "interface/encoding"},
		{"a read buffer past its maximum size is message size", "transport onerror → ReadBuffer exceeded maximum size of 10485760 bytes\ncallTool → MCP error -32000: Connection closed", "interface/message-size"},
		{"an x86 binary without its loader is the package's", "qemu-x86_64: Could not open '/lib64/ld-linux-x86-64.so.2': No such file or directory", "sandbox/package-path"},
		{"a driver that exits 127 is the package's", "chromedriver unexpectedly exited. Status code was: 127", "sandbox/package-path"},
		{"Chrome's crash handler without a database is permissions", "chrome_crashpad_handler: --database is required", "sandbox/filesystem-permissions"},
		{"Postgres's invalid message format is a NUL in the text", "SequelizeDatabaseError: invalid message format", "interface/null-byte"},
		{"Node's spawnSync out of buffer is message size", "spawnSync C:\\Windows\\system32\\cmd.exe ENOBUFS", "interface/message-size"},
		{"a container whose entrypoint shell is missing is the package's", `docker: Error response from daemon: OCI runtime create failed: container_linux.go:345: starting container process caused "exec: \"/bin/sh\": stat /bin/sh: no such file or directory": unknown.`, "sandbox/package-path"},
		{"a test its authors call flaky is the harness's", "Flaky under load: test_terminal_reads_the_clicked_tab", "test/harness"},
		{"a flaky test whose log names a refused connection is egress", "flaky: fetch failed\nError: connect ECONNREFUSED 10.0.0.5:443", "sandbox/network-egress"},
		{"an MCP session terminated in JSON-RPC is protocol", `JSONRPCError(code=32600, message="Session terminated")`, "interface/protocol"},
		{"an MCP error code wraps the cause a later line names", "McpError: MCP error -32603: Internal error\nCaused by: OSError: [Errno 28] No space left on device", "sandbox/storage-persistence"},
		{"an MCP error code wraps an argument schema refused", "[error] MCP error -32600: Invalid Request\n[error] tool parameters array type must have items", "interface/input-validation"},
		{"an MCP error code alone is protocol", "McpError: MCP error -32603: Internal error\n    at Client.request (client.js:12:5)", "interface/protocol"},
		{"bwrap refused a path is a filesystem permission", "bwrap: Can't mkdir parents for /tmp/ws-1/checkout: Permission denied", "sandbox/filesystem-permissions"},
		{"bwrap refused a namespace is process spawn", "bwrap: Creating new namespace failed: Operation not permitted", "sandbox/process-spawn"},
		{"a uid map refused is process spawn", "bwrap: setting up uid map: Permission denied", "sandbox/process-spawn"},
		{"chmod refused is a filesystem permission", "Error response from daemon: error while creating mount source path '/mnt/tank/b': chmod /mnt/tank/b: operation not permitted", "sandbox/filesystem-permissions"},
		{"TensorFlow's ResourceExhaustedError is memory though its first line names no OOM", "ResourceExhaustedError: 2 root error(s) found.\n  (0) Resource exhausted: OOM when allocating tensor with shape[16,112,112,147]", "sandbox/memory"},
		{"a Kubernetes object too long is message size", `The ConfigMap "grafana-dashboard" is invalid: metadata.annotations: Too long: must have at most 262144 bytes`, "interface/message-size"},
		{"a locale that is not installed is a package the image lacks", "perl: warning: Setting locale failed.\nperl: warning: Please check that your locale settings:", "sandbox/package-path"},
		{"a locale the C library cannot set is a package the image lacks, not a missing file", "locale: Cannot set LC_CTYPE to default locale: No such file or directory", "sandbox/package-path"},
		{"a lone surrogate that makes a body invalid JSON is encoding, not the JSON-RPC parser's", "API Error: 400 The request body is not valid JSON: no low surrogate in string: line 1 column 88417 (char 88416)", "interface/encoding"},
		{"S3's BadDigest is the body changed in transfer", "<Error><Code>BadDigest</Code><Message>The Content-MD5 you specified did not match what we received.</Message></Error>", "interface/encoding"},
		{"Azure's Md5Mismatch is the body changed in transfer", "<Code>Md5Mismatch</Code><Message>The MD5 value specified in the request did not match with the MD5 value calculated by the server.</Message>", "interface/encoding"},
		{"a tool result over the model's context window is message size", "stream error: stream disconnected before completion: Your input exceeds the context window of this model.", "interface/message-size"},
		{"a shared memory segment that cannot grow in /dev/shm is memory, not disk", `ERROR:  could not resize shared memory segment "/PostgreSQL.412969521" to 8409088 bytes: No space left on device`, "sandbox/memory"},
		{"ImageMagick's pixel cache out of resources is memory", "mogrify-im6.q16: cache resources exhausted `IMG_0931.jpg' @ error/cache.c/OpenPixelCache/4083.", "sandbox/memory"},
		{"a sandbox without systemd as init lacks a package, not a file", "System has not been booted with systemd as init system (PID 1). Can't operate.\nFailed to connect to bus: Host is down", "sandbox/package-path"},
		{"an encoder ffmpeg was built without is the package's", "Unknown encoder 'libx265'", "sandbox/package-path"},
		{"an image format ImageMagick has no delegate for is the package's", "convert: no decode delegate for this image format `HEIC' @ error/constitute.c/ReadImage/746.", "sandbox/package-path"},
		{"make that cannot find its compiler is the package's", "gfortran -c quick_add.f90 -o quick_add.o\nmake: gfortran: No such file or directory\nmake: *** [quick_add.o] Error 1", "sandbox/package-path"},
		{"a program Python could not spawn, named twice, is the package's", "[Errno 2] No such file or directory: 'ffprobe': 'ffprobe'", "sandbox/package-path"},
		{"a response cut short behind a proxy is message size", "GET http://localhost:4200/main.4c08e51db4dd31486eef.js net::ERR_CONTENT_LENGTH_MISMATCH 200 (OK)", "interface/message-size"},
		{"a script whose interpreter ends in a carriage return in curly quotes was rewritten to CRLF", "/usr/bin/env: ‘bash\\r’: No such file or directory", "interface/encoding"},
		{"a spreadsheet reader that finds an HTML page read an error page saved as the file", "xlrd.biffh.XLRDError: Unsupported format, or corrupt file: Expected BOF record; found '<!DOCTYP'", "sandbox/network-egress"},
		{"Playwright's host missing a few libraries is the package's", "Host system is missing a few dependencies to run browsers.", "sandbox/package-path"},
		{"a command a tool cannot find on the path is the package's", "error: Uncaught (in promise) Error: Could not find command 'npm'. Ensure it is available on the path.", "sandbox/package-path"},
		{"NCCL out of shared memory is memory, not disk", "include/shm.h:28 NCCL WARN Call to posix_fallocate failed: No space left on device", "sandbox/memory"},
		{"a dev server refusing the preview's host is input validation", `Blocked request. This host ("5173-r95a7c.preview.devbox.run") is not allowed.`, "interface/input-validation"},
		{"webpack's invalid host header is input validation", "Invalid Host header", "interface/input-validation"},
		{"a registry answering HTTP to a TLS client is protocol", "Get https://10.5.128.78:5000/v2/: http: server gave HTTP response to HTTPS client", "interface/protocol"},
		{"an MCP server that does not know the tool is protocol", "meta=None content=[TextContent(type='text', text='Error: Unknown tool: excel_format_range', annotations=None)] isError=True", "interface/protocol"},
		{"Deno refusing the network without its flag is egress", `error: Uncaught (in promise) PermissionDenied: Requires net access to "api.open-meteo.com:443", run again with the --allow-net flag`, "sandbox/network-egress"},
		{"Deno refusing a file without its flag is a file permission", `error: Uncaught PermissionDenied: Requires read access to "./data.csv", run again with the --allow-read flag`, "sandbox/filesystem-permissions"},
		{"PROJ without its database is the package's", "ERROR 1: PROJ: proj_create_from_database: Cannot find proj.db", "sandbox/package-path"},
		{"an implicit-TLS client on a STARTTLS port disagrees on the protocol", "ssl.SSLError: [SSL: WRONG_VERSION_NUMBER] wrong version number (_ssl.c:1131)", "interface/protocol"},
		{"multiprocessing without its semaphores cannot start its workers", `  File "/usr/local/lib/python3.11/multiprocessing/synchronize.py", line 30, in <module>\n    raise ImportError("This platform lacks a functioning sem_open implementation, therefore, the required synchronization primitives needed will not function, see issue 3770.")`, "sandbox/process-spawn"},
		{"lxml's huge text node is a size limit", "XMLSyntaxError: xmlSAX2Characters: huge text node, line 762, column 10003741", "interface/message-size"},
		{"Discord's length limit is message size", "DiscordAPIError[50035]: Invalid Form Body\ncontent[BASE_TYPE_MAX_LENGTH]: Must be 2000 or fewer in length.", "interface/message-size"},
		{"PHP's disabled process functions are process spawn", "PHP Warning:  escapeshellcmd() has been disabled for security reasons in /home/app/mail.php on line 12", "sandbox/process-spawn"},
		{"a subprocess killed past its timeout is time, not the exit code's memory", "lmms-eval subprocess exceeded timeout (1800s); killing.", "sandbox/cpu-time"},
		{"Node's spawnSync past its timeout is time, not the network", "Error: spawnSync /usr/bin/whisper ETIMEDOUT", "sandbox/cpu-time"},
		{"a Docker client newer than the daemon is protocol", "Error response from daemon: client version 1.40 is too new. Maximum supported API version is 1.39", "interface/protocol"},
		{"numpy built against another ABI is the package's", "ValueError: numpy.dtype size changed, may indicate binary incompatibility. Expected 96 from C header, got 88 from PyObject", "sandbox/package-path"},
		{"a Node addon built for another Node is the package's", "The module '/app/node_modules/sharp/build/Release/sharp.node'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 64.", "sandbox/package-path"},
		{"torch's lost file descriptors are process spawn", "RuntimeError: received 0 items of ancdata", "sandbox/process-spawn"},
		{"a spawned worker that cannot find __main__'s function is process spawn", "AttributeError: Can't get attribute 'f' on <module '__main__' (built-in)>", "sandbox/process-spawn"},
		{"io_uring refused is process spawn, not a file's permission", `Error: Error("unable to create io_uring backend: I/O error (io_uring_setup): permission denied")`, "sandbox/process-spawn"},
		{"a syscall the sandbox does not implement is process spawn", `write(0x4, 0x7fac, "sched_setattr: Function not implemented\n", 0x28)`, "sandbox/process-spawn"},
		{"a driver executable without its execute bit is a filesystem permission", "selenium.common.exceptions.WebDriverException: Message: 'chromedriver' executable may have wrong permissions.", "sandbox/filesystem-permissions"},
		{"chromedp unable to read an event is protocol", "2020/12/28 12:10:06 ERROR: could not unmarshal event: unknown InitiatorType value", "interface/protocol"},
		{"a path a server refused as outside its approved directory is input validation, not a file's permission", "Details: Access denied: path outside approved directory", "interface/input-validation"},
		{"a notebook kernel process that died is the session's", "07:58:29.872 [error] Disposing session as kernel process died ExitCode: undefined", "sandbox/session-lifecycle"},
		{"ChromeDriver no longer connected to DevTools is the session's", "selenium.common.exceptions.WebDriverException: Message: disconnected: not connected to DevTools", "sandbox/session-lifecycle"},
		{"TeX out of its capacity is memory", "! TeX capacity exceeded, sorry [pool size=5730208].", "sandbox/memory"},
		{"a crawler's request blocked with a 429 is egress", "WARN  PlaywrightCrawler: Reclaiming failed request back to the list or queue. Request blocked - received 429 status code.", "sandbox/network-egress"},
		{"data lost when the containers are recreated is storage", "docker-compose down causes data loss", "sandbox/storage-persistence"},
		{"a navigation timeout is a time limit met", "TimeoutError: Navigation timeout of 30000 ms exceeded", "sandbox/cpu-time"},
		{"Playwright's goto timeout is a time limit met", "page.goto: Timeout 15000ms exceeded.", "sandbox/cpu-time"},
		{"a DNS lookup that ran out of descriptors is the descriptor limit", "dial tcp: lookup registry.example.com on 10.0.0.2:53: dial udp 10.0.0.2:53: socket: too many open files", "sandbox/process-spawn"},
		{"a refused DevTools endpoint is a browser that is not running", "Error: connect ECONNREFUSED 127.0.0.1:9222", "sandbox/session-lifecycle"},
		{"connecting over CDP to nothing is a browser that is not running", "BrowserType.connect_over_cdp: connect ECONNREFUSED ::1:9222", "sandbox/session-lifecycle"},
		{"a refused connection to another local port stays egress", "Error: connect ECONNREFUSED 127.0.0.1:3128", "sandbox/network-egress"},
		{"musl's loader missing a library is the package path", "Error loading shared library libcrypto.so.3: No such file or directory (needed by /usr/bin/tool)", "sandbox/package-path"},
		{"the MCP SDK's bare Session not found is protocol", `Error: "Session not found"`, "interface/protocol"},
		{"pydantic refusing an argument's type is input validation", `{"type": "int_parsing", "msg": "Input should be a valid integer, unable to parse string as an integer"}`, "interface/input-validation"},
		{"Arrow's offset overflow is a size limit", "pyarrow.lib.ArrowInvalid: offset overflow while concatenating arrays", "interface/message-size"},
		{"a C compiler that is not installed is the package path", "error: command 'x86_64-linux-gnu-gcc' failed: No such file or directory", "sandbox/package-path"},
		{"a CUDA toolkit too old for the GPU is the package path", "nvcc fatal   : Unsupported gpu architecture 'compute_90'", "sandbox/package-path"},
		{"a generated file name past the limit is input validation", "OSError: [Errno 36] File name too long: '/data/out/report_2026_very_long_name.csv'", "interface/input-validation"},
		{"a Parquet file without its magic bytes is storage", "pyarrow.lib.ArrowInvalid: Parquet magic bytes not found in footer. Either the file is corrupted or this is not a parquet file.", "sandbox/storage-persistence"},
		{"the websockets library failing a connection with 1009 is a message too big", "! failing WebSocket connection: 1009\nwebsockets.exceptions.ConnectionClosed: WebSocket connection is closed: code = 1006 (connection closed abnormally [internal]), no reason", "interface/message-size"},
		{"headless Chrome's abnormal renderer termination is memory", "[1130/220334.324885:ERROR:headless_shell.cc(348)] Abnormal renderer termination.", "sandbox/memory"},
		{"e2b's hint of a sandbox timeout behind a 502 is the session's", "TimeoutError: <html>\n<head><title>502 Bad Gateway</title></head>\n</html>\n: This error is likely due to sandbox timeout. You can modify the sandbox timeout by passing 'timeout'", "sandbox/session-lifecycle"},
		{"the MCP SDK's invalid or missing session ID is protocol", "Invalid or missing session ID", "interface/protocol"},
		{"an installer that needs a newer glibc is the package path", "Installer requires GLIBC >=2.28, but system has 2.17.\nError: Process completed with exit code 1.", "sandbox/package-path"},
		{"Node's EPERM on copying a file is a filesystem permission, not a spawn", "EPERM: operation not permitted, copyfile '/tmp/playwright-artifacts-cc25e0/1633fc5d' -> '/mnt/shared/exports/orders.xlsx'", "sandbox/filesystem-permissions"},
		{"a shell's CPU budget spent is cpu time", "ShellLimitError: maxCpuMs", "sandbox/cpu-time"},
		{"a locator action that timed out is the test's", "TimeoutError: locator.click: Timeout 3000ms exceeded.\nCall log:\n  - waiting for getByRole('option').first()", "test/harness"},
		{"a locator named as the cause of a wait is the test's", "Timed out after waiting 5000ms Cause: Locator.click", "test/harness"},
		{"Playwright's bare timeout is a wait for the page that ran out", "playwright._impl._api_types.TimeoutError: Timeout 30000ms exceeded.", "sandbox/cpu-time"},
		{"Maven that cannot create its local repository is a filesystem permission", "[ERROR] Could not create local repository at /home/user/.m2/repository -> [Help 1]", "sandbox/filesystem-permissions"},
		{"a 404 for the MCP session in the transport is protocol", "Error executing tool run_code: transport error: request failed with status 404: session not found", "interface/protocol"},
		{"a failed WebSocket handshake is protocol", "WebSocket connection to 'ws://10.0.0.5:12345/api/kernels/eac5/channels' failed: Error during WebSocket handshake: Unexpected response code: 200", "interface/protocol"},
		{"V8's longest string is a size limit", "Error: Cannot create a string longer than 0x1fffffe8 characters\n    at Object.slice (node:buffer:593:37)", "interface/message-size"},
		{"Chinese text read back as cp1252 is encoding", "客户: ä¸Šæµ·", "interface/encoding"},
		{"a str where bytes were read back is encoding", "TypeError: a bytes-like object is required, not 'str'", "interface/encoding"},
		{"an argument list over the kernel's limit is a size limit", "-bash: /usr/bin/ls: Argument list too long", "interface/message-size"},
		{"Python's E2BIG is a size limit", "OSError: [Errno 7] Argument list too long: '/usr/bin/convert'", "interface/message-size"},
		{"Node's spawn E2BIG names the spawn", "Error: spawn E2BIG\n    at ChildProcess.spawn (node:internal/child_process:413:11)", "sandbox/process-spawn"},
		{"a lookup of undefined is a URL the test never set", "Error: getaddrinfo ENOTFOUND undefined undefined:3306", "test/harness"},
		{"curl resolving null is a URL the test never set", "curl: (6) Could not resolve host: null; Name or service not known", "test/harness"},
		{"curl resolving a scheme is a URL the test wrote twice", "Curl error: Could not resolve host: https", "test/harness"},
		{"Go's resolver looking up a scheme is a URL the test wrote wrong", "dial tcp: lookup http: no such host", "test/harness"},
		{"ssh resolving a scheme is a URL given for a host", "ssh: Could not resolve hostname https: Name or service not known", "test/harness"},
		{"curl resolving a real host is the network's", "curl: (6) Could not resolve host: pypi.org; Name or service not known", "sandbox/network-egress"},
		{"OpenDAP resolving a scheme is a URL the test wrote wrong", "OPeNDAP Error: Couldn't resolve host 'http:'", "test/harness"},
		{"Go's resolver looking up a scheme through a DNS server is a URL the test wrote wrong", "dial tcp: lookup https on 127.0.0.11:53: no such host", "test/harness"},
		{"Go's resolver looking up a host that starts with a scheme's letters is the network's", "dial tcp: lookup https.example.com: no such host", "sandbox/network-egress"},
		{"ssh resolving a host that starts with a scheme's letters is the network's", "ssh: Could not resolve hostname https.example.com: Name or service not known", "sandbox/network-egress"},
		{"a lookup of a scheme is a URL the test wrote twice", "Network error: wss://https://asd.io:443/websocket: getaddrinfo ENOTFOUND https https:443", "test/harness"},
		{"a lookup of an address with its port glued on is the test's", "Error: getaddrinfo ENOTFOUND 127.0.0.1:5000 127.0.0.1:5000:5432", "test/harness"},
		{"a hyphenated service named like a scheme is a real host", "Error: getaddrinfo ENOTFOUND https-portal", "sandbox/network-egress"},
		{"Node's spawnSync E2BIG names the spawn", "Error: spawnSync /bin/sh E2BIG", "sandbox/process-spawn"},
		{"a lookup of a real host that fails is egress", "Error: getaddrinfo ENOTFOUND registry.npmjs.org registry.npmjs.org:443", "sandbox/network-egress"},
		{"Node's EAI_AGAIN with the port is still egress", "npm ERR! network request to https://registry.npmjs.org/left-pad failed, reason: getaddrinfo EAI_AGAIN registry.npmjs.org:443", "sandbox/network-egress"},
		{"apk's temporary error is egress, not a missing file", "ERROR: https://dl-cdn.alpinelinux.org/alpine/v3.15/main: temporary error (try again later)\nWARNING: Ignoring https://dl-cdn.alpinelinux.org/alpine/v3.15/main: No such file or directory", "sandbox/network-egress"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cl := c.Classify(Failure{Status: "failed", Error: tt.error})
			if got := cl.Layer + "/" + cl.Primitive; got != tt.want {
				t.Errorf("got %s (%s), want %s", got, cl.By, tt.want)
			}
		})
	}
}

// TestPhrasesOfTheirOwnAreReadByTheirOwnRules covers phrases given rules
// of their own so that the model weighs each by its own record: the class
// alone would not tell them from the broader rule that read them before.
func TestPhrasesOfTheirOwnAreReadByTheirOwnRules(t *testing.T) {
	c := NewClassifier(nil)
	tests := []struct{ name, error, want string }{
		{"a process started before Python finished bootstrapping", "RuntimeError:\n        An attempt has been made to start a new process before the\n        current process has finished its bootstrapping phase.", "rule:process-before-bootstrap"},
		{"the same message with its line breaks escaped", `RuntimeError: \n        An attempt has been made to start a new process before the\n        current process has finished its bootstrapping phase.`, "rule:process-before-bootstrap"},
		{"an import Python calls circular", "ImportError: cannot import name 'JPAKE' from partially initialized module 'jpake' (most likely due to a circular import)", "rule:circular-import"},
		{"tcmalloc's large alloc beside a kernel's restart", "Oct 18, 2019, 7:54:49 AM | WARNING | WARNING:root:kernel b9e44794-c591-416b-a281-1a0873e0ca43 restarted\nOct 18, 2019, 7:54:49 AM | INFO | KernelRestarter: restarting kernel (1/5), keep random ports\nOct 18, 2019, 7:54:04 AM | WARNING | tcmalloc: large alloc 3011936256 bytes == 0x5bbf0000", "rule:tcmalloc-large-alloc"},
		{"tcmalloc's large alloc alone", "tcmalloc: large alloc 3011936256 bytes == 0x5bbf0000 @  0x7f1c2 0x7f1d3", "rule:tcmalloc-large-alloc-alone"},
		{"libjpeg's premature end alone", "Corrupt JPEG data: premature end of data segment", "rule:jpeg-cut-short"},
		{"a shell with no terminal to open", "./install.sh: line 12: /dev/tty: No such device or address", "rule:no-controlling-terminal"},
		{"Rust's InteriorNul printed as a struct", "called `Result::unwrap()` on an `Err` value: InteriorNul { position: 12 }", "rule:nul-byte"},
		{"Rust's InteriorNul inside FromBytesWithNulError", "ODBC driver indicated must indicate string length correctly.: FromBytesWithNulError { kind: InteriorNul(5) }", "rule:nul-byte"},
		{"Rust's NulError inside a test's panic", "thread 'tests::test_to_c_str' panicked at 'called `Result::unwrap()` on an `Err` value: NulError(0, [0])', src/lib.rs:65:29", "rule:nul-byte"},
		{"AppArmor refusing a signal", "AVC apparmor=\"DENIED\" operation=\"signal\" profile=\"docker-default\" pid=881 comm=\"dockerd\" requested_mask=\"receive\" denied_mask=\"receive\" signal=kill", "rule:apparmor-denied-process"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := c.Classify(Failure{Status: "failed", Error: tt.error}).By; got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
	for name, denial := range map[string]string{
		"AppArmor refusing a mount is no refused process":          `type=AVC msg=audit(1444521663.545:61650): apparmor="DENIED" operation="mount" info="failed srcname match" error=-13 profile="/usr/bin/docker" name="/.pivot_root465400889/"`,
		"AppArmor allowing an exec in complain mode is no refusal": `audit: type=1400 audit(1781605512.734:6720419): apparmor="ALLOWED" operation="exec" profile="snap.tool" name="/usr/sbin/blkid" pid=2101 comm="amd64"`,
		"Rust's missing terminator is no NUL in the data":          "called `Result::unwrap()` on an `Err` value: FromBytesWithNulError { kind: NotNulTerminated }",
	} {
		t.Run(name, func(t *testing.T) {
			got := c.Classify(Failure{Status: "failed", Error: denial}).By
			if got == "rule:apparmor-denied-process" || got == "rule:nul-byte" {
				t.Errorf("got %s, want any other reading", got)
			}
		})
	}
	t.Run("a serial device that is not there is no missing terminal", func(t *testing.T) {
		got := c.Classify(Failure{Status: "failed", Error: "avrdude: ser_open(): can't open device \"/dev/ttyUSB0\": No such device or address"}).By
		if got == "rule:no-controlling-terminal" {
			t.Errorf("got %s, want any other reading", got)
		}
	})
}

func TestEvidenceLine(t *testing.T) {
	text := "$ docker run --rm img\ndocker: invalid reference format: repository name must be lowercase.\nexit status 125\n"
	tests := []struct {
		name  string
		words []string
		want  string
		n     int
	}{
		{"the line with the most words wins", []string{"docker", "format", "reference"}, "docker: invalid reference format: repository name must be lowercase.", 3},
		{"the last of equal lines wins", []string{"docker"}, "docker: invalid reference format: repository name must be lowercase.", 1},
		{"no line holds none", []string{"quota"}, "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, n := evidenceLine(text, tt.words); got != tt.want || n != tt.n {
				t.Errorf("got %q (%d), want %q (%d)", got, n, tt.want, tt.n)
			}
		})
	}
}

func TestAGuessIsSignedByTheLineOfItsEvidence(t *testing.T) {
	// A model sure that "installation" and "still" are the test's own,
	// so that the case does not hang on what the shipped model learned.
	sure := &WordModel{
		Classes: []string{"sandbox/session-lifecycle", "test/harness"},
		Docs:    []int{500, 500},
		Words:   map[string][]int{"installation": {0, 500}, "still": {0, 500}},
	}
	cl := NewClassifierWith(nil, sure).Classify(Failure{Status: "failed", Error: "$ helm install web ./chart\nError: INSTALLATION FAILED: cannot re-use a name that is still in use"})
	if !strings.HasPrefix(cl.By, GuessBy) {
		t.Fatalf("got %s, want a guess: this case is about the line a guess signs with", cl.By)
	}
	if got, want := cl.Signature, "Error: INSTALLATION FAILED: cannot re-use a name that is still in use"; got != want {
		t.Errorf("got signature %q, want %q", got, want)
	}
}

func TestAnArtifactsDamageDecidesItsPrimitive(t *testing.T) {
	tests := []struct {
		name                 string
		err                  string
		damage               logview.Damage
		want, wantSeverity   string
		wantSignatureHolding string
	}{
		{"bytes cut at a NUL are null-byte, whatever the error says", "OSError: image file is truncated (6 bytes not processed)", logview.DamageCutAtNUL,
			"interface/null-byte", sandtrap.SeverityCritical, "image file is truncated"},
		{"bytes cut short are message-size, named so and critical", "assertion failed: report differs", logview.DamageCutShort,
			"interface/message-size", sandtrap.SeverityCritical, "artifact round trip truncated"},
		{"bytes decoded as text are encoding", "PIL.UnidentifiedImageError: cannot identify image file", logview.DamageMangled,
			"interface/encoding", sandtrap.SeverityCritical, "cannot identify image file"},
		{"bytes that do not say how are encoding, as before", "", logview.DamageUnknown,
			"interface/encoding", sandtrap.SeverityCritical, "artifact round trip changed the bytes of"},
		{"the rules' cut at a NUL stands when the bytes do not say", "downloaded 1536 of 23836 bytes: content truncated at first NUL byte (offset 1536)", logview.DamageUnknown,
			"interface/null-byte", sandtrap.SeverityCritical, "NUL"},
		{"the rules' cut at a NUL stands when the bytes say only that they were cut", "downloaded 1536 of 23836 bytes: content truncated at first NUL byte (offset 1536)", logview.DamageCutShort,
			"interface/null-byte", sandtrap.SeverityCritical, "NUL"},
		{"bytes cut at a NUL beat words that say the content was mangled", "UnicodeDecodeError: 'utf-8' codec can't decode byte 0x89 in position 0", logview.DamageCutAtNUL,
			"interface/null-byte", sandtrap.SeverityCritical, "codec can't decode"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cl := NewClassifier(nil).Classify(Failure{Error: tt.err, CorruptedArtifact: "photo.png", ArtifactDamage: tt.damage})
			if got := cl.Layer + "/" + cl.Primitive; got != tt.want {
				t.Errorf("got %s (%s), want %s", got, cl.By, tt.want)
			}
			if !strings.Contains(cl.ModeSignature(), tt.wantSignatureHolding) {
				t.Errorf("got signature %q, want it to hold %q", cl.ModeSignature(), tt.wantSignatureHolding)
			}
			if got, _ := Severity(cl.Layer, cl.Primitive, cl.ModeSignature()); got != tt.wantSeverity {
				t.Errorf("got severity %s, want %s", got, tt.wantSeverity)
			}
		})
	}
}

func TestRunContext(t *testing.T) {
	tests := []struct {
		name string
		f    Failure
		want string
	}{
		{"a failure the harness logged has its domain, target and exit status",
			Failure{Domain: "downloads", Target: "browser", ExitCode: ptr(1), LogTail: []byte("step 2 fetch\n")}, "downloads\x1fbrowser\x1f1"},
		{"one without an exit status says so",
			Failure{Domain: "builds", Target: "code-interpreter", LogTail: []byte("step 2 make\n")}, "builds\x1fcode-interpreter\x1f-"},
		{"one without a log has none: its message is all that is known",
			Failure{Domain: "builds", Target: "code-interpreter", ExitCode: ptr(2), Error: "make: *** [all] Error 2"}, ""},
		{"a log of blanks is no log",
			Failure{Domain: "builds", LogTail: []byte(" \n\t\n")}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := RunContext(&tt.f); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			if got := NewClassifier(nil).Classify(tt.f).Context; got != tt.want {
				t.Errorf("Classify: got context %q, want %q", got, tt.want)
			}
		})
	}
}

func TestAFailureWhoseToolsSpellAnotherFailuresWholeReadingKeyIsReadByItsOwnWords(t *testing.T) {
	// A user's rule on tools puts the tools in the failure key; the rules'
	// whole reading keys its decisions by that key and a hash of the text
	// it read. A failure whose last tool spells that hash must not be
	// given the other failure's whole reading.
	onTools := []Rule{{Name: "uploads", ErrorRegex: regexp.MustCompile(`never printed`), Tools: []string{"upload_file"}, Layer: "interface", Primitive: "message-size"}}
	a := Failure{Status: "failed", Error: "exit status 1", Tools: []string{"run_code"}, LogTail: []byte("Traceback (most recent call last):\nMemoryError")}
	c := NewClassifierWith(onTools, withoutRecords(GuessModel()))
	gotA := c.Classify(a)
	src := failureSource(&a)
	plain := c.failureKey(&a, src, normalizeSource(src), "")
	var wholeKeys []string
	c.wholes.m.Range(func(k, _ any) bool {
		wholeKeys = append(wholeKeys, k.(string))
		return true
	})
	if len(wholeKeys) != 1 || !strings.HasPrefix(wholeKeys[0], plain+"\x00") {
		t.Fatalf("got whole-reading keys %q, want one that starts with the failure's key", wholeKeys)
	}
	b := a
	b.Tools = append(append([]string(nil), a.Tools...), strings.Split(strings.TrimPrefix(wholeKeys[0], plain+"\x00"), "\x00")...)
	b.LogTail = []byte("curl: (6) Could not resolve host: files.example.com")
	if got := c.failureKey(&b, src, normalizeSource(src), ""); got != wholeKeys[0] {
		t.Fatalf("got key %q for the second failure, want it to spell the first's whole-reading key %q", got, wholeKeys[0])
	}
	gotB := c.Classify(b)
	alone := NewClassifierWith(onTools, withoutRecords(GuessModel())).Classify(b)
	if gotB.Primitive != alone.Primitive || gotB.By != alone.By {
		t.Errorf("got %s by %s after the other failure, want %s by %s as when classified alone", gotB.Primitive, gotB.By, alone.Primitive, alone.By)
	}
	if gotA.Primitive == alone.Primitive {
		t.Errorf("got both failures as %s, want their logs to decide them apart", gotA.Primitive)
	}
}

func TestTheModelDoesNotOverruleALookupOfNoHost(t *testing.T) {
	// The labelled record whose log the retrained model once read as
	// egress: a lookup of a scheme is a value the test wrote, whatever
	// the log's words.
	f := Failure{Status: "failed", Error: "Network error: wss://https://asd.io:443/websocket: getaddrinfo ENOTFOUND https https:443",
		LogTail: []byte("2026-12-04T23:10:02Z ws.connect url=wss://https://asd.io:443/websocket proxy=none\n2026-12-04T23:10:02Z dns lookup host=https -> ENOTFOUND\nexit=1")}
	cl := NewClassifier(nil).Classify(f)
	if got := cl.Layer + "/" + cl.Primitive; got != "test/harness" || cl.By != NoHostLookupRule {
		t.Errorf("got %s by %s, want test/harness by %s", got, cl.By, NoHostLookupRule)
	}
}

// TestRulesHoldAgainstTheModelBesideALog covers rules that a harness's
// log once outweighed: the learned model read a browser's log (a POST, a
// status) as the protocol's and "No space left on device" as a full disk,
// and the kill rule read a writer killed before a damaged index.
func TestRulesHoldAgainstTheModelBesideALog(t *testing.T) {
	tests := []struct {
		name string
		f    Failure
		want string
	}{
		{
			name: "Laravel's token mismatch is an expired session",
			f: Failure{
				Status: "failed",
				Target: "browser",
				Domain: "forms",
				Error:  "[2017-02-03 12:02:11] production.ERROR: exception 'Illuminate\\Session\\TokenMismatchException' in C:\\inetpub\\wwwroot\\inventory\\bootstrap\\cache\\compiled.php:3227",
				LogTail: []byte(`{"cdp": "Page.navigate", "url": "http://inventory.local/login", "status": 200}
{"cdp": "Input.dispatchMouseEvent", "target": "button[type=submit]", "idle_before_s": 2127, "app_lifetime_min": 15}
{"cdp": "responseReceived", "method": "POST", "url": "http://inventory.local/login", "status": 302}`),
			},
			want: "sandbox/session-lifecycle",
		},
		{
			name: "a shared object with no ELF header whose upload changed its bytes is encoding",
			f: Failure{
				Status: "failed",
				Target: "code-interpreter",
				Domain: "builds",
				Error:  "ImportError: /home/user/work/libdds/libdds.so: invalid ELF header",
				LogTail: []byte(`{"ts": "22:01:49", "method": "tools/call", "params": {"name": "upload_file", "arguments": {"path": "libdds/libdds.so", "content": "<2204136 bytes>", "mode": "text"}}}
22:02:28 sha256 local!=remote size_local=2204136 size_remote=2391580 first4: 7f454c46 -> 7fefbfbd
22:02:28 exit=1`),
			},
			want: "interface/encoding",
		},
		{
			name: "AppArmor refusing Chrome's ptrace is a refused process, though the renderer then crashed",
			f: Failure{
				Status: "failed",
				Target: "browser",
				Domain: "browsing",
				Error:  `[24977.331806] audit: type=1400 audit(1796598098.634:203): apparmor="DENIED" operation="ptrace" profile="docker-default" pid=6051 comm="Chrome_IOThread" requested_mask="trace" denied_mask="trace" peer="docker-default"`,
				LogTail: []byte(`{"tool": "browser.launch", "args": ["--no-zygote"], "pid": 6040}
{"cdp": "Target.targetCreated", "type": "page", "url": "https://example.org/player"}
{"cdp": "Inspector.targetCrashed"}`),
			},
			want: "sandbox/process-spawn",
		},
		{
			name: "a process started before Python finished bootstrapping is the test's, whatever its children did",
			f: Failure{
				Status:   "failed",
				Target:   "code-interpreter",
				Domain:   "ml-training",
				ExitCode: ptr(1),
				Error:    "RuntimeError:\n        An attempt has been made to start a new process before the\n        current process has finished its bootstrapping phase.\n\n        This probably means that you are not using fork to start your\n        child processes and you have forgotten to use the proper idiom\n        in the main module:",
				LogTail:  []byte("22:29:43 run_python sbx=sbx-13cd18 file=/home/user/work/job.py\n22:29:44 python -c 'import multiprocessing as m; print(m.get_start_method())' -> spawn\n22:29:46 children started=7 children_exited=5 exit_code=1\n22:29:47 exit_status=1 elapsed_s=2.5"),
			},
			want: "test/harness",
		},
		{
			name: "a tensor shared through a full /dev/shm is memory",
			f: Failure{
				Status:   "failed",
				Target:   "code-interpreter",
				Domain:   "ml-training",
				ExitCode: ptr(1),
				Error:    "  File \"/opt/conda/lib/python3.10/site-packages/torch/storage.py\", line 374, in _share_fd_cpu_\n    return super()._share_fd_cpu_(*args, **kwargs)\nRuntimeError: unable to write to file </torch_8289_606636967_0>: No space left on device (28)",
				LogTail:  []byte("00:22:09 df -h /dev/shm -> shm 64M 0 64M 0% /dev/shm\n00:22:11 tool=code_exec train.py num_workers=8 batch=32\n00:23:07 df -h /dev/shm -> shm 64M 64M 0 100% /dev/shm\n00:23:09 exit=1"),
			},
			want: "sandbox/memory",
		},
		{
			name: "a Xapian index a killed writer left damaged is the store's damage, not the kill",
			f: Failure{
				Status:   "failed",
				Target:   "code-interpreter",
				Domain:   "data-analysis",
				ExitCode: ptr(1),
				Error:    "mu_store_new_writable: xapian error 'Expected block 9 to be level 1, not 0' (11)",
				LogTail:  []byte("02:10:04 exec mu index (pid 5120) started\n02:13:04 exec cancelled: SIGKILL sent to process group after 180 s\n02:15:40 exec mu index started\n02:16:02 exec finished exit=1"),
			},
			want: "sandbox/storage-persistence",
		},
		{
			name: "a Xapian block overwritten is the store's damage, not the kill before it",
			f: Failure{
				Status:   "failed",
				Target:   "code-interpreter",
				Domain:   "data-analysis",
				ExitCode: ptr(1),
				Error:    "xapian_try: xapian error 'Block overwritten - run xapian-check on this database'",
				LogTail:  []byte("04:01:12 exec notmuch new started\n04:04:12 exec killed: SIGKILL after 180 s\n04:06:30 exec xapian-check ~/.mail/.notmuch/xapian started\n04:06:51 exec finished exit=1"),
			},
			want: "sandbox/storage-persistence",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := NewClassifier(nil).Classify(tt.f)
			if g := got.Layer + "/" + got.Primitive; g != tt.want {
				t.Errorf("got %s (%s), want %s", g, got.By, tt.want)
			}
		})
	}
}

// TestRulesReadOnlyTheirOwnWords covers readings narrowed after a review:
// an exception's name alone, or a bare "parse error", said more than the
// rule knew.
func TestANULAtALogLinesStartSignsWithThatLine(t *testing.T) {
	got := NewClassifier(nil).Classify(Failure{Status: "failed", Error: "RuntimeWarning: Exception raised outside body",
		LogTail: []byte("NUL character in traceback with postgres DB backend\n  File \"/srv/app/compiler.py\", line 1289, in execute_sql\n")})
	if got.By != "rule:nul-byte" {
		t.Fatalf("got %s/%s by %s, want by rule:nul-byte", got.Layer, got.Primitive, got.By)
	}
	if !strings.Contains(got.Signature, "NUL character in traceback") {
		t.Errorf("got signature %q, want the log line that names the NUL", got.Signature)
	}
}

// TestGdbPacketIsReadWhateverItsName covers a reading inside a quoted
// name the normaliser masks: each message gets a classifier of its own, so
// no cached decision of another packet's name answers for it.
func TestGdbPacketIsReadWhateverItsName(t *testing.T) {
	for _, msg := range []string{
		"Remote 'g' packet reply is too long",
		"Remote 'p' packet reply is too long",
	} {
		t.Run(msg, func(t *testing.T) {
			got := NewClassifier(nil).Classify(Failure{Error: msg})
			if got.By != "rule:protocol-version" {
				t.Errorf("got %s/%s by %s, want rule:protocol-version", got.Layer, got.Primitive, got.By)
			}
		})
	}
}

func TestRulesReadOnlyTheirOwnWords(t *testing.T) {
	c := NewClassifier(nil)
	tests := []struct {
		name, error string
		wantBy      string
		wantNot     bool
	}{
		{"pip that cannot open the requirements file it was named is read as the test's",
			"ERROR: Could not open requirements file: [Errno 2] No such file or directory: 'requirements-build.txt'", "rule:harness-error", false},
		{"SQLAlchemy's pool run out is read as the test's, not as blocked egress",
			"sqlalchemy.exc.TimeoutError: QueuePool limit of size 5 overflow 10 reached, connection timed out, timeout 30.00", "rule:harness-error", false},
		{"Chrome's zygote refused its renderer's OOM score is read as the process's start, not memory",
			"[0102/142510.536424:ERROR:zygote_host_impl_linux.cc(268)] Failed to adjust OOM score of renderer with pid 44: Permission denied (13)", "rule:oom-score-not-adjusted", false},
		{"a kernel's OOM kill is not read as an OOM score refused",
			"Out of memory: Killed process 446321 (python) total-vm:194467732kB, anon-rss:107278388kB, oom_score_adj:0", "rule:oom-score-not-adjusted", true},
		{"btoa refusing a character outside Latin-1 is read as the text's encoding",
			"Failed to execute 'btoa' on 'Window': The string to be encoded contains characters outside of the Latin1 range.", "rule:encoding", false},
		{"sysctl refused by a read-only /proc/sys is read as a file's permissions, whatever key it names",
			`sysctl: setting key "fs.inotify.max_user_watches": Read-only file system`, "rule:proc-sys-refused", false},
		{"sysctl refused a key is read as a file's permissions, whatever key it names",
			`sysctl: permission denied on key "fs.inotify.max_user_watches"`, "rule:proc-sys-refused", false},
		{"procps' older refusal is read as a file's permissions",
			`error: "Read-only file system" setting key "fs.inotify.max_user_watches"`, "rule:proc-sys-refused", false},
		{"a shell that cannot write a key's file is read as a file's permissions",
			"sh: can't create /proc/sys/fs/inotify/max_user_watches: Read-only file system", "rule:proc-sys-refused", false},
		{"a key's file that cannot be opened is read as a file's permissions",
			"/proc/sys/kernel/perf_event_paranoid: Permission denied", "rule:proc-sys-refused", false},
		{"sysctl that cannot find a key is not read as a refusal",
			`sysctl: cannot stat /proc/sys/fs/inotify/max_user_watches: No such file or directory`, "rule:proc-sys-refused", true},
		{"a read-only file outside /proc/sys is not read as a key refused",
			"cp: cannot create regular file '/usr/lib/python3/dist-packages/x.py': Read-only file system", "rule:proc-sys-refused", true},
		{"a watch refused for space is read by the limit rule, not as a full disk",
			"filewatcher listener encountered error when add watch: no space left on device", "rule:fd-limit", false},
		{"pyuv's watch refused for space is read by the limit rule",
			"pyuv._cpyuv.error.FSEventError: (-28, 'no space left on device')", "rule:fd-limit", false},
		{"pyinotify's watch refused for space is read by the limit rule",
			"2017-10-19 08:54:02,971 pyinotify ERROR] add_watch: cannot watch /var/www/html/app/database WD=-1, Errno=No space left on device (ENOSPC)", "rule:fd-limit", false},
		{"tail's watch refused for space is read by the limit rule",
			"tail: cannot watch '/var/log/app.log': No space left on device", "rule:fd-limit", false},
		{"a watch refused for a missing folder is not read by the limit rule",
			"tail: cannot watch parent directory of '/var/log/app.log': No such file or directory", "rule:fd-limit", true},
		{"a full disk after the word watch is not read by the limit rule",
			"OSError: [Errno 28] No space left on device: '/srv/watch/out.log'", "rule:fd-limit", true},
		{"a write to a full disk is not read by the limit rule",
			"OSError: [Errno 28] No space left on device: '/tmp/add/watch.log'", "rule:fd-limit", true},
		{"nginx's request body over its limit is read by the message-size rule",
			"2017/06/23 15:06:29 [error] 6#6: *75297 client intended to send too large chunked body: 1080562 bytes", "rule:message-size", false},
		{"PHP's upload over upload_max_filesize is read by the message-size rule",
			"The uploaded file exceeds the upload_max_filesize directive in php.ini.", "rule:message-size", false},
		{"Symfony's upload over upload_max_filesize is read by the message-size rule",
			`The file "big.zip" exceeds your upload_max_filesize ini directive (limit is 2048 KiB).`, "rule:message-size", false},
		{"an API's order not found in Spanish is no missing program",
			`{"error":"Orden no encontrada","status":404}`, "rule:package-path", true},
		{"a team not found in Russian is no missing program",
			`HTTP 404: {"detail": "Команда не найдена"}`, "rule:package-path", true},
		{"a bot's command not found in Portuguese, mid-line, is no missing program",
			"Erro: comando não encontrado. Use !ajuda para ver os comandos", "rule:package-path", true},
		{"ThreadSanitizer that cannot allocate its shadow is read by the memory rule",
			"==903==ERROR: ThreadSanitizer failed to allocate 0x000000a61000 (10883072) bytes at 0x200dc70a1c000 (error code: 87)", "rule:memory", false},
		{"a Rust test's own thread that overflowed its stack is not read as the sandbox's memory",
			"thread 'tests::parse_deeply_nested' has overflowed its stack\nfatal runtime error: stack overflow\nerror: test failed, to rerun pass `--lib`", "rule:memory", true},
		{"a script's own imageUrl() undefined is no extension missing",
			"Call to undefined function App\\Helpers\\imageUrl()", "rule:package-path", true},
		{"a script's own xml_to_array() undefined is no extension missing",
			"PHP Fatal error:  Uncaught Error: Call to undefined function xml_to_array() in /var/www/html/lib.php:8", "rule:package-path", true},
		{"curl_exec undefined after curl_init worked is disable_functions, no extension missing",
			"PHP Fatal error:  Uncaught Error: Call to undefined function curl_exec() in /var/www/html/fetch.php:20", "rule:package-path", true},
		{"a script's own bcrypt() undefined is no BCMath missing",
			"Fatal error: Call to undefined function bcrypt() in /var/www/html/auth.php:3", "rule:package-path", true},
		{"PHP's getmypid taken away by disable_functions is no extension missing",
			"PHP Fatal error: Uncaught Error: Call to undefined function Piwik\\CliMulti\\getmypid()", "rule:package-path", true},
		{"PHP's exec taken away by disable_functions is no extension missing",
			"PHP Fatal error:  Uncaught Error: Call to undefined function exec() in /var/www/html/index.php:12", "rule:package-path", true},
		{"a test folder named mojibake is not text decoded wrongly",
			"FAILED mojibake/test_decode.py::test_roundtrip - Timeout Expired", "rule:encoding", true},
		{"mojibake at a sentence's end is text decoded wrongly",
			"The page text is mojibake.", "rule:encoding", false},
		{"a file whose name holds mojibake is not text decoded wrongly",
			"[ERROR   ] Timeout Expired, failed to convert ./hayabusa_rules/builtin/win_mojibake_filename.yml", "rule:encoding", true},
		{"a fetch that returns mojibake is text decoded wrongly",
			"every browser-based fetch returns mojibake in the page's text", "rule:encoding", false},
		{"Groovy's missing method is the script's, not a library of another version",
			"groovy.lang.MissingMethodException: No signature of method: java.lang.String.call() is applicable for argument types: () values: []", "rule:library-version-skew", true},
		{".NET's missing constructor is the code's, not a library of another version",
			"System.MissingMethodException: No parameterless constructor defined for type 'Sandbox.Worker'.", "rule:library-version-skew", true},
		{".NET's binder that found no method is a library of another version",
			"System.MissingMethodException: Method not found: 'Void Newtonsoft.Json.JsonSerializerSettings.set_MaxDepth(System.Nullable`1<Int32>)'.", "rule:library-version-skew", false},
		{"a shebang's relative interpreter is the test's own path, not an interpreter missing",
			"-bash: ./build_install.sh: bin/bash: bad interpreter: No such file or directory", "rule:exec-not-on-path", true},
		{"jq's parse error is read by the bare parse error's rule",
			"parse error: Invalid numeric literal at line 1, column 57", "rule:parse-error", false},
		{"a Hive server older than its JDBC client leaves the client's protocol unset",
			"java.sql.SQLException: Could not establish connection to jdbc:hive2://127.0.0.1:10000/default: Required field 'client_protocol' is unset! Struct:TOpenSessionReq(client_protocol:null, configuration:{use:database=default})", "rule:protocol-version", false},
		{"Node's Hive client against an older server is read by the same rule",
			"{ TApplicationException: Required field 'client_protocol' is unset! Struct:TOpenSessionReq(client_protocol:null)\n    at exports.Client.TCLIServiceClient.recv_OpenSession (/srv/app/node_modules/hive-driver/dist/thrift/TCLIService.js:1027:13)", "rule:protocol-version", false},
		{"a test that unpacks more values than a call returns has a bug of its own",
			"Traceback (most recent call last):\n  File \"/work/tests/test_env.py\", line 14, in test_step\n    obs, reward, done, info = env.step(action)\nValueError: too many values to unpack (expected 4)", "rule:harness-error", false},
		{"a command's output sent to Windows' null device names no NUL byte",
			"Mixlib::ShellOut::CommandTimeout: execute[ping 127.0.0.1 -n 1000 > nul] (test::default line 10) had an error: Mixlib::ShellOut::CommandTimeout: command timed out:", "rule:nul-byte", true},
		{"a redirect to NUL with no space names no NUL byte either",
			"cmd /c \"dir 2>NUL\" failed: exit status 1", "rule:nul-byte", true},
		{"a NUL the message names is still read as one",
			"ValueError: embedded NUL character in path", "rule:nul-byte", false},
		{"a NUL an arrow points to is still read as one",
			"decoded 0x00 -> NUL at offset 12", "rule:nul-byte", false},
		{"Ansible's multiprocessing without /dev/shm cannot start its workers",
			"ERROR! Unable to use multiprocessing, this is normally caused by lack of access to /dev/shm: [Errno 13] Permission denied", "rule:multiprocessing-semaphores", false},
		{"Go's fork/exec of a path that is not a directory is a missing program",
			"Running playbook failed: fork/exec /usr/bin/ansible-playbook: not a directory", "rule:package-path", false},
		{"Go's fork/exec of a program that is not there is a missing program",
			"go build command-line-arguments: : fork/exec /usr/local/bin/gcc: no such file or directory", "rule:package-path", false},
		{"Go's fork/exec refused with EACCES is still the process rule's",
			"Running playbook failed: fork/exec /usr/bin/ansible-playbook: permission denied", "rule:process-spawn", false},
		{"a missing file named after fork/exec's own error is no missing program",
			"fork/exec /bin/sh: permission denied; open /tmp/out.log: no such file or directory", "rule:package-path", true},
		{"Go's fork/exec of an empty path is a missing program",
			"go build command-line-arguments: : fork/exec : no such file or directory", "rule:package-path", false},
		{"Proxmox's 401 for an invalid ticket is the login's end, not a file's permissions",
			"Build 'proxmox-iso.debian-12' errored after 2 hours 4 minutes: 401 permission denied - invalid PVE ticket", "rule:session-lifecycle", false},
		{"oauthlib's TokenExpiredError is the login's end",
			"oauthlib.oauth2.rfc6749.errors.TokenExpiredError", "rule:session-lifecycle", false},
		{"a field that names a token's expiry says nothing of the login",
			`{"user":"a","tokenExpired":false,"error":"ENOSPC: no space left on device, write"}`, "rule:session-lifecycle", true},
		{"a token's expiry time says nothing of the login either",
			"refresh failed: token expired_at=2026-12-06T22:00:00Z not parsed: invalid character", "rule:session-lifecycle", true},
		{"an API that says its token has expired is the login's end",
			"mendeley.exception.MendeleyApiException: The Mendeley API returned an error (status: 401, message: Could not access resource because: Token has expired", "rule:session-lifecycle", false},
		{"nsenter refused a namespace is a refused spawn, not a file's permissions",
			"nsenter: cannot open /proc/1/ns/ipc: Permission denied", "rule:process-spawn", false},
		{"nsenter that could not run its program is not a refused spawn",
			"nsenter: failed to execute /bin/bash: No such file or directory", "rule:process-spawn", true},
		{"a struct field of an unsigned width that a value overflows is the message's size",
			"struct.error: 'I' format requires 0 <= number <= 4294967295", "rule:message-size", false},
		{"safetensors' HeaderTooLarge is a stored file that is not the model",
			"safetensors_rust.SafetensorError: Error while deserializing header: HeaderTooLarge", "rule:storage-truncated", false},
		{"a read from a service on the sandbox's own host that timed out ran out of time",
			"requests.exceptions.ReadTimeout: HTTPConnectionPool(host='localhost', port=9000): Read timed out. (read timeout=30)", "rule:local-service-read-timeout", false},
		{"so did one over HTTPS to the loopback",
			"elasticsearch.exceptions.ConnectionTimeout: ConnectionTimeout caused by - ReadTimeoutError(HTTPSConnectionPool(host='127.0.1.1', port=9200): Read timed out. (read timeout=10))", "rule:local-service-read-timeout", false},
		{"a read from another host that timed out is not read as the time limit",
			"requests.exceptions.ReadTimeout: HTTPSConnectionPool(host='pypi.org', port=443): Read timed out. (read timeout=15)", "rule:local-service-read-timeout", true},
		{"a read through a proxy on the loopback that timed out waited on the way out",
			"pip._vendor.urllib3.exceptions.ReadTimeoutError: HTTPConnectionPool(host='127.0.0.1', port=3128): Read timed out. (read timeout=15)", "rule:proxy-read-timeout", false},
		{"Wine's prefix that is not the user's is a file's permissions",
			"wine: '/workspace/prefix64' is not owned by you", "rule:filesystem-permissions", false},
		{"a page an agent does not own is no file's permissions",
			"page 3 is not owned by this agent", "rule:filesystem-permissions", true},
		{"a file no package owns is no file's permissions either",
			"file /usr/lib/python3/dist-packages/foo.py is not owned by any package", "rule:filesystem-permissions", true},
		{"OPC UA's closed session is the session's end",
			"Received ServiceFault requestHandle=26, result=StatusCode{name=Bad_SessionClosed, value=0x80260000, quality=bad}", "rule:session-lifecycle", false},
		{"so is a session id the server no longer knows",
			"asyncua.client.ua_client.UASocketProtocol - WARNING - ServiceFault (BadSessionIdInvalid, diagnostics: DiagnosticInfo()) from server received in response to ReadRequest", "rule:session-lifecycle", false},
		{"PostgreSQL with no background worker free could not start a process",
			"LOG:  no available background worker slots", "rule:process-spawn", false},
		{"so could TimescaleDB past its workers' limit",
			`"TimescaleDB background worker limit of 8 exceeded",,"Consider increasing timescaledb.max_background_workers."`, "rule:process-spawn", false},
		{"System V shared memory full is memory, not a full disk",
			"gr::vmcircbuf_sysv_shm: shmget (2): No space left on device", "rule:memory", false},
		{"as GDK says it too",
			"(pavucontrol:611): Gdk-WARNING **: shmget failed: error 28 (No space left on device)", "rule:memory", false},
		{".NET's runtime with no memory for its heap is memory, not a process refused",
			"GC heap initialization failed with error 0x8007000E\nFailed to create CoreCLR, HRESULT: 0x8007000E", "rule:memory", false},
		{"a CoreCLR that failed to start with no heap named is not read so",
			"error : Failed to create CoreCLR, HRESULT: 0x8007000E [/workspace/jobs/a.csproj]", "rule:memory", true},
		{"a full disk that names no shared memory stays the disk's",
			"OSError: [Errno 28] No space left on device: '/var/lib/influxdb/wal'", "rule:storage-persistence", false},
		{"nor does a full disk under a file named for shmget",
			"cp: error writing '/var/log/shmget.log': No space left on device", "rule:memory", true},
		{"nor one named for shmget in the current folder",
			"cp: error writing 'shmget.log': No space left on device", "rule:memory", true},
		{"an Elasticsearch cluster with no master stays with the storage rule",
			"ClusterBlockException[blocked by: [SERVICE_UNAVAILABLE/2/no master];] cluster_block_exception", "rule:storage-persistence", false},
		{"Elasticsearch's flood-stage watermark in its hyphenated words is a full disk",
			"high disk watermark exceeded; flood-stage watermark [95%] exceeded on [node-1], all indices on this node will be marked read-only", "rule:store-full-or-damaged", false},
		{"gopcua's unknown session is the session's end too",
			"opcua: read failed: StatusBadSessionIDInvalid (0x80250000)", "rule:session-lifecycle", false},
		{"PostgreSQL that failed to start a background worker could not start a process",
			`WARNING:  failed to start a background worker for job 1015 "Retention Policy [1015]"`, "rule:process-spawn", false},
		{"an Elasticsearch cluster with no master is no full disk",
			"ClusterBlockException[blocked by: [SERVICE_UNAVAILABLE/2/no master];] cluster_block_exception", "rule:store-full-or-damaged", true},
		{"Go's JSON decoder at a \\x escape is bytes that were no UTF-8",
			`ERR Error decoding JSON: invalid character 'x' in string escape code`, "rule:encoding", false},
		{"Python's JSON decoder at a string that never ends read a document cut short",
			"json.decoder.JSONDecodeError: Unterminated string starting at: line 1 column 1048571 (char 1048570)", "rule:message-size", false},
		{"an LDAP client that reached no server is the network's",
			"error: LDAP - Bind error -1  (Can't contact LDAP server)", "rule:network-egress", false},
		{"Java's MalformedInputException is bytes not in the charset read",
			"Caused by: java.nio.charset.MalformedInputException: Input length = 1", "rule:encoding", false},
		{"a WebSocket frame with a length the protocol has not is the protocol's",
			"RangeError: Invalid WebSocket frame: invalid payload length 126", "rule:http-framing", false},
		{"but one with invalid UTF-8 is the encoding's",
			"RangeError: Invalid WebSocket frame: invalid UTF-8 sequence", "rule:encoding", false},
		{"Go's scanner at a line longer than its buffer is the message's size",
			"ERROR: Error reading from stdout: bufio.Scanner: token too long", "rule:message-size", false},
		{"GnuPG that will not use a home folder it deems unsafe is a file's permissions",
			"gpg: WARNING: unsafe ownership on homedir '/home/sandbox/.gnupg'", "rule:filesystem-permissions", false},
		{"but GnuPG whose agent could not start is a refused spawn",
			"gpg: WARNING: unsafe ownership on homedir '/root/.gnupg'\ngpg: can't connect to the agent: IPC connect call failed", "rule:process-spawn", false},
		{"GNU grep that will not show a match in NUL-holding input is a null byte",
			"$ grep ALLOCATE turnserver.log\nBinary file turnserver.log matches", "rule:grep-binary-file", false},
		{"as grep 3.5 and later word it",
			"grep: (standard input): binary file matches", "rule:grep-binary-file", false},
		{"but a sentence that goes on past the match is not grep's",
			"Binary file matches the expected checksum, continuing", "rule:grep-binary-file", true},
		{"io_uring refused at setup is a refused spawn, though it says it could not allocate memory",
			"Unix_error: Cannot allocate memory io_uring_queue_init", "rule:io-uring-refused", false},
		{"and when seccomp refuses it",
			"[Warning] mysqld: io_uring_queue_init() failed with ENOSYS: check seccomp filters", "rule:io-uring-refused", false},
		{"PHP's trace that prints the password PDO was given is a secret shown, whatever refused the connection",
			"SQLSTATE[HY000] [2002] Connection refused\n#0 Connector.php(55): PDO->__construct('mysql:host=127.0.0.1;dbname=shop', 'shop', 'S3cr3t-staging-2026', Array)", "rule:secret-shown", false},
		{"a line that only names io_uring is no refusal",
			"liburing: io_uring_queue_init_params setup for 64 entries", "rule:io-uring-refused", true},
		{"a whole URL handed to Node's resolver as the host is the test's",
			"Error: getaddrinfo ENOTFOUND http://127.0.0.1:1880/flows\n    at GetAddrInfoReqWrap.onlookup [as oncomplete] (dns.js:66:26)", "rule:lookup-of-no-host", false},
		{"a host name the resolver could not find is not the test's",
			"Error: getaddrinfo ENOTFOUND registry.npmjs.org", "rule:lookup-of-no-host", true},
		{"Java's unknown host that names a URL is not read as the test's (Jenkins prints the URL it could not reach)",
			"Failed to resolve host name http://updates.jenkins.io/update-center.json. Perhaps you need to configure HTTP proxy?java.net.UnknownHostException: http://updates.jenkins.io/update-center.json", "rule:lookup-of-no-host", true},
		{"newuidmap that could not write a namespace's uid_map could not start the process",
			"lxc job-0417 20241209091212.204 ERROR    idmap_utils - ../lxc-6.0.2/src/lxc/idmap_utils.c:lxc_map_ids:245 - newuidmap failed to write mapping \"newuidmap: uid range [0-65536) -> [100000-165536) not allowed\"", "rule:process-spawn", false},
		{"a uid_map it could not open is the namespace's, not a file's permission",
			"Rootless podman in podman: \"error from newuidmap: newuidmap: open of uid_map failed: Permission denied\"", "rule:process-spawn", false},
		{"a uid_map under /proc that could not be opened is the namespace's, not a file's permission",
			"open /proc/self/uid_map: permission denied", "rule:process-spawn", false},
		{"a key named uid_map is no namespace's map",
			"KeyError: 'uid_map'", "rule:process-spawn", true},
		{"a file of the workspace named uid_map is still a file",
			"rm: cannot remove 'build/uid_map.json': Permission denied", "rule:process-spawn", true},
		{"GStreamer's pipeline that names an element no plugin provides lacks the plugin",
			`WARNING: erroneous pipeline: no element "qtdemux"`, "rule:package-path", false},
		{"an XPath error's capitalised No Element names no plugin",
			`XPathError: No Element "row" found in the document`, "rule:package-path", true},
		{"Home Assistant's websocket API refusing a command it does not know is the protocol's",
			"[547564692624] Received invalid command: browser_mod/connect", "rule:protocol", false},
		{"and so is its result frame's unknown_command",
			`{"id": 20, "type": "result", "success": false, "error": {"code": "unknown_command", "message": "Unknown command."}}`, "rule:protocol", false},
		{"snapd's socket that resets is its daemon gone, not the network",
			"error: cannot communicate with server: Post http://localhost/v2/snapctl: read unix @->/run/snapd-snap.socket: read: connection reset by peer", "rule:local-server-refused", false},
		{"an agent's socket that is not there is its daemon gone",
			"rpc error: code = Unavailable desc = connection error: desc = \"transport: Error while dialing: dial unix /run/agent/agent.sock: connect: no such file or directory\"", "rule:local-server-refused", false},
		{"a TCP connection that resets is still the network's",
			"Post https://api.snapcraft.io/v2/snaps/refresh: read tcp 10.0.2.15:50312->185.125.188.58:443: read: connection reset by peer", "rule:network-egress", false},
		{"LXD's socket that refuses is its daemon gone",
			"Error: Get \"http://unix.socket/1.0\": dial unix /var/snap/lxd/common/lxd/unix.socket: connect: connection refused", "rule:local-server-refused", false},
		{"a socket whose pipe broke is its daemon gone",
			"failed to send request: write unix @->/run/agent/agent.sock: write: broken pipe", "rule:local-server-refused", false},
		{"journald's datagram socket that is not there is its daemon gone",
			"failed to log: write unixgram @->/run/systemd/journal/socket: sendmsg: no such file or directory", "rule:local-server-refused", false},
		{"reading a Unix timestamp from a missing file is no socket",
			"failed to read unix timestamp from /tmp/stamp: open /tmp/stamp: no such file or directory", "rule:local-server-refused", true},
		{"Emscripten's errno 28 is an invalid argument, not a full disk",
			"OSError: [Errno 28] Invalid argument: 'folder1'", "rule:storage-persistence", true},
		{"and so it is with two spaces before it",
			"OSError: [Errno 28]  Invalid argument: 'folder1'", "rule:storage-persistence", true},
		{"Python's errno 28 in another language is still a full disk",
			"OSError: [Errno 28] Kein Speicherplatz mehr verfügbar: '/tmp/out.bin'", "rule:storage-persistence", false},
		{"PyTorch built without CUDA asserts in the library, not in the test",
			"AssertionError: Torch not compiled with CUDA enabled", "rule:package-path", false},
		{"and so does PyTorch on a driver too old for it",
			"The NVIDIA driver on your system is too old (found version 9000). Please update your GPU driver.", "rule:package-path", false},
		{"Firefox's refused cross-origin read is the browser's CORS block, as Chromium's is",
			"Cross-Origin Request Blocked: The Same Origin Policy disallows reading the remote resource at https://api.example.com/v1/items. (Reason: CORS header 'Access-Control-Allow-Origin' missing). Status code: 200.", "rule:network-egress", false},
		{"a server's own cross-origin refusal is not Firefox's",
			"403: cross-origin request blocked by server policy", "rule:network-egress", true},
		{"so is Chromium's preflight that fails the access check, without its lead-in",
			"Response to preflight request doesn't pass access control check: It does not have HTTP ok status.", "rule:network-egress", false},
		{"with a typographic apostrophe too",
			"Response to preflight request doesn’t pass access control check: It does not have HTTP ok status.", "rule:network-egress", false},
		{"an access check an application refused is no preflight",
			"ValueError: request does not pass access control check (user lacks role admin)", "rule:network-egress", true},
		{"Chromium's missing allow-origin header, alone",
			"Failed to load resource: No 'Access-Control-Allow-Origin' header is present on the requested resource.", "rule:network-egress", false},
		{"and a wildcard origin refused for a request with credentials",
			"The value of the 'Access-Control-Allow-Origin' header in the response must not be the wildcard '*' when the request's credentials mode is 'include'.", "rule:network-egress", false},
		{"a response that merely sets Access-Control-Allow-Origin is no CORS block",
			"HTTP/1.1 403 Forbidden\nAccess-Control-Allow-Origin: *\nContent-Type: text/html", "rule:network-egress", true},
		{"Node's spawn refused for a command line too long is the refused spawn E2BIG is",
			"Error: spawn ENAMETOOLONG\n    at ChildProcess.spawn (node:internal/child_process:421:11)", "rule:spawn-e2big", false},
		{"and so with the program named",
			"step failed: Failed to spawn claude: spawn claude.cmd ENAMETOOLONG", "rule:spawn-e2big", false},
		{"a file name too long to open is no spawn but the input's",
			"Error: ENAMETOOLONG: name too long, open '/workspace/out/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.txt'", "rule:input-validation", false},
		{"a Windows program path with spaces is still the spawn's",
			`Error: spawnSync C:\Program Files\Git\bin\git.exe ENAMETOOLONG`, "rule:spawn-e2big", false},
		{"and so when the path is quoted",
			`Error: spawn "C:\Program Files\Git\bin\bash.exe" ENAMETOOLONG`, "rule:spawn-e2big", false},
		{"a registry without the image named is the test's image, not a file's permission",
			"docker: Error response from daemon: pull access denied for docwhat/image-gallery, repository does not exist or may require 'docker login': denied: requested access to the resource is denied.", "rule:registry-image-missing", false},
		{"and so as containerd says it, without the image's name",
			"Error response from daemon: failed to resolve image: pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed", "rule:registry-image-missing", false},
		{"and an image named sandbox is no sandbox gone",
			"docker: Error response from daemon: pull access denied for cs50/sandbox, repository does not exist or may require 'docker login': denied: requested access to the resource is denied.", "rule:registry-image-missing", false},
		{"an expired registry token is the session's",
			"Error response from daemon: pull access denied for 123123.dkr.ecr.us-east-2.amazonaws.com/app, repository does not exist or may require 'docker login': denied: Your authorization token has expired. Reauthenticate and try again.", "rule:session-lifecycle", false},
		{"a name that holds sandbox is not the sandbox that timed out",
			"Error listing resources for MCP Server xml-sandbox: timed out", "rule:session-lifecycle", true},
		{"nor the one that was not found",
			"Error: image cs50/sandbox could not be found", "rule:session-lifecycle", true},
		{"while a sandbox that starts the word still is",
			"Error: sandbox abc123 not found", "rule:session-lifecycle", false},
		{"and so at the start of a later line",
			"command exited with code 1\nSandbox has expired", "rule:session-lifecycle", false},
		{"Jackson's refusal of a NUL between tokens is a NUL byte",
			"HAPI-1861: Failed to parse JSON encoded FHIR content: Illegal character ((CTRL-CHAR, code 0)): only regular white space (\\r, \\n, \\t) is allowed between tokens", "rule:nul-byte", false},
		{"Jackson's refusal of another control character is not",
			"com.fasterxml.jackson.core.JsonParseException: Illegal character ((CTRL-CHAR, code 31)): only regular white space (\\r, \\n, \\t) is allowed between tokens", "rule:nul-byte", true},
		{"SELinux denying a JIT executable memory refuses the process",
			`type=AVC msg=audit(1480946786.958:3174): avc:  denied  { execmem } for  pid=32684 comm="radiusd" scontext=system_u:system_r:radiusd_t:s0 tcontext=system_u:system_r:radiusd_t:s0 tclass=process`, "rule:process-spawn", false},
		{"and so does its denial of a change of user",
			`type=AVC msg=audit(1617972141.997:1124) : avc:  denied  { setuid } for  pid=9208 comm=brltty capability=setuid scontext=system_u:system_r:brltty_t:s0 tcontext=system_u:system_r:brltty_t:s0 tclass=capability`, "rule:process-spawn", false},
		{"SELinux denying a list of a process's own permissions refuses it too",
			`type=AVC msg=audit(1617972141.997:1126): avc:  denied  { execmem execstack } for  pid=1201 comm="java" scontext=system_u:system_r:container_t:s0 tcontext=system_u:system_r:container_t:s0 tclass=process`, "rule:process-spawn", false},
		{"and so does its denial of executable heap",
			`type=AVC msg=audit(1617972141.997:1127): avc:  denied  { execheap } for  pid=1201 comm="node" scontext=system_u:system_r:container_t:s0 tcontext=system_u:system_r:container_t:s0 tclass=process`, "rule:process-spawn", false},
		{"SELinux denying a read and a write is not read as a refused process",
			`type=AVC msg=audit(1617972141.997:1128): avc:  denied  { read write } for  pid=1201 comm="python3" name="data.db" dev="dm-0" ino=4243 scontext=system_u:system_r:container_t:s0 tcontext=unconfined_u:object_r:user_home_t:s0 tclass=file`, "rule:process-spawn", true},
		{"a list that holds a file's permission beside a process's is not either",
			`type=AVC msg=audit(1617972141.997:1129): avc:  denied  { execmem write } for  pid=1201 comm="java" scontext=system_u:system_r:container_t:s0 tcontext=system_u:system_r:container_t:s0 tclass=process`, "rule:process-spawn", true},
		{"SELinux denying a write is not read as a refused process",
			`type=AVC msg=audit(1617972141.997:1125): avc:  denied  { write } for  pid=1201 comm="python3" name="data" dev="dm-0" ino=4242 scontext=system_u:system_r:container_t:s0 tcontext=unconfined_u:object_r:user_home_t:s0 tclass=dir`, "rule:process-spawn", true},
		{"git's diffstat of an image as binary names no NUL",
			" docs/img/diagram.png | Bin 12008 -> 12007 bytes\n 1 file changed, 0 insertions(+), 0 deletions(-)", "rule:text-file-seen-binary", true},
		{"a regular expression's caret before an at sign in quotes is not read as a NUL",
			`Invalid configuration: "matchPackagePatterns": ["^@angular/"] matched no package`, "rule:nul-byte", true},
		{"git's revision syntax for a commit's parents is not read as a NUL",
			"fatal: ambiguous argument 'HEAD^@': unknown revision or path not in the working tree.", "rule:nul-byte", true},
		{"git's diffstat of a lock file as binary names no NUL, .gitattributes marks it so",
			" package-lock.json | Bin 102400 -> 103211 bytes", "rule:text-file-seen-binary", true},
		{"git's diffstat of a minified script as binary names no NUL",
			" dist/app.min.js | Bin 40211 -> 40377 bytes", "rule:text-file-seen-binary", true},
		{"git's diffstat of a PowerShell script as binary may be UTF-16, not a NUL",
			" scripts/setup.ps1 | Bin 2210 -> 2388 bytes", "rule:text-file-seen-binary", true},
		{"Xlib's lost display is read by the session rule, before the process rule reads its errno",
			"XIO:  fatal IO error 11 (Resource temporarily unavailable) on X server \":0.0\"", "rule:session-lifecycle", false},
		{"gdb's register packet too long is read by the protocol version rule",
			"Remote 'g' packet reply is too long", "rule:protocol-version", false},
		{"Gradio's refused path is read by the input-validation rule",
			"gradio.exceptions.InvalidPathError: Cannot move /mnt/data/out/chart.png to the gradio cache dir because it was not created by the application", "rule:input-validation", false},
		{"git's dubious ownership is read by the permissions rule",
			"fatal: detected dubious ownership in repository at '/srv/repo'", "rule:filesystem-permissions", false},
		{"asyncio's incomplete read is read by the stream rule, before truncation's",
			"asyncio.streams.IncompleteReadError: 0 bytes read on a total of 2 expected bytes", "rule:stream-ended-mid-frame", false},
		{"http.client's incomplete read, a body cut short, is not read by the stream rule",
			"http.client.IncompleteRead: IncompleteRead(4096 bytes read, 1024 more expected)", "rule:stream-ended-mid-frame", true},
		{"http.client's incomplete read stays truncation's",
			"http.client.IncompleteRead: IncompleteRead(4096 bytes read, 1024 more expected)", "rule:truncation", false},
		{"Python's refused URL is read by the URL rule",
			"URL can't contain control characters. '/a b' (found at least ' ')", "rule:url-characters-refused", false},
		{"Python's refused URL with two spaces is read by the URL rule too",
			"URL can't contain  control characters. '/a b' (found at least ' ')", "rule:url-characters-refused", false},
		{"Node's refused request path is read by the URL rule",
			"Request path contains unescaped characters", "rule:url-characters-refused", false},
		{"Hugging Face's missing snapshot folder is read by the hub rule",
			"Cannot find an appropriate cached snapshot folder for the specified revision on the local disk", "rule:hub-unreachable", false},
		{"Hugging Face's missing snapshot folder with two spaces is read by the hub rule too",
			"cannot find the appropriate snapshot  folder for the specified revision on the local disk", "rule:hub-unreachable", false},
		{"Hugging Face's file the hub does not hold is not read as the hub out of reach",
			"huggingface_hub.errors.EntryNotFoundError: 404 Client Error. Entry Not Found for url: https://huggingface.co/gpt2/resolve/main/model.bin.", "rule:hub-unreachable", true},
		{"Hugging Face's revision the hub does not hold is not read as the hub out of reach",
			"huggingface_hub.errors.RevisionNotFoundError: 404 Client Error. Revision Not Found for url: https://huggingface.co/api/models/gpt2/revision/v9.", "rule:hub-unreachable", true},
		{"Chrome's failed start is read by its own rule, before the crash rule",
			"session not created: Chrome failed to start: crashed.", "rule:chrome-start-crashed", false},
		{"Chrome's failed start with two spaces is read by its own rule too",
			"session not created: Chrome failed to  start: crashed.", "rule:chrome-start-crashed", false},
		{"ChromeDriver that does not support its Chrome is read by the version rule, though Chrome failed to start",
			"session not created: Chrome failed to start: crashed.\n  (session not created: This version of ChromeDriver only supports Chrome version 114", "rule:chromedriver-version-mismatch", false},
		{"a renderer that crashed after the start is not read as a failed start",
			"Error: Page crashed!", "rule:chrome-start-crashed", true},
		{"printing not available is read by the DevTools method rule",
			"Cannot make a PDF. Reason : -32000 - Printing is not available", "rule:cdp-method-unsupported", false},
		{"printing not available with two spaces is read by the DevTools method rule too",
			"Protocol error (Page.printToPDF): Printing is  not available", "rule:cdp-method-unsupported", false},
		{"BuildKit's ENOMEM is read by the memory rule",
			`failed to solve: ResourceExhausted: process "/bin/sh -c npm ci" did not complete successfully: cannot allocate memory`, "rule:accelerator-oom", false},
		{"BuildKit's ENOMEM with two spaces is read by the memory rule too",
			`failed to solve: ResourceExhausted: process "/bin/sh -c npm ci" did not complete successfully: cannot  allocate memory`, "rule:accelerator-oom", false},
		{"BuildKit's step that filled the disk is not read as memory",
			`failed to solve: ResourceExhausted: process "/bin/sh -c make" did not complete successfully: no space left on device`, "rule:accelerator-oom", true},
		{"Postfix's missing free space is read by its own rule, before the size rule reads its limit",
			"postfix/smtpd[782]: warning: not enough free space in mail queue: 9679581184 bytes < 1.5*message size limit", "rule:not-enough-free-space", false},
		{"a heap short of free space is not read as a full disk",
			"java.lang.OutOfMemoryError: not enough free space in the heap", "rule:not-enough-free-space", true},
		{"/dev/shm short of free space is not read as a full disk",
			"Error: not enough free space in /dev/shm", "rule:not-enough-free-space", true},
		{"a GPU short of free space is not read as a full disk",
			"CUDA error: not enough free space in device memory", "rule:not-enough-free-space", true},
		{"a hint to keep free space is not read as a full disk",
			"Please make sure there is enough free space in /tmp", "rule:not-enough-free-space", true},
		{"free space said with two spaces is read by the same rule",
			"You don't have enough free  space in /var/cache/apt/archives/", "rule:not-enough-free-space", false},
		{"a zip's CRC mismatch is read by its own rule, not as a file cut short",
			"zipfile.BadZipFile: Bad CRC-32 for file 'a.py'", "rule:zip-crc-mismatch", false},
		{"a zip that is no zip is not read as a CRC mismatch",
			"zipfile.BadZipFile: File is not a zip file", "rule:zip-crc-mismatch", true},
		{"Java's entry CRC that failed on a full volume is not read as Python's CRC mismatch",
			"java.util.zip.ZipException: invalid entry crc-32 (expected 0xd46c4ac7 but got 0x0)", "rule:zip-crc-mismatch", true},
		{"Keycloak's inactive token is read by the session rule",
			"Token is not active", "rule:session-lifecycle", false},
		{"a cancellation token that is not active is not read as a session's",
			"InvalidOperationException: CancellationToken is not active", "rule:session-lifecycle", true},
		{"Android's full device is read by the storage rule",
			"adb: failed to install app.apk: Failure [INSTALL_FAILED_INSUFFICIENT_STORAGE]", "rule:storage-persistence", false},
		{"an XML writer's control characters are not read as a refused URL",
			"ValueError: All strings must be XML compatible: Unicode or ASCII, no NULL bytes or control characters", "rule:url-characters-refused", true},
		{"Flask-WTF's session that lost its CSRF token is read by the CSRF rule",
			"Bad Request\nThe CSRF session token is missing.", "rule:csrf-token-rejected", false},
		{"Flask-WTF's lost session token with two spaces is read by the CSRF rule too",
			"400 Bad Request: The CSRF  session token is missing.", "rule:csrf-token-rejected", false},
		{"Flask-WTF's request sent without a CSRF token is not read as a lost session",
			"400 Bad Request: The CSRF token is missing.", "rule:csrf-token-rejected", true},
		{"Flask-WTF's refresh of a missing CSRF token is not read as a lost session",
			"INFO:flask_wtf.csrf:The CSRF token is missing.\nRefresh CSRF token error", "rule:csrf-token-rejected", true},
		{"Django's failed CSRF verification is read by the CSRF rule",
			"Forbidden (403)\nCSRF verification failed. Request aborted.", "rule:csrf-token-rejected", false},
		{"Django REST framework's refused CSRF token is read by the CSRF rule",
			`{"detail":"CSRF Failed: CSRF token missing or incorrect."}`, "rule:csrf-token-rejected", false},
		{"Rails's unverifiable CSRF token is read by the CSRF rule",
			"Can't verify CSRF token authenticity.", "rule:csrf-token-rejected", false},
		{"Jenkins's missing crumb is read by the CSRF rule",
			"WARNING hudson.security.csrf.CrumbFilter#doFilter: No valid crumb was included in request for /createItem by admin. Returning 403.", "rule:csrf-token-rejected", false},
		{"lusca's CSRF token mismatch is read by the CSRF rule",
			"Error: CSRF token mismatch\n    at checkCsrf (/opt/webui/node_modules/lusca/lib/csrf.js:151:18)", "rule:csrf-token-rejected", false},
		{"MediaWiki's badtoken is read by the CSRF rule",
			"WikiClientLibrary.OperationFailedException: badtoken:Invalid CSRF token.", "rule:csrf-token-rejected", false},
		{"a page without its CSRF token's meta tag is not read as a refusal",
			"CSRF token not found: https://laravel.com/docs/csrf#csrf-x-csrf-token", "rule:csrf-token-rejected", true},
		{"Django's origin check is not read as a refused token",
			`{"detail":"CSRF Failed: Origin checking failed - http://localhost:3000 does not match any trusted origins."}`, "rule:csrf-token-rejected", true},
		{"wandb's network error that resolved is not read by the network rule",
			"wandb: Network error resolved after 0:00:12.5, resuming normal operation.", "rule:network-egress", true},
		{"wandb's retry loop after a network error is read by the network rule",
			"wandb: Network error (ConnectTimeout), entering retry loop.", "rule:network-egress", false},
		{"a Windows path's folder named 0 is not read as a NUL",
			`mlflow.exceptions.MissingConfigException: Yaml file '..\mlruns\0\meta.yaml' does not exist.`, "rule:nul-byte", true},
		{"a merge of a Windows path's folder named 0 is not read as a NUL either",
			`Error while merging result .\pabot_results\0\output.xml`, "rule:nul-byte", true},
		{"a NUL escape before an escaped newline is still read as a NUL",
			`ValueError: fread("A,B\0\n1,2\n") stopped early`, "rule:nul-byte", false},
		{"a NUL escape before an octal escape is still read as a NUL",
			`unexpected bytes: '\005\026\a\0\002'`, "rule:nul-byte", false},
		{"a Windows folder named 0 before a capital is not read as a NUL",
			`Cannot open C:\runs\0\Reports\out.xml`, "rule:nul-byte", true},
		{"a Windows folder named 0 before a folder that starts like an escape is not read as a NUL",
			`FileNotFoundError: ..\mlruns\0\artifacts\model.pkl`, "rule:nul-byte", true},
		{"a Windows folder named 0 before a run id that starts with a digit is not read as a NUL",
			`FileNotFoundError: ..\mlruns\0\3f2a8b1c9d\meta.yaml`, "rule:nul-byte", true},
		{"a Windows file named 0 with an extension is not read as a NUL",
			`PIL.UnidentifiedImageError: cannot identify image file 'C:\\Users\\me\\Temp\\0.png'`, "rule:nul-byte", true},
		{"od's NUL escapes with their backslashes doubled in a log value are read as NULs",
			`stdout="0017640  \\0  \\0  \\0"`, "rule:nul-byte", false},
		{"a Windows folder named 0 with its backslashes doubled is not read as a NUL",
			`FileNotFoundError: [Errno 2] No such file or directory: '..\\mlruns\\0\\meta.yaml'`, "rule:nul-byte", true},
		{"a caret and an at sign starting a line are not read as a NUL",
			"ERROR: Unexpected bus error encountered in worker.\n^@Fatal Python error: Bus error", "rule:nul-byte", true},
		{"an at sign after a lone caret in a pointer line is not read as a NUL",
			"SyntaxError: invalid syntax\n    print(x) @ y\n            ^@", "rule:nul-byte", true},
		{"a JSON-RPC parse error frame is read by the frames' rule",
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`, "rule:jsonrpc-parse", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := c.Classify(Failure{Status: "failed", Error: tt.error})
			if (got.By == tt.wantBy) == tt.wantNot {
				t.Errorf("got %s/%s by %s, want by %s: %v", got.Layer, got.Primitive, got.By, tt.wantBy, !tt.wantNot)
			}
		})
	}
}

func TestReportsTwoDigestsOnlyWhereADigestIsNamed(t *testing.T) {
	const (
		a40 = "ed03d04a70551a4ffbf9116e714eb51c466c63a5"
		b40 = "eb0c3ecb03ad29695f960698731d8b97647c5ea8"
		a64 = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
		b64 = "60303ae22b998861bce3b28f33eec1be758a213c86c93c076dbe9f558c11c752"
	)
	tests := []struct {
		name, err, log string
		want           bool
	}{
		{"two sha256 digests that differ are reported", "sha256 mismatch: expected " + a64 + ", got " + b64, "", true},
		{"npm's shasum names a digest", "npm ERR! shasum check failed\nnpm ERR! Wanted: " + a40 + "\nnpm ERR! Found:  " + b40, "", true},
		{"two commit ids beside shallow name no digest", "fatal: shallow update not allowed: " + a40, "want " + b40, false},
		{"two ids beside a tensor's shape name no digest", "shape mismatch in layer " + a40, "run " + b40, false},
		{"one digest said twice is not two", "checksum " + a64 + " ok", "checksum " + a64, false},
		{"digests named in camelCase are reported", "upload verify failed: expectedSha256=" + a64 + " actualSha256=" + b64, "", true},
		{"a Sha at the start of a camelCase name names a digest", "ShaMismatch: " + a40 + " " + b40, "", true},
		{"abbreviated digests keyed in camelCase are reported", "expectedSha256=9040e3db6ff69df5 actualSha256=1234abcd5678ef90", "", true},
		{"shards keyed beside a hash ring are no digests", "consistent hash ring rebalanced: shard=9f1c2e3a4b moved, now shard=7d6e5f4a3b", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := reportsTwoDigests(&Failure{Error: tt.err, LogTail: []byte(tt.log)}); got != tt.want {
				t.Errorf("reportsTwoDigests(%q, %q) = %v, want %v", tt.err, tt.log, got, tt.want)
			}
		})
	}
}

func TestMessagesThatDifferOnlyInBlanksAreDecidedAlike(t *testing.T) {
	tests := []struct{ name, spaced, single string }{
		{"two spaces inside a thread limit's words", "prog: internal error: Ticker: Failed to spawn thread: Resource temporarily  unavailable", "prog: internal error: Ticker: Failed to spawn thread: Resource temporarily unavailable"},
		{"two spaces before a cgroup's controller", "cgroup: fork rejected by pids  controller", "cgroup: fork rejected by pids controller"},
		{"two spaces inside a system call's refusal", "OSError: [Errno 38] Function not  implemented", "OSError: [Errno 38] Function not implemented"},
		{"a tab between words", "shell spawn failed: out of\tpty devices", "shell spawn failed: out of pty devices"},
		{"two spaces inside a NUL's words", "TypeError: must be string without null  bytes, not unicode", "TypeError: must be string without null bytes, not unicode"},
		{"two spaces inside the JVM's thread limit", "java.lang.OutOfMemoryError: unable to create  new native thread", "java.lang.OutOfMemoryError: unable to create new native thread"},
		{"two spaces inside Python's thread limit", "RuntimeError: can't  start new thread", "RuntimeError: can't start new thread"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := NewClassifier(nil).Classify(Failure{Error: tt.single})
			if !strings.HasPrefix(want.By, "rule:") {
				t.Fatalf("got %s for %q, want a rule's decision; the case checks nothing", want.By, tt.single)
			}
			got := NewClassifier(nil).Classify(Failure{Error: tt.spaced})
			if got.Layer != want.Layer || got.Primitive != want.Primitive || got.By != want.By {
				t.Errorf("got %s/%s by %s for %q, want %s/%s by %s as for %q", got.Layer, got.Primitive, got.By, tt.spaced, want.Layer, want.Primitive, want.By, tt.single)
			}
		})
	}
}

func TestASandboxGoneOnALaterLineSignsTheFailure(t *testing.T) {
	c := NewClassifier(nil)
	tests := []struct {
		name, error, wantIn string
	}{
		{"a sandbox not found under a request's status", "Error: request failed with status 404\nSandbox abc123 not found", "not found"},
		{"a sandbox expired under an exit code", "command exited with code 1\nSandbox has expired", "expired"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := c.Classify(Failure{Status: "failed", Error: tt.error})
			if !strings.Contains(got.Signature, tt.wantIn) || !strings.Contains(strings.ToLower(got.Signature), "sandbox") {
				t.Errorf("got signature %q, want the sandbox's line (holding %q)", got.Signature, tt.wantIn)
			}
		})
	}
}
