package ingest

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"time"

	"sandtrap"
)

// Format is how a batch of results is sent.
type Format int

const (
	// JSONArray is one JSON array of result objects.
	JSONArray Format = iota
	// NDJSON is one result object per line.
	NDJSON
)

// fieldError is a mistake in one result of a batch. Line is the result's
// line in NDJSON, or 0 when Index, its position in an array, says where it
// is. Field is its path within the result, empty for the result as a whole.
type fieldError struct {
	Line  int
	Index int
	Field string
	Err   error
}

func (e *fieldError) Error() string {
	if e.Line > 0 {
		if e.Field == "" {
			return fmt.Sprintf("line %d: %v", e.Line, e.Err)
		}
		return fmt.Sprintf("line %d: field %q: %v", e.Line, e.Field, e.Err)
	}
	path := fmt.Sprintf("results[%d]", e.Index)
	if e.Field != "" {
		path += "." + e.Field
	}
	return path + ": " + e.Err.Error()
}

// invalid makes a mistake in a body a sandtrap error, which the API answers
// with 400 and the mistake's own words.
func invalid(err error) error {
	return sandtrap.Errorf(sandtrap.EINVALID, "%v", err)
}

// ParseResults reads a batch of results in the given format and checks
// each. The first mistake is returned as a sandtrap EINVALID error naming
// its line or index and field; an error reading r is returned wrapped.
func ParseResults(r io.Reader, format Format) ([]Result, error) {
	var (
		results []Result
		lines   []int
		err     error
	)
	if format == NDJSON {
		results, lines, err = parseNDJSON(r)
	} else {
		results, err = parseArray(r)
	}
	if err != nil {
		return nil, err
	}
	if fe := checkBatch(results); fe != nil {
		if lines != nil {
			fe.Line = lines[fe.Index]
			var dk *duplicateKey
			if errors.As(fe.Err, &dk) {
				dk.firstLine = lines[dk.first]
			}
		}
		return nil, invalid(fe)
	}
	return results, nil
}

func parseNDJSON(r io.Reader) ([]Result, []int, error) {
	var (
		results []Result
		lines   []int
	)
	br := bufio.NewReaderSize(r, 64<<10)
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, nil, fmt.Errorf("reading the body: %w", err)
		}
		if len(bytes.TrimSpace(line)) > 0 {
			res, fe := decodeResult(line)
			if fe != nil {
				fe.Line = n
				return nil, nil, invalid(fe)
			}
			results = append(results, res)
			lines = append(lines, n)
		}
		if err != nil {
			return results, lines, nil
		}
	}
}

func parseArray(r io.Reader) ([]Result, error) {
	dec := json.NewDecoder(r)
	tok, err := dec.Token()
	if err != nil {
		return nil, bodyError(err, "the body must be a JSON array of results (or NDJSON, sent as Content-Type: application/x-ndjson)")
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return nil, invalid(errors.New("the body must be a JSON array of results (or NDJSON, sent as Content-Type: application/x-ndjson)"))
	}
	var results []Result
	for i := 0; dec.More(); i++ {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, bodyError(err, fmt.Sprintf("results[%d]: bad JSON", i))
		}
		res, fe := decodeResult(raw)
		if fe != nil {
			fe.Index = i
			return nil, invalid(fe)
		}
		results = append(results, res)
	}
	if _, err := dec.Token(); err != nil {
		return nil, bodyError(err, "the array of results does not end")
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, invalid(errors.New("the body has more after the array of results"))
	}
	return results, nil
}

// bodyError tells bad JSON, which is the sender's mistake, from a failed
// read, such as a body over the limit.
func bodyError(err error, what string) error {
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return invalid(fmt.Errorf("%s: %v", what, err))
	}
	return fmt.Errorf("reading the body: %w", err)
}

// ParseRun reads the body that starts a run.
func ParseRun(r io.Reader) (Run, error) {
	var run Run
	err := decodeBody(r, runFields, &run)
	return run, err
}

// ParseFinish reads the body that finishes a run: an optional finished_at.
// An empty body is allowed.
func ParseFinish(r io.Reader) (*time.Time, error) {
	var f finish
	if err := decodeBody(r, finishFields, &f); err != nil {
		return nil, err
	}
	return f.FinishedAt, nil
}

// finish is the body that finishes a run.
type finish struct{ FinishedAt *time.Time }

var finishFields = []field[finish]{
	{"finished_at", func(f *finish, v json.RawMessage) error { return decodeTime(v, &f.FinishedAt) }},
}

// decodeBody reads one JSON object from r, allowing an empty body.
func decodeBody[T any](r io.Reader, fields []field[T], v *T) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return fmt.Errorf("reading the body: %w", err)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil
	}
	if fe := decodeObject(data, fields, v); fe != nil {
		if fe.Field == "" {
			return invalid(fe.Err)
		}
		return invalid(fmt.Errorf("field %q: %w", fe.Field, fe.Err))
	}
	return nil
}

// field decodes one named member of a JSON object into a T.
type field[T any] struct {
	name   string
	decode func(*T, json.RawMessage) error
}

// decodeObject decodes the JSON object data into v, member by member,
// refusing members fields does not name. A mistake names its member.
func decodeObject[T any](data []byte, fields []field[T], v *T) *fieldError {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(data, &members); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return &fieldError{Err: fmt.Errorf("got a JSON %s, want an object", te.Value)}
		}
		return &fieldError{Err: fmt.Errorf("bad JSON: %v", err)}
	}
	if members == nil {
		return &fieldError{Err: errors.New("got null, want an object")}
	}
	var unknown []string
	for name := range members {
		if !slices.ContainsFunc(fields, func(f field[T]) bool { return f.name == name }) {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		return &fieldError{Err: fmt.Errorf("unknown field %q", unknown[0])}
	}
	for _, f := range fields {
		raw, ok := members[f.name]
		if !ok {
			continue
		}
		if err := f.decode(v, raw); err != nil {
			var fe *fieldError
			if errors.As(err, &fe) {
				// A mistake inside a nested object: prefix its path.
				fe.Field = joinPath(f.name, fe.Field)
				return fe
			}
			return &fieldError{Field: f.name, Err: err}
		}
	}
	return nil
}

func joinPath(parent, child string) string {
	if child == "" || strings.HasPrefix(child, "[") {
		return parent + child
	}
	return parent + "." + child
}

// decodeValue unmarshals raw into dst, saying in JSON's words what was
// wrong with its type.
func decodeValue(raw json.RawMessage, dst any, want string) error {
	err := json.Unmarshal(raw, dst)
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Errorf("got a JSON %s, want %s", te.Value, want)
	}
	return err
}

func decodeString(raw json.RawMessage, dst *string) error {
	return decodeValue(raw, dst, "a string")
}

func decodeOptString(raw json.RawMessage, dst **string) error {
	return decodeValue(raw, dst, "a string or null")
}

func decodeOptInt(raw json.RawMessage, dst **int64) error {
	return decodeValue(raw, dst, "an integer or null")
}

func decodeInt(raw json.RawMessage, dst *int) error {
	return decodeValue(raw, dst, "an integer")
}

// decodeTime reads an RFC 3339 time, or null.
func decodeTime(raw json.RawMessage, dst **time.Time) error {
	var s *string
	if err := decodeValue(raw, &s, "an RFC 3339 time as a string"); err != nil {
		return err
	}
	if s == nil {
		*dst = nil
		return nil
	}
	t, err := time.Parse(time.RFC3339Nano, *s)
	if err != nil {
		return fmt.Errorf("%q is not an RFC 3339 time like 2026-07-03T22:00:00Z", *s)
	}
	*dst = &t
	return nil
}

// decodeBase64 reads standard base64 (with padding), or null.
func decodeBase64(raw json.RawMessage, dst *[]byte) error {
	var s *string
	if err := decodeValue(raw, &s, "a base64 string"); err != nil {
		return err
	}
	if s == nil {
		*dst = nil
		return nil
	}
	b, err := base64.StdEncoding.DecodeString(*s)
	if err != nil {
		return err
	}
	*dst = b
	return nil
}

// decodeList reads an array of objects, each with fields; a mistake is
// named by the element's index.
func decodeList[T any](raw json.RawMessage, fields []field[T], dst *[]T) error {
	var elems []json.RawMessage
	if err := decodeValue(raw, &elems, "an array of objects"); err != nil {
		return err
	}
	out := make([]T, len(elems))
	for i, e := range elems {
		if fe := decodeObject(e, fields, &out[i]); fe != nil {
			fe.Field = joinPath(fmt.Sprintf("[%d]", i), fe.Field)
			return fe
		}
	}
	*dst = out
	return nil
}

var runFields = []field[Run]{
	{"id", func(r *Run, v json.RawMessage) error { return decodeString(v, &r.ID) }},
	{"name", func(r *Run, v json.RawMessage) error { return decodeString(v, &r.Name) }},
	{"started_at", func(r *Run, v json.RawMessage) error { return decodeTime(v, &r.StartedAt) }},
	{"planned", func(r *Run, v json.RawMessage) error { return decodeOptInt(v, &r.Planned) }},
	{"notes", func(r *Run, v json.RawMessage) error { return decodeOptString(v, &r.Notes) }},
}

var resultFields = []field[Result]{
	{"key", func(r *Result, v json.RawMessage) error { return decodeString(v, &r.Key) }},
	{"test", func(r *Result, v json.RawMessage) error { return decodeString(v, &r.Test) }},
	{"target", func(r *Result, v json.RawMessage) error { return decodeString(v, &r.Target) }},
	{"domain", func(r *Result, v json.RawMessage) error { return decodeString(v, &r.Domain) }},
	{"status", func(r *Result, v json.RawMessage) error { return decodeString(v, &r.Status) }},
	{"error", func(r *Result, v json.RawMessage) error { return decodeOptString(v, &r.Error) }},
	{"title", func(r *Result, v json.RawMessage) error { return decodeOptString(v, &r.Title) }},
	{"started_at", func(r *Result, v json.RawMessage) error { return decodeTime(v, &r.StartedAt) }},
	{"duration_ms", func(r *Result, v json.RawMessage) error { return decodeOptInt(v, &r.DurationMS) }},
	{"exit_code", func(r *Result, v json.RawMessage) error { return decodeOptInt(v, &r.ExitCode) }},
	{"layer", func(r *Result, v json.RawMessage) error { return decodeOptString(v, &r.Layer) }},
	{"primitive", func(r *Result, v json.RawMessage) error { return decodeOptString(v, &r.Primitive) }},
	{"worker", func(r *Result, v json.RawMessage) error { return decodeOptString(v, &r.Worker) }},
	{"attempt", func(r *Result, v json.RawMessage) error { return decodeInt(v, &r.Attempt) }},
	{"log_base64", func(r *Result, v json.RawMessage) error { return decodeBase64(v, &r.Log) }},
	{"artifacts", func(r *Result, v json.RawMessage) error { return decodeList(v, artifactFields, &r.Artifacts) }},
	{"steps", func(r *Result, v json.RawMessage) error { return decodeList(v, stepFields, &r.Steps) }},
}

var artifactFields = []field[Artifact]{
	{"name", func(a *Artifact, v json.RawMessage) error { return decodeString(v, &a.Name) }},
	{"media_type", func(a *Artifact, v json.RawMessage) error { return decodeOptString(v, &a.MediaType) }},
	{"data_base64", func(a *Artifact, v json.RawMessage) error { return decodeBase64(v, &a.Data) }},
	{"expected_sha256", func(a *Artifact, v json.RawMessage) error { return decodeOptString(v, &a.ExpectedSHA256) }},
}

var stepFields = []field[Step]{
	{"seq", func(s *Step, v json.RawMessage) error { return decodeInt(v, &s.Seq) }},
	{"tool", func(s *Step, v json.RawMessage) error { return decodeString(v, &s.Tool) }},
	{"request_base64", func(s *Step, v json.RawMessage) error { return decodeBase64(v, &s.Request) }},
	{"response_base64", func(s *Step, v json.RawMessage) error { return decodeBase64(v, &s.Response) }},
	{"error", func(s *Step, v json.RawMessage) error { return decodeOptString(v, &s.Error) }},
	{"duration_ms", func(s *Step, v json.RawMessage) error { return decodeOptInt(v, &s.DurationMS) }},
}

func decodeResult(data []byte) (Result, *fieldError) {
	var r Result
	fe := decodeObject(data, resultFields, &r)
	return r, fe
}

// Limits on what one result may say, beyond the body's size.
const (
	maxKey   = 256
	maxRunID = 128
)

// runIDPattern keeps run ids to what reads well in a URL; ':' is left out
// because sandtrap writes LABEL:ID when two files have the same run id.
var runIDPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// checkRun says what is wrong with a run that is to start.
func checkRun(r Run) error {
	switch {
	case r.ID == "":
		return errors.New(`field "id": required`)
	case len(r.ID) > maxRunID:
		return fmt.Errorf(`field "id": longer than %d bytes`, maxRunID)
	case !runIDPattern.MatchString(r.ID):
		return fmt.Errorf(`field "id": %q: use letters, digits, '.', '-' and '_', starting with a letter or digit`, r.ID)
	case r.Name == "":
		return errors.New(`field "name": required`)
	case r.Planned != nil && *r.Planned < 0:
		return fmt.Errorf(`field "planned": %d is negative`, *r.Planned)
	}
	return nil
}

// checkBatch returns the first mistake in a batch of results, located by
// its index.
func checkBatch(results []Result) *fieldError {
	keys := make(map[string]int, len(results))
	for i := range results {
		if fe := checkResult(&results[i]); fe != nil {
			fe.Index = i
			return fe
		}
		if k := results[i].Key; k != "" {
			if j, ok := keys[k]; ok {
				return &fieldError{Index: i, Field: "key", Err: &duplicateKey{key: k, first: j}}
			}
			keys[k] = i
		}
	}
	return nil
}

// duplicateKey is a key that two results of one batch have. It names the
// first one by its index, or by its line once ParseResults knows it.
type duplicateKey struct {
	key              string
	first, firstLine int
}

func (e *duplicateKey) Error() string {
	if e.firstLine > 0 {
		return fmt.Sprintf("%q is the key of line %d too: a key is one result's", e.key, e.firstLine)
	}
	return fmt.Sprintf("%q is the key of results[%d] too: a key is one result's", e.key, e.first)
}

var errRequired = errors.New("required")

func checkResult(r *Result) *fieldError {
	for _, f := range []struct{ name, value string }{
		{"test", r.Test}, {"target", r.Target}, {"domain", r.Domain}, {"status", r.Status},
	} {
		if f.value == "" {
			return &fieldError{Field: f.name, Err: errRequired}
		}
	}
	switch {
	case len(r.Key) > maxKey:
		return &fieldError{Field: "key", Err: fmt.Errorf("longer than %d bytes", maxKey)}
	case r.Attempt < 0:
		return &fieldError{Field: "attempt", Err: fmt.Errorf("%d is negative", r.Attempt)}
	case r.DurationMS != nil && *r.DurationMS < 0:
		return &fieldError{Field: "duration_ms", Err: fmt.Errorf("%d is negative", *r.DurationMS)}
	}
	for i, a := range r.Artifacts {
		if a.Name == "" {
			return &fieldError{Field: fmt.Sprintf("artifacts[%d].name", i), Err: errRequired}
		}
		if s := a.ExpectedSHA256; s != nil {
			if b, err := hex.DecodeString(*s); err != nil || len(b) != 32 || strings.ToLower(*s) != *s {
				return &fieldError{Field: fmt.Sprintf("artifacts[%d].expected_sha256", i), Err: fmt.Errorf("%q is not a SHA-256 in lowercase hex (64 digits)", *s)}
			}
		}
	}
	for i, s := range r.Steps {
		switch {
		case s.Tool == "":
			return &fieldError{Field: fmt.Sprintf("steps[%d].tool", i), Err: errRequired}
		case s.Seq < 0:
			return &fieldError{Field: fmt.Sprintf("steps[%d].seq", i), Err: fmt.Errorf("%d is negative", s.Seq)}
		case s.DurationMS != nil && *s.DurationMS < 0:
			return &fieldError{Field: fmt.Sprintf("steps[%d].duration_ms", i), Err: fmt.Errorf("%d is negative", *s.DurationMS)}
		}
	}
	return nil
}
