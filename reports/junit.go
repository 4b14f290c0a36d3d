package reports

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
)

// ParseJUnit reads a JUnit XML report: <testsuites> of <testsuite> of
// <testcase>, or a bare <testsuite>. Each test case becomes one result per
// attempt: reruns that Surefire and pytest plugins record
// (<flakyFailure>, <rerunFailure> and their Error twins) are attempts of
// their own. A report that is not JUnit XML, or a test case without a name,
// is an *Error with its line.
func ParseJUnit(r io.Reader) (Report, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return Report{}, err
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if looksLikeJSON(data) {
		return Report{}, &Error{Line: 1, Msg: "this is JSON (a CTRF report?), not JUnit XML: use --format ctrf"}
	}
	root, err := parseXML(data)
	if err != nil {
		return Report{}, err
	}
	var p junitParser
	switch root.name {
	case "testsuites":
		for _, c := range root.children {
			if c.name == "testsuite" {
				if err := p.suite(c, "", Props{}, nil); err != nil {
					return Report{}, err
				}
			}
		}
	case "testsuite":
		if err := p.suite(root, "", Props{}, nil); err != nil {
			return Report{}, err
		}
	default:
		return Report{}, &Error{Line: root.line, Msg: fmt.Sprintf("the root element is <%s>, want <testsuites> or <testsuite>: not a JUnit report", root.name)}
	}
	return p.rep, nil
}

// looksLikeJSON reports whether data starts as a JSON object or array does.
func looksLikeJSON(data []byte) bool {
	t := bytes.TrimLeft(data, " \t\r\n")
	return len(t) > 0 && (t[0] == '{' || t[0] == '[')
}

type junitParser struct {
	rep Report
}

// suite reads one <testsuite>, inside the suite named outerName with the
// properties outer and the captured output outerLog.
func (p *junitParser) suite(n *node, outerName string, outer Props, outerLog []byte) error {
	name := n.attr("name")
	if name == "" {
		name = outerName
	}
	var own Props
	var out, errOut []byte
	var hasOut, hasErr bool
	for _, c := range n.children {
		switch c.name {
		case "properties":
			properties(c, &own)
		case "system-out":
			out, hasOut = append(out, c.chardata()...), true
		case "system-err":
			errOut, hasErr = append(errOut, c.chardata()...), true
		}
	}
	props := own.under(outer)
	log := outerLog
	if hasOut || hasErr {
		log = streams(hasOut, out, hasErr, errOut)
	}
	if ts := n.attr("timestamp"); ts != "" {
		at, err := parseTimestamp(ts)
		if err != nil {
			return &Error{Line: n.line, Msg: fmt.Sprintf("testsuite %q: timestamp %q: %v", name, ts, err)}
		}
		if p.rep.Started.IsZero() || at.Before(p.rep.Started) {
			p.rep.Started = at
		}
		end := at
		if d, ok, err := seconds(n.attr("time")); err != nil {
			return &Error{Line: n.line, Msg: fmt.Sprintf("testsuite %q: time: %v", name, err)}
		} else if ok {
			end = at.Add(d)
		}
		if end.After(p.rep.Finished) {
			p.rep.Finished = end
		}
	}
	for _, c := range n.children {
		var err error
		switch c.name {
		case "testcase":
			err = p.testcase(c, name, props, log)
		case "testsuite":
			err = p.suite(c, name, props, log)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// properties reads <property name= value=> elements (or with the value as
// text) into the columns they name; others are not the campaign's.
func properties(n *node, into *Props) {
	for _, c := range n.children {
		if c.name != "property" {
			continue
		}
		v, ok := c.attrs["value"]
		if !ok {
			v = string(c.chardata())
		}
		into.set(c.attr("name"), v)
	}
}

// outcome is a <failure>, <error> or <skipped> element, or a rerun.
type outcome struct {
	status string
	text   string
	log    []byte
	dur    *time.Duration
}

func (p *junitParser) testcase(n *node, suite string, suiteProps Props, suiteLog []byte) error {
	name := n.attr("name")
	if name == "" {
		return &Error{Line: n.line, Msg: "a <testcase> without a name attribute"}
	}
	test := name
	switch {
	case n.attr("classname") != "":
		test = n.attr("classname") + "." + name
	case suite != "":
		test = suite + "/" + name
	}
	base := Result{Test: test, Suite: suite}
	if ts := n.attr("timestamp"); ts != "" {
		at, err := parseTimestamp(ts)
		if err != nil {
			return &Error{Line: n.line, Msg: fmt.Sprintf("testcase %q: timestamp %q: %v", test, ts, err)}
		}
		base.Started = at
	}
	var own Props
	var failures, errs, skips []string
	var flakies, reruns []outcome
	var out, errOut []byte
	var hasOut, hasErr bool
	for _, c := range n.children {
		switch c.name {
		case "failure":
			failures = append(failures, joinError(c.attr("message"), string(c.chardata())))
		case "error":
			errs = append(errs, joinError(c.attr("message"), string(c.chardata())))
		case "skipped":
			skips = append(skips, joinError(c.attr("message"), string(c.chardata())))
		case "flakyFailure", "flakyError", "rerunFailure", "rerunError":
			o, err := rerun(c, test)
			if err != nil {
				return err
			}
			if strings.HasPrefix(c.name, "flaky") {
				flakies = append(flakies, o)
			} else {
				reruns = append(reruns, o)
			}
		case "system-out":
			out, hasOut = append(out, c.chardata()...), true
		case "system-err":
			errOut, hasErr = append(errOut, c.chardata()...), true
		case "properties":
			properties(c, &own)
		}
	}
	base.Props = own.under(suiteProps)

	main := outcome{status: StatusPassed, log: suiteLog}
	switch {
	case len(failures) > 0:
		main.status = StatusFailed
	case len(errs) > 0:
		main.status = StatusError
	case len(skips) > 0:
		main.status = StatusSkipped
	}
	if main.status == StatusSkipped {
		main.text = strings.Join(skips, "\n\n")
	} else {
		main.text = strings.Join(append(failures, errs...), "\n\n")
	}
	if hasOut || hasErr {
		main.log = streams(hasOut, out, hasErr, errOut)
	}
	d, ok, err := seconds(n.attr("time"))
	if err != nil {
		return &Error{Line: n.line, Msg: fmt.Sprintf("testcase %q: time: %v", test, err)}
	}
	if ok {
		main.dur = &d
	}

	// Flaky attempts came before the final pass; reruns after the first
	// failure, which the case itself carries.
	attempts := append(append(flakies, main), reruns...)
	for i, o := range attempts {
		r := base
		r.Attempt = i + 1
		r.Status, r.Error, r.Log, r.Duration = o.status, o.text, o.log, o.dur
		if r.Status == StatusPassed {
			r.Error = ""
			r.Flaky = i > 0
		}
		p.rep.Results = append(p.rep.Results, r)
	}
	return nil
}

// rerun reads one earlier or later attempt that a test case records inside
// itself, with its own message, stack trace and output.
func rerun(n *node, test string) (outcome, error) {
	o := outcome{status: StatusFailed}
	if strings.HasSuffix(n.name, "Error") {
		o.status = StatusError
	}
	details := n.chardata()
	var out, errOut []byte
	var hasOut, hasErr bool
	for _, c := range n.children {
		switch c.name {
		case "stackTrace":
			details = c.chardata()
		case "system-out":
			out, hasOut = append(out, c.chardata()...), true
		case "system-err":
			errOut, hasErr = append(errOut, c.chardata()...), true
		}
	}
	o.text = joinError(n.attr("message"), strings.TrimSpace(string(details)))
	if hasOut || hasErr {
		o.log = streams(hasOut, out, hasErr, errOut)
	}
	d, ok, err := seconds(n.attr("time"))
	if err != nil {
		return o, &Error{Line: n.line, Msg: fmt.Sprintf("testcase %q: <%s> time: %v", test, n.name, err)}
	}
	if ok {
		o.dur = &d
	}
	return o, nil
}

// streams makes a log of captured standard output and error, each under
// its label.
func streams(hasOut bool, out []byte, hasErr bool, errOut []byte) []byte {
	var log []byte
	if hasOut {
		log = appendSection(log, "system-out", out)
	}
	if hasErr {
		log = appendSection(log, "system-err", errOut)
	}
	return log
}

// seconds reads a JUnit time attribute, a decimal number of seconds; ok is
// false when it is empty.
func seconds(s string) (d time.Duration, ok bool, err error) {
	if s == "" {
		return 0, false, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f < 0 || math.IsInf(f, 0) || math.IsNaN(f) || f > math.MaxInt64/float64(time.Second) {
		return 0, false, fmt.Errorf("%q is not a number of seconds", s)
	}
	return time.Duration(f * float64(time.Second)), true, nil
}

// parseTimestamp reads an ISO 8601 time. One without a zone, as pytest
// and Ant write them, is taken as local time, where the report was written.
func parseTimestamp(s string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	if t, err := time.ParseInLocation("2006-01-02T15:04:05.999999999", s, time.Local); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("not an ISO 8601 time such as 2026-06-30T22:00:00Z")
}
