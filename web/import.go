package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"sandtrap/reports"
	"sandtrap/store/campaign"
)

// importConfig is what import's flags say.
type importConfig struct {
	format, into, run, name, target, domain string
	files                                   []string
}

func parseImport(args []string, stderr io.Writer) (importConfig, error) {
	var c importConfig
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.format, "format", "", "format of the reports: junit or ctrf")
	fs.StringVar(&c.into, "into", "", "campaign file to append the run to; created when missing")
	fs.StringVar(&c.run, "run", "", "run id (default: the first report's file name and start time)")
	fs.StringVar(&c.name, "name", "", "display name of the run (default: the run id)")
	fs.StringVar(&c.target, "target", "", `target of the tests whose report names none (default "imported")`)
	fs.StringVar(&c.domain, "domain", "", "domain of the tests whose report names none (default: the suite's name)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, commandUsage("import"))
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return c, usageError{err.Error()}
	}
	c.files = fs.Args()
	switch {
	case c.format != "junit" && c.format != "ctrf":
		fs.Usage()
		if c.format == "" {
			return c, usageError{"import needs --format junit or --format ctrf"}
		}
		return c, usageError{fmt.Sprintf("unknown format %q: use junit or ctrf", c.format)}
	case c.into == "":
		fs.Usage()
		return c, usageError{"import needs --into CAMPAIGN.db"}
	case len(c.files) == 0:
		fs.Usage()
		return c, usageError{"import needs at least one report file"}
	}
	return c, nil
}

// importedReport is one report file as read.
type importedReport struct {
	path     string
	modified time.Time
	report   reports.Report
}

// runImport appends one finished run, read from test reports, to a
// campaign file. Every report is read before the file is touched, and the
// run goes in in one transaction, so a refused import appends nothing.
func runImport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c, err := parseImport(args, stderr)
	if err != nil {
		return err
	}
	parse := reports.ParseJUnit
	if c.format == "ctrf" {
		parse = reports.ParseCTRF
	}
	var reps []importedReport
	total := 0
	for _, path := range c.files {
		rep, err := readReport(path, parse)
		if err != nil {
			return err
		}
		reps = append(reps, rep)
		total += len(rep.report.Results)
	}
	if total == 0 {
		return fmt.Errorf("import: no tests in %s", strings.Join(c.files, ", "))
	}
	run, rows, err := c.campaignRun(reps, time.Now())
	if err != nil {
		return err
	}
	if err := appendRun(ctx, c.into, run, rows); err != nil {
		if errors.Is(err, campaign.ErrRunExists) {
			how := "given with --run"
			if c.run == "" {
				how = "made from " + c.files[0]
			}
			return fmt.Errorf("import: run %q (%s) is already in %s; nothing was appended: give another id with --run", run.ID, how, c.into)
		}
		return fmt.Errorf("import: %w", err)
	}
	fmt.Fprintf(stdout, "appended run %q to %s: %s from %d %s report(s)\n", run.ID, c.into, tally(rows), len(reps), c.format)
	return nil
}

// readReport reads and parses one report file; a mistake in it is named
// with the file and its line or field.
func readReport(path string, parse func(io.Reader) (reports.Report, error)) (importedReport, error) {
	f, err := os.Open(path)
	if err != nil {
		return importedReport{}, fmt.Errorf("import: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return importedReport{}, fmt.Errorf("import: %w", err)
	}
	rep, err := parse(f)
	if err != nil {
		return importedReport{}, reportError(path, err)
	}
	return importedReport{path: path, modified: fi.ModTime(), report: rep}, nil
}

// reportError names the file of a report mistake the way compilers do:
// FILE:LINE: for XML, FILE: FIELD: for JSON.
func reportError(path string, err error) error {
	var re *reports.Error
	if !errors.As(err, &re) {
		return fmt.Errorf("import: %s: %w", path, err)
	}
	where := path
	if re.Line > 0 {
		where = fmt.Sprintf("%s:%d", path, re.Line)
	}
	if re.Field != "" {
		where += ": " + re.Field
	}
	return fmt.Errorf("import: %s: %s", where, re.Msg)
}

// campaignRun turns the reports into one finished run and its rows.
func (c importConfig) campaignRun(reps []importedReport, now time.Time) (campaign.Run, []campaign.Result, error) {
	var started, finished time.Time
	tools := map[string]bool{}
	var toolNames []string
	for _, r := range reps {
		if s := r.report.Started; !s.IsZero() && (started.IsZero() || s.Before(started)) {
			started = s
		}
		if f := r.report.Finished; f.After(finished) {
			finished = f
		}
		if t := r.report.Tool; t != "" && !tools[t] {
			tools[t] = true
			toolNames = append(toolNames, t)
		}
	}
	id := c.run
	if id == "" {
		at := started
		if at.IsZero() {
			// The file's time keeps the id the same when the same report is
			// imported again, so that it is refused, not doubled.
			at = reps[0].modified
		}
		id = runID(reps[0].path, at)
	}
	if started.IsZero() {
		started = now
	}
	if finished.IsZero() {
		finished = now
	}
	finished = maxTime(finished, started)
	name := c.name
	if name == "" {
		name = id
	}
	rows, flaky, err := c.rows(id, reps)
	if err != nil {
		return campaign.Run{}, nil, err
	}
	notes := importNotes(c.format, reps, toolNames, flaky)
	return campaign.Run{ID: id, Name: name, StartedAt: started, FinishedAt: &finished, Notes: &notes}, rows, nil
}

func maxTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return b
	}
	return a
}

// runID makes a run id of a report's file name and a time, in the letters,
// digits, - and _ that the contract prefers for URLs.
func runID(path string, at time.Time) string {
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	var b strings.Builder
	dash := false
	for _, r := range base {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_'
		switch {
		case ok:
			b.WriteRune(r)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
	}
	s := strings.TrimSuffix(b.String(), "-")
	if s == "" {
		s = "import"
	}
	return s + "-" + at.UTC().Format("20060102T150405Z")
}

// rows maps every result of the reports onto a campaign row of run id. A
// test that comes again, later in a report or in a later report, is its
// next attempt. It returns the tests the reports call flaky too.
func (c importConfig) rows(id string, reps []importedReport) ([]campaign.Result, []string, error) {
	var rows []campaign.Result
	var flaky []string
	highest := map[string]int{} // attempts given so far, per test
	for _, rep := range reps {
		lastRaw := map[string]int{} // the report's own attempt number seen last, per test
		base := map[string]int{}
		for _, r := range rep.report.Results {
			if prev, ok := lastRaw[r.Test]; !ok || r.Attempt <= prev {
				base[r.Test] = highest[r.Test]
			}
			lastRaw[r.Test] = r.Attempt
			attempt := base[r.Test] + max(r.Attempt, 1)
			highest[r.Test] = max(highest[r.Test], attempt)
			if r.Flaky {
				flaky = append(flaky, r.Test)
			}
			row, err := c.row(id, rep.path, r)
			if err != nil {
				return nil, nil, err
			}
			row.Attempt = attempt
			rows = append(rows, row)
		}
	}
	return rows, flaky, nil
}

// row maps one result: what the report says first, then the flags, then
// the defaults.
func (c importConfig) row(id, reportPath string, r reports.Result) (campaign.Result, error) {
	row := campaign.Result{
		RunID:     id,
		Test:      r.Test,
		Target:    first(r.Props.Target, c.target, "imported"),
		Domain:    first(r.Props.Domain, c.domain, r.Suite, "imported"),
		Title:     optional(r.Props.Title),
		Status:    r.Status,
		Error:     optional(r.Error),
		Log:       r.Log,
		Layer:     optional(r.Props.Layer),
		Primitive: optional(r.Props.Primitive),
		Worker:    optional(r.Props.Worker),
	}
	if !r.Started.IsZero() {
		at := r.Started
		row.StartedAt = &at
	}
	if r.Duration != nil {
		ms := r.Duration.Milliseconds()
		row.DurationMS = &ms
	}
	for _, a := range r.Attachments {
		art, err := artifact(reportPath, a)
		if err != nil {
			return row, err
		}
		row.Artifacts = append(row.Artifacts, art)
	}
	for i, s := range r.Steps {
		step := campaign.Step{Seq: i + 1, Tool: s.Name}
		if s.Status == reports.StatusFailed {
			step.Error = optional("failed")
		}
		row.Steps = append(row.Steps, step)
	}
	return row, nil
}

// artifact reads an attachment's bytes: inline, or from its path, which is
// relative to the report's folder unless absolute or a file: URI.
func artifact(reportPath string, a reports.Attachment) (campaign.Artifact, error) {
	data, name := a.Data, a.Name
	if data == nil {
		path := a.Path
		if u, err := url.Parse(path); err == nil && len(u.Scheme) > 1 {
			if u.Scheme != "file" {
				return campaign.Artifact{}, fmt.Errorf("import: %s: %s.path: %q is not a file; only files can be read", reportPath, a.Field, a.Path)
			}
			path = u.Path
		}
		if !filepath.IsAbs(path) {
			path = filepath.Join(filepath.Dir(reportPath), path)
		}
		var err error
		if data, err = os.ReadFile(path); err != nil {
			return campaign.Artifact{}, fmt.Errorf("import: %s: %s.path: %w", reportPath, a.Field, err)
		}
		if name == "" {
			name = filepath.Base(path)
		}
	}
	mediaType := a.MediaType
	if mediaType == "" {
		mediaType = http.DetectContentType(data)
	}
	return campaign.Artifact{Name: first(name, "attachment"), MediaType: &mediaType, Data: data}, nil
}

// appendRun writes the run into the campaign file at path, creating the
// file when it is missing; a file it created is removed again if the write
// fails.
func appendRun(ctx context.Context, path string, run campaign.Run, rows []campaign.Result) error {
	_, err := os.Stat(path)
	created := errors.Is(err, fs.ErrNotExist)
	w, err := campaign.OpenWriter(ctx, path)
	if err != nil {
		if created {
			removeCampaign(path)
		}
		return err
	}
	_, err = w.AppendRun(ctx, run, rows)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil && created {
		removeCampaign(path)
	}
	return err
}

func removeCampaign(path string) {
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		os.Remove(p)
	}
}

// importNotes says where the run came from, for the run's notes.
func importNotes(format string, reps []importedReport, tools, flaky []string) string {
	var files []string
	for _, r := range reps {
		files = append(files, filepath.Base(r.path))
	}
	notes := fmt.Sprintf("Imported by sandtrap import from %d %s report(s): %s.", len(reps), format, strings.Join(files, ", "))
	if len(tools) > 0 {
		notes += " Written by " + strings.Join(tools, ", ") + "."
	}
	if len(flaky) > 0 {
		const shown = 20
		list := strings.Join(flaky[:min(len(flaky), shown)], ", ")
		if len(flaky) > shown {
			list += fmt.Sprintf(" and %d more", len(flaky)-shown)
		}
		notes += fmt.Sprintf(" Flaky, by the report: %s.", list)
	}
	return notes
}

// tally counts rows by status, for the command's last line.
func tally(rows []campaign.Result) string {
	counts := map[string]int{}
	var order []string
	for _, r := range rows {
		if counts[r.Status] == 0 {
			order = append(order, r.Status)
		}
		counts[r.Status]++
	}
	parts := make([]string, len(order))
	for i, s := range order {
		parts[i] = fmt.Sprintf("%d %s", counts[s], s)
	}
	return fmt.Sprintf("%d results (%s)", len(rows), strings.Join(parts, ", "))
}

// first is the first of values that is not empty.
func first(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}

// optional is nil for an empty string, which the writer stores as NULL.
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
