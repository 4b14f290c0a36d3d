package demo

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Small generators for the variable parts of messages: ids, hosts, sizes.

const hexDigits = "0123456789abcdef"

func randomHex(rng *rand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = hexDigits[rng.IntN(16)]
	}
	return string(b)
}

func pick[T any](rng *rand.Rand, items ...T) T { return items[rng.IntN(len(items))] }

// between draws an int in [lo, hi].
func between(rng *rand.Rand, lo, hi int) int { return lo + rng.IntN(hi-lo+1) }

func sandboxID(rng *rand.Rand) string { return "sbx-" + randomHex(rng, 8) }

func exampleHost(rng *rand.Rand) string {
	return fmt.Sprintf("%s.%s-%d.%s", pick(rng, "docs", "api", "cdn", "www", "shop", "status"),
		pick(rng, "example", "acme", "northwind", "contoso", "initech"), between(rng, 2, 99), pick(rng, "com", "dev", "net", "io"))
}

func examplePath(rng *rand.Rand) string {
	return pick(rng, "/start", "/guide/"+fmt.Sprint(between(rng, 1, 12)), "/products?id="+fmt.Sprint(between(rng, 100, 9999)),
		"/blog/2026/06/release-notes", "/search?q=sandbox+limits", "/checkout")
}

// pyFrame renders one frame of a Python traceback.
func pyFrame(file string, line int, fn, code string) string {
	return fmt.Sprintf("  File \"%s\", line %d, in %s\n    %s\n", file, line, fn, code)
}

// pyTraceback renders a Python traceback ending in last, the line that goes
// into the error column.
func pyTraceback(last string, frames ...string) string {
	return "Traceback (most recent call last):\n" + strings.Join(frames, "") + last + "\n"
}

// lastLines keeps the last n lines of a log, for results whose full output
// the demo does not store.
func lastLines(log string, n int) string {
	trimmed := strings.TrimRight(log, "\n")
	i := len(trimmed)
	for ; n > 0 && i > 0; n-- {
		i = strings.LastIndexByte(trimmed[:i], '\n')
		if i < 0 {
			return log
		}
	}
	return log[i+1:]
}

// ANSI colour escapes, as tools print them when they believe they talk to a
// terminal.
const (
	ansiRed    = "\x1b[31m"
	ansiGreen  = "\x1b[32m"
	ansiYellow = "\x1b[33m"
	ansiBold   = "\x1b[1m"
	ansiReset  = "\x1b[0m"
)

func colour(on bool, code, s string) string {
	if !on {
		return s
	}
	return code + s + ansiReset
}
