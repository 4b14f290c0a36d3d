package store

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"sandtrap"
	"sandtrap/store/campaign"
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

// Store serves the precomputed index of campaign files and keeps it current.
type Store struct {
	opts  Options
	state *state.DB

	mu      sync.RWMutex
	sources []*source
	names   *names
	modes   []mode
	modeIdx map[string]int32
	eff     []effMode // modes[i] with the decisions applied
	// unsavedModes are modes found since the last save of the index.
	unsavedModes []mode
	decisions    map[string]triage.Decision
	// decisionsVersion counts the changes to eff, so that what was
	// computed under older decisions is not served.
	decisionsVersion int
	// cells counts the breakdown cells ever opened in any run: a mode's
	// first and last seen change only when it grows, so caches keyed on
	// it and on their own run's rows stay right while other runs grow.
	cells int
	runs  map[string]*runIndex // by public id
	order []string             // public ids, oldest run first
	// runsVersion counts the changes to runs and order.
	runsVersion int
	// seen is where each mode was seen across the runs, kept while cells
	// and runsVersion stay; seenMu guards it, as readers fill it in.
	seenMu sync.Mutex
	seen   *seen
	// clock orders the looks at runs, for eviction.
	clock atomic.Int64

	reloadMu sync.Mutex // serialises reloads of the decisions

	// groupMu guards grouper, which mines failure modes in row order.
	groupMu sync.Mutex
	grouper *triage.Grouper
	// aliases maps the id of a template that another absorbed, or of a
	// mode an upgrade carried over, to the mode it resolves to.
	aliases map[string]string
	// unsavedTemplates and unsavedAliases are what mining changed since
	// the last save of the index.
	unsavedTemplates map[string]triage.SavedTemplate
	unsavedAliases   map[string]string
	// carryPending says people's decisions wait to follow their failures
	// to the modes of a new classifier.
	carryPending bool

	wg     sync.WaitGroup
	cancel context.CancelFunc
}

// source is one campaign file and the state of its index.
type source struct {
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
	runs     map[string]*runIndex // by the harness's run id
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
	s := &Store{opts: opts, names: newNames(), modeIdx: map[string]int32{}, runs: map[string]*runIndex{}, decisions: map[string]triage.Decision{},
		grouper: triage.NewGrouper(), aliases: map[string]string{},
		unsavedTemplates: map[string]triage.SavedTemplate{}, unsavedAliases: map[string]string{}}
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
		s.sources = append(s.sources, &source{path: abs, file: f, runs: map[string]*runIndex{}, seen: seen})
	}
	assignLabels(s.sources)
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

// publicIDs recomputes every run's public id: the harness's id where it is
// unique among the served files, LABEL:ID where it is not. Callers hold mu.
func (s *Store) publicIDs() {
	count := map[string]int{}
	for _, src := range s.sources {
		for id := range src.runs {
			count[id]++
		}
	}
	s.runs = map[string]*runIndex{}
	s.runsVersion++
	type ordered struct {
		id      string
		started string
	}
	var all []ordered
	for _, src := range s.sources {
		for id, ri := range src.runs {
			pub := id
			if count[id] > 1 {
				pub = src.label + ":" + id
			}
			s.runs[pub] = ri
			all = append(all, ordered{pub, src.meta[id].StartedAt})
		}
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].started != all[j].started {
			// A run whose row is not read yet is one being written now:
			// the newest, not the oldest.
			if all[i].started == "" || all[j].started == "" {
				return all[j].started == ""
			}
			return all[i].started < all[j].started
		}
		return all[i].id < all[j].id
	})
	s.order = s.order[:0]
	for _, o := range all {
		s.order = append(s.order, o.id)
	}
}

// publicID returns the public id of a run of src. Callers hold mu.
func (s *Store) publicID(src *source, rawID string) string {
	for _, other := range s.sources {
		if other != src {
			if _, ok := other.runs[rawID]; ok {
				return src.label + ":" + rawID
			}
		}
	}
	return rawID
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
	s.mu.Lock()
	defer s.mu.Unlock()
	src.meta = map[string]campaign.RunRow{}
	for _, r := range rs {
		src.meta[r.ID] = r
		if src.runs[r.ID] == nil {
			src.runs[r.ID] = newRunIndex(src, r.ID)
		}
	}
	s.publicIDs()
}

// errorf wraps err as a store error with context.
func errorf(format string, args ...any) error {
	return fmt.Errorf("store: "+format, args...)
}
