package demo

import (
	"fmt"
	"math/rand/v2"
)

// passedLog is the short output of a workflow that worked. Some tools colour
// their output and some print raw bytes, so a few logs carry ANSI escapes or
// invalid UTF-8.
func passedLog(rng *rand.Rand, wf workflow) string {
	var log string
	switch domains[wf.domain].key {
	case "file-io":
		size := between(rng, 900, 90000)
		log = fmt.Sprintf("uploaded %s (%d bytes)\nsaved /workspace/out/result\ndownloaded %d bytes: sha256 matches\n", imageName(rng), size, size)
	case "package-install":
		pkg := pipPackage(rng, wf.template)
		version := fmt.Sprintf("%d.%d.%d", between(rng, 0, 3), between(rng, 0, 30), between(rng, 0, 9))
		log = fmt.Sprintf("Collecting %s\n  Downloading %s-%s-py3-none-any.whl (%.1f MB)\nInstalling collected packages: %s\nSuccessfully installed %s-%s\n",
			pkg, pkg, version, 0.1+rng.Float64()*40, pkg, pkg, version)
	case "data-analysis":
		log = fmt.Sprintf("rows: %d, columns: %d\nwrote /workspace/out/summary.csv\n", between(rng, 1000, 5000000), between(rng, 4, 60))
	case "ml-training":
		loss := 0.3 + rng.Float64()
		log = fmt.Sprintf("epoch 1/3 loss=%.4f\nepoch 2/3 loss=%.4f\nepoch 3/3 loss=%.4f\nsaved model to /workspace/out/model.pt\n", loss*1.8, loss*1.2, loss)
	case "binary-download":
		log = fmt.Sprintf("GET https://%s/releases/%s -> 200 (%d bytes)\nsha256 OK\n", exampleHost(rng), archiveName(rng), between(rng, 2048, 9000000))
		if rng.IntN(4) == 0 {
			log += "head: \x1f\x8b\x08\x00\xa3\xe1\xff\xfe\x03\xed\xbd\n"
		}
	case "multi-language-build":
		log = fmt.Sprintf("$ make -C /workspace/src\nbuild finished in %.1f s\n$ ./out\nHello, sandbox!\n", 1+rng.Float64()*90)
	case "report-generation":
		log = fmt.Sprintf("rendered %d charts\nwrote /workspace/out/report.html (%d bytes)\n", between(rng, 1, 9), between(rng, 4000, 400000))
	case "web-browsing":
		log = fmt.Sprintf("[pw:api] navigated to \"https://%s%s\" (200)\ncollected %d headings\n", exampleHost(rng), examplePath(rng), between(rng, 3, 60))
	case "form-automation":
		log = fmt.Sprintf("[pw:api] filled %d fields, clicked \"Submit\"\n[pw:api] waited for selector \".confirmation\"\nconfirmation: #%d\n", between(rng, 2, 12), between(rng, 10000, 99999))
	case "session-lifecycle":
		log = fmt.Sprintf("session %s alive after %d s idle\nx == 42\n", sandboxID(rng), between(rng, 30, 1700))
	}
	if rng.IntN(8) == 0 {
		log += "harness/checks.py::check_" + wf.template + " " + ansiGreen + "PASSED" + ansiReset + "\n"
	}
	return log
}

var skipReasons = []string{
	"requires a GPU runner",
	"target browser has no Python kernel",
	"quota exhausted for the day: 250/250 sandboxes",
	"flaky upstream mirror, skipped by policy",
	"needs network access to an allow-listed host that is not configured",
}

// skippedLog is what pytest prints for a skipped workflow.
func skippedLog(rng *rand.Rand) string {
	return fmt.Sprintf("SKIPPED [1] harness/conftest.py:%d: %s\n", between(rng, 20, 90), pick(rng, skipReasons...))
}
