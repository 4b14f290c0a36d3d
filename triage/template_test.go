package triage

import (
	"slices"
	"strings"
	"testing"
)

func TestTemplateTokens(t *testing.T) {
	tests := []struct {
		name, signature, want string
	}{
		{"placeholders, quoted names and paths are variables", "PermissionError: [Errno 13] Permission denied: '/workspace/out/<file>.csv'", "PermissionError: [Errno 13] Permission denied: <*>"},
		{"codes the normaliser keeps stay", "MCP error -32601: Method not found", "MCP error -32601: Method not found"},
		{"an exit code stays", "process exited with exit code 137", "process exited with exit code 137"},
		{"short digit runs in names stay", "python3 cannot load sha256 on x86_64", "python3 cannot load sha256 on x86_64"},
		{"an id joined to a word by an underscore is a variable", "Receiving block blk_-1608999687919862906 src", "Receiving block <*> src"},
		{"a URL is a variable", "GET https://pypi.org/simple/x failed", "GET <*> failed"},
		{"numbers joined to a word by underscores are an id", "Partition rdd_42_6 not found, computing it", "Partition <*> not found, computing it"},
		{"a name whose number has a dot stays", "version GLIBC_2.34 not found", "version GLIBC_2.34 not found"},
		{"a quoted single token is a variable", `KeyError: "stdout" raised`, "KeyError: <*> raised"},
		{"key=value pairs keep their keys", "getRecentTasks: num=<n>,flags=<n>,totalTasks=<n> ready=true", "getRecentTasks: num=<*>,flags=<*>,totalTasks=<*> ready=true"},
		{"key:value pairs keep their keys", "state.clipTopAmount:<n>, i:<n>", "<*> i:<*>"},
		{"a dotted package name is a variable", "com.apple.CacheDelete.daily: told me to run", "<*> told me to run"},
		{"a dotted exception name stays an anchor", "java.io.IOException: Broken pipe", "java.io.IOException: Broken pipe"},
		{"the first word of a quoted phrase is a word", `<ip> "GET /v2/<hex>/servers HTTP/1.1" len: 1893`, `<*> "GET <*> <*> len: <*>`},
		{"a status field's value varies like any other field's", `"GET /x HTTP/1.1" status: 404 len: 176`, `"GET <*> <*> status: <*> len: <*>`},
		{"a status code named as one is kept", "failed with status code 404", "failed with status code 404"},
		{"an HTTP status is kept", "server answered HTTP 503", "server answered HTTP 503"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := strings.Join(TemplateTokens(tt.signature), " "); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestAnchorToken(t *testing.T) {
	for tok, want := range map[string]bool{
		"PermissionError:": true, "java.io.IOException:": true, "ENOENT": true, "EAI_AGAIN": true,
		"net::ERR_NAME_NOT_RESOLVED": true, "-32700": true, "SIGKILL": true,
		"Error:": false, "denied": false, "<*>": false, "gcc": false, "EOF": true, "SCHEDULED": true, "HTTPS": true, "Ok": false, "****": true, "*": false,
	} {
		if got := AnchorToken(tok); got != want {
			t.Errorf("AnchorToken(%q): got %v, want %v", tok, got, want)
		}
	}
}

func TestGrouperAssign(t *testing.T) {
	type failure struct{ layer, primitive, signature string }
	fs := func(layer, primitive string, sigs ...string) []failure {
		var out []failure
		for _, s := range sigs {
			out = append(out, failure{layer, primitive, s})
		}
		return out
	}
	tests := []struct {
		name     string
		failures []failure
		want     int // distinct modes
	}{
		{"one cause with other paths, files and programs is one mode", fs("sandbox", "filesystem-permissions",
			"PermissionError: [Errno 13] Permission denied: '/workspace/out/<file>.csv'",
			"PermissionError: [Errno 13] Permission denied: '/home/agent/<file>.json'",
			"PermissionError: [Errno 13] Permission denied: '<name>'"), 1},
		{"a word the normaliser did not know varies is generalised", fs("sandbox", "process-spawn",
			"fork blocked for gcc in job", "fork blocked for javac in job", "fork blocked for rustc in job"), 1},
		{"two causes that differ in an anchor are two modes", fs("sandbox", "network-egress",
			"getaddrinfo ENOTFOUND <host>", "getaddrinfo EAI_AGAIN <host>"), 2},
		{"a cause wrapped in another tool's prefix is the same mode", fs("interface", "message-size",
			"grpc: received message larger than max (<n> vs. <n>)",
			"rpc error: code = ResourceExhausted desc = grpc: received message larger than max (<n> vs. <n>)"), 1},
		{"one error code in two sentences is one mode", fs("interface", "protocol",
			"McpException: Code: -32601, message: Method not found",
			"Error loading resource templates: MCP error -32601: Method not found: resources/templates/list"), 1},
		{"a message that restates two earlier templates joins them", fs("interface", "message-size",
			`"message":"Error occurred Max payload size exceeded and payload length is <n> and buffered length is <n>"`,
			"[!] null WebSocket Error: max payload size exceeded",
			"RangeError: Max payload size exceeded"), 1},
		{"a leaked secret is a mode apart from the same failure without one", fs("sandbox", "package-path",
			`{"ts": "<ts>", "workflow": "<name>", "step": <n>, "tool": "<name>", "arguments": {"cmd": "composer install --no-interaction"}, "exit": 1}`,
			`secret leaked in the error: {"ts": "<ts>", "workflow": "<name>", "step": <n>, "tool": "<name>", "arguments": {"cmd": "composer install --no-interaction"}, "exit": 1}`), 2},
		{"the same words in two primitives are two modes", []failure{
			{"sandbox", "memory", "worker died unexpectedly"}, {"sandbox", "session-lifecycle", "worker died unexpectedly"}}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := NewGrouper()
			var ids []string
			for _, f := range tt.failures {
				ids = append(ids, g.Assign(f.layer, f.primitive, f.signature).ModeID)
			}
			for i := range ids {
				ids[i] = g.Resolve(ids[i])
			}
			slices.Sort(ids)
			if got := len(slices.Compact(ids)); got != tt.want {
				t.Errorf("got %d modes %v, want %d", got, ids, tt.want)
			}
		})
	}
}

func TestGrouperKeepsIDsThroughARestart(t *testing.T) {
	g := NewGrouper()
	first := g.Assign("sandbox", "process-spawn", "fork blocked for gcc in job")
	second := g.Assign("sandbox", "process-spawn", "fork blocked for javac in job")
	if first.ModeID != second.ModeID || !second.Changed {
		t.Fatalf("got %s then %s (changed %v), want one mode that generalised", first.ModeID, second.ModeID, second.Changed)
	}
	if got, want := second.Template.Template, "fork blocked for <*> in job"; got != want {
		t.Errorf("got template %q, want %q", got, want)
	}
	restarted := NewGrouper()
	for _, t := range g.Templates() {
		restarted.Restore(t)
	}
	if id, ok := restarted.Lookup("sandbox", "process-spawn", "fork blocked for rustc in job"); !ok || id != first.ModeID {
		t.Errorf("after a restart got %q (known %v), want %s", id, ok, first.ModeID)
	}
	if got := restarted.Assign("sandbox", "process-spawn", "fork blocked for rustc in job").ModeID; got != first.ModeID {
		t.Errorf("after a restart got mode %s, want %s", got, first.ModeID)
	}
	if _, ok := restarted.Lookup("sandbox", "memory", "fork blocked for rustc in job"); ok {
		t.Error("a message of another primitive found a mode")
	}
}

func TestHowStrictlyAFailureRestatesDependsOnWhatPlacedIt(t *testing.T) {
	const (
		wrapped = "healthHandler: docker Info error: Error response from daemon: client version 1.52 is too new. Maximum supported API version is 1.43"
		bare    = "Error response from daemon: client version 1.52 is too new. Maximum supported API version is 1.43"
		most    = "could not refresh session token from identity provider upstream"
		other   = "could not refresh session token from the cache replica upstream now"
		gem     = "Gem::FilePermissionError: You don't have write permissions for the /var/lib/gems/3.0.0 directory."
		reword  = "You don't have write permissions into the /usr/lib/ruby/3.0.0 directory."
	)
	tests := []struct {
		name      string
		by        string
		layer     string
		sigs      [2]string
		wantModes int
	}{
		{"a guess wrapped in a prefix restates the bare sentence", GuessBy + "learned:daemon,version", "interface", [2]string{bare, wrapped}, 1},
		{"a guess in another wording of one sentence restates it", GuessBy + "learned:permission,write", "sandbox", [2]string{gem, reword}, 1},
		{"a guess that shares most words but not all is another mode", GuessBy + "learned:session,token", "sandbox", [2]string{most, other}, 2},
		{"a rule's failure that shares most words restates", "rule:session-lifecycle", "sandbox", [2]string{most, other}, 1},
		{"an unclassified failure wrapped in a prefix is another mode", ByNone, "unclassified", [2]string{bare, wrapped}, 2},
		{"a lean wrapped in a prefix is another mode, as if unclassified", GuessLeaning + "daemon,version", "interface", [2]string{bare, wrapped}, 2},
		{"the same lean twice is one mode", GuessLeaning + "daemon,version", "interface", [2]string{bare, bare}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := NewGrouper()
			primitive := map[string]string{"interface": "protocol", "sandbox": "session-lifecycle"}[tt.layer]
			ids := map[string]bool{}
			for _, sig := range tt.sigs {
				a := g.AssignClassified(Classification{Layer: tt.layer, Primitive: primitive, By: tt.by, Signature: sig}, nil)
				ids[g.Resolve(a.ModeID)] = true
			}
			if got := len(ids); got != tt.wantModes {
				t.Errorf("got %d modes, want %d", got, tt.wantModes)
			}
		})
	}
}

func TestATemplateJoinsTheOldestOfItsClassAndRunContext(t *testing.T) {
	const (
		pip    = "ERROR: Could not find a version that satisfies the requirement polars (from versions: none)"
		npm    = "npm ERR! code ETIMEDOUT npm ERR! errno ETIMEDOUT npm ERR! network request to the registry failed"
		ctx    = "package-install\x1fcode-interpreter\x1f1"
		other  = "downloads\x1fcode-interpreter\x1f1"
		byRule = "rule:network-egress"
	)
	egress := func(sig, context, by string) Classification {
		return Classification{Layer: "sandbox", Primitive: "network-egress", By: by, Signature: sig, Context: context}
	}
	tests := []struct {
		name      string
		first     Classification
		second    Classification
		wantModes int
	}{
		{"two messages of one class in one run context are one mode", egress(pip, ctx, byRule), egress(npm, ctx, byRule), 1},
		{"in another domain they are two", egress(pip, ctx, byRule), egress(npm, other, byRule), 2},
		{"without a log they are two: only their words are known", egress(pip, "", byRule), egress(npm, "", byRule), 2},
		{"a lean does not join by its context", egress(pip, ctx, byRule), egress(npm, ctx, GuessLeaning+"registry"), 2},
		{"a guess does", egress(pip, ctx, byRule), egress(npm, ctx, GuessLearned+"registry"), 1},
		{"nor does anything join a lean's", egress(pip, ctx, GuessLeaning+"registry"), egress(npm, ctx, byRule), 2},
		{"two known causes stay two", Classification{Layer: "sandbox", Primitive: "network-egress", By: byRule, Signature: pip, Cause: "[known:pip-index-unreachable] Package index unreachable", Context: ctx},
			Classification{Layer: "sandbox", Primitive: "network-egress", By: byRule, Signature: npm, Cause: "[known:npm-registry-unreachable] npm registry unreachable", Context: ctx}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := NewGrouper()
			a, b := g.AssignClassified(tt.first, nil), g.AssignClassified(tt.second, nil)
			ids := map[string]bool{g.Resolve(a.ModeID): true, g.Resolve(b.ModeID): true}
			if got := len(ids); got != tt.wantModes {
				t.Errorf("got %d modes, want %d", got, tt.wantModes)
			}
		})
	}
	t.Run("a lookup answers as mining would", func(t *testing.T) {
		g := NewGrouper()
		first := g.AssignClassified(egress(pip, ctx, byRule), nil).ModeID
		if id, ok := g.LookupClassified(egress(npm, ctx, byRule), nil); !ok || id != first {
			t.Errorf("in the same run context got %q (known %v), want %s", id, ok, first)
		}
		if id, ok := g.LookupClassified(egress(npm, other, byRule), nil); ok {
			t.Errorf("in another run context got %s, want a mode of its own", id)
		}
		if got := g.AssignClassified(egress(npm, ctx, byRule), nil).ModeID; got != first {
			t.Errorf("mined, got %s, want %s as looked up", got, first)
		}
	})
	t.Run("after a restart a new message joins as it would have before", func(t *testing.T) {
		g := NewGrouper()
		first := g.AssignClassified(egress(pip, ctx, byRule), nil).ModeID
		restarted := NewGrouper()
		for _, tm := range g.Templates() {
			restarted.Restore(tm)
		}
		if got := restarted.AssignClassified(egress(npm, ctx, byRule), nil).ModeID; got != first {
			t.Errorf("got mode %s, want %s", got, first)
		}
	})
}

func TestAFormRestatedAwayKeepsItsModeAfterARestart(t *testing.T) {
	sigs := []string{
		`"message":"Error occurred Max payload size exceeded and payload length is <n> and buffered length is <n>"`,
		"[!] null WebSocket Error: max payload size exceeded",
		"RangeError: Max payload size exceeded",
	}
	g := NewGrouper()
	first := g.Assign("interface", "message-size", sigs[0]).ModeID
	second := g.Assign("interface", "message-size", sigs[1]).ModeID
	third := g.Assign("interface", "message-size", sigs[2])
	if third.ModeID != first || !slices.Contains(third.Absorbed, second) {
		t.Fatalf("got mode %s absorbing %v, want %s absorbing %s", third.ModeID, third.Absorbed, first, second)
	}
	restarted := NewGrouper()
	for _, tm := range g.Templates() {
		restarted.Restore(tm)
	}
	restarted.RestoreAlias(second, first)
	if id, ok := restarted.Lookup("interface", "message-size", sigs[1]); !ok || id != first {
		t.Errorf("after a restart looked up %q (known %v), want %s", id, ok, first)
	}
	if got := restarted.Assign("interface", "message-size", sigs[1]).ModeID; got != first {
		t.Errorf("after a restart got mode %s, want %s", got, first)
	}
}

func TestModeIDsDoNotDependOnWhichFailureComesFirst(t *testing.T) {
	sigs := []string{
		"PermissionError: [Errno 13] Permission denied: '/workspace/out/<file>.csv'",
		"PermissionError: [Errno 13] Permission denied: '/tmp/<file>.bin'",
	}
	a := NewGrouper().Assign("sandbox", "filesystem-permissions", sigs[0]).ModeID
	b := NewGrouper().Assign("sandbox", "filesystem-permissions", sigs[1]).ModeID
	if a != b {
		t.Errorf("got %s and %s for one cause first seen through different files, want one id", a, b)
	}
}

func TestSettlePlacesAGuessWhereItsTemplateIs(t *testing.T) {
	guessed := func(primitive, sig string) Classification {
		return Classification{Layer: layerOfPrimitive[primitive], Primitive: primitive, By: GuessBy + "learned:x", Signature: sig}
	}
	withContext := func(cl Classification) Classification {
		cl.Context = "logins\x1fcode-interpreter\x1f1"
		return cl
	}
	ruled := Classification{Layer: "sandbox", Primitive: "network-egress", By: "rule:network-egress", Signature: "Failed password for root from <ip> port <n> ssh2"}
	tests := []struct {
		name  string
		seq   []Classification
		wantP string // the last one's primitive once settled
	}{
		{"a second guess of one event takes the first's class",
			[]Classification{guessed("network-egress", "Invalid user ubnt from <ip>"), guessed("input-validation", "Invalid user anonymous from <ip>")}, "network-egress"},
		{"an unclassified line of a guessed event takes its class",
			[]Classification{guessed("memory", "worker lost heap on node alpha"), {Layer: "unclassified", By: ByNone, Signature: "worker lost heap on node beta"}}, "memory"},
		{"a guess like a rule's template takes the rule's class",
			[]Classification{ruled, guessed("filesystem-permissions", "Failed password for uucp from <ip> port <n> ssh2")}, "network-egress"},
		{"a rule's class is never settled elsewhere",
			[]Classification{guessed("memory", "Failed password for root from <ip> port <n> ssh2"), ruled}, "network-egress"},
		{"a failure with no words keeps its class, whatever else had none",
			[]Classification{{Layer: "sandbox", Primitive: "cpu-time", By: "rule:exit-cpu", Signature: ""}, {Layer: "unclassified", By: ByNone, Signature: ""}}, ""},
		{"a guess of a new template keeps its class",
			[]Classification{guessed("memory", "worker lost heap on node alpha"), guessed("cpu-time", "deadline passed while the cell ran")}, "cpu-time"},
		{"a guess of a failure with a harness's log keeps its class",
			[]Classification{guessed("network-egress", "Invalid user ubnt from <ip>"), withContext(guessed("input-validation", "Invalid user anonymous from <ip>"))}, "input-validation"},
		{"a guess with a harness's log keeps its class after the same words without one settled",
			[]Classification{guessed("network-egress", "Invalid user ubnt from <ip>"), guessed("input-validation", "Invalid user anonymous from <ip>"), withContext(guessed("input-validation", "Invalid user anonymous from <ip>"))}, "input-validation"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := NewGrouper()
			var got Classification
			for _, cl := range tt.seq {
				got = g.Settle(cl, nil)
			}
			if got.Primitive != tt.wantP {
				t.Errorf("got %s/%s by %s, want primitive %s", got.Layer, got.Primitive, got.By, tt.wantP)
			}
		})
	}
}

func TestSettleRemembersTheClassesOfRestoredTemplates(t *testing.T) {
	g := NewGrouper()
	g.Restore(SavedTemplate{ID: "m-1", Layer: "sandbox", Primitive: "memory", Template: "worker lost heap on node <*>", Tokens: "worker lost heap on node <*>", Count: 3, Seq: 1})
	got := g.Settle(Classification{Layer: "sandbox", Primitive: "cpu-time", By: GuessBy + "learned:x", Signature: "worker lost heap on node gamma"}, nil)
	if got.Primitive != "memory" {
		t.Errorf("got %s/%s, want the restored template's memory", got.Layer, got.Primitive)
	}
	if looked := g.SettleLookup(Classification{Layer: "unclassified", By: ByNone, Signature: "worker lost heap on node delta"}, nil); looked.Primitive != "memory" {
		t.Errorf("looked up %s/%s, want memory", looked.Layer, looked.Primitive)
	}
}

func TestASentenceAlikeInItsRareWordsRestatesByLikeness(t *testing.T) {
	// Other modes of the run make their words common and the words of
	// the two sentences rare.
	run := []Classification{
		{Layer: "sandbox", Primitive: "network-egress", By: "rule:network-egress", Signature: "getaddrinfo ENOTFOUND <host> while resolving the index"},
		{Layer: "sandbox", Primitive: "memory", By: "rule:memory", Signature: "Killed: the process used all of the box"},
		{Layer: "interface", Primitive: "protocol", By: "rule:protocol", Signature: "connection closed: code <n> no reason given"},
		{Layer: "sandbox", Primitive: "cpu-time", By: "rule:cpu-time", Signature: "command timed out after <dur>"},
		{Layer: "interface", Primitive: "encoding", By: "rule:encoding", Signature: "UnicodeDecodeError: 'utf-8' codec can't decode byte <hex>"},
	}
	const (
		goWS = "websocket: close 1009 (message too big)"
		pyWS = "websockets.exceptions.ConnectionClosedError: code = 1009 (message too big), no reason"
	)
	tests := []struct {
		name      string
		first     Classification
		second    Classification
		wantModes int
	}{
		{"two tools' sentences of one rule's cause are one mode",
			Classification{Layer: "interface", Primitive: "message-size", By: "rule:message-size", Signature: goWS},
			Classification{Layer: "interface", Primitive: "message-size", By: "rule:message-size", Signature: pyWS}, 1},
		{"the same sentences placed by a guess stay two modes",
			Classification{Layer: "interface", Primitive: "message-size", By: GuessBy + "learned:message,big", Signature: goWS},
			Classification{Layer: "interface", Primitive: "message-size", By: GuessBy + "learned:message,big", Signature: pyWS}, 2},
		{"a guess's sentences far more alike in their rare words are one mode",
			Classification{Layer: "interface", Primitive: "message-size", By: GuessBy + "learned:moov,atom", Signature: "moov atom missing"},
			Classification{Layer: "interface", Primitive: "message-size", By: GuessBy + "learned:moov,atom", Signature: "moov atom missing in upload"}, 1},
		{"the same sentences placed by a leaning guess stay two modes",
			Classification{Layer: "interface", Primitive: "message-size", By: GuessLeaning + "moov,atom", Signature: "moov atom missing"},
			Classification{Layer: "interface", Primitive: "message-size", By: GuessLeaning + "moov,atom", Signature: "moov atom missing in upload"}, 2},
		{"the same sentences in two primitives stay two modes",
			Classification{Layer: "interface", Primitive: "message-size", By: "rule:message-size", Signature: goWS},
			Classification{Layer: "interface", Primitive: "protocol", By: "rule:protocol", Signature: pyWS}, 2},
		{"two known causes alike in their words stay two modes",
			Classification{Layer: "sandbox", Primitive: "filesystem-permissions", By: "rule:filesystem-permissions", Signature: "[known:permission-denied] Permission denied on a file: EACCES"},
			Classification{Layer: "sandbox", Primitive: "filesystem-permissions", By: "rule:filesystem-permissions", Signature: "[known:npm-eacces] npm / Node.js: EACCES: permission denied"}, 2},
		{"a tool's own sentence of a known cause joins it",
			Classification{Layer: "sandbox", Primitive: "filesystem-permissions", By: "rule:filesystem-permissions", Signature: "[known:npm-eacces] npm / Node.js: EACCES: permission denied"},
			Classification{Layer: "sandbox", Primitive: "filesystem-permissions", By: "rule:filesystem-permissions", Signature: "Error: EACCES: permission denied, mkdir <path>"}, 1},
		{"sentences that share only common words stay two modes",
			Classification{Layer: "interface", Primitive: "message-size", By: "rule:message-size", Signature: "the message was too big for the code"},
			Classification{Layer: "interface", Primitive: "message-size", By: "rule:message-size", Signature: "request entity too large: body exceeds <size>"}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := NewGrouper()
			for _, cl := range run {
				g.AssignClassified(cl, nil)
			}
			first := g.AssignClassified(tt.first, nil).ModeID
			second := g.AssignClassified(tt.second, nil).ModeID
			got := 2
			if g.Resolve(first) == g.Resolve(second) {
				got = 1
			}
			if got != tt.wantModes {
				t.Errorf("got %d modes (%s, %s), want %d", got, first, second, tt.wantModes)
			}
		})
	}
}
