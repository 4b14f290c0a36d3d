package demo

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"
)

// Targets under test.
const (
	codeInterpreter = "code-interpreter"
	browser         = "browser"
)

// domain is an area of workflows with its share of the campaign, how often
// it runs against the browser, how long its workflows take and the
// workflows agents invent in it.
type domain struct {
	key          string
	weight       int // share of the campaign, in percent
	browserShare float64
	minDuration  time.Duration
	maxDuration  time.Duration
	templates    []string // slugs of its workflows, see titles
}

var domains = []domain{
	{"file-io", 12, 0.15, 2 * time.Second, 15 * time.Second,
		[]string{"png-roundtrip", "csv-append", "zip-extract", "unicode-filenames", "large-file-write", "symlink-read", "parquet-roundtrip"}},
	{"package-install", 11, 0, 20 * time.Second, 2 * time.Minute,
		[]string{"pip-pandas", "pip-sklearn", "pip-torch-cpu", "npm-lodash", "requirements-file", "pip-user-install", "pip-opencv"}},
	{"data-analysis", 12, 0, 5 * time.Second, time.Minute,
		[]string{"groupby-large-csv", "pivot-sales", "duckdb-query", "regression-fit", "timeseries-resample", "dedupe-customers"}},
	{"ml-training", 9, 0, time.Minute, 15 * time.Minute,
		[]string{"mnist-cnn", "resnet-finetune", "xgboost-tabular", "checkpoint-resume", "bert-tokenize", "hyperparam-sweep"}},
	{"binary-download", 8, 0.35, 3 * time.Second, 40 * time.Second,
		[]string{"tarball-sha-check", "pdf-download", "wheel-download", "image-batch", "sqlite-dump"}},
	{"multi-language-build", 9, 0, 15 * time.Second, 3 * time.Minute,
		[]string{"java-hello", "rust-cargo-build", "c-gcc-make", "go-build", "node-tsc", "polyglot-pipeline"}},
	{"report-generation", 9, 0, 10 * time.Second, 90 * time.Second,
		[]string{"pdf-weekly", "html-dashboard", "xlsx-export", "csv-export", "markdown-summary"}},
	{"web-browsing", 12, 1, 5 * time.Second, time.Minute,
		[]string{"docs-crawl", "news-summary", "price-compare", "wiki-tables", "multi-tab-research"}},
	{"form-automation", 10, 1, 8 * time.Second, 45 * time.Second,
		[]string{"login-flow", "checkout-form", "file-upload-form", "signup-form", "comment-form"}},
	{"session-lifecycle", 8, 0.7, 30 * time.Second, 5 * time.Minute,
		[]string{"long-idle-resume", "reconnect-after-drop", "parallel-sessions", "state-persistence"}},
}

// titles says in words what each workflow does. The comment form's title
// quotes the payload it posts, which pages must show escaped.
var titles = map[string]string{
	"png-roundtrip":        "Upload a PNG, transform it with PIL, download it and compare",
	"csv-append":           "Append 10,000 rows to a CSV in the workspace and read it back",
	"zip-extract":          "Upload a zip archive, extract it in the sandbox and list the files",
	"unicode-filenames":    "Write files with non-ASCII names (déjà-vu.txt, 報告.md) and read them back",
	"large-file-write":     "Write a 200 MB file in chunks and verify its checksum",
	"symlink-read":         "Create a symlink inside /workspace and read through it",
	"parquet-roundtrip":    "Write a DataFrame to Parquet, download it and compare",
	"pip-pandas":           "pip install pandas and import it",
	"pip-sklearn":          "pip install scikit-learn and fit a small model",
	"pip-torch-cpu":        "pip install the CPU build of torch and run a tensor op",
	"npm-lodash":           "npm install lodash and require it from Node",
	"requirements-file":    "Install a 12-package requirements.txt and import each one",
	"pip-user-install":     "pip install --user httpx and import it",
	"pip-opencv":           "pip install opencv-python and read an image with cv2",
	"groupby-large-csv":    "Load a 2 GB CSV with pandas and aggregate it by region",
	"pivot-sales":          "Pivot a sales table and plot the monthly totals",
	"duckdb-query":         "Query a Parquet file with DuckDB and return the top 10 rows",
	"regression-fit":       "Fit a linear regression with statsmodels and print the summary",
	"timeseries-resample":  "Resample a minute-level time series to hourly means",
	"dedupe-customers":     "Find duplicate customers by fuzzy name matching",
	"mnist-cnn":            "Train a small CNN on MNIST for 3 epochs",
	"resnet-finetune":      "Fine-tune ResNet-18 on a 500-image dataset",
	"xgboost-tabular":      "pip install xgboost, train it on a tabular dataset and report the AUC",
	"checkpoint-resume":    "Train for 2 epochs, checkpoint, resume and finish",
	"bert-tokenize":        "Tokenize 50,000 sentences with a BERT tokenizer",
	"hyperparam-sweep":     "Run a 12-point hyperparameter sweep with scikit-learn",
	"tarball-sha-check":    "Download a release tarball and check its SHA-256",
	"pdf-download":         "Download a PDF report and extract its text",
	"wheel-download":       "Download a wheel file and install it offline",
	"image-batch":          "Download 20 images and build a contact sheet",
	"sqlite-dump":          "Download a SQLite database and run a query against it",
	"java-hello":           "Compile and run a Java hello world with javac",
	"rust-cargo-build":     "Build a small Rust crate with cargo",
	"c-gcc-make":           "Build a C project with make and gcc and run its tests",
	"go-build":             "Build a Go module and run the binary",
	"node-tsc":             "Compile a TypeScript project with tsc",
	"polyglot-pipeline":    "Run a pipeline mixing Python, Node and a C extension",
	"pdf-weekly":           "Render a weekly PDF report with matplotlib charts",
	"html-dashboard":       "Generate a static HTML dashboard from a CSV",
	"xlsx-export":          "Export three sheets to an XLSX workbook",
	"csv-export":           "Export query results to CSV in the output folder",
	"markdown-summary":     "Summarise a dataset into a Markdown report",
	"docs-crawl":           "Crawl 15 documentation pages and collect their headings",
	"news-summary":         "Open a news site and summarise the top 5 stories",
	"price-compare":        "Compare a product's price across three shops",
	"wiki-tables":          "Extract the tables from a Wikipedia article",
	"multi-tab-research":   "Open 12 tabs of search results and collect citations",
	"login-flow":           "Log into the staging app and check the dashboard loads",
	"checkout-form":        "Fill the checkout form with test card details and submit",
	"file-upload-form":     "Upload a file through an HTML form and check the receipt",
	"signup-form":          "Complete a sign-up form and confirm the welcome e-mail",
	"comment-form":         `Post the comment <script>alert(1)</script> and check it is rendered escaped`,
	"long-idle-resume":     "Leave a session idle for 30 minutes, then run code in it",
	"reconnect-after-drop": "Drop the MCP connection and reconnect to the same sandbox",
	"parallel-sessions":    "Open 5 sandboxes at once and close them in reverse order",
	"state-persistence":    "Set a variable, wait, and read it back in the same session",
}

// workflow is a (target, domain, template) triple: what a result runs.
type workflow struct {
	target   string
	domain   int // index into domains
	template string
}

func domainIndex(key string) int {
	for i, d := range domains {
		if d.key == key {
			return i
		}
	}
	panic("demo: unknown domain " + key)
}

// pickDomain draws a domain by the campaign's shares.
func pickDomain(rng *rand.Rand) int {
	n := rng.IntN(100)
	for i, d := range domains {
		if n < d.weight {
			return i
		}
		n -= d.weight
	}
	return len(domains) - 1
}

// pickWorkflow draws any workflow by the campaign's shares.
func pickWorkflow(rng *rand.Rand) workflow {
	d := pickDomain(rng)
	target := codeInterpreter
	if rng.Float64() < domains[d].browserShare {
		target = browser
	}
	ts := domains[d].templates
	return workflow{target: target, domain: d, template: ts[rng.IntN(len(ts))]}
}

// duration draws a log-uniform duration within the domain's range.
func (d domain) duration(rng *rand.Rand) time.Duration {
	lo, hi := math.Log(float64(d.minDuration)), math.Log(float64(d.maxDuration))
	return time.Duration(math.Exp(lo + rng.Float64()*(hi-lo))).Round(time.Millisecond)
}

// worker names the sub-agent that ran a workflow: 01–08 drive the code
// interpreter, 09–12 the browser.
func worker(rng *rand.Rand, target string) string {
	if target == browser {
		return fmt.Sprintf("subagent-%02d", 9+rng.IntN(4))
	}
	return fmt.Sprintf("subagent-%02d", 1+rng.IntN(8))
}
