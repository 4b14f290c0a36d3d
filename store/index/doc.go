// Package index is sandtrap's in-memory columnar index of campaign results
// and every query over it: interned names, failure modes and their
// effective view (people's decisions applied), the runs in start order,
// each run's packed rows and failures, its breakdown and per-mode tallies,
// the bookkeeping that evicts rows under a memory budget, and the queries
// the pages, the API and the CLI make.
//
// It never touches SQLite or a file. What it needs from disk, a run's rows
// after they were evicted, comes through a RowPager, which the store
// implements over its state file; what it adds is handed out as a Packed
// batch, which the store saves.
//
// # Concurrency
//
// One sync.RWMutex, Index.mu, guards the index, and it is never held
// across I/O:
//
//   - Readers (every query) hold the read lock only while they walk memory.
//     A run whose rows were evicted is paged in through the RowPager with
//     no lock held, then read under the read lock, so a reader waiting on
//     the state never holds up another reader, a writer, or a query on
//     another run.
//   - Writers (the store's indexer and its reloads of decisions or of a
//     source) do their I/O first, with no lock held, and then take the
//     write lock only to swap in or append what they read: a batch of
//     classified rows, a run's rows paged back, new decisions. Rows and
//     failures are only ever appended, so a writer holds the lock for as
//     long as copying a batch in takes.
//   - The caches folded from a run's rows (queues, timeline, comparison
//     facts) are filled in by readers under the read lock; each run guards
//     them with a mutex of its own, and the table of where each mode was
//     seen has one too. These are never held across I/O either, nor while
//     waiting for Index.mu.
//
// The RowPager is called with no lock of the index held, so it may take as
// long as the state needs: only the callers that need that run's rows wait.
package index
