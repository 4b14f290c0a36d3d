package store

import (
	"context"
)

// settle records, after a pass that read src's runs table and then its
// results, which runs were finished: a harness writes a run's results
// before its end, so each of these has all of its results read.
func (s *Store) settle(src *source) {
	s.mu.Lock()
	defer s.mu.Unlock()
	src.settled = map[string]bool{}
	for id, m := range src.meta {
		if m.FinishedAt.Valid {
			src.settled[id] = true
		}
	}
}

// RunSettled reports whether a run is finished with every result it had by
// then read, so that its numbers are final. Between reading a file's runs
// table and its new results, a run can look finished without its last
// results.
func (s *Store) RunSettled(ctx context.Context, runID string) (bool, error) {
	src, rawID, err := s.ix.Locate(runID)
	if err != nil {
		return false, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.bySource[src].settled[rawID], nil
}
