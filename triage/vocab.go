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
	"strings"

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
// vocabulary. Keys are in canonical form (see canonicalWord).
var layerSynonyms = map[string]string{
	"interface": sandtrap.LayerInterface, "mcp": sandtrap.LayerInterface,
	"transport": sandtrap.LayerInterface, "api": sandtrap.LayerInterface,
	"tool": sandtrap.LayerInterface, "tools": sandtrap.LayerInterface,
	"jsonrpc": sandtrap.LayerInterface, "json-rpc": sandtrap.LayerInterface,
	"sandbox": sandtrap.LayerSandbox, "runtime": sandtrap.LayerSandbox,
	"environment": sandtrap.LayerSandbox, "env": sandtrap.LayerSandbox,
	"container": sandtrap.LayerSandbox, "infra": sandtrap.LayerSandbox,
	"infrastructure": sandtrap.LayerSandbox, "platform": sandtrap.LayerSandbox,
	"os":   sandtrap.LayerSandbox,
	"test": sandtrap.LayerTest, "tests": sandtrap.LayerTest,
	"harness": sandtrap.LayerTest, "test-harness": sandtrap.LayerTest,
	"checker": sandtrap.LayerTest, "fixture": sandtrap.LayerTest,
}

// primitiveSynonyms maps what harnesses write in their primitive column to
// the vocabulary. Keys are in canonical form (see canonicalWord).
var primitiveSynonyms = map[string]string{
	"encoding": "encoding", "base64": "encoding", "b64": "encoding",
	"utf-8": "encoding", "utf8": "encoding", "unicode": "encoding",
	"charset": "encoding", "corruption": "encoding", "checksum": "encoding",

	"null-byte": "null-byte", "nul-byte": "null-byte", "nul": "null-byte",
	"null": "null-byte", "nullbyte": "null-byte",

	"message-size": "message-size", "size": "message-size",
	"size-limit": "message-size", "payload-size": "message-size",
	"too-large": "message-size", "truncation": "message-size",

	"protocol": "protocol", "transport": "protocol", "jsonrpc": "protocol",
	"json-rpc": "protocol", "rpc": "protocol", "mcp": "protocol",

	"input-validation": "input-validation", "validation": "input-validation",
	"path-traversal": "input-validation", "traversal": "input-validation",
	"input": "input-validation",

	"filesystem-permissions": "filesystem-permissions", "fs": "filesystem-permissions",
	"filesystem": "filesystem-permissions", "permissions": "filesystem-permissions",
	"permission": "filesystem-permissions", "fs-permissions": "filesystem-permissions",
	"eacces": "filesystem-permissions", "read-only": "filesystem-permissions",
	"readonly": "filesystem-permissions", "erofs": "filesystem-permissions",

	"storage-persistence": "storage-persistence", "storage": "storage-persistence",
	"persistence": "storage-persistence", "disk": "storage-persistence",
	"disk-full": "storage-persistence", "enospc": "storage-persistence",
	"quota": "storage-persistence",

	"memory": "memory", "oom": "memory", "mem": "memory",
	"out-of-memory": "memory", "oom-kill": "memory", "oomkilled": "memory",

	"cpu-time": "cpu-time", "cpu": "cpu-time", "timeout": "cpu-time",
	"time-limit": "cpu-time", "cputime": "cpu-time",

	"process-spawn": "process-spawn", "spawn": "process-spawn",
	"process": "process-spawn", "exec": "process-spawn",
	"subprocess": "process-spawn", "fork": "process-spawn",
	"seccomp": "process-spawn", "syscall": "process-spawn",

	"network-egress": "network-egress", "network": "network-egress",
	"egress": "network-egress", "net": "network-egress", "dns": "network-egress",
	"proxy": "network-egress",

	"package-path": "package-path", "package": "package-path",
	"packages": "package-path", "import": "package-path",
	"module": "package-path", "path": "package-path",
	"shared-library": "package-path", "ld": "package-path",

	"session-lifecycle": "session-lifecycle", "session": "session-lifecycle",
	"lifecycle": "session-lifecycle", "expiry": "session-lifecycle",
	"session-expired": "session-lifecycle",

	"harness": "harness", "test": "harness", "fixture": "harness",
	"assertion": "harness", "checker": "harness", "test-bug": "harness",
}

// canonicalWord lowercases s, trims it and turns spaces and underscores into
// hyphens, so "Network_Egress " and "network-egress" look alike.
func canonicalWord(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r == '_' || r == ' ':
			return '-'
		case r >= 'A' && r <= 'Z':
			return r + ('a' - 'A')
		}
		return r
	}, s)
}

// NormalizeLayer maps a harness's layer value, or one of its synonyms, to the
// vocabulary. It returns "" for anything unknown, including "unclassified",
// because that value decides nothing.
func NormalizeLayer(s string) string {
	if l, ok := layerSynonyms[s]; ok {
		return l
	}
	return layerSynonyms[canonicalWord(s)]
}

// NormalizePrimitive maps a harness's primitive value, or one of its
// synonyms, to the vocabulary; "" if unknown.
func NormalizePrimitive(s string) string {
	if p, ok := primitiveSynonyms[s]; ok {
		return p
	}
	return primitiveSynonyms[canonicalWord(s)]
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
