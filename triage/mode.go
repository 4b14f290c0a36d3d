package triage

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"unicode/utf8"

	"sandtrap"
)

// ModeID returns the stable id of the failure mode with this layer,
// primitive and signature: "m-" and the first 12 hex digits of the SHA-256
// of the three, NUL-separated. Triage decisions and tickets are keyed by it,
// so the formula must never change.
func ModeID(layer, primitive, signature string) string {
	h := sha256.New()
	h.Write([]byte(layer))
	h.Write([]byte{0})
	h.Write([]byte(primitive))
	h.Write([]byte{0})
	h.Write([]byte(signature))
	var sum [sha256.Size]byte
	return "m-" + hex.EncodeToString(h.Sum(sum[:0])[:6])
}

// severityRefinement raises or lowers a primitive's default severity when
// its signature says more.
type severityRefinement struct {
	primitive string   // "" for every primitive
	contains  []string // any of them, case-sensitive
	severity  string
	reason    string
}

var severityRefinements = []severityRefinement{
	// A failure whose tool reported success was found by the harness's
	// own check: a wrong result returned as success (see
	// reportedSuccess).
	{"", []string{toolSucceeded}, sandtrap.SeverityCritical, "critical: the tool reported success, and the harness's check found the failure"},
	// Whatever the primitive, a failure that says its data was cut or
	// let through without an error, or that a path escaped, is critical:
	// all 12 such records in the blind sets' development halves were.
	{"", []string{"traversal", "silently", "Silently", "fails silently", "chops off", "dropped from the middle", "dropped from middle"},
		sandtrap.SeverityCritical, "critical: data cut, lost or let through without an error"},
	// A model file that does not unpickle or whose header is absurd is
	// not what was saved: in the blind sets, a Git LFS pointer checked
	// out in its place (14 records, all critical, under two primitives).
	{"", []string{"invalid load key", "HeaderTooLarge"},
		sandtrap.SeverityCritical, "critical: a stored file is not what was saved (a Git LFS pointer or a corrupted file)"},
	{"message-size", []string{"truncat", "short read", "IncompleteRead", "downloaded <n> of", "unexpected EOF", "CONTENT_LENGTH_MISMATCH", "content-length mismatch",
		// A document whose end never came: a PDF without its cross-reference
		// table or trailer, XML without its closing tag, an image short of
		// its pixels.
		"EOF marker not found", "xref not found", "trailer dictionary", "startxref", "Unclosed root tag", "Not enough image data",
		// BuildKit's log cut at its limit ("[output clipped, log limit
		// 2MiB reached]"): all 24 labelled records, five sets, critical;
		// four of them, whose build exited non-zero, were rated medium.
		"output clipped"},
		sandtrap.SeverityCritical, "critical: content silently truncated"},
	{"input-validation", []string{"accepted", "traversal", "without validation", "no path validation", "outside", "escape", "../", "/etc/"},
		sandtrap.SeverityCritical, "critical: security hole: unvalidated input accepted"},
	{"null-byte", []string{"truncat", "cut at", "short read", "downloaded <n> of", "downloaded <*> of"},
		sandtrap.SeverityCritical, "critical: content truncated at a NUL byte"},
	{"null-byte", []string{"padded with NUL bytes in transfer"},
		sandtrap.SeverityCritical, "critical: the file's bytes changed in transfer, padded with NULs"},
	// Rust's NulError and InteriorNul, printed by Debug or by Display
	// ("nul byte found in provided data"), are the same refusal, a panic,
	// not a cut: of their 31 labelled records (eleven sets), 18 were
	// rated high, 10 medium and 3 critical.
	{"null-byte", []string{"embedded null", "cannot contain null", "null character", "contains NUL", "null bytes", `Unexpected "\u<n>"`, "NulError", "InteriorNul", "nul byte found in provided data", "interior nul byte"},
		sandtrap.SeverityHigh, "high: the NUL is refused with an error, nothing is silently cut"},
	// A database that refuses a NUL in text says so, and only that row
	// fails: none of the 39 such records in the blind sets' development
	// halves was rated critical, 25 medium.
	{"null-byte", []string{"refuses NUL"},
		sandtrap.SeverityMedium, "medium: the database refuses the NUL with an error"},
	// Lone surrogates were text changed on its way in (bytes escaped,
	// a UTF-16 pair cut apart), and come out refused or mangled: of the
	// 97 labelled records of the known cause (22 sets), 56 were rated
	// critical, 26 medium and 14 high.
	{"encoding", []string{"Lone surrogates"},
		sandtrap.SeverityCritical, "critical: lone surrogates, text changed on its way in, cannot be written back as they were"},
	// Non-ASCII text under a C/POSIX locale is refused or mangled on its
	// way through: 47 of the 89 such records in the blind sets'
	// development halves were rated critical, 38 medium.
	{"encoding", []string{"C/POSIX locale"},
		sandtrap.SeverityCritical, "critical: text outside ASCII was refused or mangled under a C/POSIX locale"},
	// A GPU's refusal names what it tried to allocate against what it
	// has, and a smaller batch is the workaround: 78 of the 128 labelled
	// records of the known cause were rated medium. A program's other
	// reports of running out (MemoryError, OutOfMemoryError, a heap out
	// of memory, bad_alloc) say neither, and stay the primitive's high:
	// 966 of their 1,120 labelled records were rated high, 144 medium.
	{"memory", []string{"CUDA out of memory", "HIP out of memory", "MPS backend out of memory"},
		sandtrap.SeverityMedium, "medium: the GPU names what it could not allocate"},
	// A stored file that reads as truncated was cut when it was saved:
	// all 10 such blind records were critical.
	{"storage-persistence", []string{"central directory", "end-of-stream", "cut short", "malformed", "corrupt", "Corrupt", "integrity", "truncated", "replaying WAL"},
		sandtrap.SeverityCritical, "critical: a stored file came back cut short or corrupted"},
	{"storage-persistence", []string{"not persisting", "persistence lost", "wiped", "were lost", "got lost", "are gone", "were gone", "disappear", "vanish", "data loss", "loses the data", "loses everything"},
		sandtrap.SeverityCritical, "critical: files written earlier were lost"},
	// Storage that ran out or was never mounted says so; any other
	// storage failure lost or cut what was written (see
	// primitiveSeverity).
	{"storage-persistence", []string{"No space left", "no space left", "ENOSPC", "[Errno 28]", "quota", "EDQUOT", "[Errno 122]", "disk is full", "Disk full", "disk full",
		"ephemeral", "is locked", "SQLITE_BUSY", "SQLITE_FULL", "File too large", "[Errno 27]",
		"mount volumes", "MountVolume", "FailedMount", "not mounted", "bind mount", "bind source", "mount source", "mount config", "mount /", "mount error", "superblock",
		"attached to", "write failed", "failed writing", "disk space", "out of disk"},
		sandtrap.SeverityHigh, "high: storage ran out or was not mounted, and the tool says so"},
	// A web page saved as the file is a download that reported success
	// with the wrong bytes: all 5 such blind records were critical.
	{"network-egress", []string{errorPageSaved},
		sandtrap.SeverityCritical, "critical: a web page was saved in the file's place, and the download reported success"},
	// Since SignatureVersion 213 the download-hash rule gives encoding;
	// these words still reach a download the model, a user's rule or Go's
	// module-checksum rule puts in egress.
	{"network-egress", []string{"hash mismatch", "HASHES", "EINTEGRITY", "integrity checksum", "does not match MD5", "checksum did not", "checksum mismatch", "Consistency check failed", "failed to verify the checksum"},
		sandtrap.SeverityCritical, "critical: downloaded bytes differ from their published digest"},
	// A server that lacks a JSON-RPC method says which one: the workflow
	// stops with a clear error. Of the 309 labelled records of the known
	// cause, 254 were rated medium (61 sets), 39 high.
	{"protocol", methodNotFoundWords,
		sandtrap.SeverityMedium, "medium: the server says which method it lacks"},
	{"process-spawn", []string{"Unsupported syscall"},
		sandtrap.SeverityLow, "low: gVisor reports a syscall it does not implement, usually harmless"},
	// A kill by the syscall filter and a thread or process limit
	// ("Resource temporarily unavailable") are the primitive's high, but
	// say why in their own reasons, and keep the learned model from
	// raising them: 255 of the 272 development-half records of the limit
	// were labelled high.
	{"process-spawn", []string{"Bad system call", "SIGSYS"},
		sandtrap.SeverityHigh, "high: killed by the syscall filter without explanation"},
	{"process-spawn", []string{"Thread or process limit"},
		sandtrap.SeverityHigh, "high: a thread or process limit stopped the workflow, and its error does not name the limit"},
	// A refusal that names the limit or the setting to change (the open
	// file or watcher limit, an argument list too long, Chromium as root
	// without --no-sandbox, PHP's disabled functions) is clear: 363 of
	// their 538 labelled records were rated medium, where 1,125 of the
	// 1,731 other refusals rated medium before were rated high (245 of
	// 379 sets had more high than medium).
	{"process-spawn", spawnLimitNamedWords,
		sandtrap.SeverityMedium, "medium: the error names the limit or the setting that refused the process"},
	// A time limit the error names (a CPU limit, a job's maximum
	// execution time, a cell's, a function's, a subprocess's or an MCP
	// request's timeout) is clear, and raising it is the workaround:
	// 637 of their 1,196 labelled records were rated medium and 555
	// high, where 2,516 of the 3,606 other cpu-time records were high.
	{"cpu-time", timeLimitNamedWords,
		sandtrap.SeverityMedium, "medium: the error names the time limit that stopped it"},
}

// timeLimitNamedWords are the words of the known causes whose error
// names the time limit that stopped the workflow (their titles, and a
// PHP-style message as printed).
var timeLimitNamedWords = []string{"CPU time limit", "maximum execution time", "Maximum execution time", "Notebook cell timed out", "hit its timeout", "TimeoutExpired", "MCP request timed out"}

// spawnLimitNamedWords are the words of the process-spawn failures whose
// error names the limit or the setting that refused the process (the
// known causes' titles, and PHP's own words).
var spawnLimitNamedWords = []string{"Open file limit reached", "File watcher limit reached", "argument list too long", "Argument list too long", "[Errno 7]", "needs --no-sandbox", "without --no-sandbox", "disabled for security reasons"}

// methodNotFoundWords are a JSON-RPC server's words for a method it
// lacks, which both rate and title the mode; the known cause's title,
// "JSON-RPC method not found (-32601)", says its code.
var methodNotFoundWords = []string{"-32601", "Method not found"}

// primitiveSeverity is each primitive's default severity and its reason.
var primitiveSeverity = map[string][2]string{
	"encoding":               {sandtrap.SeverityCritical, "critical: silent data corruption"},
	"null-byte":              {sandtrap.SeverityCritical, "critical: content truncated at a NUL byte"},
	"message-size":           {sandtrap.SeverityMedium, "medium: size limit reported clearly"},
	"protocol":               {sandtrap.SeverityHigh, "high: protocol breakage"},
	"input-validation":       {sandtrap.SeverityMedium, "medium: input rejected with an error"},
	"filesystem-permissions": {sandtrap.SeverityMedium, "medium: permission error is explicit"},
	"storage-persistence":    {sandtrap.SeverityCritical, "critical: files written earlier were lost, cut short or corrupted"},
	"memory":                 {sandtrap.SeverityHigh, "high: out of memory, and the error does not say what took it"},
	"cpu-time":               {sandtrap.SeverityHigh, "high: stopped for time, and the error does not say what held it"},
	"process-spawn":          {sandtrap.SeverityHigh, "high: the process was refused, and the error does not say by what"},
	"network-egress":         {sandtrap.SeverityHigh, "high: network egress blocked"},
	"package-path":           {sandtrap.SeverityMedium, "medium: package or library not on the path"},
	"session-lifecycle":      {sandtrap.SeverityHigh, "high: session ended unexpectedly"},
	"harness":                {sandtrap.SeverityLow, "low: test or harness bug"},
}

// layerSeverity is the severity of a failure whose primitive is unknown.
var layerSeverity = map[string][2]string{
	sandtrap.LayerInterface:    {sandtrap.SeverityHigh, "high: interface failure"},
	sandtrap.LayerSandbox:      {sandtrap.SeverityMedium, "medium: sandbox failure"},
	sandtrap.LayerTest:         {sandtrap.SeverityLow, "low: test or harness bug"},
	sandtrap.LayerUnclassified: {sandtrap.SeverityMedium, "medium: not classified yet"},
}

// Severity rates a failure mode by design.md §2: critical for silent
// corruption, loss of data or a security hole; high when the workflow cannot
// finish and the error does not say why; medium when the error is clear or
// there is a workaround; low for test and harness bugs. The primitive sets
// the default and the signature refines it (a truncation is critical, an
// accepted traversal too, a GPU that names what it could not allocate is
// medium); a signature that reads like the failures people rated
// critical, by the severity model, is critical too.
func Severity(layer, primitive, signature string) (severity, reason string) {
	key := severityKey{layer, primitive, signature}
	if r, ok := severities.Load(key); ok {
		return r.([2]string)[0], r.([2]string)[1]
	}
	severity, reason = SeverityWith(SeverityModel(), layer, primitive, signature)
	// The index rates every mode again whenever people decide something;
	// the answer for a mode only changes with its signature or class.
	severities.Store(key, [2]string{severity, reason})
	return severity, reason
}

type severityKey struct{ layer, primitive, signature string }

// severities caches Severity's answers, up to 1<<16 of them before it
// starts over.
var severities = boundedCache{limit: 1 << 16}

// SeverityWith is Severity with m as the severity model.
func SeverityWith(m *WordModel, layer, primitive, signature string) (severity, reason string) {
	if strings.HasPrefix(signature, secretLeaked) {
		// A credential printed in full in an error, which the campaign
		// keeps and tickets quote (see leaksSecret), in any layer: a
		// harness that prints one leaks it as surely as a tool.
		return sandtrap.SeverityCritical, "critical: security hole: a secret leaked into the error"
	}
	valid := ValidPrimitive(layer, primitive)
	refined := func(critical bool) (severity, reason string, ok bool) {
		for _, r := range severityRefinements {
			// The words that make any failure critical do so before it
			// is classified too; a bug in the test stays the test's.
			applies := r.primitive == "" && layer != sandtrap.LayerTest || valid && r.primitive == primitive
			if (r.severity == sandtrap.SeverityCritical) == critical && applies && containsAny(signature, r.contains) {
				return r.severity, r.reason, true
			}
		}
		return "", "", false
	}
	// What makes a failure critical is read before the words that make it
	// clear: a named time limit beside a file that came out empty is
	// still a loss.
	if s, why, ok := refined(true); ok {
		return s, why
	}
	if layer != sandtrap.LayerTest && successThenDamage(signature) {
		return sandtrap.SeverityCritical, "critical: reported a success, but the data came out damaged"
	}
	if s, why, ok := refined(false); ok {
		return s, why
	}
	s, ok := primitiveSeverity[primitive]
	if !valid || !ok {
		if s, ok = layerSeverity[layer]; !ok {
			s = layerSeverity[sandtrap.LayerUnclassified]
		}
	}
	if s[0] != sandtrap.SeverityCritical && layer != sandtrap.LayerTest {
		if critical, words := readsCritical(m, layer, primitive, signature); critical {
			return sandtrap.SeverityCritical, learnedCriticalReason(words)
		}
	}
	return s[0], s[1]
}

// successThenDamage reports whether signature says that something
// succeeded and, after that, that its data came out cut, empty or
// corrupted: silent loss. Over every labelled set, 238 of the 244 records
// whose signature says both were rated critical. The order keeps out a
// damage that came first ("connection lost after the handshake
// completed").
func successThenDamage(signature string) bool {
	loc := succeededWords.FindStringIndex(signature)
	return loc != nil && damagedWords.MatchString(signature[loc[1]:])
}

// titlePattern names failure modes whose signature contains one of a few
// phrases.
type titlePattern struct {
	primitive string // "" for any
	contains  []string
	title     string
}

var titlePatterns = []titlePattern{
	{"network-egress", []string{"satisfies the requirement", "No matching distribution", "/simple/", "pypi", "pythonhosted"}, "pip cannot reach the package index"},
	{"network-egress", []string{"ERR_NAME_NOT_RESOLVED", "ERR_NAME_RESOLUTION_FAILED"}, "Browser cannot resolve host names"},
	{"network-egress", []string{"ERR_TUNNEL_CONNECTION_FAILED", "ERR_PROXY_CONNECTION_FAILED"}, "Browser proxy tunnel refused"},
	{"network-egress", []string{"ERR_INTERNET_DISCONNECTED"}, "Browser has no network"},
	{"network-egress", []string{"ERR_CONNECTION_REFUSED", "ERR_CONNECTION_RESET", "ERR_CONNECTION_TIMED_OUT", "ERR_TIMED_OUT"}, "Browser cannot connect to the site"},
	{"network-egress", []string{"curl: (6)", "Could not resolve host", "Temporary failure in name resolution", "ENOTFOUND", "EAI_AGAIN", "no such host"}, "DNS resolution fails in the sandbox"},
	{"network-egress", []string{"curl: ("}, "curl cannot reach the host"},
	{"memory", []string{"Target crashed"}, "Browser tab crashed: Target crashed"},
	{"memory", []string{"Page crashed"}, "Browser tab crashed: Page crashed"},
	{"session-lifecycle", []string{"Target closed", "has been closed", "disconnected", "Session closed"}, "Browser closed under the workflow"},
	{"memory", []string{"CUDA out of memory"}, "GPU out of memory"},
	{"memory", []string{"MemoryError", "heap out of memory", "Java heap space", "OutOfMemoryError"}, "Program ran out of memory"},
	{"memory", []string{"137", "Killed", "SIGKILL", "oom", "out of memory"}, "Process killed for memory (exit 137)"},
	{"encoding", []string{"round trip mismatch", "sha256", "mismatch"}, "Artifact corrupted in round trip: sha256 mismatch"},
	{"encoding", []string{"Incorrect padding"}, "Invalid base64: incorrect padding"},
	{"encoding", []string{"base64"}, "Invalid base64 data"},
	{"encoding", []string{"UnicodeDecodeError", "codec can't decode"}, "Binary content decoded as text"},
	{"null-byte", nil, "Content truncated at a NUL byte"},
	{"message-size", []string{"truncat", "downloaded <n> of", "short read", "IncompleteRead"}, "Content silently truncated"},
	{"message-size", nil, "Message exceeds the size limit"},
	{"protocol", []string{"-32700", "Parse error"}, "JSON-RPC parse error: malformed or cut-off JSON"},
	{"protocol", []string{"stream closed"}, "MCP response stream closed before the result"},
	{"protocol", methodNotFoundWords, "MCP method not found"},
	{"protocol", []string{"Connection closed"}, "MCP connection closed"},
	{"input-validation", []string{"accepted path", "traversal", "outside"}, "Path traversal accepted outside the workspace"},
	{"filesystem-permissions", []string{"dist-packages", "site-packages"}, "site-packages is read-only"},
	{"filesystem-permissions", []string{"Read-only file system"}, "Read-only file system"},
	{"storage-persistence", []string{"No space left", "ENOSPC", "Errno 28"}, "Disk full: no space left on device"},
	{"storage-persistence", []string{"Disk quota exceeded"}, "Disk quota exceeded"},
	{"storage-persistence", []string{"FileNotFoundError", "No such file or directory", "ENOENT"}, "Files written earlier are gone"},
	{"cpu-time", []string{"CPU time"}, "Execution exceeded the CPU time limit"},
	{"process-spawn", []string{"Bad system call", "SIGSYS", "seccomp"}, "Syscall blocked by seccomp"},
	{"process-spawn", []string{"Cannot run program", "spawn", "Operation not permitted", "EPERM", "EACCES"}, "Sandbox refuses to start a process"},
	{"package-path", []string{"No module named", "ModuleNotFoundError"}, "Installed Python module not importable"},
	{"package-path", []string{"shared object", "shared libraries"}, "Shared library missing from the image"},
	{"package-path", []string{"command not found", ": not found", "ENOENT", "error=2", "executable file not found"}, "Program not on the PATH"},
	{"session-lifecycle", []string{"expired"}, "Sandbox session expired"},
	{"harness", []string{"fixture"}, "Harness fixture not found"},
}

// maxTitleHead is how much of a signature a fallback title shows.
const maxTitleHead = 80

// Title names a failure mode for people: a phrase from a table of known
// patterns, or the head of the signature, followed by the primitive (or the
// layer when the primitive is empty) in parentheses, e.g. "pip cannot reach
// the package index (network-egress)".
func Title(layer, primitive, signature string) string {
	kind := primitive
	if kind == "" {
		kind = layer
	}
	if _, title, ok := KnownCauseOf(signature); ok {
		return title + " (" + kind + ")"
	}
	for _, p := range titlePatterns {
		if p.primitive == primitive && (p.contains == nil || containsAny(signature, p.contains)) {
			return p.title + " (" + kind + ")"
		}
	}
	head := strings.TrimSpace(signature)
	if head == "" {
		head = "No error message"
	}
	return truncateWords(head, maxTitleHead) + " (" + kind + ")"
}

// truncateWords cuts s to at most limit bytes, at a word boundary when one
// is near, and marks the cut with "…".
func truncateWords(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	if sp := strings.LastIndexByte(s[:cut], ' '); sp > limit*2/3 {
		cut = sp
	}
	return strings.TrimRight(s[:cut], " ,:;") + "…"
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
