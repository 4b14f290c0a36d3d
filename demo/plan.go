package demo

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"sandtrap"
	"sandtrap/store/campaign"
)

// slot is one result of a run, planned before it is rendered.
type slot struct {
	id       int    // order of creation, stable across the shuffle
	mode     int    // index into modes; -1 for a result that did not fail
	status   string // passed or skipped; for a failure, "" or a status that overrides the mode's
	wf       workflow
	key      string
	attempt  int
	retryOf  int  // id of the slot this one retries; -1 for none
	anchored bool // workflow, key and outcome are pinned by an anchor
	hostile  int  // 1–3: the message quotes hostile page content
	verbose  bool // the run's megabyte-sized log
}

// anchor pins one test key's outcome in both runs, so that the fixed and
// regressed tests are the same whatever the seed and size.
type anchor struct {
	target, domain, template string
	n                        int
	literal                  string    // a key that breaks the naming scheme
	modes                    [2]string // failure mode in run 1 and run 2; "" for passed
}

var anchors = []anchor{
	{codeInterpreter, "file-io", "png-roundtrip", 17, "", [2]string{modeB64, ""}},
	{codeInterpreter, "binary-download", "tarball-sha-check", 4, "", [2]string{modeB64, ""}},
	{codeInterpreter, "report-generation", "csv-export", 9, "", [2]string{modeFilesVanish, ""}},
	{codeInterpreter, "file-io", "csv-append", 6, "", [2]string{modeFilesVanish, ""}},
	{codeInterpreter, "package-install", "pip-pandas", 3, "", [2]string{modePipEgress, ""}},
	{codeInterpreter, "ml-training", "xgboost-tabular", 2, "", [2]string{modePipEgress, ""}},
	{codeInterpreter, "data-analysis", "groupby-large-csv", 12, "", [2]string{"", modeStreamClosed}},
	{codeInterpreter, "ml-training", "checkpoint-resume", 5, "", [2]string{"", modeDiskFull}},
	{browser, "web-browsing", "multi-tab-research", 8, "", [2]string{"", modeBrowserOOM}},
	{codeInterpreter, "multi-language-build", "java-hello", 11, "", [2]string{"", modeSpawnDenied}},
	// An agent put the payload it posted into the test key.
	{browser, "form-automation", "comment-form", 0, `form-automation/comment-"><img src=x onerror=alert(1)>`, [2]string{modeHarnessAssert, modeHarnessAssert}},
}

func (a anchor) key() string {
	if a.literal != "" {
		return a.literal
	}
	return fmt.Sprintf("%s/%s-%d", a.domain, a.template, a.n)
}

func (a anchor) workflow() workflow {
	return workflow{target: a.target, domain: domainIndex(a.domain), template: a.template}
}

// Shares of a thousand results that are not failure modes.
const (
	skippedPerThousand = 14
	flakyPerThousand   = 10 // failures that pass on attempt 2 (run 2)
	againPerThousand   = 2  // failures that fail again on attempt 2 (run 2)
	reuseShare         = 0.6
)

// flakyModes are the modes whose failures a retry may pass.
var flakyModes = []string{modeBrowserOOM, modeSession, modeJSONRPC, modeBrowserDNS, modeStreamClosed}

// scale turns a share of a thousand into a count out of n; a share that is
// not zero never rounds down to nothing.
func scale(perThousand, n int) int {
	if perThousand == 0 {
		return 0
	}
	return max(1, int(math.Round(float64(perThousand)*float64(n)/1000)))
}

// planner lays out the two finished runs. One generator drives it from the
// seed, so the same options always give the same rows.
type planner struct {
	rng      *rand.Rand
	next     map[string]int // last number given to a template's fresh keys
	reserved map[string]bool
}

func newPlanner(seed int64) *planner {
	p := &planner{
		rng:      rand.New(rand.NewPCG(uint64(seed), 0x5a4d_7472_6170)),
		next:     map[string]int{},
		reserved: map[string]bool{},
	}
	for _, a := range anchors {
		p.reserved[a.key()] = true
	}
	return p
}

// freshKey invents a test key no run has used yet.
func (p *planner) freshKey(wf workflow) string {
	for {
		p.next[wf.template] += 1 + p.rng.IntN(3)
		key := fmt.Sprintf("%s/%s-%d", domains[wf.domain].key, wf.template, p.next[wf.template])
		if !p.reserved[key] {
			return key
		}
	}
}

// plan lays out run (run1 or run2) with n results. Run 2 reuses about 60 %
// of run 1's test keys, each with the same outcome class, so that the only
// fixed and regressed tests are the anchors'.
func (p *planner) plan(run, n int, previous []slot) []slot {
	rng := p.rng
	slots := make([]slot, 0, n)
	add := func(s slot) int {
		s.id = len(slots)
		if s.attempt == 0 {
			s.attempt = 1
		}
		slots = append(slots, s)
		return s.id
	}

	anchoredPerMode := map[int]int{}
	for _, a := range anchors {
		s := slot{mode: -1, status: sandtrap.StatusPassed, wf: a.workflow(), key: a.key(), retryOf: -1, anchored: true}
		if k := a.modes[run]; k != "" {
			s.mode, s.status = modeIndex(k), ""
			anchoredPerMode[s.mode]++
		}
		add(s)
	}
	for m := range modes {
		for range max(scale(modes[m].perThousand[run], n), anchoredPerMode[m]) - anchoredPerMode[m] {
			add(slot{mode: m, retryOf: -1})
		}
	}
	for range scale(1, n) {
		add(slot{mode: modeIndex(modeCPUTimeout), status: "timeout", retryOf: -1})
	}
	if run == run1 {
		for range scale(1, n) {
			add(slot{mode: modeIndex(modeHarnessAssert), status: "xfail", retryOf: -1})
		}
	}
	for range scale(skippedPerThousand, n) {
		add(slot{mode: -1, status: sandtrap.StatusSkipped, retryOf: -1})
	}
	if run == run2 {
		var candidates []int
		for _, s := range slots {
			if !s.anchored && s.mode >= 0 && s.status == "" && isFlaky(s.mode) {
				candidates = append(candidates, s.id)
			}
		}
		rng.Shuffle(len(candidates), func(i, j int) { candidates[i], candidates[j] = candidates[j], candidates[i] })
		flaky, again := scale(flakyPerThousand, n), scale(againPerThousand, n)
		for i, id := range candidates[:min(len(candidates), flaky+again)] {
			if i < flaky {
				add(slot{mode: -1, status: sandtrap.StatusPassed, retryOf: id, attempt: 2})
			} else {
				add(slot{mode: slots[id].mode, retryOf: id, attempt: 2})
			}
		}
	}
	for len(slots) < n {
		add(slot{mode: -1, status: sandtrap.StatusPassed, retryOf: -1})
	}

	rng.Shuffle(len(slots), func(i, j int) { slots[i], slots[j] = slots[j], slots[i] })
	pos := make([]int, len(slots))
	for i, s := range slots {
		pos[s.id] = i
	}
	// A retry runs after the attempt it retries.
	for i := range slots {
		if orig := slots[i].retryOf; orig >= 0 && pos[orig] > i {
			j := pos[orig]
			slots[i], slots[j] = slots[j], slots[i]
			pos[slots[i].id], pos[slots[j].id] = i, j
		}
	}

	retried := map[int]bool{}
	for _, s := range slots {
		if s.retryOf >= 0 {
			retried[s.retryOf] = true
		}
	}
	pools := reusablePools(previous)
	hostile := 0
	verbose := false
	for i := range slots {
		s := &slots[i]
		switch {
		case s.anchored:
		case s.retryOf >= 0:
			orig := slots[pos[s.retryOf]]
			s.wf, s.key = orig.wf, orig.key
		default:
			if s.mode >= 0 {
				s.wf = modes[s.mode].pickFor(rng)
			} else {
				s.wf = pickWorkflow(rng)
			}
			s.key = p.keyFor(s, pools, retried[s.id])
		}
		if s.mode >= 0 && modes[s.mode].key == modeHarnessAssert && s.status == "" && hostile < len(hostileQuotes) {
			hostile++
			s.hostile = hostile
		}
		if s.mode >= 0 && modes[s.mode].key == modeTrainingOOM && !verbose {
			verbose, s.verbose = true, true
		}
	}
	return slots
}

func isFlaky(m int) bool {
	for _, k := range flakyModes {
		if modes[m].key == k {
			return true
		}
	}
	return false
}

// poolKey groups the keys of a previous run that may recur: same workflow,
// same outcome class.
type poolKey struct {
	wf      workflow
	failing bool
}

// reusablePools collects a previous run's test keys that may recur. Keys of
// anchors, retries, skipped results and failures of modes the next run
// fixes do not recur.
func reusablePools(previous []slot) map[poolKey][]string {
	pools := map[poolKey][]string{}
	for _, s := range previous {
		if s.anchored || s.attempt > 1 || s.status == sandtrap.StatusSkipped {
			continue
		}
		failing := s.mode >= 0
		if failing && modes[s.mode].perThousand[run2] == 0 {
			continue
		}
		k := poolKey{s.wf, failing}
		pools[k] = append(pools[k], s.key)
	}
	return pools
}

// keyFor gives a slot a reused key of the same outcome class or a fresh one.
// Retried tests and skipped ones always get fresh keys, so that no flaky
// test counts as fixed or regressed.
func (p *planner) keyFor(s *slot, pools map[poolKey][]string, retried bool) string {
	k := poolKey{s.wf, s.mode >= 0}
	pool := pools[k]
	if retried || s.status == sandtrap.StatusSkipped || len(pool) == 0 || p.rng.Float64() >= reuseShare {
		return p.freshKey(s.wf)
	}
	i := p.rng.IntN(len(pool))
	key := pool[i]
	pool[i] = pool[len(pool)-1]
	pools[k] = pool[:len(pool)-1]
	return key
}

// result renders a planned slot into a row. Detailed results keep their
// title, full log, artifacts and tool calls. The others are the bulk of a
// very large run and keep only what triage needs: a failure keeps its title
// and the end of its log, a passed or skipped result neither. The caller
// sets StartedAt.
func (s *slot) result(rng *rand.Rand, runID string, detailed, harnessLabels bool) campaign.Result {
	d := domains[s.wf.domain]
	r := campaign.Result{
		RunID: runID, Test: s.key, Target: s.wf.target, Domain: d.key,
		Worker: new(worker(rng, s.wf.target)), Attempt: s.attempt,
	}
	if detailed || s.mode >= 0 {
		r.Title = new(titles[s.wf.template])
	}
	dur := d.duration(rng)
	switch {
	case s.status == sandtrap.StatusSkipped:
		r.Status = sandtrap.StatusSkipped
		dur = time.Duration(between(rng, 2, 60)) * time.Millisecond
		r.Log = []byte(skippedLog(rng))
	case s.mode < 0:
		r.Status = sandtrap.StatusPassed
		r.ExitCode = new(int64(0))
		if detailed {
			r.Log = []byte(passedLog(rng, s.wf))
			r.Artifacts = passedArtifacts(rng, s.wf)
			r.Steps = steps(rng, s.wf, dur, nil)
		}
	default:
		m := &modes[s.mode]
		f := m.render(&renderCtx{rng: rng, wf: s.wf, detailed: detailed, verbose: s.verbose, hostile: s.hostile})
		r.Status = sandtrap.StatusFailed
		if f.status != "" {
			r.Status = f.status
		}
		if s.status != "" {
			r.Status = s.status
		}
		if f.duration > 0 {
			dur = f.duration + time.Duration(rng.IntN(1000))*time.Millisecond
		}
		r.Error, r.ExitCode = &f.err, f.exitCode
		if detailed {
			r.Log = []byte(f.log)
			r.Artifacts = f.artifacts
			if !f.noSteps {
				r.Steps = steps(rng, s.wf, dur, &f)
			}
		} else {
			r.Log = []byte(lastLines(f.log, 2))
		}
		if harnessLabels && rng.Float64() < 0.1 {
			r.Layer, r.Primitive = harnessLabel(rng, m)
		}
	}
	r.DurationMS = new(dur.Milliseconds())
	return r
}

// harnessLabel is the classification a harness writes itself, sometimes in
// its own words.
func harnessLabel(rng *rand.Rand, m *mode) (layer, primitive *string) {
	l, p := m.layer, m.primitive
	if l == sandtrap.LayerInterface && rng.IntN(5) < 2 {
		l = "mcp"
	}
	switch {
	case p == "filesystem-permissions" && rng.IntN(2) == 0:
		p = "fs"
	case p == "memory" && rng.IntN(2) == 0:
		p = "oom"
	}
	return &l, &p
}
