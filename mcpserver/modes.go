package mcpserver

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"sandtrap"
	"sandtrap/filing"
	"sandtrap/handlers"
	"sandtrap/triage"
)

// ModesInput picks a run's failure modes.
type ModesInput struct {
	Run       string `json:"run" jsonschema:"the run's id, as list_runs gives it"`
	Layer     string `json:"layer,omitempty" jsonschema:"only failures of this layer: interface, sandbox, test or unclassified"`
	Primitive string `json:"primitive,omitempty" jsonschema:"only failures of this primitive, such as encoding, null-byte or network-egress"`
	Target    string `json:"target,omitempty" jsonschema:"only failures on this target, such as code-interpreter or browser"`
	Domain    string `json:"domain,omitempty" jsonschema:"only failures in this domain, such as file-io or package-install"`
	Severity  string `json:"severity,omitempty" jsonschema:"only modes of this severity: critical, high, medium or low"`
	Status    string `json:"status,omitempty" jsonschema:"only modes with this triage status: new, triaged, fixed, wont-fix or test-bug"`
	Limit     int    `json:"limit,omitempty" jsonschema:"at most this many modes, worst first; 50 unless given"`
}

// ModeList is a run's failure modes, ranked as the triage queue ranks them.
type ModeList struct {
	Run   string             `json:"run"`
	Total int                `json:"total" jsonschema:"how many modes match, before the limit"`
	Modes []handlers.APIMode `json:"modes" jsonschema:"worst first; count, tests, domains and targets are the mode's failures in this run"`
}

// modesListed is how many modes list_failure_modes returns unless told.
const modesListed = 50

func (t *tools) listModes(ctx context.Context, in ModesInput) (ModeList, error) {
	if in.Severity != "" && !slices.Contains(triage.Severities(), in.Severity) {
		return ModeList{}, sandtrap.Errorf(sandtrap.EINVALID, "unknown severity %q: use one of %s", in.Severity, strings.Join(triage.Severities(), ", "))
	}
	if in.Status != "" && !triage.ValidStatus(in.Status) {
		return ModeList{}, sandtrap.Errorf(sandtrap.EINVALID, "unknown triage status %q: use one of %s", in.Status, strings.Join(triage.Statuses(), ", "))
	}
	if in.Limit < 0 {
		return ModeList{}, sandtrap.Errorf(sandtrap.EINVALID, "limit cannot be negative")
	}
	run, err := t.Runs.FindRun(ctx, in.Run)
	if err != nil {
		return ModeList{}, err
	}
	modes, _, err := t.Modes.RunModes(ctx, run.ID, sandtrap.ResultFilter{Layer: in.Layer, Primitive: in.Primitive, Target: in.Target, Domain: in.Domain})
	if err != nil {
		return ModeList{}, err
	}
	triage.Rank(modes)
	out := ModeList{Run: run.ID, Modes: []handlers.APIMode{}}
	limit := cmp.Or(in.Limit, modesListed)
	for _, m := range modes {
		if in.Severity != "" && m.Severity != in.Severity || in.Status != "" && m.Status != in.Status {
			continue
		}
		out.Total++
		if len(out.Modes) == limit {
			continue
		}
		a := handlers.ToAPIModeStat(m, t.Owners)
		if a.Ticket, err = t.ticketURL(ctx, m.ID); err != nil {
			return ModeList{}, err
		}
		out.Modes = append(out.Modes, a)
	}
	return out, nil
}

// ticketURL is the link to a mode's ticket, or nil when it has none.
func (t *tools) ticketURL(ctx context.Context, id string) (*string, error) {
	tk, has, err := t.Tickets.Ticket(ctx, id)
	if err != nil || !has {
		return nil, err
	}
	return &tk.URL, nil
}

// ModeInput names a failure mode.
type ModeInput struct {
	Mode string `json:"mode" jsonschema:"the failure mode's id (m- and 12 hex digits)"`
}

// ModeDetail is one failure mode across every run.
type ModeDetail struct {
	Mode       handlers.APIMode `json:"mode"`
	Failures   int              `json:"failures" jsonschema:"its failures over every served run"`
	Runs       []ModeRun        `json:"runs" jsonschema:"the last 30 runs, oldest first, with the mode's failures in each (0 where it did not fail)"`
	Samples    []Sample         `json:"samples" jsonschema:"failures with different first lines, newest run first"`
	Reproducer *Sample          `json:"reproducer" jsonschema:"the quickest failing workflow: the one to reproduce first"`
}

// ModeRun is a mode's failures in one run, as GET /api/modes/{mode} counts
// them.
type ModeRun = handlers.APIRunCount

// Sample is one failure of a mode.
type Sample struct {
	Run    string `json:"run"`
	Result int64  `json:"result" jsonschema:"the result's id; get_result shows its log, tool calls and artifacts"`
	Test   string `json:"test"`
	Error  string `json:"error" jsonschema:"the failure message, hidden characters made visible"`
}

// samplesShown is how many samples get_failure_mode returns.
const samplesShown = 5

func (t *tools) getMode(ctx context.Context, in ModeInput) (ModeDetail, error) {
	m, err := t.Modes.FindMode(ctx, in.Mode)
	if err != nil {
		return ModeDetail{}, err
	}
	hist, err := t.Modes.ModeHistory(ctx, m.ID, handlers.RecentRuns)
	if err != nil {
		return ModeDetail{}, err
	}
	facts, _, chosen, err := t.Facts(ctx, m.ID)
	if err != nil {
		return ModeDetail{}, err
	}
	out := ModeDetail{Mode: handlers.ToAPIMode(m), Runs: handlers.ModeRecentRuns(hist), Failures: hist.Modes[0].Failures, Samples: []Sample{}}
	out.Mode.Owner, out.Mode.OwnerRouted = t.Owners.Owner(facts, chosen)
	if out.Mode.Ticket, err = t.ticketURL(ctx, m.ID); err != nil {
		return ModeDetail{}, err
	}
	for _, s := range facts.Samples[:min(len(facts.Samples), samplesShown)] {
		out.Samples = append(out.Samples, toSample(s))
	}
	if facts.Smallest != nil {
		r := toSample(*facts.Smallest)
		out.Reproducer = &r
	}
	return out, nil
}

func toSample(s filing.Sample) Sample {
	return Sample{Run: s.RunID, Result: s.ResultID, Test: s.Test, Error: visible(redacted([]byte(s.Error)))}
}

// ErrorInput is a failure that may not have happened in any run yet.
type ErrorInput struct {
	Error    string `json:"error" jsonschema:"the failure message, as a harness writes it to results.error"`
	Target   string `json:"target,omitempty" jsonschema:"the application under test, such as code-interpreter or browser"`
	Domain   string `json:"domain,omitempty" jsonschema:"the workflow's domain, such as file-io or package-install"`
	Status   string `json:"status,omitempty" jsonschema:"failed (the default) or error (the workflow could not run)"`
	ExitCode *int64 `json:"exit_code,omitempty" jsonschema:"the process's exit code, when there was one"`
	Log      string `json:"log,omitempty" jsonschema:"the end of the output, used as the indexer uses a result's log"`
}

// ErrorLookup is the failure mode sandtrap gives a failure, and what is
// known of it.
type ErrorLookup struct {
	Mode           string  `json:"mode" jsonschema:"the failure mode's id; get_failure_mode tells more when it is known"`
	MergedFrom     string  `json:"merged_from,omitempty" jsonschema:"the mode the classifier gives, when people merged it into mode"`
	Title          string  `json:"title"`
	Signature      string  `json:"signature" jsonschema:"the normalised message that keys the mode"`
	Layer          string  `json:"layer"`
	Primitive      string  `json:"primitive"`
	Severity       string  `json:"severity"`
	SeverityReason string  `json:"severity_reason"`
	ClassifiedBy   string  `json:"classified_by" jsonschema:"who decided the layer and primitive: human, harness, rule:<name> or none"`
	Known          bool    `json:"known" jsonschema:"whether sandtrap has seen this mode in a campaign file"`
	Failures       int     `json:"failures" jsonschema:"its failures in the served runs"`
	Runs           int     `json:"runs" jsonschema:"how many served runs have it"`
	Status         string  `json:"status" jsonschema:"its triage status: new, triaged, fixed, wont-fix or test-bug"`
	Fixed          bool    `json:"fixed" jsonschema:"people marked it fixed: seeing it again means it came back"`
	Ticket         *Ticket `json:"ticket" jsonschema:"the ticket it was filed as, or null"`
}

// Ticket is a mode's ticket in its team's tracker.
type Ticket struct {
	URL     string `json:"url"`
	Key     string `json:"key"`
	Tracker string `json:"tracker"`
	State   string `json:"state" jsonschema:"open or closed"`
	Team    string `json:"team"`
}

func (t *tools) findModeForError(ctx context.Context, in ErrorInput) (ErrorLookup, error) {
	f := triage.Failure{Target: in.Target, Domain: in.Domain, Status: cmp.Or(in.Status, sandtrap.StatusFailed),
		Error: in.Error, ExitCode: in.ExitCode}
	if in.Log != "" {
		f.LogTail = []byte(in.Log)
	}
	l, err := t.Modes.ModeForFailure(ctx, f)
	if err != nil {
		return ErrorLookup{}, err
	}
	m := l.Mode
	out := ErrorLookup{Mode: m.ID, Title: m.Title, Signature: m.Signature, Layer: m.Layer, Primitive: m.Primitive,
		Severity: m.Severity, SeverityReason: m.SeverityReason, ClassifiedBy: l.ClassifiedBy, Known: l.Known,
		Status: m.Status, Fixed: m.Status == triage.StatusFixed}
	if l.ModeID != m.ID {
		out.MergedFrom = l.ModeID
	}
	if l.HasTicket {
		tk := l.Ticket
		out.Ticket = &Ticket{URL: tk.URL, Key: tk.Key, Tracker: tk.Tracker, State: tk.State, Team: tk.Team}
	}
	if !l.Known {
		return out, nil
	}
	runs, err := t.Modes.ModeRuns(ctx, m.ID)
	if err != nil {
		return ErrorLookup{}, err
	}
	for _, rc := range runs {
		if rc.Count > 0 {
			out.Failures += rc.Count
			out.Runs++
		}
	}
	return out, nil
}
