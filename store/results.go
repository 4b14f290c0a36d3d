package store

import (
	"context"

	"sandtrap"
	"sandtrap/store/campaign"
	"sandtrap/store/index"
)

// RunSource reports the state of the file a run comes from.
func (s *Store) RunSource(ctx context.Context, runID string) (sandtrap.SourceStatus, error) {
	src, _, err := s.ix.Locate(runID)
	if err != nil {
		return sandtrap.SourceStatus{}, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.bySource[src].status(), nil
}

// Sources reports the state of every served file.
func (s *Store) Sources(ctx context.Context) []sandtrap.SourceStatus {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]sandtrap.SourceStatus, 0, len(s.sources))
	for _, src := range s.sources {
		out = append(out, src.status())
	}
	return out
}

// status reports the state of src. Callers hold mu. A file not yet read to
// its end is being read, though its first pass may not have counted its
// results yet: a page drawn then follows it rather than staying empty.
func (src *source) status() sandtrap.SourceStatus {
	p := src.progress
	p.Reading = p.Reading || !src.ready
	return sandtrap.SourceStatus{Label: src.label, Path: src.path, Fault: src.fault, Progress: p}
}

// FindResults returns a page of a run's results that match f, newest first:
// the index pages them, and the run's campaign file adds their details.
func (s *Store) FindResults(ctx context.Context, runID string, f sandtrap.ResultFilter) (sandtrap.ResultPage, error) {
	page, src, err := s.ix.ResultsPage(ctx, runID, f)
	if err != nil {
		return sandtrap.ResultPage{}, err
	}
	ids := make([]int64, len(page.Results))
	for i, r := range page.Results {
		ids[i] = r.ID
	}
	details, err := s.fileOfSource(src).ResultsByID(ctx, ids)
	if err != nil {
		// The campaign file may be busy, gone or replaced: the index still
		// knows enough to list the failures.
		return page, nil
	}
	for i := range page.Results {
		r := &page.Results[i]
		if d, ok := details[r.ID]; ok {
			d.RunID = runID
			r.Result = d
		}
	}
	return page, nil
}

// fileOfSource returns the campaign file of the index's source src.
func (s *Store) fileOfSource(src *index.Source) *campaign.File {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.bySource[src].file
}

// FindResult returns one result of a run with its classification.
func (s *Store) FindResult(ctx context.Context, runID string, id int64) (sandtrap.Result, sandtrap.Classification, error) {
	cl, src, rawID, err := s.ix.Classification(ctx, runID, id)
	if err != nil {
		return sandtrap.Result{}, sandtrap.Classification{}, err
	}
	r, resRun, err := s.fileOfSource(src).Result(ctx, id)
	if err != nil {
		return r, cl, err
	}
	if resRun != rawID {
		return r, cl, sandtrap.Errorf(sandtrap.ENOTFOUND, "result %d is not in run %q", id, runID)
	}
	r.RunID = runID
	return r, cl, nil
}

// resultFile returns the campaign file that holds result id of the run, or
// not found when the result is not the run's. It asks the file, not the
// index: a file replaced at its path is open before its index is reset, and
// the same id there may be another run's.
func (s *Store) resultFile(ctx context.Context, runID string, id int64) (*campaign.File, error) {
	src, rawID, err := s.ix.Locate(runID)
	if err != nil {
		return nil, err
	}
	file := s.fileOfSource(src)
	resRun, err := file.RunOf(ctx, id)
	if err != nil {
		return nil, err
	}
	if resRun != rawID {
		return nil, sandtrap.Errorf(sandtrap.ENOTFOUND, "result %d is not in run %q", id, runID)
	}
	return file, nil
}

// fileOf returns the campaign file of a run.
func (s *Store) fileOf(runID string) (*campaign.File, error) {
	src, _, err := s.ix.Locate(runID)
	if err != nil {
		return nil, err
	}
	return s.fileOfSource(src), nil
}

// ResultLog returns up to limit bytes of a result's log and the log's size.
func (s *Store) ResultLog(ctx context.Context, runID string, id int64, limit int64) ([]byte, int64, error) {
	f, err := s.resultFile(ctx, runID, id)
	if err != nil {
		return nil, 0, err
	}
	return f.ResultLog(ctx, id, limit)
}

// ResultLogTail returns the last n bytes of a result's log: where a long
// log that the page cuts says why it failed.
func (s *Store) ResultLogTail(ctx context.Context, runID string, id int64, n int64) ([]byte, error) {
	f, err := s.resultFile(ctx, runID, id)
	if err != nil {
		return nil, err
	}
	return f.ResultLogTail(ctx, id, n)
}

// Artifacts lists the artifacts of a result of the run, with their
// digests checked.
func (s *Store) Artifacts(ctx context.Context, runID string, resultID int64) ([]sandtrap.Artifact, error) {
	f, err := s.resultFile(ctx, runID, resultID)
	if err != nil {
		return nil, err
	}
	return f.Artifacts(ctx, resultID)
}

// ArtifactData returns one artifact of a result with its bytes.
func (s *Store) ArtifactData(ctx context.Context, runID string, resultID, artifactID int64) (sandtrap.Artifact, []byte, error) {
	f, err := s.resultFile(ctx, runID, resultID)
	if err != nil {
		return sandtrap.Artifact{}, nil, err
	}
	return f.ArtifactData(ctx, resultID, artifactID)
}

// Steps lists the MCP tool calls of a result of the run, in order.
func (s *Store) Steps(ctx context.Context, runID string, resultID int64) ([]sandtrap.Step, error) {
	f, err := s.resultFile(ctx, runID, resultID)
	if err != nil {
		return nil, err
	}
	return f.Steps(ctx, resultID)
}

// ModeOccurrences returns a page of a mode's failures across every run,
// newest run first, and how many there are: the index finds them, and
// each run's campaign file adds their details (titles, durations), one
// query per file.
func (s *Store) ModeOccurrences(ctx context.Context, id string, limit, offset int) ([]sandtrap.Occurrence, int, error) {
	found, total, err := s.ix.ModeFailures(ctx, id, limit, offset)
	if err != nil {
		return nil, 0, err
	}
	byFile := map[*campaign.File][]int64{}
	files := make([]*campaign.File, len(found))
	for i, o := range found {
		files[i] = s.fileOfSource(o.Source)
		byFile[files[i]] = append(byFile[files[i]], o.ID)
	}
	details := map[*campaign.File]map[int64]sandtrap.Result{}
	for f, ids := range byFile {
		if d, err := f.ResultsByID(ctx, ids); err == nil {
			details[f] = d
		}
	}
	out := make([]sandtrap.Occurrence, 0, len(found))
	for i, o := range found {
		if d, ok := details[files[i]][o.ID]; ok {
			d.RunID = o.RunID
			o.Result = d
		}
		out = append(out, o.Occurrence)
	}
	return out, total, nil
}
