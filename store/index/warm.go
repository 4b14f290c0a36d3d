package index

import "sandtrap"

// Warm computes ahead of time what the pages of src's finished runs need
// and keep until the run changes (the queue, the timeline), so that the
// first view after a run is read answers as fast as the next; and, when
// there is more than one run, what comparisons need. With a memory budget
// it warms only while the budget leaves room, the newest runs first: what
// it keeps counts against the budget, and warming runs whose rows would
// then be evicted is wasted. An index of one run has nothing to compare
// and keeps that memory. Runs whose rows were evicted stay so: warming
// reads nothing back.
func (ix *Index) Warm(src *Source) {
	ix.mu.RLock()
	compare := len(ix.runs) > 1
	room := ix.budget - ix.budgeted()
	var ids []string
	for i := len(ix.order) - 1; i >= 0; i-- {
		if ri := ix.runs[ix.order[i]]; ri.src == src && ri.data != nil && src.meta[ri.rawID].Finished {
			ids = append(ids, ix.order[i])
		}
	}
	ix.mu.RUnlock()
	// One run at a time, so that a writer waits for no more than one.
	for _, id := range ids {
		if ix.budget > 0 && room <= 0 {
			break
		}
		ix.mu.RLock()
		if ri := ix.runs[id]; ri != nil && ri.data != nil {
			d := ri.data
			before := ri.bytes()
			ix.timelineOf(ri, d)
			if compare && (ix.budget <= 0 || int64(len(d.rows))*factBytes <= room) {
				ix.factsOf(ri, d)
			}
			ix.queueOf(ri, d, sandtrap.ResultFilter{})
			room -= ri.bytes() - before
		}
		ix.mu.RUnlock()
	}
	ix.shrinkNow()
}
