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
