package store

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"sandtrap"
	"sandtrap/store/campaign"
	"sandtrap/store/index"
	"sandtrap/store/internal/sqlitex"
	"sandtrap/store/state"
	"sandtrap/triage"
)

// Options configures a Store.
type Options struct {
	StatePath  string
	Campaigns  []string
	Classifier *triage.Classifier
	// Poll is how often each campaign file is checked for new commits.
	Poll time.Duration
	// Logf reports indexing progress; nil is silent.
	Logf func(format string, args ...any)
	// OnChange is called after new results, run changes or triage
	// decisions; it must not block.
	OnChange func(Change)
	// ReadOnly refuses every triage change and leaves the state file as
	// it is: the store works on a private copy of it.
	ReadOnly bool
	// BusyTimeout is how long a read of a campaign file waits while the
	// harness holds it locked; 5 s when zero.
	BusyTimeout time.Duration
	// IndexMemory is about how many bytes the rows and failures of runs
	// that are finished may hold in memory; beyond it, those looked at
	// least lately are evicted and read back from the state when needed.
	// Live runs always stay. Zero keeps every run in memory.
	IndexMemory int64
}

// Change says what one indexing pass found in a campaign file.
type Change struct {
	Source     string
	Runs       []string // public ids of the runs that changed
	NewResults int
	NewModes   []string
	Triage     bool // a triage decision changed
}

// Store serves the index of campaign files and keeps it current: it opens
// the campaign files and the state, runs a watcher and an indexer pass per
// file, saves what the index adds, applies people's decisions, and reads
// what only a campaign file has (a result's log, artifacts and steps).
type Store struct {
	opts  Options
	state *state.DB
	ix    *index.Index
	// queries is the index, through the questions it answers on its own:
	// the store serves them as they are.
	queries

	// mu guards the sources' fields and what mining has not saved yet.
	mu      sync.RWMutex
	sources []*source
	// bySource finds a source from its part of the index; it does not
	// change after Open.
	bySource map[*index.Source]*source
	// unsavedTemplates and unsavedAliases are what mining changed since
	// the last save of the index.
	unsavedTemplates map[string]triage.SavedTemplate
	unsavedAliases   map[string]string
	// carryPending says people's decisions wait to follow their failures
	// to the modes of a new classifier.
	carryPending bool

	reloadMu sync.Mutex // serialises reloads of the decisions

	// groupMu guards grouper, which mines failure modes in row order.
	groupMu sync.Mutex
	grouper *triage.Grouper

	wg     sync.WaitGroup
	cancel context.CancelFunc
}

// queries are the questions the index answers without a campaign file.
type queries interface {
	ListRuns(ctx context.Context) ([]sandtrap.Run, error)
	FindRun(ctx context.Context, id string) (sandtrap.Run, error)
	FindRuns(ctx context.Context, f sandtrap.RunFilter) (sandtrap.RunPage, error)
	RunTrails(ctx context.Context, ids []string, n int) (map[string][]sandtrap.Run, error)
	RunModeCounts(ctx context.Context, ids []string) (map[string]int, error)
	RunsBefore(ctx context.Context, id string, n int) ([]sandtrap.RunCount, error)
	Breakdown(ctx context.Context, runID string) ([]sandtrap.Cell, error)
	RunModes(ctx context.Context, runID string, f sandtrap.ResultFilter) ([]sandtrap.ModeStat, map[string][]sandtrap.FacetValue, error)
	RunTimeline(ctx context.Context, runID string) ([]triage.Minute, []triage.Window, error)
	RunActivity(ctx context.Context, runID string, now time.Time) (sandtrap.Activity, error)
	NewModesSince(ctx context.Context, runID string, since time.Time) ([]sandtrap.NewMode, error)
	LastFailures(ctx context.Context, runID string) (map[string]time.Time, error)
	FindMode(ctx context.Context, id string) (sandtrap.Mode, error)
	FindModes(ctx context.Context, ids []string) (map[string]sandtrap.Mode, error)
	History(ctx context.Context, recent int) (sandtrap.History, error)
	ModeHistory(ctx context.Context, id string, recent int) (sandtrap.History, error)
	ModeRuns(ctx context.Context, id string) ([]sandtrap.RunCount, error)
	ModesBeside(ctx context.Context, id string, n int) ([]sandtrap.Mode, error)
}

// source is one campaign file and how far it was read. Its fields are
// guarded by the store's mu.
type source struct {
	ix     *index.Source // its runs in the index
	id     int64
	path   string
	label  string
	file   *campaign.File
	device uint64 // identity of the file the index was read from
	inode  uint64
	// seen is the file at the path as last looked at: a different file
	// there means it was replaced, another size or time that its bytes
	// were rewritten in place.
	seen     campaign.Stamp
	lastID   int64
	lastKey  string
	meta     map[string]campaign.RunRow
	progress sandtrap.Progress
	fault    string // why the file cannot be read right now, if it cannot
	// cursors and pending are how far steps and artifacts were read, and
	// the evidence read for results not read yet.
	cursors campaign.EvidenceCursors
	pending map[int64]*campaign.Evidence
	ready   bool // read to its end at least once, or found unreadable
	// caughtUp says a pass of catchUp has read it to its end.
	caughtUp bool
	// settled are the runs (by the harness's id) that were finished when a
	// pass read the file, with every result committed before their end.
	settled map[string]bool
}

// Open opens the state file (creating and migrating it) and every campaign
// file, checks each against the contract, and loads what was indexed before.
// It reads no new results: Start does that.
func Open(ctx context.Context, opts Options) (*Store, error) {
	if opts.Classifier == nil {
		opts.Classifier = triage.NewClassifier(nil)
	}
	if opts.Poll <= 0 {
		opts.Poll = 20 * time.Millisecond
	}
	if opts.BusyTimeout <= 0 {
		opts.BusyTimeout = 5 * time.Second
	}
	s := &Store{opts: opts, grouper: triage.NewGrouper(),
		unsavedTemplates: map[string]triage.SavedTemplate{}, unsavedAliases: map[string]string{}}
	s.ix = index.New(pager{s}, opts.IndexMemory)
	s.queries = s.ix
	seen := map[string]bool{}
	for _, p := range opts.Campaigns {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, errorf("campaign %s: %w", p, err)
		}
		if seen[abs] {
			continue
		}
		seen[abs] = true
		f, err := campaign.Open(ctx, abs, opts.BusyTimeout)
		if err != nil {
			s.closeFiles()
			return nil, err
		}
		seen, _ := campaign.StampOf(abs)
		s.sources = append(s.sources, &source{path: abs, file: f, seen: seen})
	}
	assignLabels(s.sources)
	s.bySource = make(map[*index.Source]*source, len(s.sources))
	for _, src := range s.sources {
		src.ix = s.ix.AddSource(src.label)
		s.bySource[src.ix] = src
	}
	db, err := state.Open(ctx, opts.StatePath, opts.ReadOnly)
	if err != nil {
		s.closeFiles()
		return nil, err
	}
	s.state = db
	for _, load := range []func(context.Context) error{s.matchClassifier, s.loadTemplates, s.loadState, s.loadDecisions} {
		if err := load(ctx); err != nil {
			s.Close()
			return nil, state.Damaged(opts.StatePath, err)
		}
	}
	for _, src := range s.sources {
		if err := s.refreshRuns(ctx, src); err != nil {
			s.Close()
			return nil, err
		}
	}
	return s, nil
}

// assignLabels names each source by its file's base name, adding -2, -3 to
// names that collide.
func assignLabels(sources []*source) {
	used := map[string]int{}
	for _, src := range sources {
		base := src.file.Label()
		used[base]++
		src.label = base
		if n := used[base]; n > 1 {
			src.label = fmt.Sprintf("%s-%d", base, n)
		}
	}
}

// Start reads every campaign file up to its end, then keeps watching each
// for new commits until ctx ends or Close is called.
func (s *Store) Start(ctx context.Context) {
	ctx, s.cancel = context.WithCancel(ctx)
	for _, src := range s.sources {
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.watch(ctx, src)
		}()
	}
}

// WaitIndexed blocks until every campaign file has been read to its end once.
func (s *Store) WaitIndexed(ctx context.Context) error {
	for {
		s.mu.RLock()
		done := true
		for _, src := range s.sources {
			if !src.ready {
				done = false
			}
		}
		s.mu.RUnlock()
		if done {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// IndexHeld estimates the bytes the index holds in memory (see
// index.Index.Held).
func (s *Store) IndexHeld() int64 { return s.ix.Held() }

// Close stops the watchers and closes every database.
func (s *Store) Close() error {
	if s.cancel != nil {
		s.cancel()
	}
	s.wg.Wait()
	s.closeFiles()
	if s.state == nil {
		return nil
	}
	return s.state.Close()
}

func (s *Store) closeFiles() {
	for _, src := range s.sources {
		if src.file != nil {
			src.file.Close()
		}
	}
}

// refreshRuns rereads the runs table of src; it is small and may change
// (finished_at, notes) while results are appended.
func (s *Store) refreshRuns(ctx context.Context, src *source) error {
	rs, err := src.file.Runs(ctx)
	if err != nil {
		return err
	}
	s.setRuns(src, rs)
	return nil
}

// setRuns makes rs the runs of src.
func (s *Store) setRuns(src *source, rs []campaign.RunRow) {
	meta := make(map[string]campaign.RunRow, len(rs))
	runs := make([]index.RunMeta, 0, len(rs))
	for _, r := range rs {
		meta[r.ID] = r
		runs = append(runs, runMeta(r))
	}
	s.mu.Lock()
	src.meta = meta
	s.mu.Unlock()
	s.ix.SetRuns(src.ix, runs)
}

// runMeta is a run's row as the index shows it, its times parsed.
func runMeta(r campaign.RunRow) index.RunMeta {
	m := index.RunMeta{ID: r.ID, Name: r.Name, StartedAt: r.StartedAt, Started: sqlitex.ParseTime(r.StartedAt),
		Finished: r.FinishedAt.Valid, Planned: r.Planned.Int64, Notes: r.Notes.String}
	if m.Finished {
		m.FinishedAt = sqlitex.ParseTime(r.FinishedAt.String)
		if m.FinishedAt.IsZero() {
			// A finished_at that does not parse still means the run ended.
			m.FinishedAt = m.Started
		}
	}
	return m
}

// errorf wraps err as a store error with context.
func errorf(format string, args ...any) error {
	return fmt.Errorf("store: "+format, args...)
}
