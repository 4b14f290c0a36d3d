package triage

import (
	"strconv"
	"strings"
	"testing"
)

// BenchmarkClassifyUnclassifiedWithLog measures failures that no rule
// knows by their message, each with a 4 KiB log of its own: the rules then
// read the whole text, which no cache can share.
func BenchmarkClassifyUnclassifiedWithLog(b *testing.B) {
	c := NewClassifier(nil)
	log := strings.Repeat("step ok: wrote 4096 bytes to the workspace and moved on\n", 70)
	i := 0
	for b.Loop() {
		i++
		c.Classify(Failure{Status: "failed", Error: "the frobnicator wobbled", LogTail: []byte(log + strconv.Itoa(i))})
	}
}
