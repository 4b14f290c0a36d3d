package store

import (
	"context"

	"sandtrap/compare"
)

// Compare compares run headID against run baseID, with every triage
// decision applied; the runs may come from different files. limit caps
// each list of tests (0 keeps them all); the keys of the listed tests are
// read from the campaign files where the index does not keep them.
func (s *Store) Compare(ctx context.Context, baseID, headID string, limit int) (compare.Comparison, error) {
	in, err := s.ix.CompareInput(ctx, baseID, headID, limit)
	if err != nil {
		return compare.Comparison{}, err
	}
	c := compare.Compare(in)
	if err := s.resolveKeys(ctx, &c); err != nil {
		return compare.Comparison{}, err
	}
	return c, nil
}

// resolveKeys fills in the keys of listed tests that never failed, from the
// campaign file of the run the test was last seen in.
func (s *Store) resolveKeys(ctx context.Context, c *compare.Comparison) error {
	type want struct {
		run string
		id  int64
	}
	missing := map[want][]*compare.TestChange{}
	for _, l := range []*compare.TestList{&c.Fixed, &c.Regressed, &c.StillFailing, &c.Added, &c.Removed, &c.FlakyTests} {
		for i := range l.Tests {
			t := &l.Tests[i]
			if t.Key != "" {
				continue
			}
			w := want{c.Head.ID, t.Head.LastID}
			if t.Head.Last == 0 {
				w = want{c.Base.ID, t.Base.LastID}
			}
			missing[w] = append(missing[w], t)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	byRun := map[string][]int64{}
	for w := range missing {
		byRun[w.run] = append(byRun[w.run], w.id)
	}
	for run, ids := range byRun {
		f, err := s.fileOf(run)
		if err != nil {
			return err
		}
		results, err := f.ResultsByID(ctx, ids)
		if err != nil {
			return errorf("resolving test keys of run %s: %w", run, err)
		}
		for id, r := range results {
			for _, t := range missing[want{run, id}] {
				t.Key = r.Test
			}
		}
	}
	return nil
}
