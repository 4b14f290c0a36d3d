package mcpserver

import (
	"context"
	"encoding/base64"
	"strings"

	"sandtrap"
	"sandtrap/logview"
	"sandtrap/paths"
)

// How much binary evidence get_result carries: the end of the log, where a
// failure explains itself, and the head of each tool call's bodies and
// each artifact. Sizes say when there is more.
const (
	logTailBytes  = 16 << 10
	bodyBytes     = 64 << 10
	artifactBytes = 64 << 10
)

// ResultInput names a result of a run.
type ResultInput struct {
	Run    string `json:"run" jsonschema:"the run's id"`
	Result int64  `json:"result" jsonschema:"the result's id, as samples and comparisons give it"`
}

// Result is one result with its evidence. Campaign bytes come twice: exact
// as base64, and as text with hidden characters made visible.
type Result struct {
	ID               int64      `json:"id"`
	Run              string     `json:"run"`
	Test             string     `json:"test"`
	Title            string     `json:"title,omitempty"`
	Target           string     `json:"target"`
	Domain           string     `json:"domain"`
	Status           string     `json:"status" jsonschema:"passed, failed, error, skipped, or another value the harness wrote"`
	StartedAt        string     `json:"started_at,omitempty"`
	DurationMS       *int64     `json:"duration_ms"`
	ExitCode         *int64     `json:"exit_code"`
	Attempt          int        `json:"attempt"`
	Worker           string     `json:"worker,omitempty"`
	HarnessLayer     string     `json:"harness_layer,omitempty" jsonschema:"the layer the harness itself wrote"`
	HarnessPrimitive string     `json:"harness_primitive,omitempty"`
	Layer            string     `json:"layer,omitempty" jsonschema:"the decided layer; empty for a result that did not fail or is not indexed yet"`
	Primitive        string     `json:"primitive,omitempty"`
	ClassifiedBy     string     `json:"classified_by,omitempty"`
	Mode             string     `json:"mode,omitempty" jsonschema:"the failure mode's id"`
	Signature        string     `json:"signature,omitempty"`
	Severity         string     `json:"severity,omitempty"`
	Error            *string    `json:"error" jsonschema:"the failure message, hidden characters made visible; null when there is none"`
	ErrorBase64      string     `json:"error_base64,omitempty" jsonschema:"the failure message's exact bytes"`
	LogBytes         int64      `json:"log_bytes" jsonschema:"the whole log's length"`
	LogTailOffset    int64      `json:"log_tail_offset" jsonschema:"where in the log the tail starts"`
	LogTailBase64    string     `json:"log_tail_base64" jsonschema:"the log's last bytes, exact"`
	LogTail          string     `json:"log_tail" jsonschema:"the same bytes as text: NUL as ␀, invalid UTF-8 as U+FFFD, other controls escaped"`
	Steps            []Step     `json:"steps" jsonschema:"the workflow's MCP tool calls, in order"`
	Artifacts        []Artifact `json:"artifacts" jsonschema:"files the workflow uploaded or downloaded, with their round-trip checks"`
	Problems         []string   `json:"problems,omitempty" jsonschema:"values the harness wrote that could not be read"`
}

// Step is one MCP tool call of a workflow.
type Step struct {
	Seq               int    `json:"seq"`
	Tool              string `json:"tool"`
	DurationMS        *int64 `json:"duration_ms"`
	Error             string `json:"error,omitempty" jsonschema:"the call's error, hidden characters made visible"`
	RequestBytes      int    `json:"request_bytes"`
	RequestBase64     string `json:"request_base64"`
	Request           string `json:"request" jsonschema:"the request as text, hidden characters made visible"`
	RequestTruncated  bool   `json:"request_truncated,omitempty" jsonschema:"only the first 64 KiB are here"`
	ResponseBytes     int    `json:"response_bytes"`
	ResponseBase64    string `json:"response_base64"`
	Response          string `json:"response" jsonschema:"the response as text, hidden characters made visible"`
	ResponseTruncated bool   `json:"response_truncated,omitempty" jsonschema:"only the first 64 KiB are here"`
}

// Artifact is a file a workflow uploaded or downloaded, with its check.
type Artifact struct {
	ID             int64  `json:"id"`
	Name           string `json:"name"`
	MediaType      string `json:"media_type,omitempty"`
	Size           int64  `json:"size"`
	SHA256         string `json:"sha256" jsonschema:"the digest of the stored bytes"`
	ExpectedSHA256 string `json:"expected_sha256,omitempty" jsonschema:"the digest of what was sent in"`
	Check          string `json:"check" jsonschema:"ok when the bytes have the expected digest, mismatch when not, unchecked without one"`
	DiffOffset     *int   `json:"diff_offset,omitempty" jsonschema:"the first byte where a mismatched artifact differs from the one with the expected digest"`
	DiffAgainst    string `json:"diff_against,omitempty" jsonschema:"the name of the artifact with the expected digest"`
	DataBase64     string `json:"data_base64"`
	Text           string `json:"text" jsonschema:"the bytes as text, hidden characters made visible"`
	DataTruncated  bool   `json:"data_truncated,omitempty" jsonschema:"only the first 64 KiB are here; download_path has them all"`
	DownloadPath   string `json:"download_path" jsonschema:"where sandtrap's web server serves the whole file"`
}

func (t *tools) getResult(ctx context.Context, in ResultInput) (Result, error) {
	run, err := t.Runs.FindRun(ctx, in.Run)
	if err != nil {
		return Result{}, err
	}
	res, cl, err := t.Results.FindResult(ctx, run.ID, in.Result)
	if err != nil {
		return Result{}, err
	}
	out := Result{ID: res.ID, Run: run.ID, Test: res.Test, Title: res.Title, Target: res.Target, Domain: res.Domain,
		Status: res.Status, StartedAt: res.StartedAt, DurationMS: known(res.DurationMS), ExitCode: res.ExitCode,
		Attempt: res.Attempt, Worker: res.Worker, HarnessLayer: res.Layer, HarnessPrimitive: res.Primitive,
		Layer: cl.Layer, Primitive: cl.Primitive, ClassifiedBy: cl.ClassifiedBy, Mode: cl.Mode, Signature: cl.Signature,
		LogBytes: res.LogSize, Problems: res.Problems, Steps: []Step{}, Artifacts: []Artifact{}}
	if cl.Mode != "" {
		m, err := t.Modes.FindMode(ctx, cl.Mode)
		if err != nil {
			return Result{}, err
		}
		out.Severity = m.Severity
	}
	if res.HasError {
		b := redacted([]byte(res.Error))
		e := visible(b)
		out.Error, out.ErrorBase64 = &e, base64.StdEncoding.EncodeToString(b)
	}
	tail, err := t.Results.ResultLogTail(ctx, run.ID, res.ID, logTailBytes)
	if err != nil {
		return Result{}, err
	}
	out.LogTailOffset = res.LogSize - int64(len(tail))
	tail = redacted(tail)
	out.LogTailBase64, out.LogTail = base64.StdEncoding.EncodeToString(tail), visible(tail)
	steps, err := t.Results.Steps(ctx, run.ID, res.ID)
	if err != nil {
		return Result{}, err
	}
	for _, s := range steps {
		st := Step{Seq: s.Seq, Tool: s.Tool, DurationMS: known(s.DurationMS), Error: visible(redacted([]byte(s.Error))),
			RequestBytes: len(s.Request), ResponseBytes: len(s.Response)}
		st.RequestBase64, st.Request, st.RequestTruncated = head(redacted(s.Request), bodyBytes)
		st.ResponseBase64, st.Response, st.ResponseTruncated = head(redacted(s.Response), bodyBytes)
		out.Steps = append(out.Steps, st)
	}
	if out.Artifacts, err = t.artifacts(ctx, run.ID, res.ID); err != nil {
		return Result{}, err
	}
	return out, nil
}

// artifacts checks each artifact's round trip as the result page does: an
// artifact whose digest is not the expected one is compared byte by byte
// with the sibling that has it.
func (t *tools) artifacts(ctx context.Context, runID string, resultID int64) ([]Artifact, error) {
	arts, err := t.Results.Artifacts(ctx, runID, resultID)
	if err != nil {
		return nil, err
	}
	bySHA := map[string]sandtrap.Artifact{}
	for _, a := range arts {
		bySHA[a.SHA256] = a
	}
	out := make([]Artifact, 0, len(arts))
	for _, a := range arts {
		_, data, err := t.Results.ArtifactData(ctx, runID, resultID, a.ID)
		if err != nil {
			return nil, err
		}
		v := Artifact{ID: a.ID, Name: a.Name, MediaType: a.MediaType, Size: a.Size, SHA256: a.SHA256,
			ExpectedSHA256: a.ExpectedSHA256, Check: "unchecked",
			DownloadPath: paths.Artifact(runID, resultID, a.ID)}
		switch {
		case a.ExpectedSHA256 == "":
		case a.ExpectedSHA256 == a.SHA256:
			v.Check = "ok"
		default:
			v.Check = "mismatch"
			if orig, ok := bySHA[a.ExpectedSHA256]; ok {
				_, od, err := t.Results.ArtifactData(ctx, runID, resultID, orig.ID)
				if err != nil {
					return nil, err
				}
				at := logview.FirstDiff(data, od)
				v.DiffOffset, v.DiffAgainst = &at, orig.Name
			}
		}
		v.DataBase64, v.Text, v.DataTruncated = head(data, artifactBytes)
		out = append(out, v)
	}
	return out, nil
}

// head is at most n bytes of b, exact as base64 and as visible text, and
// whether b was longer.
func head(b []byte, n int) (b64, text string, truncated bool) {
	if len(b) > n {
		b, truncated = b[:n], true
	}
	return base64.StdEncoding.EncodeToString(b), visible(b), truncated
}

// visible is b as text with its hidden characters made visible, as the
// result page shows them: NUL as ␀, each invalid byte as U+FFFD, other
// controls escaped (ESC as \x1b); newlines and tabs stay. Nothing is cut.
func visible(b []byte) string {
	var sb strings.Builder
	sb.Grow(len(b))
	for _, sp := range logview.RenderText(string(b)) {
		sb.WriteString(sp.Text)
	}
	return sb.String()
}

// known is a duration, or nil when the harness did not record it.
func known(ms int64) *int64 {
	if ms < 0 {
		return nil
	}
	return &ms
}

// redacted is b with the value of every credential it holds cut (see
// logview.Redact): an agent's model is a reader outside the team. Counts
// and offsets stay those of the bytes the campaign holds.
func redacted(b []byte) []byte {
	r, _ := logview.RedactBytes(b)
	return r
}
