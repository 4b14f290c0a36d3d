// Package triage decides what a failed result is: it normalises error
// messages into signatures, classifies failures by layer and primitive,
// derives stable failure-mode ids, severities and titles, and loads the
// user's classification rules.
//
// It is plain logic with no I/O besides LoadConfig, built to classify the
// ~120,000 failures of a million-result run in well under a second.
package triage

import (
	"slices"
	"unicode"
	"unicode/utf8"

	"sandtrap"
)

// Primitives of each layer, in the order pages list them.
var primitivesByLayer = map[string][]string{
	sandtrap.LayerInterface: {"encoding", "null-byte", "message-size", "protocol", "input-validation"},
	sandtrap.LayerSandbox: {
		"filesystem-permissions", "storage-persistence", "memory", "cpu-time",
		"process-spawn", "network-egress", "package-path", "session-lifecycle",
	},
	sandtrap.LayerTest: {"harness"},
}

// layerOfPrimitive maps every primitive to its layer; primitives are unique
// across layers, so a primitive alone decides its layer.
var layerOfPrimitive = func() map[string]string {
	m := make(map[string]string)
	for layer, prims := range primitivesByLayer {
		for _, p := range prims {
			m[p] = layer
		}
	}
	return m
}()

// layerSynonyms maps what harnesses write in their layer column to the
// vocabulary. Keys are lowercase with hyphens; NormalizeLayer also finds
// them in other spellings. Words that name more than one layer, such as
// server, client or host, are left out.
var layerSynonyms = map[string]string{
	"interface": sandtrap.LayerInterface, "mcp": sandtrap.LayerInterface,
	"mcp-server": sandtrap.LayerInterface, "mcp-client": sandtrap.LayerInterface,
	"transport": sandtrap.LayerInterface, "protocol": sandtrap.LayerInterface,
	"api": sandtrap.LayerInterface, "service": sandtrap.LayerInterface,
	"tool": sandtrap.LayerInterface, "tools": sandtrap.LayerInterface,
	"jsonrpc": sandtrap.LayerInterface, "json-rpc": sandtrap.LayerInterface,

	"sandbox": sandtrap.LayerSandbox, "runtime": sandtrap.LayerSandbox,
	"environment": sandtrap.LayerSandbox, "env": sandtrap.LayerSandbox,
	"container": sandtrap.LayerSandbox, "infra": sandtrap.LayerSandbox,
	"infrastructure": sandtrap.LayerSandbox, "platform": sandtrap.LayerSandbox,
	"os": sandtrap.LayerSandbox, "vm": sandtrap.LayerSandbox,
	"microvm": sandtrap.LayerSandbox, "kernel": sandtrap.LayerSandbox,

	"test": sandtrap.LayerTest, "tests": sandtrap.LayerTest,
	"harness": sandtrap.LayerTest, "test-harness": sandtrap.LayerTest,
	"checker": sandtrap.LayerTest, "fixture": sandtrap.LayerTest,
	"test-bug": sandtrap.LayerTest, "test-infra": sandtrap.LayerTest,
	"grader": sandtrap.LayerTest,
}

// primitiveSynonyms maps what harnesses write in their primitive column to
// the vocabulary. Keys are lowercase with hyphens; NormalizePrimitive also
// finds them in other spellings. Words that name more than one primitive
// are left out: killed (memory or CPU time), denied (files or network),
// limit, connection, crash, file-not-found (storage or a missing program).
var primitiveSynonyms = map[string]string{
	"encoding": "encoding", "base64": "encoding", "b64": "encoding",
	"utf-8": "encoding", "utf8": "encoding", "unicode": "encoding",
	"charset": "encoding", "corruption": "encoding", "checksum": "encoding",
	"binary-corruption": "encoding", "data-corruption": "encoding",
	"decode": "encoding", "decoding": "encoding", "unicode-decode": "encoding",
	"unicode-encode": "encoding", "binascii": "encoding", "mojibake": "encoding",
	"round-trip": "encoding", "checksum-mismatch": "encoding", "hash-mismatch": "encoding",

	"null-byte": "null-byte", "nul-byte": "null-byte", "nul": "null-byte",
	"null": "null-byte", "nullbyte": "null-byte", "null-character": "null-byte",
	"null-char": "null-byte", "nul-character": "null-byte", "nul-char": "null-byte",
	"embedded-null": "null-byte",

	"message-size": "message-size", "size": "message-size",
	"size-limit": "message-size", "payload-size": "message-size",
	"too-large": "message-size", "truncation": "message-size",
	"truncated": "message-size", "truncate": "message-size",
	"payload-too-large": "message-size", "message-too-large": "message-size",
	"request-too-large": "message-size", "response-too-large": "message-size",
	"entity-too-large": "message-size", "too-big": "message-size",
	"large-payload": "message-size", "large-message": "message-size",
	"large-response": "message-size", "max-size": "message-size",
	"max-message-size": "message-size", "oversize": "message-size",
	"oversized": "message-size", "message-length": "message-size",
	"response-size": "message-size", "output-size": "message-size",

	"protocol": "protocol", "transport": "protocol", "jsonrpc": "protocol",
	"json-rpc": "protocol", "rpc": "protocol", "mcp": "protocol",
	"mcp-protocol": "protocol", "schema": "protocol", "framing": "protocol",
	"message-framing": "protocol", "json-parse": "protocol",
	"broken-pipe": "protocol", "epipe": "protocol",

	"input-validation": "input-validation", "validation": "input-validation",
	"path-traversal": "input-validation", "traversal": "input-validation",
	"input": "input-validation", "directory-traversal": "input-validation",
	"dir-traversal": "input-validation", "symlink-escape": "input-validation",
	"invalid-params": "input-validation", "invalid-input": "input-validation",
	"invalid-argument": "input-validation", "bad-input": "input-validation",
	"input-schema": "input-validation", "param-validation": "input-validation",
	"parameter-validation": "input-validation", "argument-validation": "input-validation",
	"sanitization": "input-validation", "sanitisation": "input-validation",

	"filesystem-permissions": "filesystem-permissions", "fs": "filesystem-permissions",
	"filesystem": "filesystem-permissions", "permissions": "filesystem-permissions",
	"permission": "filesystem-permissions", "fs-permissions": "filesystem-permissions",
	"eacces": "filesystem-permissions", "read-only": "filesystem-permissions",
	"readonly": "filesystem-permissions", "erofs": "filesystem-permissions",
	"permission-denied": "filesystem-permissions", "access-denied": "filesystem-permissions",
	"read-only-fs": "filesystem-permissions", "read-only-filesystem": "filesystem-permissions",
	"read-only-file-system": "filesystem-permissions", "ro-fs": "filesystem-permissions",
	"file-permissions": "filesystem-permissions", "fs-perms": "filesystem-permissions",
	"perms": "filesystem-permissions", "write-permission": "filesystem-permissions",
	"chmod": "filesystem-permissions",

	"storage-persistence": "storage-persistence", "storage": "storage-persistence",
	"persistence": "storage-persistence", "disk": "storage-persistence",
	"disk-full": "storage-persistence", "enospc": "storage-persistence",
	"quota": "storage-persistence", "disk-space": "storage-persistence",
	"disk-quota": "storage-persistence", "edquot": "storage-persistence",
	"no-space": "storage-persistence", "no-space-left": "storage-persistence",
	"out-of-disk": "storage-persistence", "persist": "storage-persistence",
	"not-persisted": "storage-persistence", "data-loss": "storage-persistence",
	"file-vanished": "storage-persistence", "files-vanish": "storage-persistence",
	"vanished": "storage-persistence", "file-lost": "storage-persistence",
	"stale-file-handle": "storage-persistence", "estale": "storage-persistence",

	"memory": "memory", "oom": "memory", "mem": "memory",
	"out-of-memory": "memory", "oom-kill": "memory", "oomkilled": "memory",
	"oom-killer": "memory", "memory-limit": "memory", "mem-limit": "memory",
	"memory-exhaustion": "memory", "enomem": "memory", "ram": "memory",

	"cpu-time": "cpu-time", "cpu": "cpu-time", "timeout": "cpu-time",
	"time-limit": "cpu-time", "cputime": "cpu-time", "cpu-limit": "cpu-time",
	"cpu-time-limit": "cpu-time", "execution-time": "cpu-time",
	"execution-timeout": "cpu-time", "exec-timeout": "cpu-time",
	"wall-clock": "cpu-time", "wall-time": "cpu-time", "sigxcpu": "cpu-time",
	"rlimit-cpu": "cpu-time", "cell-timeout": "cpu-time",

	"process-spawn": "process-spawn", "spawn": "process-spawn",
	"process": "process-spawn", "exec": "process-spawn",
	"subprocess": "process-spawn", "fork": "process-spawn",
	"seccomp": "process-spawn", "syscall": "process-spawn",
	"execve": "process-spawn", "fork-exec": "process-spawn",
	"posix-spawn": "process-spawn", "child-process": "process-spawn",
	"process-creation": "process-spawn", "process-limit": "process-spawn",
	"pids-limit": "process-spawn", "nproc": "process-spawn",
	"sigsys": "process-spawn", "system-call": "process-spawn",

	"network-egress": "network-egress", "network": "network-egress",
	"egress": "network-egress", "net": "network-egress", "dns": "network-egress",
	"proxy": "network-egress", "offline": "network-egress",
	"no-network": "network-egress", "network-access": "network-egress",
	"internet": "network-egress", "internet-access": "network-egress",
	"no-internet": "network-egress", "outbound": "network-egress",
	"outbound-network": "network-egress", "connectivity": "network-egress",
	"firewall": "network-egress", "dns-resolution": "network-egress",
	"name-resolution": "network-egress", "connection-refused": "network-egress",
	"network-policy": "network-egress",

	"package-path": "package-path", "package": "package-path",
	"packages": "package-path", "import": "package-path",
	"module": "package-path", "path": "package-path",
	"shared-library": "package-path", "ld": "package-path",
	"import-error": "package-path", "module-not-found": "package-path",
	"no-module": "package-path", "missing-module": "package-path",
	"missing-package": "package-path", "dependency": "package-path",
	"missing-dependency": "package-path", "ld-library-path": "package-path",
	"library-path": "package-path", "pythonpath": "package-path",
	"classpath": "package-path", "shared-lib": "package-path",
	"shared-object": "package-path", "missing-library": "package-path",
	"dynamic-library": "package-path", "dll": "package-path",
	"command-not-found": "package-path", "binary-not-found": "package-path",
	"executable-not-found": "package-path", "not-on-path": "package-path",

	"session-lifecycle": "session-lifecycle", "session": "session-lifecycle",
	"lifecycle": "session-lifecycle", "expiry": "session-lifecycle",
	"session-expired": "session-lifecycle", "session-expiry": "session-lifecycle",
	"session-timeout": "session-lifecycle", "session-lost": "session-lifecycle",
	"session-closed": "session-lifecycle", "session-terminated": "session-lifecycle",
	"teardown": "session-lifecycle", "sandbox-expired": "session-lifecycle",
	"sandbox-lifecycle": "session-lifecycle", "idle-timeout": "session-lifecycle",
	"keepalive": "session-lifecycle",

	"harness": "harness", "test": "harness", "fixture": "harness",
	"assertion": "harness", "checker": "harness", "test-bug": "harness",
	"assert": "harness", "grader": "harness", "test-harness": "harness",
	"test-setup": "harness", "test-infra": "harness",
}

// maxLabelLen is the longest label worth matching: every synonym is far
// shorter, and past it a label is a message, not a word. Checking it first
// makes a huge label cost nothing.
const maxLabelLen = 256

// layerIndex and primitiveIndex hold the synonyms under their folded key
// (see label), for labels the exact lookup misses.
var (
	layerIndex     = foldKeys(layerSynonyms)
	primitiveIndex = foldKeys(primitiveSynonyms)
)

func foldKeys(synonyms map[string]string) map[string]string {
	index := make(map[string]string, len(synonyms))
	for k, v := range synonyms {
		var l label
		l.fold(k)
		index[string(l.key())] = v
	}
	return index
}

// NormalizeLayer maps a harness's layer value, or one of its synonyms, to the
// vocabulary. It returns "" for anything unknown, including "unclassified",
// because that value decides nothing. Matching is generous; see label.
func NormalizeLayer(s string) string {
	return normalizeLabel(layerSynonyms, layerIndex, s)
}

// NormalizePrimitive maps a harness's primitive value, or one of its
// synonyms, to the vocabulary; "" if unknown. Matching is generous; see
// label.
func NormalizePrimitive(s string) string {
	return normalizeLabel(primitiveSynonyms, primitiveIndex, s)
}

// normalizeLabel looks s up as written, which is what harnesses send
// nearly always, then folded, then folded without noise words around it.
func normalizeLabel(synonyms, index map[string]string, s string) string {
	if len(s) > maxLabelLen {
		return ""
	}
	if v, ok := synonyms[s]; ok {
		return v
	}
	var l label
	l.fold(s)
	if v, ok := index[string(l.key())]; ok {
		return v
	}
	if key, ok := l.withoutNoise(); ok {
		return index[string(key)]
	}
	return ""
}

// label is a harness label folded for matching: split into words at any
// run of characters other than letters and digits and at CamelCase humps
// ("NetworkEgress", "nullByte", "OOMKilled"), lowercased, each word made
// singular, and joined without separators. So "Network_Egress",
// "network egresses" and "networkegress" all fold to "networkegress", and
// words written together match words written apart. It lives on the stack:
// folding allocates nothing.
type label struct {
	buf    [maxLabelLen]byte
	n      int                     // bytes of buf in use
	starts [maxLabelLen + 1]uint16 // word i is buf[starts[i]:starts[i+1]]
	words  int
}

// fold fills l from s, which is at most maxLabelLen bytes.
func (l *label) fold(s string) {
	inWord := false
	var prev rune
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		rest := s[i+size:]
		i += size
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			if inWord {
				l.endWord()
				inWord = false
			}
			continue
		}
		if inWord && hump(prev, r, rest) {
			l.endWord()
			inWord = false
		}
		if !inWord {
			l.starts[l.words] = uint16(l.n)
			inWord = true
		}
		switch {
		case 'A' <= r && r <= 'Z':
			l.buf[l.n] = byte(r) + 'a' - 'A'
			l.n++
		case r < utf8.RuneSelf:
			l.buf[l.n] = byte(r)
			l.n++
		default:
			// Other letters stay as they are: no synonym has them.
			l.n += copy(l.buf[l.n:], s[i-size:i])
		}
		prev = r
	}
	if inWord {
		l.endWord()
	}
	l.starts[l.words] = uint16(l.n)
}

// hump reports whether a CamelCase word starts at r, which follows prev
// and precedes rest: the B of nullByte, the E of UTF8Error, the K of
// OOMKilled. The s of an acronym's plural, as in APIs, starts none.
func hump(prev, r rune, rest string) bool {
	if !unicode.IsUpper(r) {
		return false
	}
	if unicode.IsLower(prev) || unicode.IsDigit(prev) {
		return true
	}
	if !unicode.IsUpper(prev) {
		return false
	}
	next, size := utf8.DecodeRuneInString(rest)
	if !unicode.IsLower(next) {
		return false
	}
	after, _ := utf8.DecodeRuneInString(rest[size:])
	return next != 's' || unicode.IsLower(after)
}

// endWord makes the last word singular and closes it.
func (l *label) endWord() {
	w := l.buf[l.starts[l.words]:l.n]
	switch n := len(w); {
	case n <= 3 || w[n-1] != 's' || w[n-2] == 's': // os, dns, process, egress
	case w[n-2] == 'e' && w[n-3] == 'i': // libraries
		w[n-3] = 'y'
		l.n -= 2
	case n > 4 && w[n-2] == 'e' && w[n-3] == 's' && w[n-4] == 's': // processes
		l.n -= 2
	default:
		l.n--
	}
	l.words++
}

// key returns the folded words, joined.
func (l *label) key() []byte {
	return l.buf[:l.n]
}

// withoutNoise returns the key without words such as "layer" or "errors"
// at either end, so "MCP Layer" and "NetworkEgressErrors" match; false if
// there are none, or nothing else.
func (l *label) withoutNoise() ([]byte, bool) {
	lo, hi := 0, l.words
	for lo < hi && noiseWord(l.buf[l.starts[lo]:l.starts[lo+1]]) {
		lo++
	}
	for hi > lo && noiseWord(l.buf[l.starts[hi-1]:l.starts[hi]]) {
		hi--
	}
	if (lo == 0 && hi == l.words) || lo == hi {
		return nil, false
	}
	return l.buf[l.starts[lo]:l.starts[hi]], true
}

// noiseWord reports whether w, folded, says nothing about the layer or
// primitive.
func noiseWord(w []byte) bool {
	switch string(w) {
	case "layer", "error", "err", "issue", "failure", "fail", "bug", "problem":
		return true
	}
	return false
}

// ValidLayer reports whether s is a layer of the vocabulary, including
// "unclassified".
func ValidLayer(s string) bool {
	_, ok := primitivesByLayer[s]
	return ok || s == sandtrap.LayerUnclassified
}

// ValidPrimitive reports whether primitive belongs to layer.
func ValidPrimitive(layer, primitive string) bool {
	return layerOfPrimitive[primitive] == layer && layer != ""
}

// Primitives returns the primitives of layer in display order, or nil for an
// unknown layer or "unclassified".
func Primitives(layer string) []string {
	return slices.Clone(primitivesByLayer[layer])
}

// Layers returns the layers of the vocabulary in display order, ending with
// "unclassified".
func Layers() []string {
	return []string{sandtrap.LayerInterface, sandtrap.LayerSandbox, sandtrap.LayerTest, sandtrap.LayerUnclassified}
}

// LayerOf returns the layer a primitive belongs to, or "" if it is unknown.
func LayerOf(primitive string) string {
	return layerOfPrimitive[primitive]
}
