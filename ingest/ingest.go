// Package ingest writes what harnesses send to sandtrap into a campaign file
// of contract v1 that sandtrap creates and alone writes: runs start, results
// arrive in batches, each written once by its idempotency key, and runs
// finish. One writer goroutine commits everything queued while it was busy
// in one transaction (group commit) and answers each caller only after that
// commit.
package ingest

import (
	"context"
	"strings"
	"sync"
	"time"

	"sandtrap"
	"sandtrap/store/campaign"
)

// Run is a run as it starts. A nil StartedAt means now.
type Run struct {
	ID        string     `json:"id"`
	Name      string     `json:"name"`
	StartedAt *time.Time `json:"started_at,omitempty"`
	Planned   *int64     `json:"planned,omitempty"`
	Notes     *string    `json:"notes,omitempty"`
}

// Result is one result as a harness sends it: the results columns, the
// log, artifacts and steps, and Key, an idempotency key unique within the
// run. A result whose key the run has already is not written again; one
// without a key is always written. An Attempt of 0 is written as 1.
type Result struct {
	Key        string     `json:"key,omitempty"`
	Test       string     `json:"test"`
	Target     string     `json:"target"`
	Domain     string     `json:"domain"`
	Status     string     `json:"status"`
	Error      *string    `json:"error,omitempty"`
	Title      *string    `json:"title,omitempty"`
	StartedAt  *time.Time `json:"started_at,omitempty"`
	DurationMS *int64     `json:"duration_ms,omitempty"`
	ExitCode   *int64     `json:"exit_code,omitempty"`
	Layer      *string    `json:"layer,omitempty"`
	Primitive  *string    `json:"primitive,omitempty"`
	Worker     *string    `json:"worker,omitempty"`
	Attempt    int        `json:"attempt,omitempty"`
	Log        []byte     `json:"log_base64,omitempty"`
	Artifacts  []Artifact `json:"artifacts,omitempty"`
	Steps      []Step     `json:"steps,omitempty"`
}

// Artifact is a file a workflow uploaded or downloaded.
type Artifact struct {
	Name           string  `json:"name"`
	MediaType      *string `json:"media_type,omitempty"`
	Data           []byte  `json:"data_base64,omitempty"`
	ExpectedSHA256 *string `json:"expected_sha256,omitempty"`
}

// Step is one MCP tool call of a workflow. A Seq of 0 is written as the
// step's position in its list, counting from 1.
type Step struct {
	Seq        int     `json:"seq,omitempty"`
	Tool       string  `json:"tool"`
	Request    []byte  `json:"request_base64,omitempty"`
	Response   []byte  `json:"response_base64,omitempty"`
	Error      *string `json:"error,omitempty"`
	DurationMS *int64  `json:"duration_ms,omitempty"`
}

const (
	// maxGroup bounds the results one transaction takes from the queue,
	// so that each commit stays short and the first callers wait little.
	maxGroup = 10_000
	// queueLen is how many calls may wait for the writer before callers
	// block.
	queueLen = 64
)

// Ingester writes one ingest file. Its methods may be called concurrently.
type Ingester struct {
	file  *campaign.IngestFile
	queue chan *op
	done  chan struct{} // closed when the writer has drained the queue

	mu     sync.RWMutex // guards closed against sends on the closed queue
	closed bool

	closeOnce sync.Once
	closeErr  error
}

// op is one call waiting for the writer. apply runs inside the group's
// transaction; err is its outcome once done is closed.
type op struct {
	size  int
	apply func(context.Context, *campaign.IngestTx) error
	err   error
	done  chan struct{}
}

// Open opens the ingest file at path, creating it when missing, and starts
// its writer.
func Open(ctx context.Context, path string) (*Ingester, error) {
	f, err := campaign.OpenIngestFile(ctx, path)
	if err != nil {
		return nil, err
	}
	in := &Ingester{file: f, queue: make(chan *op, queueLen), done: make(chan struct{})}
	go in.write()
	return in, nil
}

// Close stops taking calls, commits everything queued, answers its
// callers, and closes the file.
func (in *Ingester) Close() error {
	in.closeOnce.Do(func() {
		in.mu.Lock()
		in.closed = true
		close(in.queue)
		in.mu.Unlock()
		<-in.done
		in.closeErr = in.file.Close()
	})
	return in.closeErr
}

// StartRun starts a run and returns it as the file holds it. Starting a
// run again with the same fields is no change, and created is false; with
// other fields it is a conflict.
func (in *Ingester) StartRun(ctx context.Context, run Run) (stored Run, created bool, err error) {
	if err := checkRun(run); err != nil {
		return Run{}, false, invalid(err)
	}
	started := time.Now().UTC()
	if run.StartedAt != nil {
		started = *run.StartedAt
	}
	err = in.submit(ctx, 0, func(ctx context.Context, tx *campaign.IngestTx) error {
		have, ok, err := tx.FindRun(ctx, run.ID)
		if err != nil {
			return err
		}
		if ok {
			if diff := differences(run, have); diff != "" {
				return sandtrap.Errorf(sandtrap.ECONFLICT, "run %q was started with another %s: send the same body again, or start a run with another id", run.ID, diff)
			}
			stored = fromCampaignRun(have)
			return nil
		}
		cr := campaign.Run{ID: run.ID, Name: run.Name, StartedAt: started, Planned: run.Planned, Notes: run.Notes}
		if err := tx.InsertRun(ctx, cr); err != nil {
			return err
		}
		cr.StartedAt = millis(started)
		stored, created = fromCampaignRun(cr), true
		return nil
	})
	if err != nil {
		return Run{}, false, err
	}
	return stored, created, nil
}

// Record writes a batch of results to a live run and says how many were
// written and how many were skipped as duplicates of results the run has
// already. The batch is checked whole first: a mistake in any result
// writes none of them. A finished run takes no more results, except that a
// batch all of whose keys it has is answered as duplicates, so that a
// client's retry of a written batch succeeds.
func (in *Ingester) Record(ctx context.Context, runID string, results []Result) (accepted, duplicates int, err error) {
	if fe := checkBatch(results); fe != nil {
		return 0, 0, invalid(fe)
	}
	batch := make([]campaign.KeyedResult, len(results))
	keys := make([]string, 0, len(results))
	for i := range results {
		batch[i] = campaign.KeyedResult{Key: results[i].Key, Result: results[i].campaignResult()}
		if k := results[i].Key; k != "" {
			keys = append(keys, k)
		}
	}
	err = in.submit(ctx, len(results), func(ctx context.Context, tx *campaign.IngestTx) error {
		have, ok, err := tx.FindRun(ctx, runID)
		if err != nil {
			return err
		}
		if !ok {
			return noRun(runID)
		}
		if have.FinishedAt != nil {
			known, err := tx.KnownKeys(ctx, runID, keys)
			if err != nil {
				return err
			}
			if len(keys) == len(results) && len(known) == len(keys) {
				duplicates = len(keys)
				return nil
			}
			return sandtrap.Errorf(sandtrap.ECONFLICT, "run %q finished at %s: it takes no more results", runID, have.FinishedAt.Format(time.RFC3339Nano))
		}
		accepted, duplicates, err = tx.AppendResults(ctx, runID, batch)
		return err
	})
	if err != nil {
		return 0, 0, err
	}
	return accepted, duplicates, nil
}

// Finish ends a live run at the given time, or now when at is nil, and
// returns when it finished. Finishing a finished run again is no change,
// unless at names another time.
func (in *Ingester) Finish(ctx context.Context, runID string, at *time.Time) (time.Time, error) {
	when := time.Now().UTC()
	if at != nil {
		when = *at
	}
	var finished time.Time
	err := in.submit(ctx, 0, func(ctx context.Context, tx *campaign.IngestTx) error {
		have, ok, err := tx.FindRun(ctx, runID)
		if err != nil {
			return err
		}
		switch {
		case !ok:
			return noRun(runID)
		case have.FinishedAt != nil:
			if at != nil && !millis(*at).Equal(*have.FinishedAt) {
				return sandtrap.Errorf(sandtrap.ECONFLICT, "run %q finished at %s already", runID, have.FinishedAt.Format(time.RFC3339Nano))
			}
			finished = *have.FinishedAt
			return nil
		case at != nil && at.Before(have.StartedAt):
			return sandtrap.Errorf(sandtrap.EINVALID, "finished_at %s is before the run started, at %s", when.Format(time.RFC3339Nano), have.StartedAt.Format(time.RFC3339Nano))
		}
		if err := tx.FinishRun(ctx, runID, when); err != nil {
			return err
		}
		finished = millis(when)
		return nil
	})
	return finished, err
}

// submit queues apply for the writer and waits for its commit.
func (in *Ingester) submit(ctx context.Context, size int, apply func(context.Context, *campaign.IngestTx) error) error {
	o := &op{size: size, apply: apply, done: make(chan struct{})}
	if err := in.enqueue(ctx, o); err != nil {
		return err
	}
	// Once queued, the op is committed or fails whatever happens to ctx,
	// and its caller must learn which.
	<-o.done
	return o.err
}

func (in *Ingester) enqueue(ctx context.Context, o *op) error {
	in.mu.RLock()
	defer in.mu.RUnlock()
	if in.closed {
		return sandtrap.Errorf(sandtrap.EUNAVAILABLE, "sandtrap is shutting down and takes no more ingest: send this again when it is back (keys keep results from being written twice)")
	}
	// A queue with room takes the op even when ctx has ended, as it does
	// for requests in flight while the server stops.
	select {
	case in.queue <- o:
		return nil
	default:
	}
	select {
	case in.queue <- o:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// write is the writer: it takes every op queued, up to maxGroup results,
// commits them in one transaction, answers them, and goes on until the
// queue is closed and empty.
func (in *Ingester) write() {
	defer close(in.done)
	for first := range in.queue {
		group, n := []*op{first}, first.size
	fill:
		for n < maxGroup {
			select {
			case o, ok := <-in.queue:
				if !ok {
					break fill
				}
				group, n = append(group, o), n+o.size
			default:
				break fill
			}
		}
		in.commit(group)
	}
}

// commit applies a group in one transaction. An op refused for a reason of
// its own (no such run, a finished run) writes nothing and leaves the
// others be; any other failure fails the whole group.
func (in *Ingester) commit(group []*op) {
	// Not a caller's context: the writer finishes what it took, even while
	// the server stops.
	ctx := context.Background()
	err := in.file.Write(ctx, func(tx *campaign.IngestTx) error {
		for _, o := range group {
			o.err = o.apply(ctx, tx)
			if o.err != nil && sandtrap.ErrorCode(o.err) == sandtrap.EINTERNAL {
				return o.err
			}
		}
		return nil
	})
	for _, o := range group {
		if err != nil {
			o.err = err
		}
		close(o.done)
	}
}

func noRun(id string) error {
	return sandtrap.Errorf(sandtrap.ENOTFOUND, "there is no run %q in the ingest file: start it first with POST /api/ingest/runs", id)
}

// millis is t as the file stores it: to the millisecond.
func millis(t time.Time) time.Time { return t.Truncate(time.Millisecond) }

// differences names the fields in which run differs from the stored one. A
// run sent without started_at matches any start.
func differences(run Run, have campaign.Run) string {
	var diff []string
	if run.Name != have.Name {
		diff = append(diff, "name")
	}
	if run.StartedAt != nil && !millis(*run.StartedAt).Equal(have.StartedAt) {
		diff = append(diff, "started_at")
	}
	if !equalPtr(run.Planned, have.Planned) {
		diff = append(diff, "planned")
	}
	if !equalPtr(run.Notes, have.Notes) {
		diff = append(diff, "notes")
	}
	return strings.Join(diff, ", ")
}

func equalPtr[T comparable](a, b *T) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}

func fromCampaignRun(r campaign.Run) Run {
	started := r.StartedAt
	return Run{ID: r.ID, Name: r.Name, StartedAt: &started, Planned: r.Planned, Notes: r.Notes}
}

func (r *Result) campaignResult() campaign.Result {
	c := campaign.Result{Test: r.Test, Target: r.Target, Domain: r.Domain, Title: r.Title, Status: r.Status,
		StartedAt: r.StartedAt, DurationMS: r.DurationMS, ExitCode: r.ExitCode, Error: r.Error, Log: r.Log,
		Layer: r.Layer, Primitive: r.Primitive, Worker: r.Worker, Attempt: r.Attempt}
	for _, a := range r.Artifacts {
		c.Artifacts = append(c.Artifacts, campaign.Artifact{Name: a.Name, MediaType: a.MediaType, Data: a.Data, ExpectedSHA256: a.ExpectedSHA256})
	}
	for i, s := range r.Steps {
		seq := s.Seq
		if seq == 0 {
			seq = i + 1
		}
		c.Steps = append(c.Steps, campaign.Step{Seq: seq, Tool: s.Tool, Request: s.Request, Response: s.Response, Error: s.Error, DurationMS: s.DurationMS})
	}
	return c
}
