package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// watch reads src to its end, then polls it for commits by other processes
// until ctx ends. PRAGMA data_version on one dedicated connection changes
// with every commit and costs microseconds, so polling it often is cheap.
func (s *Store) watch(ctx context.Context, src *source) {
	var (
		conn    *sql.Conn
		version int64 = -1
	)
	closeConn := func() {
		if conn != nil {
			conn.Close()
			conn = nil
		}
	}
	defer closeConn()
	tick := time.NewTicker(s.opts.Poll)
	defer tick.Stop()
	replaced := false
	for {
		if swapped, err := s.checkFile(ctx, src); err != nil {
			closeConn()
			s.setFault(src, err.Error())
		} else {
			if swapped {
				// The watcher's connection still holds the old file.
				closeConn()
				replaced = true
			}
			if conn == nil {
				c, err := src.file.db.Conn(ctx)
				if err != nil {
					s.setFault(src, fmt.Sprintf("campaign %s cannot be read: %v", src.path, err))
				}
				conn, version = c, -1
			}
			if conn != nil {
				v, err := dataVersion(ctx, conn)
				switch {
				case err != nil && ctx.Err() == nil:
					closeConn()
					s.setFault(src, fmt.Sprintf("campaign %s cannot be read: %v", src.path, err))
				case err == nil && (v != version || replaced):
					if err := s.update(ctx, src, replaced); err != nil && ctx.Err() == nil {
						s.setFault(src, err.Error())
					} else {
						version, replaced = v, false
						s.setFault(src, "")
					}
				}
			}
		}
		s.mu.Lock()
		src.ready = true
		s.mu.Unlock()
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// checkFile notices a campaign file that was deleted, moved or replaced. A
// file replaced by another at its path is reopened, and swapped says so:
// it is then read from scratch.
func (s *Store) checkFile(ctx context.Context, src *source) (swapped bool, err error) {
	dev, ino, err := fileIdentity(src.path)
	if err != nil {
		return false, fmt.Errorf("campaign %s is missing (deleted or moved): showing what was read before; it is picked up again when the file is back", src.path)
	}
	s.mu.RLock()
	same := dev == src.openDevice && ino == src.openInode
	s.mu.RUnlock()
	if same {
		return false, nil
	}
	f, err := openCampaignFile(ctx, src.path, s.opts.BusyTimeout)
	if err != nil {
		return false, err
	}
	s.mu.Lock()
	old := src.file
	src.file = f
	src.openDevice, src.openInode = dev, ino
	s.mu.Unlock()
	old.close()
	return true, nil
}

// update rereads the runs table and every new result of src, then reports
// what changed. replaced says another file took the old one's place.
func (s *Store) update(ctx context.Context, src *source, replaced bool) error {
	s.mu.RLock()
	before := src.meta
	s.mu.RUnlock()
	same := !replaced
	if same {
		var err error
		if same, err = s.sameFile(ctx, src); err != nil {
			return err
		}
	}
	if !same {
		if s.opts.Logf != nil {
			s.opts.Logf("campaign %s shrank or was replaced: reading it again from the start", src.path)
		}
		if err := s.resetSource(ctx, src); err != nil {
			return err
		}
	}
	if err := s.refreshRuns(ctx, src); err != nil {
		return err
	}
	change, err := s.catchUp(ctx, src)
	if err != nil {
		return err
	}
	s.settle(src)
	if err := s.carryOver(ctx); err != nil {
		return err
	}
	s.mu.RLock()
	listed := map[string]bool{}
	for _, id := range change.Runs {
		listed[id] = true
	}
	for id, r := range src.meta {
		if before[id] != r || !same {
			if pub := s.publicID(src, id); !listed[pub] {
				change.Runs = append(change.Runs, pub)
			}
		}
	}
	s.mu.RUnlock()
	if s.opts.OnChange != nil && (len(change.Runs) > 0 || change.NewResults > 0) {
		s.opts.OnChange(change)
	}
	s.warmFacts(src)
	return nil
}

// warmFacts computes ahead of time what the pages of src's finished runs
// need and keep until the run changes (the queue, the timeline), so that
// the first view after a run is read answers as fast as the next; and,
// when there is more than one run, what comparisons need. A store of one
// run has nothing to compare and keeps that memory.
func (s *Store) warmFacts(src *source) {
	s.mu.RLock()
	var finished []string
	for id, ri := range src.runs {
		if m, ok := src.meta[id]; ok && m.FinishedAt.Valid {
			finished = append(finished, s.publicID(src, id))
			s.timelineOf(ri)
			if len(s.runs) > 1 {
				s.factsOf(ri)
			}
		}
	}
	s.mu.RUnlock()
	for _, id := range finished {
		s.RunModes(context.Background(), id, ResultFilter{})
	}
}

// setFault records why src cannot be read ("" when it can again) and, when
// that changes, tells the live pages of its runs.
func (s *Store) setFault(src *source, fault string) {
	s.mu.Lock()
	changed := src.fault != fault
	src.fault = fault
	var runs []string
	if changed {
		for id := range src.runs {
			runs = append(runs, s.publicID(src, id))
		}
	}
	s.mu.Unlock()
	if !changed {
		return
	}
	if fault != "" && s.opts.Logf != nil {
		s.opts.Logf("%s", fault)
	}
	if s.opts.OnChange != nil {
		s.opts.OnChange(Change{Source: src.label, Runs: runs})
	}
}
