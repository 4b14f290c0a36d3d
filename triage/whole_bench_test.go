package triage

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
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

// BenchmarkClassifyUnseenMessages classifies every fourth labelled real
// message once, with a fresh classifier so that no cache helps, as a
// campaign of causes nobody has seen would be read: once with the rules'
// gates and once without, in the same run, and reports the time per
// message and the ratio. A fourth keeps the pass without gates, at about
// 10 ms a message, near a minute.
func BenchmarkClassifyUnseenMessages(b *testing.B) {
	var failures []Failure
	for i, f := range labelledFailures(b) {
		if i%4 == 0 {
			failures = append(failures, f)
		}
	}
	var gated, ungated time.Duration
	for b.Loop() {
		// Gated first: what the first pass warms (the patterns' machines,
		// the models) helps the baseline, not the gates.
		c := NewClassifier(nil)
		start := time.Now()
		for _, f := range failures {
			c.Classify(f)
		}
		gated += time.Since(start)
		c = NewClassifier(nil)
		for i := range c.rules {
			c.rules[i].errorGated = nil
		}
		start = time.Now()
		for _, f := range failures {
			c.Classify(f)
		}
		ungated += time.Since(start)
	}
	n := float64(b.N * len(failures))
	b.ReportMetric(float64(gated.Microseconds())/n, "µs-per-message")
	b.ReportMetric(float64(ungated.Microseconds())/n, "µs-per-message-ungated")
	b.ReportMetric(float64(ungated)/float64(gated), "x-faster-than-ungated")
}

// labelledFailures reads every record of the labelled real-world sets as
// the failure it describes.
func labelledFailures(tb testing.TB) []Failure {
	tb.Helper()
	var out []Failure
	for _, r := range loadRecords(tb, filepath.Join("..", "testdata", "eval", "realworld*.jsonl")) {
		out = append(out, r.failure())
	}
	return out
}
