package index

import "time"

// What the index adds is saved by the store: Pack hands it out in these
// types, and the store gives the names and modes back to Load, the counts
// to AddCounts, and the rows and failures to a RowPager.

// Name is one interned string: value's code in its kind.
type Name struct {
	Kind  string
	Code  uint16
	Value string
}

// Mode is a failure mode as the classifier made it; people's decisions are
// applied on top when it is shown.
type Mode struct {
	ID        string
	Layer     string
	Primitive string
	Signature string
	FirstSeen time.Time
}

// Count is how many results of a run fell in one cell of its breakdown;
// ModeID is "" for results that did not fail.
type Count struct {
	RunID, Target, Domain, Status, ModeID string
	N                                     int
}

// RowChunk is one chunk of a run's packed rows: chunkRows rows, the last
// chunk of a run fewer.
type RowChunk struct {
	RunID string
	Chunk int
	Data  []byte
}

// Failure is a failed result as the index keeps it.
type Failure struct {
	ID      int64
	Test    string
	Err     string
	ModeID  string
	By      string
	Attempt int32
}

// FailureChunks are the failures of one run that a save rewrites, from its
// chunk First on, a chunk to a list.
type FailureChunks struct {
	RunID  string
	First  int
	Chunks [][]Failure
}

// Packed is a batch made ready to save: the rows and failures it added,
// the counts it added, and the names and modes first seen since the last
// Pack. The store saves it with no lock of the index held, then calls
// Saved, or Unsaved when the save failed.
type Packed struct {
	Names    []Name
	Modes    []Mode
	Rows     []RowChunk
	Failures []FailureChunks
	Counts   []Count
	// rows is how many rows each run of the batch has once it is saved.
	rows map[*run]int
}

// Pack takes what b added out of the index, the run's rows from the chunk
// the batch began in, its failures from the chunk of failChunk failures
// the batch began in, so that a pass may go on appending while the store
// saves it.
func (ix *Index) Pack(b *Batch, failChunk int) *Packed {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	p := &Packed{Names: ix.names.added, Modes: ix.unsavedModes, rows: map[*run]int{}}
	ix.names.added, ix.unsavedModes = nil, nil
	for ri, before := range b.rows {
		rows := ri.data.rows // not evicted: the store lacks some of them
		p.rows[ri] = len(rows)
		for c := before / chunkRows; c*chunkRows < len(rows); c++ {
			end := min((c+1)*chunkRows, len(rows))
			buf := make([]byte, 0, (end-c*chunkRows)*rowSize)
			for _, r := range rows[c*chunkRows : end] {
				buf = appendRow(buf, r)
			}
			p.Rows = append(p.Rows, RowChunk{RunID: ri.rawID, Chunk: c, Data: buf})
		}
	}
	for ri, before := range b.fails {
		rc := FailureChunks{RunID: ri.rawID, First: before / failChunk}
		fails := ri.data.fails
		for c := rc.First; c*failChunk < len(fails); c++ {
			part := fails[c*failChunk : min((c+1)*failChunk, len(fails))]
			list := make([]Failure, len(part))
			for i, f := range part {
				list[i] = Failure{ID: f.id, Test: f.test, Err: f.err, ModeID: ix.modes[f.mode].ID,
					By: ix.names.value(kindBy, f.by), Attempt: f.attempt}
			}
			rc.Chunks = append(rc.Chunks, list)
		}
		p.Failures = append(p.Failures, rc)
	}
	for ri, cells := range b.cube {
		for c, n := range cells {
			modeID := ""
			if c.mode >= 0 {
				modeID = ix.modes[c.mode].ID
			}
			p.Counts = append(p.Counts, Count{RunID: ri.rawID, Target: ix.names.value(kindTarget, c.target),
				Domain: ix.names.value(kindDomain, c.domain), Status: ix.names.value(kindStatus, c.status), ModeID: modeID, N: n})
		}
	}
	return p
}

// Saved records that the store saved p: the runs it covers hold every row
// they had when it was packed, and may be evicted once finished.
func (ix *Index) Saved(p *Packed) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	for ri, n := range p.rows {
		ri.saved = n
	}
	ix.shrink()
}

// Unsaved puts the names and modes of p back, to go with the next Pack,
// after the store failed to save it.
func (ix *Index) Unsaved(p *Packed) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.names.added = append(p.Names, ix.names.added...)
	ix.unsavedModes = append(p.Modes, ix.unsavedModes...)
}
