package state

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"

	"sandtrap/store/index"
)

// Failures are saved packed, FailChunk to a blob per run, as rows are: one
// INSERT per failure cost a third of a first read. A chunk keeps each
// distinct string once (failures of one mode share their error text, and
// every failure its mode and decider), and the test, which is each
// failure's own, inline.

// FailChunk is how many failures a saved chunk holds. A live run rewrites
// its last chunk on every pass, so it stays near the size of a row chunk.
const FailChunk = 1024

// failChunkVersion is the first byte of every chunk, so that a later
// layout can tell old chunks apart.
const failChunkVersion = 1

// Failure is a failure as a chunk holds it: its mode and decider by name,
// so that a chunk means the same whatever order modes and names are
// loaded in.
type Failure = index.Failure

// encodeFailures packs fails, in id order, into one chunk.
func encodeFailures(fails []Failure) []byte {
	index := map[string]uint64{}
	var table []string
	ref := func(s string) uint64 {
		i, ok := index[s]
		if !ok {
			i = uint64(len(table))
			index[s] = i
			table = append(table, s)
		}
		return i
	}
	refs := make([]uint64, 0, 3*len(fails))
	for _, f := range fails {
		refs = append(refs, ref(f.Err), ref(f.ModeID), ref(f.By))
	}
	size := 1 + 2*binary.MaxVarintLen64
	for _, s := range table {
		size += binary.MaxVarintLen64 + len(s)
	}
	for _, f := range fails {
		size += 6*binary.MaxVarintLen64 + len(f.Test)
	}
	b := make([]byte, 0, size)
	b = append(b, failChunkVersion)
	b = binary.AppendUvarint(b, uint64(len(table)))
	for _, s := range table {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	b = binary.AppendUvarint(b, uint64(len(fails)))
	prev := int64(0)
	for i, f := range fails {
		b = binary.AppendVarint(b, f.ID-prev)
		prev = f.ID
		b = binary.AppendUvarint(b, uint64(len(f.Test)))
		b = append(b, f.Test...)
		b = binary.AppendUvarint(b, refs[3*i])
		b = binary.AppendUvarint(b, refs[3*i+1])
		b = binary.AppendUvarint(b, refs[3*i+2])
		b = binary.AppendVarint(b, int64(f.Attempt))
	}
	return b
}

// querier runs a query on the state: its reader pool or a transaction.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// eachSavedFailure calls fn for every failure in the chunks that query
// selects as (source_id, run_id, data), in their order.
func eachSavedFailure(ctx context.Context, q querier, query string, args []any, fn func(sourceID int64, runID string, f Failure) error) error {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var (
			sourceID int64
			runID    string
			data     []byte
		)
		if err := rows.Scan(&sourceID, &runID, &data); err != nil {
			return err
		}
		if err := DecodeFailures(data, func(f Failure) error { return fn(sourceID, runID, f) }); err != nil {
			return fmt.Errorf("run %q: %w", runID, err)
		}
	}
	return rows.Err()
}

// errBadChunk says a saved chunk of failures cannot be read.
var errBadChunk = errors.New("a saved chunk of failures is damaged")

// DecodeFailures calls fn for each failure of a chunk, in id order. Equal
// strings of a chunk share their memory.
func DecodeFailures(data []byte, fn func(Failure) error) error {
	d := chunkReader{b: data}
	if d.byte() != failChunkVersion {
		return fmt.Errorf("%w: unknown layout", errBadChunk)
	}
	table := make([]string, d.uvarint())
	for i := range table {
		table[i] = d.string()
	}
	str := func() string {
		i := d.uvarint()
		if i >= uint64(len(table)) {
			d.bad = true
			return ""
		}
		return table[i]
	}
	n := d.uvarint()
	id := int64(0)
	for range n {
		if d.bad {
			break
		}
		id += d.varint()
		f := Failure{ID: id, Test: d.string()}
		f.Err, f.ModeID, f.By = str(), str(), str()
		f.Attempt = int32(d.varint())
		if d.bad {
			break
		}
		if err := fn(f); err != nil {
			return err
		}
	}
	if d.bad || len(d.b) != 0 {
		return fmt.Errorf("%w: %d bytes", errBadChunk, len(data))
	}
	return nil
}

// chunkReader reads a chunk front to back; bad says it ran past the end.
type chunkReader struct {
	b   []byte
	bad bool
}

func (d *chunkReader) byte() byte {
	if len(d.b) == 0 {
		d.bad = true
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *chunkReader) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.bad = true
		d.b = nil
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *chunkReader) varint() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.bad = true
		d.b = nil
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *chunkReader) string() string {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.bad = true
		d.b = nil
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}
