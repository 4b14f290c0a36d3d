package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"sandtrap/store/campaign"
	"sandtrap/store/internal/sqlitex"
)

// watch reads src to its end, then polls it for commits by other processes
// until ctx ends. PRAGMA data_version on one dedicated connection changes
// with every commit and costs microseconds, so polling it often is cheap.
func (s *Store) watch(ctx context.Context, src *source) {
	var (
		conn    *sql.Conn
		version int64 = -1
		// seen is the data version last read on conn: a commit by another
		// process changes it.
		seen int64 = -1
		// lastCommit is when a commit was last seen, and retryAt when a
		// pass that failed may run again: each try reads its results anew.
		// A retry is not a commit: counted as one, retries a second apart
		// kept a damaged file from ever being quiet long enough for its
		// pages to be checked.
		lastCommit, retryAt time.Time
		// unchecked says the file's bytes changed in place since its pages
		// were last checked.
		unchecked bool
		// checkAt is when a damaged file's pages are checked again, and
		// recheck how long it waited last.
		checkAt time.Time
		recheck time.Duration
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
		if swapped, rewritten, err := s.checkFile(ctx, src); err != nil {
			closeConn()
			s.setFault(src, err.Error())
		} else {
			unchecked = unchecked || rewritten
			if swapped {
				// The watcher's connection still holds the old file.
				closeConn()
				replaced = true
			}
			if conn == nil {
				c, err := src.file.Conn(ctx)
				if err != nil {
					s.setFault(src, unreadable(src.path, err))
				}
				conn, version, seen = c, -1, -1
			}
			if conn != nil {
				v, err := campaign.DataVersion(ctx, conn)
				if err == nil && v != seen {
					seen, lastCommit = v, time.Now()
				}
				switch {
				case err != nil && ctx.Err() == nil:
					closeConn()
					s.setFault(src, unreadable(src.path, err))
				case err == nil && (v != version || replaced) && time.Now().After(retryAt):
					if err := s.update(ctx, src, replaced); err != nil && ctx.Err() == nil {
						s.setFault(src, err.Error())
						retryAt = time.Now().Add(failedPassRetry)
					} else {
						version, replaced = v, false
						s.setFault(src, "")
					}
				}
			}
			if unchecked && time.Since(lastCommit) >= quietFor && !time.Now().Before(checkAt) {
				again, damaged, reopened := s.checkPages(ctx, src)
				// A damaged file is checked again, less often each time: a
				// mend that lands while its pages are checked changes the
				// file's time when it begins, before its bytes are all back,
				// and leaves nothing new to see after the check.
				unchecked = again || damaged
				if damaged {
					recheck = min(max(2*recheck, time.Second), maxRecheck)
					checkAt = time.Now().Add(recheck)
				} else {
					recheck = 0
				}
				if reopened {
					closeConn()
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

// failedPassRetry is how long a pass over a file that failed waits before
// it runs again.
const failedPassRetry = time.Second

// quietFor is how long a file whose bytes changed in place must go without
// commits before its pages are checked: a harness's checkpoints rewrite it
// too, and a harness at work is not slowed down.
const quietFor = time.Second

// maxRecheck is the longest a damaged file waits before its pages are
// checked again: checking a large file's every page costs seconds.
const maxRecheck = 30 * time.Second

// checkFile notices a campaign file that was deleted, moved or replaced. A
// file replaced by another at its path is reopened, and swapped says so:
// it is then read from scratch. rewritten says the file's bytes changed in
// place since the last look: a checkpoint of its harness, or damage.
func (s *Store) checkFile(ctx context.Context, src *source) (swapped, rewritten bool, err error) {
	now, err := campaign.StampOf(src.path)
	if err != nil {
		return false, false, fmt.Errorf("campaign %s is missing (deleted or moved): showing what was read before; it is picked up again when the file is back", src.path)
	}
	s.mu.Lock()
	seen := src.seen
	same := now.SameFile(seen)
	if same {
		src.seen = now
	}
	s.mu.Unlock()
	if same {
		return false, now.Size != seen.Size || !now.Modified.Equal(seen.Modified), nil
	}
	if err := s.reopen(ctx, src, now); err != nil {
		return false, false, err
	}
	return true, false, nil
}

// reopen opens src's file afresh, in place of the connections that read
// it before; seen is the file as a stat found it.
func (s *Store) reopen(ctx context.Context, src *source, seen campaign.Stamp) error {
	f, err := campaign.Open(ctx, src.path, s.opts.BusyTimeout)
	if err != nil {
		return err
	}
	s.mu.Lock()
	old := src.file
	src.file = f
	src.seen = seen
	s.mu.Unlock()
	old.Close()
	return nil
}

// checkPages checks every page of src's file after its bytes changed in
// place, through a connection of its own: the pool's connections may hold
// pages from before the change, which hide damage. A damaged file is a
// fault until it is whole again, which damaged says; then it is opened
// afresh, which reopened says, and read again from where it was read to.
// again says the check could not run now.
func (s *Store) checkPages(ctx context.Context, src *source) (again, damaged, reopened bool) {
	err := campaign.QuickCheck(ctx, src.path, s.opts.BusyTimeout)
	switch {
	case ctx.Err() != nil:
		return false, false, false
	case campaign.Busy(err):
		return true, false, false
	case err != nil:
		s.setFault(src, unreadable(src.path, err))
		return false, true, false
	}
	s.mu.RLock()
	faulty, seen := src.fault != "", src.seen
	s.mu.RUnlock()
	if !faulty {
		return false, false, false
	}
	if err := s.reopen(ctx, src, seen); err != nil {
		s.setFault(src, err.Error())
		return false, false, false
	}
	return false, false, true
}

// unreadable says why a campaign file cannot be read.
func unreadable(path string, err error) string {
	if sqlitex.Damaged(err) {
		return fmt.Sprintf("campaign %s is damaged (%v): showing what was read before; it is read again once the file is whole (put its bytes back, or rename a good copy into its place)", path, err)
	}
	return fmt.Sprintf("campaign %s cannot be read: %v", path, err)
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
	// The runs are read before the results and shown after them, so that
	// no run is shown finished without the results committed before its end.
	runs, err := src.file.Runs(ctx)
	if err != nil {
		return err
	}
	change, err := s.catchUp(ctx, src)
	if err != nil {
		return err
	}
	s.setRuns(src, runs)
	s.settle(src)
	if err := s.carryOver(ctx); err != nil {
		return err
	}
	listed := map[string]bool{}
	for _, id := range change.Runs {
		listed[id] = true
	}
	s.mu.RLock()
	var metaChanged []string
	for id, r := range src.meta {
		if before[id] != r || !same {
			metaChanged = append(metaChanged, id)
		}
	}
	s.mu.RUnlock()
	for _, pub := range s.ix.PublicIDs(src.ix, metaChanged) {
		if !listed[pub] {
			change.Runs = append(change.Runs, pub)
		}
	}
	if s.opts.OnChange != nil && (len(change.Runs) > 0 || change.NewResults > 0) {
		s.opts.OnChange(change)
	}
	s.ix.Warm(src.ix)
	return nil
}

// setFault records why src cannot be read ("" when it can again) and, when
// that changes, tells the live pages of its runs.
func (s *Store) setFault(src *source, fault string) {
	s.mu.Lock()
	changed := src.fault != fault
	src.fault = fault
	s.mu.Unlock()
	if !changed {
		return
	}
	runs := s.ix.SourceRuns(src.ix)
	if fault != "" && s.opts.Logf != nil {
		s.opts.Logf("%s", fault)
	}
	if s.opts.OnChange != nil {
		s.opts.OnChange(Change{Source: src.label, Runs: runs})
	}
}
