package triage

import (
	"slices"
	"strings"
	"testing"
)

func TestLogWords(t *testing.T) {
	tests := []struct {
		name string
		log  string
		want []string
	}{
		{"words are lower-cased, distinct and sorted", "Retrying GET /simple/polars\nretrying get", []string{"get", "polars", "retrying", "simple"}},
		{"digits split words and counts say nothing", "python3.11 wrote 48213 bytes in 2.5s", []string{"bytes", "python", "wrote"}},
		{"runs of hex are dropped", "sha256 9f86d081884c7d65 session deadbeefcafe", []string{"session", "sha"}},
		{"words of under three letters say little", "an ok to be at GET", []string{"get"}},
		{"an empty log has none", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := LogWords([]byte(tt.log)); !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
	t.Run("of more than the cap, those logged last are kept", func(t *testing.T) {
		var b strings.Builder
		for i := range logWordsMax + 10 {
			b.WriteString("k" + string(rune('a'+i/26)) + string(rune('a'+i%26)) + "z ")
		}
		b.WriteString("lastword")
		got := LogWords([]byte(b.String()))
		if len(got) != logWordsMax {
			t.Errorf("got %d words, want %d", len(got), logWordsMax)
		}
		if !slices.Contains(got, "lastword") || slices.Contains(got, "kaaz") {
			t.Errorf("got %q, want the last words logged and not the first", got)
		}
	})
	t.Run("only the end of a long log is read", func(t *testing.T) {
		log := "preamble " + strings.Repeat("- ", wholeWindow) + "tail"
		if got := LogWords([]byte(log)); !slices.Equal(got, []string{"tail"}) {
			t.Errorf("got %q, want only the window's words", got)
		}
	})
}

func TestATemplateJoinsTheOneOfItsClassLoggedMostAlike(t *testing.T) {
	const (
		pip    = "ERROR: Could not find a version that satisfies the requirement polars (from versions: none)"
		npm    = "npm ERR! code ETIMEDOUT npm ERR! errno ETIMEDOUT npm ERR! network request to the registry failed"
		steps  = "step 2/4 install_dependencies via run_code\nproxy=none outbound policy applied\nresolving registry mirror after 30s\n"
		other  = "step 4/4 render charts via run_code\nwrote summary table with matplotlib\n"
		byRule = "rule:network-egress"
	)
	egress := func(sig, context string) Classification {
		return Classification{Layer: "sandbox", Primitive: "network-egress", By: byRule, Signature: sig, Context: context}
	}
	known := func(sig, cause string) Classification {
		cl := egress(sig, "")
		cl.Cause = cause
		return cl
	}
	tests := []struct {
		name                string
		first, second       Classification
		firstLog, secondLog string
		wantModes           int
	}{
		{"two wordings of one class logged alike are one mode", egress(pip, ""), egress(npm, ""), steps + "pip install polars", steps + "npm install", 1},
		{"logged unalike they are two", egress(pip, ""), egress(npm, ""), steps, other, 2},
		{"without a log they are two", egress(pip, ""), egress(npm, ""), "", "", 2},
		{"in two classes they are two", egress(pip, ""), Classification{Layer: "sandbox", Primitive: "memory", By: "rule:memory", Signature: "Killed"}, steps, steps, 2},
		{"logged alike, two known causes two tools printed are one mode", known(pip, "[known:pip-index-unreachable] Package index unreachable"),
			known(npm, "[known:npm-registry-unreachable] npm registry unreachable"), steps, steps, 1},
		{"logged alike, two known causes one tool printed stay two: it logs alike around each",
			known("page.goto: net::ERR_NAME_NOT_RESOLVED at https://shop.example/", "[known:dns-lookup-failed] DNS lookup failed"),
			known("page.goto: net::ERR_TUNNEL_CONNECTION_FAILED at https://shop.example/", "[known:proxy-refused] Proxy refused the tunnel"), steps, steps, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := NewGrouper()
			a, b := g.AssignClassified(tt.first, []byte(tt.firstLog)), g.AssignClassified(tt.second, []byte(tt.secondLog))
			ids := map[string]bool{g.Resolve(a.ModeID): true, g.Resolve(b.ModeID): true}
			if got := len(ids); got != tt.wantModes {
				t.Errorf("got %d modes, want %d", got, tt.wantModes)
			}
		})
	}
	t.Run("a wording rated lower joins a mode rated higher, and one rated higher takes a milder mode in", func(t *testing.T) {
		cut := Classification{Layer: "interface", Primitive: "message-size", By: "rule:truncation", Signature: "IncompleteRead(1024 bytes read, 4096 more expected)"}
		limit := Classification{Layer: "interface", Primitive: "message-size", By: "rule:message-size", Signature: "413 Request Entity Too Large"}
		cutSev, _ := Severity(cut.Layer, cut.Primitive, cut.Signature)
		limitSev, _ := Severity(limit.Layer, limit.Primitive, limit.Signature)
		if SeverityRank(cutSev) >= SeverityRank(limitSev) {
			t.Fatalf("rated %s and %s: the case needs the cut rated worse", cutSev, limitSev)
		}
		g := NewGrouper()
		a, b := g.AssignClassified(cut, []byte(steps)), g.AssignClassified(limit, []byte(steps))
		if g.Resolve(a.ModeID) != g.Resolve(b.ModeID) {
			t.Errorf("got modes %s and %s for a %s wording logged like a %s mode, want one", b.ModeID, a.ModeID, limitSev, cutSev)
		}
		g = NewGrouper()
		a, b = g.AssignClassified(limit, []byte(steps)), g.AssignClassified(cut, []byte(steps))
		if got := g.Resolve(a.ModeID); got != b.ModeID {
			t.Errorf("the %s mode resolves to %s, want the %s wording's %s, which took it in", limitSev, got, cutSev, b.ModeID)
		}
		if !slices.Contains(b.Absorbed, a.ModeID) {
			t.Errorf("the %s wording's assignment absorbed %v, want the %s mode %s", cutSev, b.Absorbed, limitSev, a.ModeID)
		}
		if got, _ := Severity(b.Template.Layer, b.Template.Primitive, b.Template.Template); got != cutSev {
			t.Errorf("the mode is rated %s, want %s: a worse wording must not hide in a milder mode", got, cutSev)
		}
	})
	t.Run("after a restart a known cause another tool printed joins as it would have before", func(t *testing.T) {
		g := NewGrouper()
		first := g.AssignClassified(known(pip, "[known:pip-index-unreachable] Package index unreachable"), []byte(steps)).ModeID
		restarted := NewGrouper()
		for _, tm := range g.Templates() {
			restarted.Restore(tm)
		}
		if got := restarted.AssignClassified(known(npm, "[known:npm-registry-unreachable] npm registry unreachable"), []byte(steps)).ModeID; got != first {
			t.Errorf("got mode %s, want %s", got, first)
		}
	})
	t.Run("after a restart a new wording joins as it would have before", func(t *testing.T) {
		g := NewGrouper()
		first := g.AssignClassified(egress(pip, ""), []byte(steps+"pip install polars")).ModeID
		restarted := NewGrouper()
		for _, tm := range g.Templates() {
			restarted.Restore(tm)
		}
		if id, ok := restarted.LookupClassified(egress(npm, ""), []byte(steps)); !ok || id != first {
			t.Errorf("looked up %s (%v), want %s", id, ok, first)
		}
		if got := restarted.AssignClassified(egress(npm, ""), []byte(steps)).ModeID; got != first {
			t.Errorf("got mode %s, want %s", got, first)
		}
	})
}

func TestToolOfIsTheLeadingWordOfASignaturesLastLine(t *testing.T) {
	tests := []struct{ name, signature, want string }{
		{"a call's name before its colon", "page.goto: net::ERR_NAME_NOT_RESOLVED at <url>", "page.goto"},
		{"an exception's class, lower-cased", "PermissionError: [Errno <n>] Permission denied: '<path>'", "permissionerror"},
		{"the last line of a traceback", "Traceback (most recent call last):\n  File \"<path>\", line <n>\nOSError: [Errno <n>] Read-only file system", "oserror"},
		{"a program's name without its version's digits", "clang-14: error: unable to execute command: Killed", "clang-"},
		{"a word before a space", "npm ERR! code EACCES", "npm"},
		{"nothing for an empty signature", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := toolOf(tt.signature); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestAGuessTakesTheClassOfAFailureARulePlacedAndLoggedAlike(t *testing.T) {
	const (
		steps = "step 3/6 fetch_dataset via run_code\nHTTPS_PROXY=http://egress:3128 set by the image\nretrying mirror after 30s\n"
		other = "step 5/6 render report via run_code\nwrote 14 pages with weasyprint\n"
	)
	ruled := Classification{Layer: "sandbox", Primitive: "network-egress", By: "rule:network-egress", Signature: "curl: (7) Failed to connect to mirror.example port 443", Context: "downloads"}
	guessed := func(layer, primitive string) Classification {
		return Classification{Layer: layer, Primitive: primitive, By: GuessLearned + "mirror,retry", Signature: "fetch_dataset gave up after 3 attempts", Context: "downloads"}
	}
	tests := []struct {
		name                string
		first, second       Classification
		firstLog, secondLog string
		wantClass           string
		wantOneMode         bool
	}{
		{"a guess logged like a rule's failure takes its class and joins its mode", ruled, guessed("test", "harness"), steps, steps + "attempt 3 failed", "sandbox/network-egress", true},
		{"a guess logged otherwise keeps its own class", ruled, guessed("test", "harness"), steps, other, "test/harness", false},
		{"a guess without a log keeps its own class", ruled, guessed("test", "harness"), steps, "", "test/harness", false},
		{"a guess logged like another guess keeps its own class", guessed("interface", "protocol"), guessed("test", "harness"), steps, steps, "test/harness", false},
		{"a rule's failure keeps its class however it was logged", ruled,
			Classification{Layer: "sandbox", Primitive: "memory", By: "rule:memory", Signature: "Killed", Context: "downloads"}, steps, steps, "sandbox/memory", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := NewGrouper()
			first := g.AssignClassified(g.Settle(tt.first, []byte(tt.firstLog)), []byte(tt.firstLog))
			// Looking up answers what mining will, and notes nothing.
			looked := g.SettleLookup(tt.second, []byte(tt.secondLog))
			second := g.Settle(tt.second, []byte(tt.secondLog))
			if got := ModeGroup(second.Layer, second.Primitive); got != tt.wantClass {
				t.Errorf("settled in %s, want %s", got, tt.wantClass)
			}
			if looked != second {
				t.Errorf("looked up %+v, want what settling gave: %+v", looked, second)
			}
			a := g.AssignClassified(second, []byte(tt.secondLog))
			if got := g.Resolve(a.ModeID) == g.Resolve(first.ModeID); got != tt.wantOneMode {
				t.Errorf("one mode: got %v, want %v (%s and %s)", got, tt.wantOneMode, first.ModeID, a.ModeID)
			}
		})
	}
	t.Run("it says who placed it", func(t *testing.T) {
		g := NewGrouper()
		g.AssignClassified(ruled, []byte(steps))
		if got, want := g.Settle(guessed("test", "harness"), []byte(steps)).By, GuessBy+loggedAlike; got != want {
			t.Errorf("got By %q, want %q", got, want)
		}
	})
	t.Run("after a restart a guess logged alike takes the class it would have before", func(t *testing.T) {
		g := NewGrouper()
		first := g.AssignClassified(ruled, []byte(steps)).ModeID
		restarted := NewGrouper()
		for _, tm := range g.Templates() {
			if tm.ID == first && !tm.Decided {
				t.Errorf("template %s saved as not decided, want decided: a rule placed its failure", tm.ID)
			}
			restarted.Restore(tm)
		}
		cl := restarted.Settle(guessed("test", "harness"), []byte(steps))
		if got := ModeGroup(cl.Layer, cl.Primitive); got != "sandbox/network-egress" {
			t.Errorf("settled in %s after a restart, want sandbox/network-egress", got)
		}
		if got := restarted.AssignClassified(cl, []byte(steps)).ModeID; got != first {
			t.Errorf("got mode %s after a restart, want %s", got, first)
		}
	})
	t.Run("a rule's mode still lends its class after a worse wording takes it in, and after a restart", func(t *testing.T) {
		limit := Classification{Layer: "interface", Primitive: "message-size", By: "rule:message-size", Signature: "413 Request Entity Too Large", Context: "downloads"}
		cut := Classification{Layer: "test", Primitive: "harness", By: GuessLeaning + "read", Signature: "IncompleteRead(1024 bytes read, 4096 more expected)", Context: "downloads"}
		limitSev, _ := Severity(limit.Layer, limit.Primitive, limit.Signature)
		cutSev, _ := Severity(limit.Layer, limit.Primitive, cut.Signature)
		if SeverityRank(cutSev) >= SeverityRank(limitSev) {
			t.Fatalf("rated %s and %s: the case needs the cut rated worse, so that its template takes the rule's in", cutSev, limitSev)
		}
		g := NewGrouper()
		first := g.AssignClassified(g.Settle(limit, []byte(steps)), []byte(steps))
		taker := g.AssignClassified(g.Settle(cut, []byte(steps)), []byte(steps))
		if !slices.Contains(taker.Absorbed, first.ModeID) {
			t.Fatalf("the worse wording's template absorbed %v, want the rule's %s", taker.Absorbed, first.ModeID)
		}
		later := Classification{Layer: "test", Primitive: "harness", By: GuessLearned + "gave,up", Signature: "fetch_dataset gave up after 3 attempts", Context: "downloads"}
		if got := g.Settle(later, []byte(steps)); ModeGroup(got.Layer, got.Primitive) != "interface/message-size" {
			t.Errorf("settled in %s/%s, want interface/message-size: the mode that took the rule's in lends its class", got.Layer, got.Primitive)
		}
		restarted := NewGrouper()
		for _, tm := range g.Templates() {
			restarted.Restore(tm)
		}
		if got := restarted.Settle(later, []byte(steps)); ModeGroup(got.Layer, got.Primitive) != "interface/message-size" {
			t.Errorf("after a restart settled in %s/%s, want interface/message-size", got.Layer, got.Primitive)
		}
	})
	t.Run("a template saved before templates knew who placed them lends no guess its class", func(t *testing.T) {
		g := NewGrouper()
		g.AssignClassified(ruled, []byte(steps))
		restarted := NewGrouper()
		for _, tm := range g.Templates() {
			tm.Decided = false
			restarted.Restore(tm)
		}
		cl := restarted.Settle(guessed("test", "harness"), []byte(steps))
		if got := ModeGroup(cl.Layer, cl.Primitive); got != "test/harness" {
			t.Errorf("settled in %s, want the guess's own test/harness", got)
		}
	})
}
