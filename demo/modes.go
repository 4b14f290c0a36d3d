package demo

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"sandtrap/logview"
	"sandtrap/store/campaign"
)

// mode is one failure mode the demo produces. Its key never reaches the
// database: a real harness does not know its failure modes, sandtrap finds
// them. Within a mode only the variable parts of the message change.
type mode struct {
	key       string
	layer     string
	primitive string
	severity  string
	workflows []workflow // an empty template stands for any of the domain's
	// perThousand is how many results in a thousand fail this way in run 1,
	// run 2 and the live run.
	perThousand [3]int
	render      func(c *renderCtx) failure
}

// Indexes of perThousand.
const (
	run1 = iota
	run2
	runLive
)

// renderCtx is what a mode's renderer knows about the result it fails.
type renderCtx struct {
	rng      *rand.Rand
	wf       workflow
	detailed bool // the result keeps its artifacts, so digests must be real
	verbose  bool // the result carries the run's megabyte-sized log
	hostile  int  // 1–3: the message quotes hostile page content
}

// failure is a rendered failing result.
type failure struct {
	status   string // "" for failed
	err      string // the error column
	log      string // the full output
	exitCode *int64
	duration time.Duration // 0 for the domain's usual duration

	tool       string         // the MCP tool call that failed; "" when none did
	args       map[string]any // arguments of that call that the message mentions
	noSteps    bool           // the harness failed before making any tool call
	leavesOpen bool           // the sandbox is gone, so close_sandbox is not called
	rpcCode    int            // the JSON-RPC error the call got, 0 for none
	rpcMessage string
	text       string // the call's result text, when the transport "worked"
	raw        []byte // the call's broken, cut-off result payload

	artifacts []campaign.Artifact
}

// response is the failing tool call's response.
func (f *failure) response(id int) []byte {
	switch {
	case f.rpcCode != 0:
		return rpcError(id, f.rpcCode, f.rpcMessage)
	case f.raw != nil:
		return rawTextResponse(id, f.raw)
	case f.text != "":
		return rpcResult(id, f.text)
	default:
		return rpcToolError(id, lastLines(f.log, 3))
	}
}

func wfs(target, domain string, templates ...string) []workflow {
	d := domainIndex(domain)
	if len(templates) == 0 {
		return []workflow{{target, d, ""}}
	}
	out := make([]workflow, len(templates))
	for i, t := range templates {
		out[i] = workflow{target, d, t}
	}
	return out
}

// pickFor draws one of the mode's workflows.
func (m *mode) pickFor(rng *rand.Rand) workflow {
	wf := m.workflows[rng.IntN(len(m.workflows))]
	if wf.template == "" {
		ts := domains[wf.domain].templates
		wf.template = ts[rng.IntN(len(ts))]
	}
	return wf
}

// Mode keys the plan refers to by name.
const (
	modeB64           = "b64-corruption"
	modeFilesVanish   = "files-vanish"
	modePipEgress     = "pip-egress"
	modeBrowserOOM    = "browser-oom-tabs"
	modeTrainingOOM   = "training-oom"
	modeCPUTimeout    = "cpu-timeout"
	modeSpawnDenied   = "spawn-denied"
	modeBrowserDNS    = "browser-dns"
	modeSession       = "session-expired"
	modeJSONRPC       = "jsonrpc-parse"
	modeHarnessAssert = "harness-assert"
	modeStreamClosed  = "stream-closed"
	modeDiskFull      = "disk-full"
	modeProxyTunnel   = "egress-proxy-tunnel"
)

var modes = []mode{
	{modeB64, "interface", "encoding", "critical",
		slices.Concat(wfs(codeInterpreter, "file-io", "png-roundtrip", "parquet-roundtrip", "zip-extract"), wfs(codeInterpreter, "binary-download")),
		[3]int{4, 0, 0}, renderB64},
	{"nul-truncation", "interface", "null-byte", "critical",
		slices.Concat(wfs(codeInterpreter, "binary-download"), wfs(browser, "binary-download")),
		[3]int{3, 2, 2}, renderNULTruncation},
	{"mcp-size-limit", "interface", "message-size", "medium",
		slices.Concat(wfs(codeInterpreter, "data-analysis"), wfs(codeInterpreter, "report-generation")),
		[3]int{7, 6, 6}, renderMessageSize},
	{modeJSONRPC, "interface", "protocol", "high",
		slices.Concat(wfs(browser, "web-browsing"), wfs(codeInterpreter, "multi-language-build")),
		[3]int{6, 7, 7}, renderJSONRPCParse},
	{"path-traversal-accepted", "interface", "input-validation", "critical",
		wfs(codeInterpreter, "file-io", "symlink-read", "unicode-filenames", "large-file-write"),
		[3]int{2, 2, 2}, renderPathTraversal},
	{"site-packages-readonly", "sandbox", "filesystem-permissions", "medium",
		wfs(codeInterpreter, "package-install", "pip-pandas", "pip-sklearn", "requirements-file", "pip-torch-cpu"),
		[3]int{9, 7, 7}, renderSitePackages},
	{modeFilesVanish, "sandbox", "storage-persistence", "critical",
		slices.Concat(wfs(codeInterpreter, "file-io"), wfs(codeInterpreter, "report-generation")),
		[3]int{8, 0, 0}, renderFilesVanish},
	{modeBrowserOOM, "sandbox", "memory", "high",
		slices.Concat(wfs(browser, "web-browsing", "multi-tab-research", "docs-crawl", "price-compare"), wfs(browser, "form-automation")),
		[3]int{10, 12, 12}, renderBrowserOOM},
	{modeTrainingOOM, "sandbox", "memory", "high",
		wfs(codeInterpreter, "ml-training", "resnet-finetune", "mnist-cnn", "bert-tokenize", "checkpoint-resume"),
		[3]int{9, 8, 8}, renderTrainingOOM},
	{modeCPUTimeout, "sandbox", "cpu-time", "medium",
		slices.Concat(wfs(codeInterpreter, "ml-training", "hyperparam-sweep", "xgboost-tabular"), wfs(codeInterpreter, "data-analysis", "groupby-large-csv", "dedupe-customers")),
		[3]int{8, 9, 9}, renderCPUTimeout},
	{modeSpawnDenied, "sandbox", "process-spawn", "high",
		wfs(codeInterpreter, "multi-language-build"),
		[3]int{7, 6, 6}, renderSpawnDenied},
	{modePipEgress, "sandbox", "network-egress", "high",
		slices.Concat(wfs(codeInterpreter, "package-install", "pip-pandas", "pip-sklearn", "pip-torch-cpu", "pip-opencv", "pip-user-install", "requirements-file"),
			wfs(codeInterpreter, "ml-training", "xgboost-tabular", "bert-tokenize", "mnist-cnn")),
		[3]int{12, 0, 0}, renderPipEgress},
	{modeBrowserDNS, "sandbox", "network-egress", "high",
		wfs(browser, "web-browsing"),
		[3]int{6, 5, 5}, renderBrowserDNS},
	{"module-not-on-path", "sandbox", "package-path", "medium",
		slices.Concat(wfs(codeInterpreter, "package-install", "pip-sklearn", "pip-opencv", "requirements-file", "pip-user-install"), wfs(codeInterpreter, "data-analysis")),
		[3]int{6, 7, 7}, renderModuleNotOnPath},
	{"missing-shared-lib", "sandbox", "package-path", "medium",
		slices.Concat(wfs(codeInterpreter, "ml-training"), wfs(codeInterpreter, "report-generation", "pdf-weekly", "html-dashboard")),
		[3]int{5, 4, 4}, renderMissingSharedLib},
	{modeSession, "sandbox", "session-lifecycle", "high",
		slices.Concat(wfs(browser, "session-lifecycle"), wfs(codeInterpreter, "session-lifecycle")),
		[3]int{7, 8, 8}, renderSessionExpired},
	{modeHarnessAssert, "test", "harness", "low",
		slices.Concat(wfs(codeInterpreter, "data-analysis"), wfs(browser, "form-automation")),
		[3]int{5, 6, 6}, renderHarnessAssert},
	{"harness-fixture", "test", "harness", "low",
		wfs(browser, "form-automation"),
		[3]int{4, 3, 3}, renderHarnessFixture},
	{modeStreamClosed, "interface", "protocol", "high",
		wfs(codeInterpreter, "data-analysis"),
		[3]int{0, 9, 9}, renderStreamClosed},
	{modeDiskFull, "sandbox", "storage-persistence", "high",
		slices.Concat(wfs(codeInterpreter, "ml-training", "checkpoint-resume", "resnet-finetune", "mnist-cnn"), wfs(codeInterpreter, "file-io", "large-file-write", "csv-append")),
		[3]int{0, 7, 7}, renderDiskFull},
	// The live run's new mode: it starts about 60 % of the way through.
	{modeProxyTunnel, "sandbox", "network-egress", "high",
		slices.Concat(wfs(browser, "web-browsing"), wfs(browser, "form-automation", "checkout-form", "signup-form")),
		[3]int{0, 0, 0}, renderProxyTunnel},
}

func modeIndex(key string) int {
	for i, m := range modes {
		if m.key == key {
			return i
		}
	}
	panic("demo: unknown failure mode " + key)
}

func renderB64(c *renderCtx) failure {
	rng := c.rng
	download := domains[c.wf.domain].key == "binary-download"
	name, media := imageName(rng), mediaPNG
	if download {
		name, media = archiveName(rng), mediaGzip
	}
	// Without artifacts to check them against, the digests need not be real.
	var data []byte
	size, want := between(rng, 2000, 90000), randomHex(rng, 64)
	switch {
	case c.detailed && download:
		data = randomBlob(rng, "\x1f\x8b\x08\x00", between(rng, 4096, 16384))
	case c.detailed:
		data = picture(rng)
	}
	if data != nil {
		size, want = len(data), logview.SHA256Hex(data)
	}
	args := map[string]any{"path": "/workspace/out/" + name}
	upload := fmt.Sprintf("uploaded %s (%d bytes, sha256 %s)\n[mcp] -> tools/call read_file {\"path\": \"/workspace/out/%s\", \"encoding\": \"base64\"}\n",
		name, size, want, name)

	got := randomHex(rng, 64)
	var out []byte
	if data != nil {
		out = corrupt(rng, data, between(rng, 96, 160))
		got = logview.SHA256Hex(out)
	}
	f := failure{exitCode: new(int64(1)), tool: "read_file", args: args}
	f.err = fmt.Sprintf("artifact round trip mismatch: sha256 expected %s got %s for %s (%d bytes)", want, got, name, size)
	f.log = upload + fmt.Sprintf("[mcp] <- %d bytes of base64\ndecoded %d bytes, sha256 %s\n%s\n", size*4/3, size, got, f.err)
	if data != nil {
		f.text = string(base64Text(out))
		f.artifacts = []campaign.Artifact{artifact(name, media, data, want), artifact("roundtrip-"+name, media, out, want)}
	}
	return f
}

func renderNULTruncation(c *renderCtx) failure {
	rng := c.rng
	offset := pick(rng, 4096, 8192, 512*between(rng, 1, 11), between(rng, 300, 20000))
	size := offset + between(rng, 1000, 30000)
	name, magic := "report.pdf", "%PDF-1.7\n"
	switch rng.IntN(3) {
	case 1:
		name, magic = "archive.zip", "PK\x03\x04"
	case 2:
		name, magic = fmt.Sprintf("firmware-%d.bin", between(rng, 100, 999)), "\x7fFW1"
	}
	data := randomBlob(rng, magic, size)
	data[offset] = 0
	f := failure{exitCode: new(int64(1)), tool: "read_file", args: map[string]any{"path": "/downloads/" + name}}
	f.err = fmt.Sprintf("downloaded %d of %d bytes: content truncated at first NUL byte (offset %d)", offset, size, offset)
	f.log = fmt.Sprintf("GET https://%s/files/%s -> 200 (%d bytes)\n[mcp] <- read_file returned %d bytes\nlast bytes before the cut: %s\n%s\n",
		exampleHost(rng), name, size, offset, data[offset-16:offset+1], f.err)
	if c.detailed {
		f.raw = data[:offset+1]
		f.artifacts = []campaign.Artifact{artifact(name, mediaBin, data[:offset], logview.SHA256Hex(data))}
	}
	return f
}

func renderMessageSize(c *renderCtx) failure {
	rng := c.rng
	size := between(rng, 10485761, 67108864)
	f := failure{exitCode: new(int64(1)), tool: "run_code", rpcCode: -32600}
	f.rpcMessage = fmt.Sprintf("Invalid Request: message size %d exceeds limit of 10485760 bytes", size)
	f.err = "MCP error -32600: " + f.rpcMessage
	f.log = fmt.Sprintf("[agent] run_code: df = pd.read_parquet('/workspace/data/events-2026-%02d.parquet')\n"+
		"[agent] run_code: print(df.to_json(orient='records'))\n[mcp] -> tools/call run_code (id=3)\n"+
		"[mcp] <- error -32600 after %.2f s\n%s\n", between(rng, 1, 6), 0.5+rng.Float64()*4, f.err)
	return f
}

func renderJSONRPCParse(c *renderCtx) failure {
	rng := c.rng
	pos := pick(rng, 16384, 32768, 65536, 65536, 131072)
	tool := "run_code"
	if c.wf.target == browser {
		tool = "browser_screenshot"
	}
	f := failure{exitCode: new(int64(1)), tool: tool}
	f.err = fmt.Sprintf("JSON-RPC error -32700: Parse error: unexpected end of JSON input at position %d", pos)
	f.log = fmt.Sprintf("[mcp] -> tools/call %s (id=%d)\n[mcp] <- %d bytes, then the stream ended\n%s\n", tool, between(rng, 2, 9), pos, f.err)
	if c.detailed {
		line := "[INFO] Compiling 42 source files to /workspace/target/classes\n"
		if tool == "browser_screenshot" {
			line = "iVBORw0KGgoAAAANSUhEUgAAAoAAAAHgCAYAAAA10dzkAAAgAElEQVR4nOzdd3xT9f7H8e9J0r"
		}
		f.raw = []byte(strings.Repeat(line, pos/len(line)+1)[:pos-70])
	}
	return f
}

func renderPathTraversal(c *renderCtx) failure {
	rng := c.rng
	n := between(rng, 1, 99)
	path := pick(rng,
		fmt.Sprintf("../../../etc/cron.d/job-%d", n),
		"../../root/.ssh/authorized_keys",
		fmt.Sprintf("../../../../tmp/payload-%d.sh", n),
		fmt.Sprintf("/workspace/../../etc/profile.d/x%d.sh", n))
	f := failure{tool: "write_file", args: map[string]any{"path": path}}
	f.err = fmt.Sprintf("write_file accepted path '%s' outside /workspace without validation", path)
	written := between(rng, 20, 400)
	f.text = fmt.Sprintf("wrote %d bytes to %s", written, path)
	f.log = fmt.Sprintf("harness: probing write_file with a path outside the workspace\n"+
		"[mcp] -> tools/call write_file {\"path\": \"%s\", \"content\": \"…\"}\n[mcp] <- ok: wrote %d bytes\n"+
		"harness: expected a validation error, got success\n%s\n", path, written, f.err)
	return f
}

func renderSitePackages(c *renderCtx) failure {
	rng := c.rng
	pkg := pick(rng, [2]string{"numpy", "1.26.4"}, [2]string{"pandas", "2.1.4"}, [2]string{"requests", "2.31.0"},
		[2]string{"urllib3", "2.0.7"}, [2]string{"certifi", "2024.2.2"}, [2]string{"setuptools", "68.1.2"}, [2]string{"six", "1.16.0"})
	name, old := pkg[0], pkg[1]
	f := failure{exitCode: new(int64(2)), tool: "run_code", args: map[string]any{"language": "bash", "code": "pip install --upgrade " + name}}
	f.err = fmt.Sprintf("PermissionError: [Errno 13] Permission denied: '/usr/lib/python3/dist-packages/%s-%s.dist-info'", name, old)
	ansi := rng.IntN(5) < 2
	f.log = fmt.Sprintf("Collecting %s>=%s\n  Downloading %s-%s.%d-py3-none-any.whl (%.1f MB)\nInstalling collected packages: %s\n"+
		"  Attempting uninstall: %s\n    Found existing installation: %s %s\n    Uninstalling %s-%s:\n%s\n",
		name, old, name, old, between(rng, 1, 9), 0.1+rng.Float64()*18, name, name, name, old, name, old,
		colour(ansi, ansiRed, "ERROR: Exception:")) +
		pyTraceback(f.err,
			pyFrame("/usr/lib/python3/dist-packages/pip/_internal/cli/base_command.py", 180, "exc_logging_wrapper", "status = run_func(*args)"),
			pyFrame("/usr/lib/python3/dist-packages/pip/_internal/req/req_uninstall.py", 380, "remove", "moved.stash(path)"),
			pyFrame("/usr/lib/python3.11/shutil.py", 847, "move", "os.rename(src, real_dst)"))
	return f
}

func renderFilesVanish(c *renderCtx) failure {
	rng := c.rng
	path := fmt.Sprintf("/home/user/output/%s-%s.%s", pick(rng, "report", "export", "summary", "results"), randomHex(rng, 4), pick(rng, "csv", "xlsx", "parquet"))
	f := failure{exitCode: new(int64(1)), tool: "read_file", args: map[string]any{"path": path}}
	f.err = fmt.Sprintf("FileNotFoundError: [Errno 2] No such file or directory: '%s'", path)
	f.log = fmt.Sprintf("wrote %d bytes to %s\nsandbox idle for %d s while the agent planned the next step\n", between(rng, 2000, 900000), path, between(rng, 40, 600)) +
		pyTraceback(f.err,
			pyFrame("/workspace/verify.py", between(rng, 5, 30), "<module>", fmt.Sprintf("df = pd.read_csv('%s')", path)),
			pyFrame("/usr/local/lib/python3.11/site-packages/pandas/io/common.py", 873, "get_handle", "handle = open("))
	return f
}

func renderBrowserOOM(c *renderCtx) failure {
	rng := c.rng
	tabs := between(rng, 12, 24)
	pid := between(rng, 200, 4000)
	var b strings.Builder
	b.WriteString("[pw:api] => browser.newContext started\n")
	url := ""
	for i := 1; i <= tabs; i++ {
		url = "https://" + exampleHost(rng) + examplePath(rng)
		fmt.Fprintf(&b, "[pw:api] tab %d of %d: navigating to %q, waiting until \"load\"\n", i, tabs, url)
	}
	fmt.Fprintf(&b, "[pw:browser] <chromium> [pid=%d][err] [0630/%06d.%03d:ERROR:memory_pressure_monitor.cc(213)] Memory pressure: critical\n",
		pid, between(rng, 220000, 235959), between(rng, 0, 999))
	fmt.Fprintf(&b, "[pw:browser] <chromium> [pid=%d] <process did exit: exitCode=137, signal=null>\n", pid)
	f := failure{exitCode: new(int64(137)), tool: "browser_navigate", leavesOpen: true, args: map[string]any{"url": url}}
	f.err = "page.goto: Target crashed"
	fmt.Fprintf(&b, "%s\n=========================== logs ===========================\nnavigating to %q, waiting until \"load\"\n"+
		"============================================================\n", f.err, url)
	f.log = b.String()
	return f
}

func renderTrainingOOM(c *renderCtx) failure {
	rng := c.rng
	f := failure{exitCode: new(int64(137)), tool: "run_code", duration: time.Duration(between(rng, 180, 840)) * time.Second}
	f.err = "process exited with code 137 (SIGKILL): memory cgroup out of memory"
	lines := between(rng, 12, 40)
	if c.verbose {
		lines = 18000 // a verbose training log of just over 1 MiB
	}
	var b strings.Builder
	b.Grow(lines * 80)
	fmt.Fprintf(&b, "Using device: cpu\nLoaded %d training images, %d validation images\n", between(rng, 400, 60000), between(rng, 100, 10000))
	loss := 2.0 + rng.Float64()
	perEpoch := max(1, lines/8)
	for i := range lines {
		loss *= 1 - 0.5/float64(lines)
		fmt.Fprintf(&b, "epoch %d/10 step %5d/%d loss=%.4f lr=3.0e-04 rss=%d MiB\n", 1+i/perEpoch, i%perEpoch+1, perEpoch, loss, 900+i*3100/lines)
	}
	fmt.Fprintf(&b, "Killed\nharness: sandbox memory limit %d MiB reached\n%s\n", pick(rng, 2048, 4096), f.err)
	f.log = b.String()
	return f
}

func renderCPUTimeout(c *renderCtx) failure {
	rng := c.rng
	limit := pick(rng, 300, 300, 300, 600)
	f := failure{exitCode: new(int64(152)), tool: "run_code", duration: time.Duration(limit+between(rng, 1, 20)) * time.Second}
	f.err = fmt.Sprintf("TimeoutError: execution exceeded the %d s CPU time limit", limit)
	f.log = fmt.Sprintf("fitting %d candidates, %d folds\n", between(rng, 8, 48), pick(rng, 3, 5)) + pyTraceback(f.err,
		pyFrame("/workspace/job.py", between(rng, 20, 90), "<module>", "search.fit(X, y)"),
		pyFrame("/usr/local/lib/python3.11/site-packages/sklearn/model_selection/_search.py", 874, "fit", "self._run_search(evaluate_candidates)"),
		pyFrame("/opt/sandbox/runtime/limits.py", 62, "_on_sigxcpu", `raise TimeoutError(f"execution exceeded the {limit} s CPU time limit")`))
	return f
}

func renderSpawnDenied(c *renderCtx) failure {
	rng := c.rng
	f := failure{exitCode: new(int64(1)), tool: "run_code"}
	program := map[string]string{"c-gcc-make": "gcc", "rust-cargo-build": "cargo", "go-build": "go", "node-tsc": "tsc", "polyglot-pipeline": "g++"}[c.wf.template]
	if program == "" {
		program = pick(rng, "javac", "javac", "mvn", "gradle")
	}
	f.err = fmt.Sprintf("Error: spawn %s EPERM", program)
	f.log = fmt.Sprintf("node:internal/child_process:421\n    throw errnoException(err, 'spawn');\n    ^\n\n%s\n"+
		"    at ChildProcess.spawn (node:internal/child_process:421:11)\n    at spawn (node:child_process:761:9)\n"+
		"    at build (/workspace/build.js:%d:3) {\n  errno: -1,\n  code: 'EPERM',\n  syscall: 'spawn %s',\n  path: '%s',\n"+
		"  spawnargs: [ '-O2', '-o', 'out', 'main.c' ]\n}\n\nNode.js v20.14.0\n", f.err, between(rng, 5, 40), program, program)
	return f
}

// pipPackage is what a package-install or training workflow installs.
func pipPackage(rng *rand.Rand, template string) string {
	switch template {
	case "pip-pandas":
		return "pandas"
	case "pip-sklearn":
		return "scikit-learn"
	case "pip-torch-cpu":
		return "torch"
	case "pip-opencv":
		return "opencv-python"
	case "pip-user-install":
		return "httpx"
	case "xgboost-tabular":
		return "xgboost"
	case "bert-tokenize":
		return "transformers"
	case "mnist-cnn":
		return "torchvision"
	}
	return pick(rng, "polars", "pyarrow", "rich", "pydantic", "lightgbm")
}

func renderPipEgress(c *renderCtx) failure {
	rng := c.rng
	pkg := pipPackage(rng, c.wf.template)
	ansi := rng.IntN(10) < 3
	f := failure{exitCode: new(int64(1)), tool: "run_code", args: map[string]any{"language": "bash", "code": "pip install " + pkg}}
	f.err = fmt.Sprintf("ERROR: Could not find a version that satisfies the requirement %s (from versions: none)", pkg)
	var b strings.Builder
	for total := 4; total >= 0; total-- {
		b.WriteString(colour(ansi, ansiYellow, fmt.Sprintf("WARNING: Retrying (Retry(total=%d, connect=None, read=None, redirect=None, status=None)) "+
			"after connection broken by 'NewConnectionError('<pip._vendor.urllib3.connection.HTTPSConnection object at 0x7f%s>: "+
			"Failed to establish a new connection: [Errno 101] Network is unreachable')': /simple/%s/", total, randomHex(rng, 10), pkg)))
		b.WriteByte('\n')
	}
	b.WriteString(colour(ansi, ansiRed, f.err) + "\n")
	b.WriteString(colour(ansi, ansiRed, "ERROR: No matching distribution found for "+pkg) + "\n")
	f.log = b.String()
	return f
}

func playwrightGotoLog(url, err string) string {
	return fmt.Sprintf("[pw:api] => page.goto started\n[pw:api] navigating to %q, waiting until \"load\"\n[pw:api] <= page.goto failed\n"+
		"%s\nCall log:\n  - navigating to %q, waiting until \"load\"\n", url, err, url)
}

func renderBrowserDNS(c *renderCtx) failure {
	url := "https://" + exampleHost(c.rng) + examplePath(c.rng)
	f := failure{exitCode: new(int64(1)), tool: "browser_navigate", args: map[string]any{"url": url}}
	f.err = "page.goto: net::ERR_NAME_NOT_RESOLVED at " + url
	f.log = playwrightGotoLog(url, f.err)
	return f
}

func renderProxyTunnel(c *renderCtx) failure {
	url := "https://" + exampleHost(c.rng) + examplePath(c.rng)
	f := failure{exitCode: new(int64(1)), tool: "browser_navigate", args: map[string]any{"url": url}}
	f.err = "page.goto: net::ERR_TUNNEL_CONNECTION_FAILED at " + url
	f.log = "[pw:browser] proxy: CONNECT " + strings.TrimPrefix(url, "https://") + " -> 403 Forbidden\n" + playwrightGotoLog(url, f.err)
	return f
}

func renderModuleNotOnPath(c *renderCtx) failure {
	rng := c.rng
	p := pick(rng, [3]string{"scikit-learn", "1.5.0", "sklearn"}, [3]string{"opencv-python", "4.10.0.84", "cv2"},
		[3]string{"pyyaml", "6.0.1", "yaml"}, [3]string{"beautifulsoup4", "4.12.3", "bs4"},
		[3]string{"python-dateutil", "2.9.0", "dateutil"}, [3]string{"pillow", "10.3.0", "PIL"})
	dist, version, module := p[0], p[1], p[2]
	f := failure{exitCode: new(int64(1)), tool: "run_code", args: map[string]any{"language": "bash", "code": fmt.Sprintf("pip install %s && python -c 'import %s'", dist, module)}}
	f.err = fmt.Sprintf("ModuleNotFoundError: No module named '%s'", module)
	f.log = fmt.Sprintf("$ pip install %s\nCollecting %s\n  Downloading %s-%s-cp311-cp311-manylinux_2_17_x86_64.whl (%.1f MB)\n"+
		"Installing collected packages: %s\nSuccessfully installed %s-%s\n"+
		"note: installed into /opt/conda/lib/python3.10/site-packages; the kernel runs /usr/bin/python3.11\n$ python -c 'import %s'\n",
		dist, dist, strings.ReplaceAll(dist, "-", "_"), version, 0.2+rng.Float64()*30, dist, dist, version, module) +
		pyTraceback(f.err, pyFrame("<string>", 1, "<module>", "import "+module))
	return f
}

func renderMissingSharedLib(c *renderCtx) failure {
	rng := c.rng
	libs := [][2]string{{"libGL.so.1", "cv2"}, {"libgomp.so.1", "lightgbm"}, {"libsndfile.so.1", "soundfile"}}
	if domains[c.wf.domain].key == "report-generation" {
		libs = [][2]string{{"libcairo.so.2", "cairosvg"}, {"libpangocairo-1.0.so.0", "weasyprint"}, {"libGL.so.1", "cv2"}}
	}
	l := pick(rng, libs...)
	f := failure{exitCode: new(int64(1)), tool: "run_code"}
	f.err = fmt.Sprintf("ImportError: %s: cannot open shared object file: No such file or directory", l[0])
	f.log = pyTraceback(f.err,
		pyFrame("/workspace/main.py", between(rng, 1, 12), "<module>", "import "+l[1]),
		pyFrame(fmt.Sprintf("/usr/local/lib/python3.11/site-packages/%s/__init__.py", l[1]), between(rng, 5, 200), "<module>", "from . import _native"))
	return f
}

func renderSessionExpired(c *renderCtx) failure {
	rng := c.rng
	secs := pick(rng, 1800, 1800, 1800, 1800, 3600)
	sbx := sandboxID(rng)
	tool := "run_code"
	if c.wf.target == browser {
		tool = "browser_navigate"
	}
	f := failure{tool: tool, leavesOpen: true, duration: time.Duration(secs+between(rng, 5, 120)) * time.Second}
	if rng.IntN(10) < 3 {
		f.status = "error"
	}
	f.err = fmt.Sprintf("session %s expired after %d s: sandbox not found (HTTP 404)", sbx, secs)
	f.log = fmt.Sprintf("created sandbox %s\nidle for %d s (the workflow waits on purpose)\n[mcp] -> tools/call %s\n[mcp] <- 404 Not Found\n%s\n",
		sbx, secs+between(rng, 1, 60), tool, f.err)
	return f
}

// hostileQuotes are the page contents some harness assertions quote: they
// must reach the screen as text.
var hostileQuotes = []string{
	"page returned: <script>alert(1)</script>",
	`page returned: <img src=x onerror=alert(1)> <div data-on-load="alert(1)">`,
	"cell 2 = 'caf\x00e\x07\x08\x1b[2J\x1b]0;owned\x07\x7f'",
}

func renderHarnessAssert(c *renderCtx) failure {
	rng := c.rng
	want := between(rng, 1, 40)
	got := want + pick(rng, -1, 1, 1, 2, 5)
	if got < 0 {
		got = want + 1
	}
	f := failure{exitCode: new(int64(1))}
	f.err = fmt.Sprintf("AssertionError: expected %d rows, got %d", want, got)
	if c.hostile > 0 {
		f.err += "\n" + hostileQuotes[c.hostile-1]
	}
	ansi := rng.IntN(2) == 0
	check := pick(rng, "check_row_count", "check_table_rows", "check_result_rows")
	f.log = fmt.Sprintf("============================= test session starts ==============================\ncollected 1 item\n\n"+
		"harness/checks.py::%s %s\n\n=================================== FAILURES ===================================\n"+
		"harness/checks.py:%d: in %s\n    assert len(rows) == expected, f\"expected {expected} rows, got {len(rows)}\"\n%s\n"+
		"=========================== short test summary info ============================\n"+
		"FAILED harness/checks.py::%s - %s\n============================== 1 failed in %.2fs ===============================\n",
		check, colour(ansi, ansiRed, "FAILED"), between(rng, 60, 140), check,
		colour(ansi, ansiBold+ansiRed, "E   "+strings.ReplaceAll(f.err, "\n", "\nE   ")), check, firstLine(f.err), 0.1+rng.Float64()*3)
	return f
}

func renderHarnessFixture(c *renderCtx) failure {
	rng := c.rng
	fixture := pick(rng, "login_page", "checkout_cart", "seeded_user", "upload_pdf", "admin_session")
	test := strings.ReplaceAll(c.wf.template, "-", "_")
	f := failure{status: "error", noSteps: true, duration: time.Duration(between(rng, 50, 600)) * time.Millisecond}
	f.err = fmt.Sprintf("harness error: fixture '%s' not found", fixture)
	f.log = fmt.Sprintf("ERROR at setup of test_%s\nfile /harness/tests/test_forms.py, line %d\n  def test_%s(page, %s):\n"+
		"E       fixture '%s' not found\n>       available fixtures: browser, browser_name, context, page, playwright, tmp_path\n"+
		">       use 'pytest --fixtures [testpath]' for help on them.\n", test, between(rng, 10, 200), test, fixture, fixture)
	return f
}

func renderStreamClosed(c *renderCtx) failure {
	rng := c.rng
	f := failure{tool: "run_code", rpcCode: -32603, rpcMessage: "Internal error: response stream closed before the result was sent"}
	f.err = "MCP error -32603: " + f.rpcMessage
	f.log = fmt.Sprintf("[mcp] -> tools/call run_code (id=%d)\n[mcp] stream: received %d bytes of SSE, then EOF after %.1f s\n%s\n",
		between(rng, 2, 9), between(rng, 0, 4096), 1+rng.Float64()*50, f.err)
	return f
}

func renderDiskFull(c *renderCtx) failure {
	rng := c.rng
	f := failure{exitCode: new(int64(1)), tool: "run_code"}
	var frames []string
	var path string
	if domains[c.wf.domain].key == "ml-training" {
		path = fmt.Sprintf("/workspace/out/epoch-%d.pt", between(rng, 1, 12))
		frames = []string{
			pyFrame("/workspace/train.py", between(rng, 40, 120), "<module>", "torch.save(model.state_dict(), ckpt_path)"),
			pyFrame("/usr/local/lib/python3.11/site-packages/torch/serialization.py", 628, "save", "with _open_zipfile_writer(f) as opened_zipfile:"),
		}
	} else {
		path = fmt.Sprintf("/workspace/out/chunk-%04d.bin", between(rng, 1, 400))
		frames = []string{pyFrame("/workspace/write_chunks.py", between(rng, 10, 40), "<module>", "f.write(chunk)")}
	}
	f.err = fmt.Sprintf("OSError: [Errno 28] No space left on device: '%s'", path)
	f.log = fmt.Sprintf("harness: /tmp and /workspace share a %d MiB overlay\n", pick(rng, 512, 1024, 2048)) + pyTraceback(f.err, frames...)
	return f
}
