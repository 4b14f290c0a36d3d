package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"sandtrap"
	"sandtrap/compare"
	"sandtrap/format"
	"sandtrap/handlers"
	"sandtrap/logview"
	"sandtrap/store"
	"sandtrap/triage"
)

// errGate is the failure of a --fail-on gate: the comparison was printed,
// and the command exits 1.
var errGate = errors.New("the comparison failed the gate")

// compareConfig is what compare's flags say.
type compareConfig struct {
	state, config, format, failOn string
	campaigns                     []string
	base, head                    string
	limit                         int
}

func parseCompare(args []string, stderr io.Writer) (compareConfig, error) {
	var c compareConfig
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.state, "state", "sandtrap-state.db", "sandtrap's own state file, so that triage (merges, fixed marks) counts")
	fs.StringVar(&c.config, "config", "", "TOML file with classification rules, as serve uses")
	fs.StringVar(&c.format, "format", "text", "output: text, markdown or json")
	fs.StringVar(&c.failOn, "fail-on", "", "exit 1 on new-modes (a new or returned failure mode) or regressions (a regressed test)")
	fs.IntVar(&c.limit, "limit", 50, "most tests listed per group (0 lists all; json lists all)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, commandUsage("compare"))
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return c, usageError{err.Error()}
	}
	rest := fs.Args()
	if len(rest) < 3 {
		fs.Usage()
		return c, usageError{"compare needs at least one campaign file and two run ids"}
	}
	c.campaigns, c.base, c.head = rest[:len(rest)-2], rest[len(rest)-2], rest[len(rest)-1]
	switch c.format {
	case "text", "markdown", "json":
	default:
		fs.Usage()
		return c, usageError{fmt.Sprintf("unknown format %q: use text, markdown or json", c.format)}
	}
	switch c.failOn {
	case "", "new-modes", "regressions":
	default:
		fs.Usage()
		return c, usageError{fmt.Sprintf("unknown gate %q: use new-modes or regressions", c.failOn)}
	}
	if c.limit < 0 {
		fs.Usage()
		return c, usageError{"--limit cannot be negative"}
	}
	if c.format == "json" {
		c.limit = 0
	}
	return c, nil
}

// runCompare reads the campaign files as serve does, prints head against
// base and applies the gate.
func runCompare(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c, err := parseCompare(args, stderr)
	if err != nil {
		return err
	}
	var rules []triage.Rule
	if c.config != "" {
		cfg, err := triage.LoadConfig(c.config)
		if err != nil {
			return err
		}
		rules = cfg.Rules
	}
	st, err := store.Open(ctx, store.Options{StatePath: c.state, Campaigns: c.campaigns, Classifier: triage.NewClassifier(rules), ReadOnly: true})
	if err != nil {
		return err
	}
	defer st.Close()
	st.Start(ctx)
	if err := st.WaitIndexed(ctx); err != nil {
		return err
	}
	result, err := st.Compare(ctx, c.base, c.head, c.limit)
	if sandtrap.ErrorCode(err) == sandtrap.ENOTFOUND {
		fmt.Fprintln(stderr, commandUsage("compare"))
		return usageError{sandtrap.ErrorMessage(err) + "; the runs are: " + strings.Join(runIDs(ctx, st), ", ")}
	} else if err != nil {
		return err
	}
	switch c.format {
	case "json":
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(handlers.ToAPIComparison(result))
	case "markdown":
		_, err = io.WriteString(stdout, markdownReport(result))
	default:
		_, err = io.WriteString(stdout, textReport(result))
	}
	if err != nil {
		return err
	}
	return gate(result, c.failOn)
}

// gate says whether the comparison fails --fail-on: a new or returned
// failure mode for new-modes, a regressed test for regressions.
func gate(c compare.Comparison, failOn string) error {
	switch {
	case failOn == "new-modes" && len(c.New)+len(c.Returned) > 0:
		return fmt.Errorf("%w: %d new and %d returned failure modes", errGate, len(c.New), len(c.Returned))
	case failOn == "regressions" && c.Regressed.Total > 0:
		return fmt.Errorf("%w: %d regressed tests", errGate, c.Regressed.Total)
	}
	return nil
}

func runIDs(ctx context.Context, st *store.Store) []string {
	runs, _ := st.ListRuns(ctx)
	ids := make([]string, 0, len(runs))
	for _, r := range runs {
		ids = append(ids, r.ID)
	}
	return ids
}

// textReport is the comparison for a terminal.
func textReport(c compare.Comparison) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s → %s\n", c.Base.ID, c.Head.ID)
	if c.Identical {
		b.WriteString("identical: base and head are the same run\n")
	}
	fmt.Fprintf(&b, "pass rate  %s → %s (%s)\n", format.Percent(c.PassRate.Base), format.Percent(c.PassRate.Head), format.Points(c.PassRate.Change()))
	fmt.Fprintf(&b, "failures   %d → %d (%+d)\n", int(c.Failures.Base), int(c.Failures.Head), int(c.Failures.Change()))
	fmt.Fprintf(&b, "modes      %d → %d (%+d)\n", int(c.Modes.Base), int(c.Modes.Head), int(c.Modes.Change()))
	for _, g := range modeGroups(c) {
		fmt.Fprintf(&b, "\n%s failure modes (%d)\n", g.title, len(g.modes))
		for _, m := range g.modes {
			fmt.Fprintf(&b, "  %s  %-8s  %d → %d  %s\n", m.ID, m.Severity, m.BaseCount, m.HeadCount, logview.Visible(m.Title))
		}
	}
	for _, g := range testGroups(c) {
		fmt.Fprintf(&b, "\n%s tests (%d)\n", g.title, g.list.Total)
		for _, t := range g.list.Tests {
			fmt.Fprintf(&b, "  %s\n", logview.Visible(t.Key))
		}
		if g.list.Truncated() {
			fmt.Fprintf(&b, "  … and %d more\n", g.list.Total-len(g.list.Tests))
		}
	}
	fmt.Fprintf(&b, "\nstill passing %d · skipped in one run %d · flaky tests %d · flaky modes %d\n",
		c.StillPassing, c.Skipped, c.FlakyTests.Total, len(c.FlakyModes))
	return b.String()
}

// markdownReport is the comparison ready to paste into a pull request.
func markdownReport(c compare.Comparison) string {
	var b strings.Builder
	fmt.Fprintf(&b, "### sandtrap: `%s` → `%s`\n\n", mdCode(c.Base.ID), mdCode(c.Head.ID))
	if c.Identical {
		b.WriteString("The two sides are the same run: **identical**.\n\n")
	}
	if n := len(c.Returned); n > 0 {
		fmt.Fprintf(&b, "> [!CAUTION]\n> **%d failure mode(s) marked fixed are failing again.**\n\n", n)
	}
	b.WriteString("| | base | head | change |\n|---|---:|---:|---:|\n")
	fmt.Fprintf(&b, "| pass rate | %s | %s | %s |\n", format.Percent(c.PassRate.Base), format.Percent(c.PassRate.Head), format.Points(c.PassRate.Change()))
	fmt.Fprintf(&b, "| failures | %d | %d | %+d |\n", int(c.Failures.Base), int(c.Failures.Head), int(c.Failures.Change()))
	fmt.Fprintf(&b, "| failure modes | %d | %d | %+d |\n", int(c.Modes.Base), int(c.Modes.Head), int(c.Modes.Change()))
	fmt.Fprintf(&b, "| fixed tests | | %d | |\n| regressed tests | | %d | |\n\n", c.Fixed.Total, c.Regressed.Total)
	for _, g := range modeGroups(c) {
		fmt.Fprintf(&b, "#### %s failure modes (%d)\n\n", g.title, len(g.modes))
		if len(g.modes) == 0 {
			b.WriteString("None.\n\n")
			continue
		}
		b.WriteString("| mode | severity | layer / primitive | base | head |\n|---|---|---|---:|---:|\n")
		for _, m := range g.modes {
			fmt.Fprintf(&b, "| `%s` %s | %s | %s / %s | %d | %d |\n", m.ID, mdText(m.Title), m.Severity, m.Layer, cmp.Or(m.Primitive, "—"), m.BaseCount, m.HeadCount)
		}
		b.WriteString("\n")
	}
	for _, g := range testGroups(c) {
		if g.list.Total == 0 {
			continue
		}
		fmt.Fprintf(&b, "<details><summary>%s tests (%d)</summary>\n\n", g.title, g.list.Total)
		for _, t := range g.list.Tests {
			fmt.Fprintf(&b, "- `%s`\n", mdCode(t.Key))
		}
		if g.list.Truncated() {
			fmt.Fprintf(&b, "- … and %d more\n", g.list.Total-len(g.list.Tests))
		}
		b.WriteString("\n</details>\n\n")
	}
	return b.String()
}

type modeGroup struct {
	title string
	modes []compare.ModeChange
}

func modeGroups(c compare.Comparison) []modeGroup {
	return []modeGroup{{"Returned", c.Returned}, {"New", c.New}, {"Resolved", c.Resolved}, {"Persisting", c.Persisting}}
}

type testGroup struct {
	title string
	list  compare.TestList
}

func testGroups(c compare.Comparison) []testGroup {
	return []testGroup{{"Fixed", c.Fixed}, {"Regressed", c.Regressed}, {"Still failing", c.StillFailing},
		{"Added", c.Added}, {"Removed", c.Removed}, {"Flaky", c.FlakyTests}}
}

// mdText escapes campaign text for a Markdown table cell, so that hostile
// text can neither end the cell nor inject HTML.
func mdText(s string) string {
	return strings.NewReplacer("|", `\|`, "<", "&lt;", ">", "&gt;", "`", "'", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`).Replace(logview.Visible(s))
}

// mdCode makes text safe inside a code span, which no character but a
// backtick can end.
func mdCode(s string) string { return strings.ReplaceAll(logview.Visible(s), "`", "'") }
