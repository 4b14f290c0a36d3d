package triage

import (
	"slices"
	"strings"
)

// Guessing. No rule knows most of what a new tool prints, and a failure
// left unclassified reaches no team. But the words around an unknown
// error still lean one way: "heap", "allocate" and "killed" are memory's,
// "resolve", "proxy" and "registry" the network's. A failure that no rule
// decides is given the primitive whose words it holds clearly more of
// than any other's, and says so: its By is GuessBy followed by the words
// that decided, so people see a guess is a guess.

// GuessBy starts the Classification.By of a failure classified by its
// words rather than by a rule.
const GuessBy = "guess:"

// GuessLearned starts the By of a failure the learned model is sure of,
// or whose words name its primitive.
const GuessLearned = GuessBy + "learned:"

// GuessLeaning starts the By of a failure the learned model only leans on:
// the message names no word of the primitive, and the margin is small.
// Such a failure restates no other template unless their words are the
// same, as if nothing had classified it.
const GuessLeaning = GuessBy + "leaning:"

// primitiveWords are the word stems that lean towards each primitive. A
// stem counts once per failure however often it appears; stems are matched
// at the start of a word.
var primitiveWords = map[string][]string{
	"memory":                 {"memory", "heap", "oom", "allocat", "killed", "sigkill", "swap", "rss", "gc overhead", "out of mem", "137", "mib", "gib", "cuda", "gpu", "allocation", "free", "reserved", "fragmentation"},
	"network-egress":         {"network", "connect", "dns", "resolv", "host", "proxy", "tls", "ssl", "certificat", "socket", "registry", "download", "fetch", "http", "egress", "firewall", "unreachable", "refused", "timed out", "handshake", "url", "retrying", "retries", "resolution", "getaddrinfo", "tunnel", "rate limit", "curl", "requests", "urlopen", "establish", "offline", "internet"},
	"filesystem-permissions": {"permission", "denied", "eacces", "eperm", "read-only", "readonly", "chmod", "chown", "owner", "not writable", "writable", "access is denied", "permissionerror", "mkdir", "read-only file system", "not a writable"},
	"storage-persistence":    {"disk", "space", "quota", "enospc", "no such file", "missing", "persist", "mount", "volume", "vanished", "not found", "lost", "deleted", "storage", "enoent", "saved", "device", "archive", "compressed", "evicted", "locked", "database", "zip", "end-of-stream", "cut short"},
	"cpu-time":               {"timeout", "timed out", "deadline", "cpu", "time limit", "too long", "sigxcpu", "slow", "hang", "stuck", "exceeded"},
	"package-path":           {"install", "module", "package", "import", "librar", "not found", "command", "binary", "executable", "dependenc", "version", "pip", "npm", "path", "header", "compiler", "linker", "missing", "display", "installed", "font", "gcc", "compil", "include", "not on path", "xvfb", "sty"},
	"process-spawn":          {"spawn", "fork", "exec", "process", "thread", "syscall", "seccomp", "namespace", "ulimit", "rlimit", "pid", "clone", "sandbox", "sigsys", "child", "temporarily unavailable", "no-sandbox", "suid", "pthread", "emfile", "eagain", "forbidden syscall"},
	"session-lifecycle":      {"session", "expired", "kernel", "container", "closed", "disconnect", "restart", "terminated", "shut down", "shutdown", "idle", "reconnect", "gone", "stopped", "browser"},
	"protocol":               {"json", "rpc", "mcp", "protocol", "transport", "stdio", "sse", "stream", "schema", "method", "request", "response", "message", "handshake", "initializ", "capabilit", "token", "parsing", "syntaxerror", "eof", "client", "jsonrpc", "unexpected end"},
	"encoding":               {"encod", "decod", "utf", "unicode", "base64", "charset", "codec", "byte", "binary", "corrupt", "mojibake", "checksum", "sha256", "digest", "padding", "position", "surrogate", "gzip", "decompress"},
	"null-byte":              {"null byte", "nul", "\\x00", "\\u0000", "\\0", "zero byte", "null character"},
	"message-size":           {"size", "large", "limit", "exceed", "too long", "truncat", "buffer", "tokens", "max", "bytes", "payload", "chunk", "larger", "maximum", "entity", "pagination", "maxbuffer", "length"},
	"input-validation":       {"invalid", "validat", "argument", "param", "traversal", "sanitiz", "reject", "not allowed", "escape", "outside"},
	"harness":                {"test", "assert", "fixture", "pytest", "jest", "mock", "spec", "harness", "conftest", "expect", "setup", "teardown", "unittest", "pycache", "collect", "goroutine", "long-running"},
}

// guessMargin is how many more stems the guessed primitive must hold than
// the next one; minGuessWords how many it must hold at least.
const (
	guessMargin   = 2
	minGuessWords = 2
)

// guess classifies by its words a failure that no rule decided from the
// suspect lines text of its error, last MCP step's error and log, and
// returns the stems that decided; or none as it is and no words.
func guess(text string, none Classification) (Classification, []string) {
	primitive, words := guessPrimitive(text)
	if primitive == "" {
		return none, nil
	}
	return Classification{Layer: layerOfPrimitive[primitive], Primitive: primitive, By: GuessBy + strings.Join(words, ",")}, words
}

// guessPrimitive returns the primitive whose words text leans to and the
// stems that decided, or "" when it leans to none clearly.
func guessPrimitive(text string) (primitive string, words []string) {
	lower := constantWords(strings.ToLower(text))
	if !saysFailed(lower) {
		return "", nil
	}
	best, second := 0, 0
	for _, prim := range guessOrder {
		var found []string
		for _, w := range primitiveWords[prim] {
			if hasStem(lower, w) {
				found = append(found, w)
			}
		}
		switch n := len(found); {
		case n > best:
			best, second, primitive, words = n, best, prim, found
		case n > second:
			second = n
		}
	}
	if best < minGuessWords || best-second < guessMargin {
		return "", nil
	}
	return primitive, words
}

// failureWords are stems of which a message must hold one to be guessed
// at: words that say something failed. A line that only reports what
// happened leans nowhere, whatever its nouns.
var failureWords = []string{"error", "fail", "fatal", "denied", "refus", "cannot", "can't", "could not", "couldn't", "unable",
	"exception", "killed", "timeout", "timed out", "invalid", "not found", "missing", "exceed", "crash", "abort", "panic",
	"no such", "not allowed", "forbidden", "broken", "corrupt", "mismatch", "too large", "too long", "lost", "unexpected"}

// saysFailed reports whether lower, lower-cased text, holds a failure word.
func saysFailed(lower string) bool {
	return slices.ContainsFunc(failureWords, func(w string) bool { return hasStem(lower, w) })
}

// constantWords returns the words of text that are not variables: a
// token holding a digit, a dot inside it, a slash or an equals sign is a
// host, a path, a number or a key=value, and says nothing of the cause.
func constantWords(text string) string {
	var b strings.Builder
	b.Grow(len(text))
	for _, tok := range strings.Fields(text) {
		core := strings.Trim(tok, ".,;:()[]{}'\"`")
		if strings.ContainsAny(core, "0123456789/=@") || strings.Contains(core, ".") {
			continue
		}
		b.WriteString(tok)
		b.WriteByte(' ')
	}
	return b.String()
}

// guessOrder fixes the order primitives are scored in, so that guesses do
// not depend on map order.
var guessOrder = []string{
	"memory", "network-egress", "filesystem-permissions", "storage-persistence", "cpu-time", "package-path",
	"process-spawn", "session-lifecycle", "protocol", "encoding", "null-byte", "message-size", "input-validation", "harness",
}

// hasStem reports whether stem starts a word of lower.
func hasStem(lower, stem string) bool {
	for i := 0; ; {
		j := strings.Index(lower[i:], stem)
		if j < 0 {
			return false
		}
		at := i + j
		if at == 0 || !isWordByte(lower[at-1]) || !isWordByte(stem[0]) {
			return true
		}
		i = at + 1
	}
}
