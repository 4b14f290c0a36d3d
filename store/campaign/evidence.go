package campaign

import (
	"context"
	"database/sql"
	"slices"
	"strings"

	"sandtrap/logview"
)

// ClassifyTail is how much of the end of a failure's log the classifier
// reads: the rules' log matchers and, when the error is empty, the
// signature.
const ClassifyTail = 8 << 10

// maxStepError caps the step error kept as evidence.
const maxStepError = 1 << 10

// Evidence is what a failure's MCP steps and artifacts tell the
// classifier: the tools it called, the last error a step reported, and the
// name of an artifact whose round trip changed its bytes.
type Evidence struct {
	Tools         []string
	StepError     string
	CorruptedName string
	// Damage is how the corrupted artifact's bytes were damaged, as far
	// as they say.
	Damage logview.Damage
}

// ReadEvidence reads the steps and artifacts of the failures among the
// results in (afterResult, …] that were committed up to now, past the
// cursors of what was read before. Steps and artifacts have no index on
// result_id in the harness's file, so they are read once, forward, by
// their own ids, joined to the failing results; a step written after its
// result was read is not seen by the classifier.
func (c *File) ReadEvidence(ctx context.Context, afterResult int64, cursors *EvidenceCursors) (map[int64]*Evidence, error) {
	out := map[int64]*Evidence{}
	get := func(id int64) *Evidence {
		e := out[id]
		if e == nil {
			e = &Evidence{}
			out[id] = e
		}
		return e
	}
	if c.hasSteps {
		var top int64
		if err := c.db.QueryRowContext(ctx, `SELECT coalesce(max(id), 0) FROM steps`).Scan(&top); err != nil {
			return nil, c.readErr("reading steps", err)
		}
		if top > cursors.Steps {
			rows, err := c.db.QueryContext(ctx, `SELECT s.result_id, s.tool, CAST(`+c.qualified("steps", "s", "error")+` AS BLOB) FROM steps s JOIN results r ON r.id = s.result_id
				WHERE s.id > ? AND s.id <= ? AND r.id > ? AND r.status NOT IN ('passed', 'skipped') ORDER BY s.id`, cursors.Steps, top, afterResult)
			if err != nil {
				return nil, c.readErr("reading steps", err)
			}
			for rows.Next() {
				var (
					id   int64
					tool sql.NullString
					msg  []byte
				)
				if err := rows.Scan(&id, &tool, &msg); err != nil {
					rows.Close()
					return nil, c.readErr("reading steps", err)
				}
				e := get(id)
				if tool.String != "" && !slices.Contains(e.Tools, tool.String) {
					e.Tools = append(e.Tools, tool.String)
				}
				if len(msg) > 0 {
					e.StepError = Clip(string(msg), maxStepError)
				}
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return nil, c.readErr("reading steps", err)
			}
			cursors.Steps = top
		}
	}
	if c.hasArtifacts {
		var top int64
		if err := c.db.QueryRowContext(ctx, `SELECT coalesce(max(id), 0) FROM artifacts`).Scan(&top); err != nil {
			return nil, c.readErr("reading artifacts", err)
		}
		if top > cursors.Artifacts {
			rows, err := c.db.QueryContext(ctx, `SELECT a.result_id, a.name, `+c.qualified("artifacts", "a", "expected_sha256")+`, `+c.qualified("artifacts", "a", "data")+`
				FROM artifacts a JOIN results r ON r.id = a.result_id
				WHERE a.id > ? AND a.id <= ? AND r.id > ? AND r.status NOT IN ('passed', 'skipped')
				AND coalesce(`+c.qualified("artifacts", "a", "expected_sha256")+`, '') != '' ORDER BY a.id`, cursors.Artifacts, top, afterResult)
			if err != nil {
				return nil, c.readErr("reading artifacts", err)
			}
			for rows.Next() {
				var (
					id        int64
					name, exp sql.NullString
					data      []byte
				)
				if err := rows.Scan(&id, &name, &exp, &data); err != nil {
					rows.Close()
					return nil, c.readErr("reading artifacts", err)
				}
				if want := strings.ToLower(strings.TrimSpace(exp.String)); want != logview.SHA256Hex(data) {
					e := get(id)
					e.CorruptedName, e.Damage = name.String, logview.RoundTripDamage(data, nil)
				}
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return nil, c.readErr("reading artifacts", err)
			}
			cursors.Artifacts = top
		}
	}
	return out, nil
}

// Merge adds later evidence of the same result to e: steps read in two
// passes count together, and the later step error wins.
func (e *Evidence) Merge(later *Evidence) *Evidence {
	if later == nil {
		return e
	}
	for _, t := range later.Tools {
		if !slices.Contains(e.Tools, t) {
			e.Tools = append(e.Tools, t)
		}
	}
	if later.StepError != "" {
		e.StepError = later.StepError
	}
	if later.CorruptedName != "" {
		e.CorruptedName, e.Damage = later.CorruptedName, later.Damage
	}
	return e
}

// EvidenceCursors are the highest step and artifact ids read so far.
type EvidenceCursors struct{ Steps, Artifacts int64 }
