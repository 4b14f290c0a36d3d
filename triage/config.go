package triage

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"sandtrap/alert"
	"sandtrap/filing"

	"sandtrap"
)

// maxPatternLen caps a rule's regular expression. RE2 cannot backtrack
// catastrophically, but a huge pattern still costs memory and time.
const maxPatternLen = 1000

// Config is the part of sandtrap's TOML configuration that triage reads: the
// user's classification rules, tried in file order before the built-in ones.
type Config struct {
	Rules []Rule
	// Owners are the [[team]] and [[route]] tables, checked; filing reads
	// them.
	Owners filing.Config
	// Alerts are the [[alert]] tables, checked; package notify sends them.
	Alerts []alert.Alert
}

// configFile mirrors the tables of the configuration file. Every table the
// file may hold has a field here; keys without one are refused, so a typo
// never passes silently. Teams and routes will join as their own tables.
type configFile struct {
	Rule  []ruleTable    `toml:"rule"`
	Team  []filing.Team  `toml:"team"`
	Route []filing.Route `toml:"route"`
	Alert []alert.Alert  `toml:"alert"`
}

// ruleTable is one [[rule]] table as written.
type ruleTable struct {
	Name      string   `toml:"name"`
	Error     string   `toml:"error"`
	Log       string   `toml:"log"`
	ExitCode  []int64  `toml:"exit_code"`
	Target    []string `toml:"target"`
	Domain    []string `toml:"domain"`
	Status    []string `toml:"status"`
	Tool      []string `toml:"tool"`
	Layer     string   `toml:"layer"`
	Primitive string   `toml:"primitive"`
}

// LoadConfig reads and checks the configuration file at path.
func LoadConfig(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("triage: reading config: %w", err)
	}
	return ParseConfig(path, data)
}

// ParseConfig parses and checks a configuration; name labels its errors.
// Every problem is reported, each with its line where it can be told: TOML
// syntax and type errors, unknown keys, and rules with a missing or
// duplicate name, a layer or primitive outside the vocabulary, no matcher,
// or a regex that does not compile or is longer than 1,000 characters;
// [[team]], [[route]] and [[alert]] tables are checked by their packages.
func ParseConfig(name string, data []byte) (*Config, error) {
	// The decoder skips a byte-order mark; so must the search for lines.
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	var file configFile
	md, err := toml.Decode(string(data), &file)
	if err != nil {
		return nil, fmt.Errorf("triage: reading config %s: %w", name, decodeError(data, err))
	}

	var problems []error
	reported := map[string]bool{}
	for _, key := range md.Undecoded() {
		if reported[key[:len(key)-1].String()] || len(key) > 1 && reported[key[:1].String()] {
			continue
		}
		reported[key.String()] = true
		problems = append(problems, lineError(lineOfKey(data, key), "unknown key %q", key.String()))
	}

	headers := tableLines(data, "rule", len(file.Rule))
	cfg := &Config{}
	firstLine := map[string]int{}
	for i, t := range file.Rule {
		line := headers[i]
		rule, errs := t.rule(i)
		problems = append(problems, prefixLine(line, errs)...)
		if t.Name != "" {
			if first, dup := firstLine[t.Name]; dup {
				problems = append(problems, lineError(line, "rule %q: duplicate name, first used at line %d", t.Name, first))
			}
			firstLine[t.Name] = line
		}
		cfg.Rules = append(cfg.Rules, rule)
	}
	cfg.Owners = filing.Config{Team: file.Team, Route: file.Route}
	var owners filing.ConfigErrors
	if err := cfg.Owners.Validate(); errors.As(err, &owners) {
		lines := map[string][]int{"team": tableLines(data, "team", len(file.Team)), "route": tableLines(data, "route", len(file.Route))}
		for _, e := range owners {
			line := 0
			if l := lines[e.Table]; e.Index >= 0 && e.Index < len(l) {
				line = l[e.Index]
			}
			problems = append(problems, lineError(line, "%s", e.Error()))
		}
	} else if err != nil {
		problems = append(problems, err)
	}
	cfg.Alerts = file.Alert
	var alerts alert.ConfigErrors
	if errors.As(alert.Validate(file.Alert), &alerts) {
		headers := tableLines(data, "alert", len(file.Alert))
		for _, e := range alerts {
			line := 0
			if e.Index >= 0 && e.Index < len(headers) {
				line = keyLineIn(data, headers[e.Index], e.Field)
			}
			problems = append(problems, lineError(line, "%s", e.Error()))
		}
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("triage: reading config %s: %w", name, errors.Join(problems...))
	}
	return cfg, nil
}

// typeError is how the TOML decoder words a value of the wrong type, which,
// unlike a syntax error, it returns as text: the line is there only when
// it knows it.
var typeError = regexp.MustCompile(`^toml: (?:line (\d+) )?\(last key "((?:[^"\\]|\\.)*)"\): incompatible types: TOML value has type (.+); destination has type (.+)$`)

// tomlTypes names the decoder's types in TOML's words.
var tomlTypes = map[string]string{
	"map[string]any": "a table", "[]map[string]any": "an array of tables", "[]any": "an array",
	"slice": "an array", "struct": "a table", "string": "a string", "int64": "an integer",
	"float64": "a float", "bool": "true or false", "time.Time": "a date-time",
}

// decodeError words an error of the TOML decoder as every problem of the
// file is worded: its line first.
func decodeError(data []byte, err error) error {
	var perr toml.ParseError
	if errors.As(err, &perr) {
		// Where a string meets a line end the decoder's line is one short
		// (0 on the first line); the byte offset it gives is exact.
		line := perr.Position.Line
		if at := perr.Position.Start; at > 0 && at <= len(data) || line < 1 {
			line = bytes.Count(data[:min(max(at, 0), len(data))], []byte("\n")) + 1
		}
		return fmt.Errorf("line %d: %s", line, perr.Message)
	}
	m := typeError.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	key, _ := strconv.Unquote(`"` + m[2] + `"`)
	line, _ := strconv.Atoi(m[1])
	if line == 0 {
		line = lineOfKey(data, toml.Key(keyParts(key)))
	}
	name := func(t string) string {
		if n, ok := tomlTypes[t]; ok {
			return n
		}
		return t
	}
	return lineError(line, "%s is %s, where %s belongs", key, name(m[3]), name(m[4]))
}

// rule checks a [[rule]] table and builds its Rule; i is its index, to name
// a rule that has no name.
func (t ruleTable) rule(i int) (Rule, []error) {
	var errs []error
	label := fmt.Sprintf("rule %q", t.Name)
	switch {
	case t.Name == "":
		label = fmt.Sprintf("rule #%d", i+1)
		errs = append(errs, fmt.Errorf("%s: missing name", label))
	case !validRuleName(t.Name):
		errs = append(errs, fmt.Errorf("%s: name may hold only letters, digits, '.', '_' and '-', up to 64", label))
	case slices.ContainsFunc(builtinRules, func(r Rule) bool { return r.Name == t.Name }):
		errs = append(errs, fmt.Errorf("%s: name is taken by a built-in rule", label))
	}
	r := Rule{
		Name: t.Name, ExitCodes: t.ExitCode, Targets: t.Target, Domains: t.Domain,
		Statuses: t.Status, Tools: t.Tool, Layer: t.Layer, Primitive: t.Primitive,
	}
	var err error
	if r.ErrorRegex, err = compilePattern("error", t.Error); err != nil {
		errs = append(errs, fmt.Errorf("%s: %w", label, err))
	}
	if r.LogRegex, err = compilePattern("log", t.Log); err != nil {
		errs = append(errs, fmt.Errorf("%s: %w", label, err))
	}
	switch {
	case t.Layer == "":
		errs = append(errs, fmt.Errorf("%s: missing layer (one of %s)", label, strings.Join(Layers()[:3], ", ")))
	case t.Layer == sandtrap.LayerUnclassified || !ValidLayer(t.Layer):
		errs = append(errs, fmt.Errorf("%s: layer %q is not one of %s", label, t.Layer, strings.Join(Layers()[:3], ", ")))
	case t.Primitive != "" && !ValidPrimitive(t.Layer, t.Primitive):
		errs = append(errs, fmt.Errorf("%s: primitive %q is not a %s primitive (one of %s)",
			label, t.Primitive, t.Layer, strings.Join(Primitives(t.Layer), ", ")))
	}
	if t.Error == "" && t.Log == "" && len(t.ExitCode) == 0 && len(t.Target) == 0 &&
		len(t.Domain) == 0 && len(t.Status) == 0 && len(t.Tool) == 0 {
		errs = append(errs, fmt.Errorf("%s: matches every failure; set at least one of error, log, exit_code, target, domain, status, tool", label))
	}
	return r, errs
}

// compilePattern compiles the regex of a rule's key, or returns nil for an
// empty one.
func compilePattern(key, pattern string) (*regexp.Regexp, error) {
	if pattern == "" {
		return nil, nil
	}
	if len(pattern) > maxPatternLen {
		return nil, fmt.Errorf("%s regex is %d characters long; the limit is %d", key, len(pattern), maxPatternLen)
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, fmt.Errorf("%s regex does not compile: %w", key, err)
	}
	return re, nil
}

func validRuleName(name string) bool {
	if len(name) > 64 {
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; !isWordByte(c) && c != '-' && c != '.' {
			return false
		}
	}
	return true
}

func lineError(line int, format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	if line > 0 {
		return fmt.Errorf("line %d: %w", line, err)
	}
	return err
}

func prefixLine(line int, errs []error) []error {
	if line <= 0 {
		return errs
	}
	out := make([]error, len(errs))
	for i, err := range errs {
		out[i] = fmt.Errorf("line %d: %w", line, err)
	}
	return out
}

// tableLines returns the line of each of the n tables of an array: its
// [[table]] header, or, for an array of inline tables, which the decoder
// keeps no position for, the line where the array begins.
func tableLines(data []byte, table string, n int) []int {
	lines := tableHeaderLines(data, table)
	if len(lines) != n {
		lines = slices.Repeat([]int{lineOfKey(data, toml.Key{table})}, n)
	}
	return lines
}

// tableHeaderLines returns the 1-based lines of the [[table]] headers in
// data, in order. The TOML decoder keeps no position per array element, so
// each rule's line is its header's.
func tableHeaderLines(data []byte, table string) []int {
	var lines []int
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		inner, ok := strings.CutPrefix(line, "[[")
		if !ok {
			continue
		}
		inner, _, ok = strings.Cut(inner, "]]")
		if ok && sameKey(keyParts(inner), []string{table}) {
			lines = append(lines, i+1)
		}
	}
	return lines
}

// lineOfKey returns the line where key is defined: a table header that
// names it, or an assignment whose key, after the table it is in, spells it
// (dotted, spaced or quoted alike). A key written inside an inline table
// is on the line of the assignment that holds it. 0 when no line is found.
func lineOfKey(data []byte, key toml.Key) int {
	var table []string
	holder, held := 0, 0
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if inner, ok := strings.CutPrefix(line, "["); ok {
			inner, _, _ = strings.Cut(strings.TrimPrefix(inner, "["), "]")
			table = keyParts(inner)
			if sameKey(table, key) {
				return i + 1
			}
			continue
		}
		k, _, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		path := append(slices.Clone(table), keyParts(k)...)
		if sameKey(path, key) {
			return i + 1
		}
		if len(path) > held && len(path) < len(key) && sameKey(path, key[:len(path)]) {
			holder, held = i+1, len(path)
		}
	}
	return holder
}

// sameKey reports whether two keys are one to the decoder, which matches
// the tables' names regardless of case: [[Rule]] is a rule.
func sameKey(a, b []string) bool {
	return slices.EqualFunc(a, b, strings.EqualFold)
}

// keyParts splits a written key into its parts, unquoted.
func keyParts(written string) []string {
	var parts []string
	for _, p := range strings.Split(written, ".") {
		p = strings.TrimSpace(p)
		if len(p) >= 2 && (p[0] == '"' || p[0] == '\'') && p[len(p)-1] == p[0] {
			p = p[1 : len(p)-1]
		}
		parts = append(parts, p)
	}
	return parts
}

// keyLineIn returns the line of key in the table whose header is at line
// header, or header itself when the key is not written there.
func keyLineIn(data []byte, header int, key string) int {
	if key == "" {
		return header
	}
	lines := strings.Split(string(data), "\n")
	for i := header; i < len(lines); i++ {
		line := strings.TrimSpace(lines[i])
		if strings.HasPrefix(line, "[") {
			break
		}
		if rest, ok := strings.CutPrefix(line, key); ok && strings.HasPrefix(strings.TrimSpace(rest), "=") {
			return i + 1
		}
	}
	return header
}
