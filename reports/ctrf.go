package reports

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"
)

// ctrfStatuses maps CTRF's statuses onto the contract's: pending is a test
// that was not run, like skipped; other stays as it is.
var ctrfStatuses = map[string]string{
	"passed":  StatusPassed,
	"failed":  StatusFailed,
	"skipped": StatusSkipped,
	"pending": StatusSkipped,
	"other":   "other",
}

// ParseCTRF reads a CTRF JSON report (https://ctrf.io). Each test becomes
// one result per attempt: its retryAttempts, or as many failed attempts as
// its retries before the final one. A report that is not CTRF, or a test
// without a name or with a status CTRF does not have, is an *Error with the
// field path, e.g. results.tests[3].status.
func ParseCTRF(r io.Reader) (Report, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return Report{}, err
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if t := bytes.TrimLeft(data, " \t\r\n"); len(t) > 0 && t[0] == '<' {
		return Report{}, &Error{Line: 1, Msg: "this is XML (a JUnit report?), not CTRF JSON: use --format junit"}
	}
	var doc struct {
		ReportFormat *string         `json:"reportFormat"`
		Results      json.RawMessage `json:"results"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			line := bytes.Count(data[:min(se.Offset, int64(len(data)))], []byte("\n")) + 1
			return Report{}, &Error{Line: line, Msg: "bad JSON: " + se.Error()}
		case errors.As(err, &te) && te.Field == "":
			// The value that is not an object starts where the blanks end.
			start := len(data) - len(bytes.TrimLeft(data, " \t\r\n"))
			return Report{}, &Error{Line: bytes.Count(data[:start], []byte("\n")) + 1,
				Msg: fmt.Sprintf("the report is a JSON %s, not a CTRF report, which is an object with results.tests", te.Value)}
		}
		return Report{}, decode(data, "", &doc)
	}
	if doc.ReportFormat != nil && *doc.ReportFormat != "CTRF" {
		return Report{}, &Error{Field: "reportFormat", Msg: fmt.Sprintf("%q, want \"CTRF\"", *doc.ReportFormat)}
	}
	if isNull(doc.Results) {
		return Report{}, &Error{Field: "results", Msg: "missing: not a CTRF report"}
	}
	var results struct {
		Tool *struct {
			Name string `json:"name"`
		} `json:"tool"`
		Summary *struct {
			Start int64 `json:"start"`
			Stop  int64 `json:"stop"`
		} `json:"summary"`
		Tests []json.RawMessage `json:"tests"`
	}
	if err := decode(doc.Results, "results", &results); err != nil {
		return Report{}, err
	}
	if results.Tests == nil {
		return Report{}, &Error{Field: "results.tests", Msg: "missing: not a CTRF report"}
	}
	var rep Report
	if results.Tool != nil {
		rep.Tool = results.Tool.Name
	}
	if s := results.Summary; s != nil {
		if s.Start > 0 {
			rep.Started = time.UnixMilli(s.Start)
		}
		if s.Stop > 0 {
			rep.Finished = time.UnixMilli(s.Stop)
		}
	}
	for i, raw := range results.Tests {
		rs, err := ctrfTest(raw, fmt.Sprintf("results.tests[%d]", i))
		if err != nil {
			return Report{}, err
		}
		rep.Results = append(rep.Results, rs...)
	}
	return rep, nil
}

// ctrfAttempt is what a CTRF test and each of its retryAttempts share.
type ctrfAttempt struct {
	Attempt     *int              `json:"attempt"`
	Status      *string           `json:"status"`
	Duration    *float64          `json:"duration"`
	Start       int64             `json:"start"`
	Message     string            `json:"message"`
	Trace       string            `json:"trace"`
	Stdout      []string          `json:"stdout"`
	Stderr      []string          `json:"stderr"`
	Attachments []json.RawMessage `json:"attachments"`
}

func ctrfTest(raw json.RawMessage, field string) ([]Result, error) {
	// The fields a test shares with its retry attempts are read apart, so
	// that a mistake in them is named by its path.
	var own ctrfAttempt
	if err := decode(raw, field, &own); err != nil {
		return nil, err
	}
	var t struct {
		Name          *string                    `json:"name"`
		Suite         json.RawMessage            `json:"suite"`
		Retries       int                        `json:"retries"`
		Flaky         bool                       `json:"flaky"`
		RetryAttempts []json.RawMessage          `json:"retryAttempts"`
		Steps         []json.RawMessage          `json:"steps"`
		Extra         map[string]json.RawMessage `json:"extra"`
		ThreadID      string                     `json:"threadId"`
		Screenshot    string                     `json:"screenshot"`
	}
	if err := decode(raw, field, &t); err != nil {
		return nil, err
	}
	if t.Name == nil || strings.TrimSpace(*t.Name) == "" {
		return nil, &Error{Field: field + ".name", Msg: "a test needs a name"}
	}
	if t.Retries < 0 {
		return nil, &Error{Field: field + ".retries", Msg: fmt.Sprintf("%d is negative", t.Retries)}
	}
	suite, err := ctrfSuite(t.Suite, field+".suite")
	if err != nil {
		return nil, err
	}
	base := Result{Test: *t.Name, Props: Props{Worker: t.ThreadID}}
	if len(suite) > 0 {
		base.Suite = suite[0]
		base.Test = strings.Join(suite, " > ") + " > " + *t.Name
	}
	for _, key := range []string{"target", "domain", "layer", "primitive", "worker", "title"} {
		v, ok := t.Extra[key]
		if !ok || isNull(v) {
			continue
		}
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return nil, &Error{Field: field + ".extra." + key, Msg: "want a string"}
		}
		base.Props.set(key, s)
	}
	for i, rawStep := range t.Steps {
		sf := fmt.Sprintf("%s.steps[%d]", field, i)
		var s struct {
			Name   *string `json:"name"`
			Status *string `json:"status"`
		}
		if err := decode(rawStep, sf, &s); err != nil {
			return nil, err
		}
		if s.Name == nil || *s.Name == "" {
			return nil, &Error{Field: sf + ".name", Msg: "a step needs a name"}
		}
		st, err := ctrfStatus(s.Status, sf+".status")
		if err != nil {
			return nil, err
		}
		base.Steps = append(base.Steps, Step{Name: *s.Name, Status: st})
	}

	final, err := own.result(base, field)
	if err != nil {
		return nil, err
	}
	if t.Screenshot != "" {
		data, err := base64.StdEncoding.DecodeString(t.Screenshot)
		if err != nil {
			return nil, &Error{Field: field + ".screenshot", Msg: "not base64"}
		}
		final.Attachments = append(final.Attachments, Attachment{Name: "screenshot", Data: data, Field: field + ".screenshot"})
	}
	final.Flaky = t.Flaky

	var out []Result
	last := 0
	seen := map[int]bool{}
	for i, rawAttempt := range t.RetryAttempts {
		af := fmt.Sprintf("%s.retryAttempts[%d]", field, i)
		var a ctrfAttempt
		if err := decode(rawAttempt, af, &a); err != nil {
			return nil, err
		}
		n := last + 1
		if a.Attempt != nil {
			n = *a.Attempt
		}
		if n < 1 || seen[n] {
			return nil, &Error{Field: af + ".attempt", Msg: fmt.Sprintf("attempt %d is not a new attempt number of 1 or more", n)}
		}
		seen[n] = true
		r := base
		r.Steps = nil
		if r, err = a.result(r, af); err != nil {
			return nil, err
		}
		r.Attempt = n
		out = append(out, r)
		last = max(last, n)
	}
	slices.SortFunc(out, func(a, b Result) int { return a.Attempt - b.Attempt })
	// The test's own fields are its final attempt, numbered after its
	// retries; when retryAttempts already hold that number, they are the
	// whole story.
	final.Attempt = max(t.Retries+1, last+1)
	if t.Retries > 0 && seen[t.Retries+1] {
		out[len(out)-1].Flaky = t.Flaky
		return out, nil
	}
	if len(t.RetryAttempts) == 0 {
		for n := 1; n <= t.Retries; n++ {
			r := base
			r.Steps = nil
			r.Attempt = n
			r.Status = StatusFailed
			r.Error = fmt.Sprintf("attempt %d of %d failed; the report keeps the details of the last attempt only", n, t.Retries+1)
			out = append(out, r)
		}
	}
	return append(out, final), nil
}

// result fills the fields one attempt carries into r.
func (a *ctrfAttempt) result(r Result, field string) (Result, error) {
	st, err := ctrfStatus(a.Status, field+".status")
	if err != nil {
		return r, err
	}
	r.Status = st
	if a.Duration != nil {
		if *a.Duration < 0 || math.IsNaN(*a.Duration) || *a.Duration > math.MaxInt64/float64(time.Millisecond) {
			return r, &Error{Field: field + ".duration", Msg: fmt.Sprintf("%v is not a number of milliseconds", *a.Duration)}
		}
		d := time.Duration(math.Round(*a.Duration)) * time.Millisecond
		r.Duration = &d
	}
	if a.Start > 0 {
		r.Started = time.UnixMilli(a.Start)
	}
	if st != StatusPassed {
		r.Error = joinError(a.Message, a.Trace)
	}
	if a.Stdout != nil || a.Stderr != nil {
		r.Log = nil
		if a.Stdout != nil {
			r.Log = appendSection(r.Log, "stdout", lines(a.Stdout))
		}
		if a.Stderr != nil {
			r.Log = appendSection(r.Log, "stderr", lines(a.Stderr))
		}
	}
	for i, raw := range a.Attachments {
		af := fmt.Sprintf("%s.attachments[%d]", field, i)
		var at struct {
			Name        *string `json:"name"`
			ContentType string  `json:"contentType"`
			Path        *string `json:"path"`
		}
		if err := decode(raw, af, &at); err != nil {
			return r, err
		}
		if at.Path == nil || *at.Path == "" {
			return r, &Error{Field: af + ".path", Msg: "an attachment needs a path"}
		}
		name := ""
		if at.Name != nil {
			name = *at.Name
		}
		r.Attachments = append(r.Attachments, Attachment{Name: name, MediaType: at.ContentType, Path: *at.Path, Field: af})
	}
	return r, nil
}

func ctrfStatus(s *string, field string) (string, error) {
	if s == nil {
		return "", &Error{Field: field, Msg: "missing"}
	}
	st, ok := ctrfStatuses[*s]
	if !ok {
		return "", &Error{Field: field, Msg: fmt.Sprintf("unknown status %q; CTRF has passed, failed, skipped, pending and other", *s)}
	}
	return st, nil
}

// ctrfSuite reads a test's suite: the hierarchy from the top, as an array,
// or as one string with " > " between the levels, as older reporters write.
func ctrfSuite(raw json.RawMessage, field string) ([]string, error) {
	if isNull(raw) {
		return nil, nil
	}
	var one string
	if err := json.Unmarshal(raw, &one); err == nil {
		if one == "" {
			return nil, nil
		}
		return strings.Split(one, " > "), nil
	}
	var levels []string
	if err := json.Unmarshal(raw, &levels); err != nil {
		return nil, &Error{Field: field, Msg: "want a string or an array of strings"}
	}
	return levels, nil
}

// lines joins captured lines back into output.
func lines(ls []string) []byte {
	var b []byte
	for _, l := range ls {
		b = append(b, l...)
		b = append(b, '\n')
	}
	return b
}

func isNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || bytes.Equal(t, []byte("null"))
}

// decode unmarshals raw into v and names the field that has the wrong type
// by its path under field.
func decode(raw json.RawMessage, field string, v any) error {
	err := json.Unmarshal(raw, v)
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		path := field
		if te.Field != "" {
			path = strings.TrimPrefix(field+"."+te.Field, ".")
		}
		return &Error{Field: path, Msg: fmt.Sprintf("got a JSON %s, want %s", te.Value, jsonKind(te.Type.Kind().String()))}
	}
	return err
}

// jsonKind names a Go kind in JSON's words.
func jsonKind(kind string) string {
	switch kind {
	case "string":
		return "a string"
	case "bool":
		return "true or false"
	case "slice", "array":
		return "an array"
	case "struct", "map":
		return "an object"
	}
	return "a number"
}
