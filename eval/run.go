package eval

import (
	"fmt"
	"io"
	"sort"

	"sandtrap"
	"sandtrap/triage"
)

// Outcome is what sandtrap decides for one record, by the same path the
// indexer takes: classify, mine the mode's template, rate the mode.
type Outcome struct {
	Layer, Primitive, Mode, Severity, By string
	// Template is the mode's template as it stands at the end.
	Template string
}

// Decide classifies records in order with c and one fresh grouper, as one
// campaign read from its first row would be.
func Decide(c *triage.Classifier, records []Record) []Outcome {
	return DecideWith(c, triage.SeverityModel(), records)
}

// DecideWith is Decide with severity as the severity model.
func DecideWith(c *triage.Classifier, severity *triage.WordModel, records []Record) []Outcome {
	g := triage.NewGrouper()
	out := make([]Outcome, len(records))
	for i, r := range records {
		f := r.Failure()
		cl := g.Settle(c.Classify(f), f.LogTail)
		a := g.AssignClassified(cl, f.LogTail)
		out[i] = Outcome{Layer: cl.Layer, Primitive: cl.Primitive, Mode: a.ModeID, By: cl.By}
	}
	// A mode is rated on its template as it stands at the end, and a
	// template absorbed later resolves to its absorber.
	templates := map[string]string{}
	for _, t := range g.Templates() {
		templates[t.ID] = t.Template
	}
	for i := range out {
		out[i].Mode = g.Resolve(out[i].Mode)
		out[i].Template = templates[out[i].Mode]
		out[i].Severity, _ = triage.SeverityWith(severity, out[i].Layer, out[i].Primitive, out[i].Template)
	}
	return out
}

// Failure is the record as the classifier takes a failed result; a record
// without a status failed.
func (r Record) Failure() triage.Failure {
	status := r.Status
	if status == "" {
		status = sandtrap.StatusFailed
	}
	f := triage.Failure{Target: r.Target, Domain: r.Domain, Status: status, Test: r.ID, Error: r.Error,
		ExitCode: r.ExitCode, HarnessLayer: r.HarnessLayer, HarnessPrimitive: r.HarnessPrimitive}
	if r.Log != "" {
		f.LogTail = []byte(r.Log)
	}
	return f
}

// SetReport is the evaluation of one labelled set.
type SetReport struct {
	Name    string
	Records int
	// Layer and Primitive score the classes; the primitive's class is
	// "layer/primitive" so that an empty primitive is still counted.
	Layer, Primitive, Severity []Score
	LayerAccuracy              float64
	PrimitiveAccuracy          float64
	// Critical counts the truly critical failures, and CriticalRecall
	// the share of them rated critical; with none it is not a figure.
	Critical       int
	CriticalRecall float64
	// Grouped counts the records with a true cause; grouping is scored on
	// them only.
	Grouped          int
	ARI, GA          float64
	TrueModes, Modes int
	ModeCountError   float64
	// Misses lists up to a few records whose layer or primitive is wrong.
	Misses []string
}

// Evaluate scores the outcomes of records against their labels.
func Evaluate(name string, records []Record, outcomes []Outcome) SetReport {
	rep := SetReport{Name: name, Records: len(records)}
	var tl, pl, tp, pp, ts, ps, tc, pc []string
	critical, criticalHit := 0, 0
	for i, r := range records {
		o := outcomes[i]
		tl, pl = append(tl, r.Layer), append(pl, o.Layer)
		tp, pp = append(tp, r.Layer+"/"+r.Primitive), append(pp, o.Layer+"/"+o.Primitive)
		if r.Severity != "" {
			ts, ps = append(ts, r.Severity), append(ps, o.Severity)
			if r.Severity == sandtrap.SeverityCritical {
				critical++
				if o.Severity == sandtrap.SeverityCritical {
					criticalHit++
				}
			}
		}
		if cause := r.Cause; cause != "" || r.Mode != "" {
			if cause == "" {
				cause = r.Mode
			}
			tc, pc = append(tc, cause), append(pc, o.Mode)
		}
		if (r.Layer != o.Layer || r.Primitive != o.Primitive) && len(rep.Misses) < 40 {
			rep.Misses = append(rep.Misses, fmt.Sprintf("%s: got %s/%s (%s), want %s/%s", r.ID, o.Layer, o.Primitive, o.By, r.Layer, r.Primitive))
		}
	}
	rep.Layer, rep.LayerAccuracy = PerClass(tl, pl)
	rep.Primitive, rep.PrimitiveAccuracy = PerClass(tp, pp)
	if len(ts) > 0 {
		rep.Severity, _ = PerClass(ts, ps)
	}
	rep.Critical = critical
	if critical > 0 {
		rep.CriticalRecall = float64(criticalHit) / float64(critical)
	}
	rep.Grouped = len(tc)
	if len(tc) > 0 {
		rep.ARI = AdjustedRandIndex(tc, pc)
		rep.GA = GroupingAccuracy(tc, pc)
		rep.TrueModes, rep.Modes = distinctCount(tc), distinctCount(pc)
		rep.ModeCountError = ModeCountError(tc, pc)
	}
	return rep
}

func distinctCount(labels []string) int {
	seen := map[string]bool{}
	for _, l := range labels {
		seen[l] = true
	}
	return len(seen)
}

// LogReport is the grouping of one system's log lines.
type LogReport struct {
	System        string
	Lines, Events int
	Modes         int
	GA, ARI       float64
}

// EvaluateLogs groups each system's lines as the failures of one campaign
// and scores the grouping against the true events.
func EvaluateLogs(c *triage.Classifier, logs map[string][]LogLine) []LogReport {
	var out []LogReport
	for system, lines := range logs {
		records := make([]Record, len(lines))
		truth := make([]string, len(lines))
		for i, l := range lines {
			records[i] = Record{ID: fmt.Sprintf("%s-%d", system, i+1), Target: "code-interpreter", Domain: system, Error: l.Content}
			truth[i] = l.Event
		}
		outcomes := Decide(c, records)
		pred := make([]string, len(outcomes))
		for i, o := range outcomes {
			pred[i] = o.Mode
		}
		out = append(out, LogReport{System: system, Lines: len(lines), Events: distinctCount(truth), Modes: distinctCount(pred),
			GA: GroupingAccuracy(truth, pred), ARI: AdjustedRandIndex(truth, pred)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].System < out[j].System })
	return out
}

// WriteReport writes a set's report to w: the summary figures, then the
// class tables, then the misses when verbose is set.
func WriteReport(w io.Writer, rep SetReport, verbose bool) {
	fmt.Fprintf(w, "== %s: %d records\n", rep.Name, rep.Records)
	recall := "n/a"
	if rep.Critical > 0 {
		recall = fmt.Sprintf("%.3f", rep.CriticalRecall)
	}
	fmt.Fprintf(w, "layer accuracy %.3f   primitive accuracy %.3f   critical recall %s\n",
		rep.LayerAccuracy, rep.PrimitiveAccuracy, recall)
	if rep.Grouped > 0 {
		fmt.Fprintf(w, "grouping over %d records with a true cause: ARI %.3f   grouping accuracy %.3f   modes %d for %d causes (%+.0f%%)\n",
			rep.Grouped, rep.ARI, rep.GA, rep.Modes, rep.TrueModes, 100*float64(rep.Modes-rep.TrueModes)/float64(max(rep.TrueModes, 1)))
	} else {
		fmt.Fprintln(w, "grouping: no record has a true cause")
	}
	fmt.Fprintln(w)
	WriteTable(w, "layer", rep.Layer)
	fmt.Fprintln(w)
	WriteTable(w, "primitive", rep.Primitive)
	if len(rep.Severity) > 0 {
		fmt.Fprintln(w)
		WriteTable(w, "severity", rep.Severity)
	}
	if verbose && len(rep.Misses) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "misclassified:")
		for _, m := range rep.Misses {
			fmt.Fprintln(w, "  "+m)
		}
	}
	fmt.Fprintln(w)
}

// WriteLogReports writes the grouping of each system's log and the mean.
func WriteLogReports(w io.Writer, reps []LogReport) {
	if len(reps) == 0 {
		return
	}
	fmt.Fprintln(w, "== real system logs (Loghub samples): grouping")
	fmt.Fprintf(w, "%-12s  %6s  %6s  %6s  %8s  %6s\n", "system", "lines", "events", "modes", "grouping", "ARI")
	var ga float64
	for _, r := range reps {
		fmt.Fprintf(w, "%-12s  %6d  %6d  %6d  %8.3f  %6.3f\n", r.System, r.Lines, r.Events, r.Modes, r.GA, r.ARI)
		ga += r.GA
	}
	fmt.Fprintf(w, "%-12s  %6s  %6s  %6s  %8.3f\n\n", "mean", "", "", "", ga/float64(len(reps)))
}
