// Package mock is an in-memory fake of the services the handlers read
// runs and results through, for tests that are not about SQLite: they set
// the runs and results they need and serve the real routes over them.
package mock

import (
	"context"
	"strings"

	"sandtrap"
)

// Store holds runs, their results and their campaign files in memory.
// Runs are in start order, oldest first. It is not safe for concurrent
// changes: tests fill it before serving.
type Store struct {
	Runs    []sandtrap.Run
	Results map[string][]sandtrap.ResultRow // by run id, in id order
	Files   []sandtrap.SourceStatus         // Runs' Source names one of them
}

// run returns the run with the id, or not found.
func (s *Store) run(id string) (sandtrap.Run, error) {
	for _, r := range s.Runs {
		if r.ID == id {
			return r, nil
		}
	}
	return sandtrap.Run{}, sandtrap.Errorf(sandtrap.ENOTFOUND, "run %q not found", id)
}

// ListRuns returns every run, oldest first.
func (s *Store) ListRuns(ctx context.Context) ([]sandtrap.Run, error) {
	return append([]sandtrap.Run(nil), s.Runs...), nil
}

// FindRuns returns the runs f selects, newest first, paged by f.Limit and
// f.Offset, and how many it selects in all.
func (s *Store) FindRuns(ctx context.Context, f sandtrap.RunFilter) (sandtrap.RunPage, error) {
	var page sandtrap.RunPage
	for i := len(s.Runs) - 1; i >= 0; i-- {
		r := s.Runs[i]
		if !f.Match(r) {
			continue
		}
		if page.Total >= max(0, f.Offset) && (f.Limit == 0 || len(page.Runs) < f.Limit) {
			page.Runs = append(page.Runs, r)
		}
		page.Total++
	}
	return page, nil
}

// RunTrails returns, for each of ids, up to n runs ending with it, oldest
// first.
func (s *Store) RunTrails(ctx context.Context, ids []string, n int) (map[string][]sandtrap.Run, error) {
	out := map[string][]sandtrap.Run{}
	for _, id := range ids {
		for i, r := range s.Runs {
			if r.ID == id {
				out[id] = append([]sandtrap.Run(nil), s.Runs[max(0, i-n+1):i+1]...)
			}
		}
	}
	return out, nil
}

// RunModeCounts returns how many distinct modes the failures of each of
// ids have.
func (s *Store) RunModeCounts(ctx context.Context, ids []string) (map[string]int, error) {
	out := map[string]int{}
	for _, id := range ids {
		if _, err := s.run(id); err != nil {
			continue
		}
		modes := map[string]bool{}
		for _, r := range s.Results[id] {
			if r.Mode != "" {
				modes[r.Mode] = true
			}
		}
		out[id] = len(modes)
	}
	return out, nil
}

// FindRun returns a run by id.
func (s *Store) FindRun(ctx context.Context, id string) (sandtrap.Run, error) { return s.run(id) }

// Breakdown counts a run's results by target, domain, status, layer,
// primitive and mode.
func (s *Store) Breakdown(ctx context.Context, runID string) ([]sandtrap.Cell, error) {
	if _, err := s.run(runID); err != nil {
		return nil, err
	}
	counts := map[sandtrap.Cell]int{}
	for _, r := range s.Results[runID] {
		counts[sandtrap.Cell{Target: r.Target, Domain: r.Domain, Status: r.Status, Layer: r.Layer, Primitive: r.Primitive, Mode: r.Mode}]++
	}
	var out []sandtrap.Cell
	for c, n := range counts {
		c.N = n
		out = append(out, c)
	}
	return out, nil
}

// FindModes knows no failure modes.
func (s *Store) FindModes(ctx context.Context, ids []string) (map[string]sandtrap.Mode, error) {
	return map[string]sandtrap.Mode{}, nil
}

// RunSource returns the campaign file a run comes from.
func (s *Store) RunSource(ctx context.Context, runID string) (sandtrap.SourceStatus, error) {
	r, err := s.run(runID)
	if err != nil {
		return sandtrap.SourceStatus{}, err
	}
	for _, src := range s.Files {
		if src.Label == r.Source {
			return src, nil
		}
	}
	return sandtrap.SourceStatus{Label: r.Source}, nil
}

// Sources returns every campaign file.
func (s *Store) Sources(ctx context.Context) []sandtrap.SourceStatus {
	return append([]sandtrap.SourceStatus(nil), s.Files...)
}

// FindResults returns a page of a run's results that f selects, with its
// total; it filters by status, target, domain and text, and counts no
// facets.
func (s *Store) FindResults(ctx context.Context, runID string, f sandtrap.ResultFilter) (sandtrap.ResultPage, error) {
	if _, err := s.run(runID); err != nil {
		return sandtrap.ResultPage{}, err
	}
	var page sandtrap.ResultPage
	for _, r := range s.Results[runID] {
		if !matches(r, f) {
			continue
		}
		if page.Total >= f.Offset && (f.Limit == 0 || len(page.Results) < f.Limit) {
			page.Results = append(page.Results, r)
		}
		page.Total++
	}
	return page, nil
}

// matches reports whether f selects r: an empty status selects the
// failures.
func matches(r sandtrap.ResultRow, f sandtrap.ResultFilter) bool {
	switch {
	case f.Status == "" && !sandtrap.IsFailure(r.Status),
		f.Status != "" && f.Status != sandtrap.StatusAll && f.Status != r.Status,
		f.Target != "" && f.Target != r.Target,
		f.Domain != "" && f.Domain != r.Domain,
		f.Q != "" && !strings.Contains(strings.ToLower(r.Test+" "+r.Error), strings.ToLower(f.Q)):
		return false
	}
	return true
}

// FindResult returns one result of a run, classified as its row says.
func (s *Store) FindResult(ctx context.Context, runID string, id int64) (sandtrap.Result, sandtrap.Classification, error) {
	r, err := s.result(runID, id)
	return r.Result, sandtrap.Classification{Layer: r.Layer, Primitive: r.Primitive, ClassifiedBy: r.ClassifiedBy, Mode: r.Mode}, err
}

// result returns one result of a run, or not found.
func (s *Store) result(runID string, id int64) (sandtrap.ResultRow, error) {
	if _, err := s.run(runID); err != nil {
		return sandtrap.ResultRow{}, err
	}
	for _, r := range s.Results[runID] {
		if r.ID == id {
			return r, nil
		}
	}
	return sandtrap.ResultRow{}, sandtrap.Errorf(sandtrap.ENOTFOUND, "result %d not found", id)
}

// ResultLog returns no log: the fake keeps none.
func (s *Store) ResultLog(ctx context.Context, runID string, id int64, limit int64) ([]byte, int64, error) {
	_, err := s.result(runID, id)
	return nil, 0, err
}

// ResultLogTail returns no log: the fake keeps none.
func (s *Store) ResultLogTail(ctx context.Context, runID string, id int64, n int64) ([]byte, error) {
	_, err := s.result(runID, id)
	return nil, err
}

// Artifacts returns no artifacts: the fake keeps none.
func (s *Store) Artifacts(ctx context.Context, runID string, resultID int64) ([]sandtrap.Artifact, error) {
	_, err := s.result(runID, resultID)
	return nil, err
}

// ArtifactData finds no artifact: the fake keeps none.
func (s *Store) ArtifactData(ctx context.Context, runID string, resultID, artifactID int64) (sandtrap.Artifact, []byte, error) {
	if _, err := s.result(runID, resultID); err != nil {
		return sandtrap.Artifact{}, nil, err
	}
	return sandtrap.Artifact{}, nil, sandtrap.Errorf(sandtrap.ENOTFOUND, "artifact %d of result %d not found", artifactID, resultID)
}

// Steps returns no steps: the fake keeps none.
func (s *Store) Steps(ctx context.Context, runID string, resultID int64) ([]sandtrap.Step, error) {
	_, err := s.result(runID, resultID)
	return nil, err
}
