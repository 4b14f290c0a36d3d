package mcpserver

import (
	"context"
	"encoding/base64"
	"fmt"
	"time"

	"sandtrap"
	"sandtrap/ingest"
)

// Ingester records runs and results into the file that serve --ingest
// writes; *ingest.Ingester is one.
type Ingester interface {
	StartRun(ctx context.Context, run ingest.Run) (ingest.Run, bool, error)
	Record(ctx context.Context, runID string, results []ingest.Result) (accepted, duplicates int, err error)
	Finish(ctx context.Context, runID string, at *time.Time) (time.Time, error)
}

type startRunIn struct {
	ID        string     `json:"id" jsonschema:"the run's id: letters, digits, '.', '_' or '-'"`
	Name      string     `json:"name" jsonschema:"the run's display name"`
	StartedAt *time.Time `json:"started_at,omitempty" jsonschema:"when it started, RFC 3339; now when left out"`
	Planned   *int64     `json:"planned,omitempty" jsonschema:"how many results the run means to record"`
	Notes     *string    `json:"notes,omitempty"`
}

type startRunOut struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	StartedAt time.Time `json:"started_at"`
	// Created is false when the run existed with the same fields: calling
	// again is safe.
	Created bool `json:"created"`
}

func (t *tools) startRun(ctx context.Context, in startRunIn) (startRunOut, error) {
	run, created, err := t.Ingest.StartRun(ctx, ingest.Run{ID: in.ID, Name: in.Name, StartedAt: in.StartedAt, Planned: in.Planned, Notes: in.Notes})
	if err != nil {
		return startRunOut{}, err
	}
	out := startRunOut{ID: run.ID, Name: run.Name, Created: created}
	if run.StartedAt != nil {
		out.StartedAt = *run.StartedAt
	}
	return out, nil
}

type recordResultIn struct {
	Run     string         `json:"run" jsonschema:"the run started with start_run"`
	Results []resultRecord `json:"results" jsonschema:"results in the ingest API's form, each with a key unique within the run so that a retry is not recorded twice"`
}

// resultRecord is ingest.Result as a tool takes it: binary fields are
// base64 text, which the tool decodes, so that the schema says string.
type resultRecord struct {
	Key        string           `json:"key,omitempty" jsonschema:"an idempotency key unique within the run"`
	Test       string           `json:"test" jsonschema:"the workflow's key, e.g. file-io/png-roundtrip"`
	Target     string           `json:"target" jsonschema:"the hosted application, e.g. code-interpreter or browser"`
	Domain     string           `json:"domain" jsonschema:"e.g. file-io, package-install"`
	Status     string           `json:"status" jsonschema:"passed, failed, error or skipped"`
	Error      *string          `json:"error,omitempty"`
	Title      *string          `json:"title,omitempty"`
	StartedAt  *time.Time       `json:"started_at,omitempty"`
	DurationMS *int64           `json:"duration_ms,omitempty"`
	ExitCode   *int64           `json:"exit_code,omitempty"`
	Layer      *string          `json:"layer,omitempty"`
	Primitive  *string          `json:"primitive,omitempty"`
	Worker     *string          `json:"worker,omitempty"`
	Attempt    int              `json:"attempt,omitempty"`
	LogBase64  string           `json:"log_base64,omitempty" jsonschema:"the full output, base64"`
	Artifacts  []artifactRecord `json:"artifacts,omitempty"`
	Steps      []stepRecord     `json:"steps,omitempty"`
}

type artifactRecord struct {
	Name           string  `json:"name"`
	MediaType      *string `json:"media_type,omitempty"`
	DataBase64     string  `json:"data_base64,omitempty"`
	ExpectedSHA256 *string `json:"expected_sha256,omitempty" jsonschema:"hex sha256 of what was sent, to check the round trip"`
}

type stepRecord struct {
	Seq            int     `json:"seq,omitempty"`
	Tool           string  `json:"tool"`
	RequestBase64  string  `json:"request_base64,omitempty"`
	ResponseBase64 string  `json:"response_base64,omitempty"`
	Error          *string `json:"error,omitempty"`
	DurationMS     *int64  `json:"duration_ms,omitempty"`
}

// decode turns the tool's records into ingest results, naming the field
// whose base64 is broken.
func decode(records []resultRecord) ([]ingest.Result, error) {
	b64 := func(field, s string) ([]byte, error) {
		if s == "" {
			return nil, nil
		}
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return nil, sandtrap.Errorf(sandtrap.EINVALID, "%s: %v", field, err)
		}
		return b, nil
	}
	out := make([]ingest.Result, len(records))
	for i, r := range records {
		res := ingest.Result{Key: r.Key, Test: r.Test, Target: r.Target, Domain: r.Domain, Status: r.Status, Error: r.Error,
			Title: r.Title, StartedAt: r.StartedAt, DurationMS: r.DurationMS, ExitCode: r.ExitCode, Layer: r.Layer,
			Primitive: r.Primitive, Worker: r.Worker, Attempt: r.Attempt}
		var err error
		if res.Log, err = b64(fmt.Sprintf("results[%d].log_base64", i), r.LogBase64); err != nil {
			return nil, err
		}
		for j, a := range r.Artifacts {
			data, err := b64(fmt.Sprintf("results[%d].artifacts[%d].data_base64", i, j), a.DataBase64)
			if err != nil {
				return nil, err
			}
			res.Artifacts = append(res.Artifacts, ingest.Artifact{Name: a.Name, MediaType: a.MediaType, Data: data, ExpectedSHA256: a.ExpectedSHA256})
		}
		for j, s := range r.Steps {
			req, err := b64(fmt.Sprintf("results[%d].steps[%d].request_base64", i, j), s.RequestBase64)
			if err != nil {
				return nil, err
			}
			resp, err := b64(fmt.Sprintf("results[%d].steps[%d].response_base64", i, j), s.ResponseBase64)
			if err != nil {
				return nil, err
			}
			res.Steps = append(res.Steps, ingest.Step{Seq: s.Seq, Tool: s.Tool, Request: req, Response: resp, Error: s.Error, DurationMS: s.DurationMS})
		}
		out[i] = res
	}
	return out, nil
}

type recordResultOut struct {
	Accepted   int `json:"accepted"`
	Duplicates int `json:"duplicates"`
}

func (t *tools) recordResult(ctx context.Context, in recordResultIn) (recordResultOut, error) {
	if len(in.Results) == 0 {
		return recordResultOut{}, sandtrap.Errorf(sandtrap.EINVALID, "results: give at least one result")
	}
	results, err := decode(in.Results)
	if err != nil {
		return recordResultOut{}, err
	}
	accepted, duplicates, err := t.Ingest.Record(ctx, in.Run, results)
	return recordResultOut{Accepted: accepted, Duplicates: duplicates}, err
}

type finishRunIn struct {
	Run        string     `json:"run"`
	FinishedAt *time.Time `json:"finished_at,omitempty" jsonschema:"when it finished, RFC 3339; now when left out"`
}

type finishRunOut struct {
	Run        string    `json:"run"`
	FinishedAt time.Time `json:"finished_at"`
}

func (t *tools) finishRun(ctx context.Context, in finishRunIn) (finishRunOut, error) {
	at, err := t.Ingest.Finish(ctx, in.Run, in.FinishedAt)
	return finishRunOut{Run: in.Run, FinishedAt: at}, err
}
