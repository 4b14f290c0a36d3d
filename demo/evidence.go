package demo

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"maps"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"sandtrap/logview"
	"sandtrap/store/campaign"
)

// Media types of the artifacts.
const (
	mediaPNG  = "image/png"
	mediaCSV  = "text/csv"
	mediaJSON = "application/json"
	mediaHTML = "text/html"
	mediaSVG  = "image/svg+xml"
	mediaGzip = "application/gzip"
	mediaBin  = "application/octet-stream"
)

// The demo draws its images from a small fixed set: encoding a fresh PNG
// for every result would cost more than everything else it writes.
var (
	pictures    = sync.OnceValue(func() [][]byte { return drawPNGs(1, 48, 64, 48) })
	screenshots = sync.OnceValue(func() [][]byte { return drawPNGs(2, 16, 96, 60) })
)

// picture is one of the small gradient images.
func picture(rng *rand.Rand) []byte { p := pictures(); return p[rng.IntN(len(p))] }

// screenshot is one of the browser screenshots.
func screenshot(rng *rand.Rand) []byte { p := screenshots(); return p[rng.IntN(len(p))] }

func drawPNGs(seed uint64, n, w, h int) [][]byte {
	rng := rand.New(rand.NewPCG(seed, 0))
	out := make([][]byte, n)
	for i := range out {
		out[i] = gradientPNG(rng, w, h)
	}
	return out
}

// gradientPNG draws a two-colour gradient with a disc on it, so that every
// image differs and a corruption shows.
func gradientPNG(rng *rand.Rand, w, h int) []byte {
	from := color.RGBA{uint8(rng.IntN(256)), uint8(rng.IntN(256)), uint8(rng.IntN(256)), 255}
	to := color.RGBA{uint8(rng.IntN(256)), uint8(rng.IntN(256)), uint8(rng.IntN(256)), 255}
	cx, cy, r := rng.IntN(w), rng.IntN(h), 4+rng.IntN(h/3)
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			t := float64(x+y) / float64(w+h-2)
			c := color.RGBA{
				uint8(float64(from.R) + t*(float64(to.R)-float64(from.R))),
				uint8(float64(from.G) + t*(float64(to.G)-float64(from.G))),
				uint8(float64(from.B) + t*(float64(to.B)-float64(from.B))),
				255,
			}
			if (x-cx)*(x-cx)+(y-cy)*(y-cy) < r*r {
				c = color.RGBA{255 - c.R, 255 - c.G, 255 - c.B, 255}
			}
			img.SetRGBA(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		panic("demo: encoding a PNG in memory: " + err.Error())
	}
	return buf.Bytes()
}

// randomBlob is n bytes of noise with no NUL in them, like a compressed
// archive's body, behind the given magic header.
func randomBlob(rng *rand.Rand, magic string, n int) []byte {
	b := make([]byte, n)
	copy(b, magic)
	for i := len(magic); i < n; i++ {
		b[i] = byte(1 + rng.IntN(255))
	}
	return b
}

// corrupt returns a copy of data with a run of bytes flipped from offset on,
// the way a wrong base64 decoder mangles a payload.
func corrupt(rng *rand.Rand, data []byte, offset int) []byte {
	out := bytes.Clone(data)
	for i := offset; i < min(len(out), offset+between(rng, 3, 40)); i++ {
		out[i] ^= byte(1 + rng.IntN(255))
	}
	return out
}

func artifact(name, media string, data []byte, expectedSHA256 string) campaign.Artifact {
	a := campaign.Artifact{Name: name, MediaType: &media, Data: data}
	if expectedSHA256 != "" {
		a.ExpectedSHA256 = &expectedSHA256
	}
	return a
}

func imageName(rng *rand.Rand) string {
	return pick(rng, "chart.png", "photo.png", fmt.Sprintf("scan-%04d.png", between(rng, 1, 9999)), "diagram.png", "heatmap.png")
}

func archiveName(rng *rand.Rand) string {
	return fmt.Sprintf("%s-v%d.%d.%d.tar.gz", pick(rng, "dataset", "toolchain", "release", "fixtures", "models"),
		between(rng, 0, 4), between(rng, 0, 20), between(rng, 0, 9))
}

// passedArtifacts are the files a workflow of the domain leaves behind when
// it works: round-tripped images, downloads, tables, reports and charts.
func passedArtifacts(rng *rand.Rand, wf workflow) []campaign.Artifact {
	switch domains[wf.domain].key {
	case "file-io":
		name := imageName(rng)
		img := picture(rng)
		digest := logview.SHA256Hex(img)
		return []campaign.Artifact{
			artifact(name, mediaPNG, img, digest),
			artifact("roundtrip-"+name, mediaPNG, img, digest),
		}
	case "binary-download":
		blob := randomBlob(rng, "\x1f\x8b\x08\x00", between(rng, 2048, 12288))
		return []campaign.Artifact{artifact(archiveName(rng), mediaGzip, blob, logview.SHA256Hex(blob))}
	case "data-analysis":
		return []campaign.Artifact{artifact("summary.csv", mediaCSV, summaryCSV(rng), "")}
	case "report-generation":
		return []campaign.Artifact{
			artifact("report.html", mediaHTML, reportHTML(rng), ""),
			artifact("chart.svg", mediaSVG, chartSVG(rng), ""),
		}
	case "ml-training":
		return []campaign.Artifact{artifact("metrics.json", mediaJSON, metricsJSON(rng), "")}
	case "web-browsing", "form-automation":
		if rng.IntN(3) == 0 {
			return []campaign.Artifact{artifact("screenshot.png", mediaPNG, screenshot(rng), "")}
		}
	case "multi-language-build":
		if rng.IntN(4) == 0 {
			return []campaign.Artifact{artifact("hello", mediaBin, randomBlob(rng, "\x7fELF\x02\x01\x01\x00", between(rng, 1024, 4096)), "")}
		}
	}
	return nil
}

func summaryCSV(rng *rand.Rand) []byte {
	var b strings.Builder
	b.WriteString("region,orders,revenue_eur,avg_basket_eur\n")
	for _, region := range []string{"north", "south", "east", "west", "central"} {
		orders := between(rng, 800, 25000)
		basket := 20 + rng.Float64()*80
		fmt.Fprintf(&b, "%s,%d,%.2f,%.2f\n", region, orders, float64(orders)*basket, basket)
	}
	return []byte(b.String())
}

// reportHTML is a generated report with the inline script such reports
// carry, which must never run when sandtrap serves the file.
func reportHTML(rng *rand.Rand) []byte {
	week := between(rng, 20, 30)
	return fmt.Appendf(nil, `<!doctype html>
<html><head><meta charset="utf-8"><title>Weekly report, week %d</title>
<script>document.title += " (loaded)"; alert("report.html ran a script: it must be served as an attachment");</script>
</head><body>
<h1>Weekly report, week %d</h1>
<p>Orders: %d. Revenue: %d EUR.</p>
<img src="chart.svg" alt="orders per day">
</body></html>
`, week, week, between(rng, 1000, 90000), between(rng, 10000, 900000))
}

// chartSVG is a bar chart with an onload handler, like charts some plotting
// libraries emit; served inline it would run.
func chartSVG(rng *rand.Rand) []byte {
	var b strings.Builder
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" width="240" height="120" viewBox="0 0 240 120" onload="alert('chart.svg ran a script')">` + "\n")
	for i := range 7 {
		h := between(rng, 10, 110)
		fmt.Fprintf(&b, `  <rect x="%d" y="%d" width="26" height="%d" fill="#4e79a7"/>`+"\n", 6+i*33, 120-h, h)
	}
	b.WriteString("</svg>\n")
	return []byte(b.String())
}

func metricsJSON(rng *rand.Rand) []byte {
	loss := 0.2 + rng.Float64()
	return fmt.Appendf(nil, `{"epochs": 3, "final_loss": %.4f, "val_accuracy": %.4f, "wall_seconds": %d}`+"\n",
		loss, 0.7+rng.Float64()*0.29, between(rng, 60, 900))
}

// call is one MCP tool call the demo writes as a step.
type call struct {
	tool string
	args map[string]any
}

// files are the paths a code-interpreter workflow of each domain writes
// before running its code and reads back after.
var files = map[string][2]string{
	"file-io":              {"/workspace/in.png", "/workspace/out/out.png"},
	"binary-download":      {"/workspace/fetch.py", "/workspace/out/download.bin"},
	"report-generation":    {"/workspace/data.csv", "/workspace/out/report.html"},
	"data-analysis":        {"/workspace/data.csv", ""},
	"ml-training":          {"/workspace/train.py", ""},
	"multi-language-build": {"/workspace/src/main.c", ""},
}

// snippets are the code a code-interpreter workflow of each domain runs.
var snippets = map[string]string{
	"file-io":              "from PIL import Image\nImage.open('/workspace/in.png').rotate(90).save('/workspace/out/out.png')",
	"binary-download":      "import runpy\nrunpy.run_path('/workspace/fetch.py')",
	"data-analysis":        "import pandas as pd\ndf = pd.read_csv('/workspace/data.csv')\nprint(df.groupby('region').sum())",
	"ml-training":          "import subprocess\nsubprocess.run(['python', '/workspace/train.py', '--epochs', '3'], check=True)",
	"multi-language-build": "import subprocess\nsubprocess.run(['make', '-C', '/workspace/src'], check=True)",
	"report-generation":    "import report\nreport.render('/workspace/data.csv', '/workspace/out/report.html')",
	"session-lifecycle":    "import time\nx = 42\ntime.sleep(1)",
}

// callsFor is the tool calls a workflow makes, between create_sandbox and
// close_sandbox.
func callsFor(rng *rand.Rand, wf workflow) []call {
	d := domains[wf.domain].key
	if wf.target == browser {
		nav := call{"browser_navigate", map[string]any{"url": "https://" + exampleHost(rng) + examplePath(rng)}}
		switch d {
		case "binary-download", "file-io":
			return []call{nav, {"read_file", map[string]any{"path": "/downloads/" + archiveName(rng), "encoding": "base64"}}}
		case "session-lifecycle":
			return []call{nav, {"run_code", map[string]any{"language": "javascript", "code": "await page.reload()"}}}
		}
		calls := []call{nav}
		if rng.IntN(2) == 0 {
			calls = append(calls, call{"browser_navigate", map[string]any{"url": "https://" + exampleHost(rng) + examplePath(rng)}})
		}
		return append(calls, call{"browser_screenshot", map[string]any{"full_page": rng.IntN(2) == 0}})
	}
	if d == "package-install" {
		pkg := pipPackage(rng, wf.template)
		return []call{
			{"run_code", map[string]any{"language": "bash", "code": "pip install " + pkg}},
			{"run_code", map[string]any{"language": "python", "code": "import importlib; importlib.import_module('" + pkg + "')"}},
		}
	}
	var calls []call
	paths := files[d]
	if paths[0] != "" {
		calls = append(calls, call{"write_file", map[string]any{"path": paths[0], "content": "…"}})
	}
	calls = append(calls, call{"run_code", map[string]any{"language": "python", "code": snippets[d]}})
	if paths[1] != "" {
		calls = append(calls, call{"read_file", map[string]any{"path": paths[1], "encoding": "base64"}})
	}
	return calls
}

// okResponse is what a tool call that worked gets back.
func okResponse(rng *rand.Rand, id int, c call, sandbox string) []byte {
	switch c.tool {
	case "create_sandbox":
		return rpcResult(id, `{"sandbox_id":"`+sandbox+`"}`)
	case "write_file":
		return rpcResult(id, fmt.Sprintf("wrote %d bytes to %s", between(rng, 40, 90000), c.args["path"]))
	case "read_file":
		return rpcResult(id, base64.StdEncoding.EncodeToString(randomBlob(rng, "", between(rng, 24, 72))))
	case "browser_navigate":
		return rpcResult(id, fmt.Sprintf("navigated to %s (200)", c.args["url"]))
	case "browser_screenshot":
		return rpcResult(id, fmt.Sprintf("screenshot saved: 1280×800 px, %d bytes", between(rng, 40000, 400000)))
	case "close_sandbox":
		return rpcResult(id, "closed "+sandbox)
	}
	return rpcResult(id, "exit status 0")
}

// steps renders a workflow's tool calls as JSON-RPC exchanges. When f is not
// nil the call to f.tool fails as f says, and only close_sandbox follows it.
func steps(rng *rand.Rand, wf workflow, total time.Duration, f *failure) []campaign.Step {
	sbx := sandboxID(rng)
	tmpl := "python-3.11"
	if wf.target == browser {
		tmpl = "chromium-126"
	}
	calls := append([]call{{"create_sandbox", map[string]any{"template": tmpl, "timeout_s": 1800}}}, callsFor(rng, wf)...)
	failing := -1
	if f != nil && f.tool != "" {
		for i, c := range calls {
			if c.tool == f.tool {
				failing = i
				break
			}
		}
		if failing < 0 {
			failing = len(calls) - 1
			calls[failing] = call{f.tool, map[string]any{}}
		}
		maps.Copy(calls[failing].args, f.args)
		calls = calls[:failing+1]
	}
	if f == nil || !f.leavesOpen {
		calls = append(calls, call{"close_sandbox", map[string]any{"sandbox_id": sbx}})
	}
	out := make([]campaign.Step, len(calls))
	remaining := total
	for i, c := range calls {
		id := i + 1
		d := time.Duration(float64(remaining) * (0.2 + 0.5*rng.Float64())).Round(time.Millisecond)
		if i == len(calls)-1 {
			d = remaining
		}
		remaining -= d
		s := campaign.Step{Seq: id, Tool: c.tool, Request: rpcRequest(id, c), DurationMS: new(d.Milliseconds())}
		if i == failing {
			s.Error = new(firstLine(f.err))
			s.Response = f.response(id)
		} else {
			s.Response = okResponse(rng, id, c, sbx)
		}
		out[i] = s
	}
	return out
}

func rpcRequest(id int, c call) []byte {
	return marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call",
		"params": map[string]any{"name": c.tool, "arguments": c.args}})
}

func rpcResult(id int, text string) []byte {
	return marshal(map[string]any{"jsonrpc": "2.0", "id": id,
		"result": map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}}})
}

func rpcToolError(id int, text string) []byte {
	return marshal(map[string]any{"jsonrpc": "2.0", "id": id,
		"result": map[string]any{"isError": true, "content": []any{map[string]any{"type": "text", "text": text}}}})
}

func rpcError(id, code int, message string) []byte {
	return marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": message}})
}

// marshal encodes like a Python MCP server would: compact, with <, > and &
// left as they are.
func marshal(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic("demo: encoding JSON-RPC: " + err.Error())
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// rawTextResponse is a JSON-RPC result whose text is cut short by the broken
// payload, the way a server that mishandles binary content sends it.
func rawTextResponse(id int, payload []byte) []byte {
	prefix := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"`, id)
	return append([]byte(prefix), payload...)
}

func base64Text(b []byte) []byte {
	return []byte(base64.StdEncoding.EncodeToString(b))
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
