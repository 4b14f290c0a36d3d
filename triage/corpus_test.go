package triage

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
)

// corpusRecord is one labelled failure of testdata/corpus.
type corpusRecord struct {
	ID               string `json:"id"`
	Source           string `json:"source"`
	Target           string `json:"target"`
	Domain           string `json:"domain"`
	Status           string `json:"status"`
	ExitCode         *int64 `json:"exit_code"`
	Error            string `json:"error"`
	Log              string `json:"log"`
	HarnessLayer     string `json:"harness_layer"`
	HarnessPrimitive string `json:"harness_primitive"`
	Layer            string `json:"layer"`
	Primitive        string `json:"primitive"`
	Mode             string `json:"mode"` // the demo's failure mode, if it is one
}

func (r corpusRecord) failure() Failure {
	f := Failure{
		Target: r.Target, Domain: r.Domain, Status: r.Status, Test: r.ID, Error: r.Error,
		ExitCode: r.ExitCode, HarnessLayer: r.HarnessLayer, HarnessPrimitive: r.HarnessPrimitive,
	}
	if r.Log != "" {
		f.LogTail = []byte(r.Log)
	}
	return f
}

func loadCorpus(tb testing.TB) []corpusRecord {
	tb.Helper()
	return loadRecords(tb, filepath.Join("..", "testdata", "corpus", "*.jsonl"))
}

// loadRecords reads the labelled records of the JSONL files that pattern
// names.
func loadRecords(tb testing.TB, pattern string) []corpusRecord {
	tb.Helper()
	paths, err := filepath.Glob(pattern)
	if err != nil || len(paths) == 0 {
		tb.Fatalf("no labelled files %s: %v", pattern, err)
	}
	var records []corpusRecord
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			tb.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<22)
		for line := 1; sc.Scan(); line++ {
			var r corpusRecord
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				tb.Fatalf("%s:%d: %v", path, line, err)
			}
			records = append(records, r)
		}
		f.Close()
		if err := sc.Err(); err != nil {
			tb.Fatal(err)
		}
	}
	return records
}

func TestCorpusIsLabelledWithTheVocabulary(t *testing.T) {
	records := loadCorpus(t)
	if got, want := len(records), 150; got < want {
		t.Errorf("corpus has %d records, want at least %d", got, want)
	}
	ids := map[string]bool{}
	for _, r := range records {
		if ids[r.ID] {
			t.Errorf("duplicate id %q", r.ID)
		}
		ids[r.ID] = true
		if r.Source == "" {
			t.Errorf("%s: no source note", r.ID)
		}
		if !ValidLayer(r.Layer) || r.Primitive != "" && !ValidPrimitive(r.Layer, r.Primitive) {
			t.Errorf("%s: label %s/%s is outside the vocabulary", r.ID, r.Layer, r.Primitive)
		}
	}
}

// classTally counts one class's true positives, false positives and false
// negatives.
type classTally struct{ tp, fp, fn int }

func (c classTally) precision() float64 { return ratio(c.tp, c.tp+c.fp) }
func (c classTally) recall() float64    { return ratio(c.tp, c.tp+c.fn) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

func tally(tallies map[string]*classTally, got, want string) {
	for _, class := range []string{got, want} {
		if tallies[class] == nil {
			tallies[class] = &classTally{}
		}
	}
	if got == want {
		tallies[got].tp++
		return
	}
	tallies[got].fp++
	tallies[want].fn++
}

func TestCorpusPrecisionRecall(t *testing.T) {
	records := loadCorpus(t)
	c := NewClassifier(nil)
	layers, primitives := map[string]*classTally{}, map[string]*classTally{}
	for _, r := range records {
		got := c.Classify(r.failure())
		tally(layers, got.Layer, r.Layer)
		primitiveClass := func(layer, primitive string) string { return layer + "/" + primitive }
		tally(primitives, primitiveClass(got.Layer, got.Primitive), primitiveClass(r.Layer, r.Primitive))
		if got.Layer != r.Layer || got.Primitive != r.Primitive {
			t.Logf("miss %s: got %s/%s by %s, want %s/%s; signature %q",
				r.ID, got.Layer, got.Primitive, got.By, r.Layer, r.Primitive, got.Signature)
		}
	}
	report := func(title string, tallies map[string]*classTally, floor float64) {
		var b strings.Builder
		fmt.Fprintf(&b, "\n%-40s %9s %7s %5s\n", title, "precision", "recall", "n")
		classes := make([]string, 0, len(tallies))
		for class := range tallies {
			classes = append(classes, class)
		}
		slices.Sort(classes)
		for _, class := range classes {
			c := tallies[class]
			fmt.Fprintf(&b, "%-40s %8.1f%% %6.1f%% %5d\n", class, 100*c.precision(), 100*c.recall(), c.tp+c.fn)
			if c.precision() < floor || c.recall() < floor {
				t.Errorf("%s %s: precision %.1f%%, recall %.1f%%, want both at least %.0f%%",
					title, class, 100*c.precision(), 100*c.recall(), 100*floor)
			}
		}
		t.Log(b.String())
	}
	report("layer", layers, 0.95)
	report("primitive", primitives, 0.90)
}

func TestCorpusDemoModesHaveOneModeSignature(t *testing.T) {
	// A demo mode is one cause, which some tools word in two ways (Puppeteer's
	// "Page crashed!", Playwright's "Target crashed"): its failures must
	// share what their mode is mined from.
	c := NewClassifier(nil)
	signatures := map[string]map[string]bool{}
	for _, r := range loadCorpus(t) {
		if r.Mode == "" {
			continue
		}
		if signatures[r.Mode] == nil {
			signatures[r.Mode] = map[string]bool{}
		}
		cl := c.Classify(r.failure())
		signatures[r.Mode][cl.ModeSignature()] = true
	}
	if got, want := len(signatures), 20; got < want {
		t.Errorf("corpus holds %d demo modes, want at least %d", got, want)
	}
	for mode, sigs := range signatures {
		t.Run(mode+" has one mode signature", func(t *testing.T) {
			if len(sigs) != 1 {
				t.Errorf("got %d mode signatures, want 1: %q", len(sigs), slices.Sorted(func(yield func(string) bool) {
					for s := range sigs {
						if !yield(s) {
							return
						}
					}
				}))
			}
		})
	}
}

func TestCorpusDemoModesGetDistinctModeIDs(t *testing.T) {
	c := NewClassifier(nil)
	modeOfID := map[string]string{}
	for _, r := range loadCorpus(t) {
		if r.Mode == "" {
			continue
		}
		got := c.Classify(r.failure())
		id := ModeID(got.Layer, got.Primitive, got.Signature)
		if other, ok := modeOfID[id]; ok && other != r.Mode {
			t.Errorf("modes %s and %s share id %s", other, r.Mode, id)
		}
		modeOfID[id] = r.Mode
	}
}

func BenchmarkNormalize(b *testing.B) {
	records := loadCorpus(b)
	for i := 0; b.Loop(); i++ {
		normalize(records[i%len(records)].Error)
	}
}

// runFailures builds the failures of a million-result run: the corpus
// repeated 120,000 times with fresh numbers, ids and names, so most failures
// share a decision with an earlier one but every message differs.
func runFailures(b *testing.B) []Failure {
	records := loadCorpus(b)
	failures := make([]Failure, 0, 120_000)
	for i := range cap(failures) {
		f := records[i%len(records)].failure()
		f.Error = strings.NewReplacer("4096", fmt.Sprint(i), "sbx-4f2a91c0", fmt.Sprintf("sbx-%08x", i),
			"pandas", fmt.Sprintf("pkg%d", i%50), "report-7f3a", fmt.Sprintf("report-%04x", i)).Replace(f.Error)
		failures = append(failures, f)
	}
	return failures
}

// BenchmarkClassify measures one failure of a run: normalising and
// classifying it.
func BenchmarkClassify(b *testing.B) {
	failures := runFailures(b)
	c := NewClassifier(nil)
	for i := 0; b.Loop(); i++ {
		c.Classify(failures[i%len(failures)])
	}
}

// BenchmarkClassifyRun measures a whole run of 120,000 failures, split over
// GOMAXPROCS goroutines as an indexer would: one op is one run.
func BenchmarkClassifyRun(b *testing.B) {
	failures := runFailures(b)
	workers := runtime.GOMAXPROCS(0)
	for b.Loop() {
		c := NewClassifier(nil)
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() {
				for i := w; i < len(failures); i += workers {
					c.Classify(failures[i])
				}
			})
		}
		wg.Wait()
	}
}
