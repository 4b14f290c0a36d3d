package triage

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"sandtrap"
)

// The fuzz targets of the package. make fuzz runs each in turn; their seeds,
// with every input that ever failed, live in testdata/fuzz and run with the
// tests.

// FuzzSignature checks that the normaliser never panics and gives one line
// of at most maxSignatureLen bytes, valid UTF-8 when its input is.
func FuzzSignature(f *testing.F) {
	f.Fuzz(func(t *testing.T, msg string) {
		sig := normalize(msg)
		if len(sig) > maxSignatureLen {
			t.Fatalf("normalize(%q) has %d bytes, over %d", msg, len(sig), maxSignatureLen)
		}
		if strings.ContainsAny(sig, "\n\r") {
			t.Fatalf("normalize(%q) = %q, more than one line", msg, sig)
		}
		if utf8.ValidString(msg) && !utf8.ValidString(sig) {
			t.Fatalf("normalize(%q) = %q, not valid UTF-8", msg, sig)
		}
	})
}

// fuzzGroups are the layers and primitives FuzzGrouper spreads its lines over.
var fuzzGroups = [][2]string{{"sandbox", "filesystem-permissions"}, {"interface", "encoding"}, {sandtrap.LayerUnclassified, ""}}

// FuzzGrouper mines the lines of its input, as signatures and as the
// normaliser makes them, in three groups, and settles a guess of every
// other line. Mining never panics; the same lines
// in the same order get the same ids; every id handed out still resolves to
// a live template; and each template's shown form masks to its tokens.
func FuzzGrouper(f *testing.F) {
	f.Fuzz(func(t *testing.T, input string) {
		lines := strings.Split(input, "\n")
		if len(lines) > 64 {
			lines = lines[:64]
		}
		mine := func() (*Grouper, []string) {
			g := NewGrouper()
			var ids []string
			for i, line := range lines {
				group := fuzzGroups[i%len(fuzzGroups)]
				for _, sig := range []string{line, normalize(line)} {
					ids = append(ids, g.Assign(group[0], group[1], sig).ModeID)
				}
				// A guess of every other line is settled where its
				// template is, and mined in the class it settled in.
				if i%2 == 1 {
					cl := g.Settle(Classification{Layer: group[0], Primitive: group[1], By: GuessBy + "fuzz", Signature: normalize(line)}, nil)
					if !ValidPrimitive(cl.Layer, cl.Primitive) && cl.Layer != sandtrap.LayerUnclassified {
						t.Fatalf("settled %q in %s/%s, outside the vocabulary", line, cl.Layer, cl.Primitive)
					}
					ids = append(ids, g.AssignClassified(cl, nil).ModeID)
				}
			}
			return g, ids
		}
		g, ids := mine()
		if _, again := mine(); !slices.Equal(ids, again) {
			t.Fatalf("mining %q twice gave ids %v, then %v", lines, ids, again)
		}
		for _, id := range ids {
			if _, live := g.miner.Get(g.Resolve(id)); !live {
				t.Fatalf("id %s resolves to %s, which is no template", id, g.Resolve(id))
			}
		}
		for _, tm := range g.Templates() {
			if masked := strings.Join(TemplateTokens(tm.Template), " "); masked != tm.Tokens {
				t.Fatalf("template %s shows %q, which masks to %q, not its tokens %q", tm.ID, tm.Template, masked, tm.Tokens)
			}
		}
	})
}

// FuzzClassify checks that classifying never panics and always answers in
// the vocabulary.
func FuzzClassify(f *testing.F) {
	c := NewClassifier(nil)
	f.Fuzz(func(t *testing.T, msg string, log []byte, layer, primitive string, exit int64, tool string) {
		got := c.Classify(Failure{Target: "code-interpreter", Domain: "file-io", Status: sandtrap.StatusFailed, Error: msg,
			LogTail: log, ExitCode: &exit, HarnessLayer: layer, HarnessPrimitive: primitive, Tools: []string{tool}})
		if !ValidLayer(got.Layer) {
			t.Fatalf("Classify(%q) = layer %q, not one of %v", msg, got.Layer, Layers())
		}
		if got.Primitive != "" && !ValidPrimitive(got.Layer, got.Primitive) {
			t.Fatalf("Classify(%q) = %s/%s, a primitive outside its layer", msg, got.Layer, got.Primitive)
		}
		if got.Layer == sandtrap.LayerUnclassified && (got.Primitive != "" || got.By != ByNone) {
			t.Fatalf("Classify(%q) = unclassified with primitive %q by %q, want none by %q", msg, got.Primitive, got.By, ByNone)
		}
		if got.By == "" {
			t.Fatalf("Classify(%q) says nothing of who decided", msg)
		}
	})
}

// namesALine is how each problem of a configuration starts: its line.
var namesALine = regexp.MustCompile(`^line [1-9][0-9]*: `)

// FuzzLoadConfig writes arbitrary bytes to a file and loads it: loading
// never panics, and every problem it reports names its line.
func FuzzLoadConfig(f *testing.F) {
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "sandtrap.toml")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		cfg, err := LoadConfig(path)
		if err == nil {
			for _, r := range cfg.Rules {
				if !ValidLayer(r.Layer) || r.Primitive != "" && !ValidPrimitive(r.Layer, r.Primitive) {
					t.Fatalf("loaded rule %q classifies as %s/%s, outside the vocabulary", r.Name, r.Layer, r.Primitive)
				}
			}
			return
		}
		prefix := "triage: reading config " + path + ": "
		if !strings.HasPrefix(err.Error(), prefix) {
			t.Fatalf("got %q, want it to start %q", err, prefix)
		}
		problems := []error{errors.Unwrap(err)}
		if joined, ok := problems[0].(interface{ Unwrap() []error }); ok {
			problems = joined.Unwrap()
		}
		for _, problem := range problems {
			if !namesALine.MatchString(problem.Error()) {
				t.Fatalf("loading %q: the problem %q names no line", data, problem)
			}
		}
	})
}
