package triage

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"sandtrap"
	"sandtrap/logview"
)

// Values of Classification.By besides "rule:<name>".
const (
	ByHarness = "harness" // the harness's own layer/primitive columns decided
	ByNone    = "none"    // nothing decided: the layer is "unclassified"
)

// Failure is what the classifier sees of one failed result.
type Failure struct {
	Target, Domain, Status, Test string
	Error                        string
	LogTail                      []byte // last <=64 KiB of the log, may be nil
	ExitCode                     *int64
	HarnessLayer                 string // the harness's own columns, may be empty or a synonym
	HarnessPrimitive             string
	Tools                        []string // MCP tool names of its steps, may be nil
	// StepError is the last error an MCP step of the failure reported.
	StepError string
	// CorruptedArtifact names an artifact whose bytes do not have the
	// sha256 the harness expected: the round trip changed them.
	CorruptedArtifact string
	// ArtifactDamage is how, as far as the bytes that came back say.
	ArtifactDamage logview.Damage
}

// ArtifactRule is the Classification.By of a failure whose artifact came
// back with other bytes than were sent: interface/encoding, whatever its
// error says, since silent corruption in transport is what it shows.
const ArtifactRule = "rule:artifact-round-trip"

// Classification says what a failure is and who decided it.
type Classification struct {
	Layer, Primitive string
	// By is ByHarness, "rule:<name>" or ByNone. A human decision is applied
	// later by the caller.
	By string
	// Signature is normalize of the error, or of the log tail's last
	// meaningful line when the error is empty.
	Signature string
	// Cause is the signature of the known cause the failure is one of
	// (see KnownCause), or "".
	Cause string
	// Context is where the harness ran the failure (see RunContext), or
	// "" when it logged nothing of it.
	Context string
}

// ModeSignature is what the failure's mode is mined from: its known
// cause's signature, or its own.
func (c Classification) ModeSignature() string {
	if c.Cause != "" {
		return c.Cause
	}
	return c.Signature
}

// Rule classifies the failures it matches. Every matcher that is set must
// match; an unset matcher matches anything. List matchers match when the
// failure's value is one of the list (for Tools: when any step used a listed
// tool).
type Rule struct {
	Name string
	// ErrorRegex reads the error message. It must be compiled with
	// regexp.Compile (Perl syntax, as the config's patterns are): the
	// classifier reads its syntax to gate it.
	ErrorRegex *regexp.Regexp
	LogRegex   *regexp.Regexp // on the log tail
	ExitCodes  []int64
	Targets    []string
	Domains    []string
	Statuses   []string
	Tools      []string

	Layer     string
	Primitive string // may be empty: the rule decides the layer only

	// weak marks a built-in rule whose match says little on its own (exit
	// codes alone, a JSON-RPC wrapper's code): it yields to any other
	// rule's text found in the whole message.
	weak bool
	// errorGated is ErrorRegex split into branches that run only on a
	// text holding their gate's strings, or nil to run it whole. The
	// classifier fills it in.
	errorGated *gatedPattern
}

// By returns the Classification.By value of decisions made by r.
func (r *Rule) By() string { return "rule:" + r.Name }

// matchesCheap reports whether every matcher except LogRegex matches
// text, whose gateFold is folded.
func (r *Rule) matchesCheap(f *Failure, text, folded string) bool {
	if len(r.Targets) > 0 && !slices.Contains(r.Targets, f.Target) ||
		len(r.Domains) > 0 && !slices.Contains(r.Domains, f.Domain) ||
		len(r.Statuses) > 0 && !slices.Contains(r.Statuses, f.Status) {
		return false
	}
	if len(r.ExitCodes) > 0 && (f.ExitCode == nil || !slices.Contains(r.ExitCodes, *f.ExitCode)) {
		return false
	}
	if len(r.Tools) > 0 && !slices.ContainsFunc(f.Tools, func(t string) bool { return slices.Contains(r.Tools, t) }) {
		return false
	}
	return r.ErrorRegex == nil || r.errorMatches(text, folded)
}

// errorMatches reports whether ErrorRegex matches text, whose gateFold is
// folded, running only the branches whose gates admit it.
func (r *Rule) errorMatches(text, folded string) bool {
	if r.errorGated == nil {
		return r.ErrorRegex.MatchString(text)
	}
	return r.errorGated.match(text, folded)
}

// errorLine returns the trimmed line of text where ErrorRegex's leftmost
// match starts, or "".
func (r *Rule) errorLine(text, folded string) string {
	if r.errorGated == nil {
		return lineAt(text, r.ErrorRegex.FindStringIndex(text))
	}
	start := r.errorGated.start(text, folded)
	if start < 0 {
		return ""
	}
	return lineAt(text, []int{start, start})
}

// maxCachedDecisions bounds each of a classifier's caches; past it the
// cache starts over, so a stream of ever-new messages cannot grow memory
// without end.
const maxCachedDecisions = 1 << 17

// boundedCache is a concurrent map from keys to answers that starts over
// once it has stored limit of them.
type boundedCache struct {
	limit  int64
	m      sync.Map
	stored atomic.Int64
}

// Load returns the answer stored under key, if any.
func (b *boundedCache) Load(key any) (any, bool) { return b.m.Load(key) }

// Store stores v under key, first emptying the cache if it is full.
func (b *boundedCache) Store(key, v any) {
	if b.stored.Add(1) > b.limit {
		b.m.Clear()
		b.stored.Store(0)
	}
	b.m.Store(key, v)
}

// Classifier classifies failures with the user's rules and the built-in
// ones. Error regexes read the meaningful line(s) of the error that the
// signature is made of (see normalize), before normalisation.
//
// It caches its decision per distinct failure key (signature, whether it
// names a missing fixture, exit code, target, domain, status, harness layer
// and, when a rule needs them, tools),
// so an error regex sees the first failure of each key: write rules against
// the constant part of a message, not its numbers or names. Log regexes run
// on each failure's own log, and only for failures whose key the rule's
// other matchers accept. A Classifier is safe for concurrent use.
type Classifier struct {
	rules []Rule
	tools bool         // some rule matches on tools, so they belong in the key
	logs  bool         // some rule matches on the log, which its whole reading then reads
	cache boundedCache // failure key → *decision
	// wholes caches the rules' whole reading (decideWhole) per failure
	// key and a hash of the text it read: a cache of its own, so that
	// no failure's key can equal another's key with its hash.
	wholes boundedCache
	// causes caches the known cause's Cause, or "", per primitive,
	// signature and exit code.
	causes boundedCache
	// model guesses what neither a rule nor the stems decide, and
	// overrules a rule when it favours another class by the rule's margin
	// in overrules.
	model     *WordModel
	overrules map[string]float64
	// answers caches the model's answer per failure key and text (see
	// modelAnswer).
	answers boundedCache
}

// decision is the cached outcome of the rules for one failure key: the
// rules with a log matcher that must still be tried, in order, on each
// failure's own log, then the decision if none of them matches.
type decision struct {
	logRules []*Rule
	fallback Classification
	// line is, for a decision on the whole text, the line the rule
	// matched in.
	line string
	// byWeakRule says that a weak built-in rule decided fallback: any
	// other rule's text in the whole message says more.
	byWeakRule *Rule
}

// NewClassifier returns a classifier that tries the user's rules first, in
// order, then the built-in rules.
func NewClassifier(user []Rule) *Classifier {
	return NewClassifierWith(user, GuessModel())
}

// builtinGated is the built-in rules with their patterns split into gated
// branches, once: compiling a thousand branches takes tens of
// milliseconds, and the evaluation makes classifiers by the hundred.
var builtinGated = sync.OnceValue(func() []Rule {
	rules := slices.Clone(builtinRules)
	for i := range rules {
		rules[i].errorGated = splitGate(rules[i].ErrorRegex)
	}
	return rules
})

// NewClassifierWith is NewClassifier with guess as the model that guesses
// what neither a rule nor the stems decide: the evaluation measures models
// trained without the set it scores.
func NewClassifierWith(user []Rule, guess *WordModel) *Classifier {
	rules := make([]Rule, 0, len(user)+len(builtinRules))
	rules = append(rules, user...)
	for i := range rules {
		rules[i].errorGated = splitGate(rules[i].ErrorRegex)
	}
	rules = append(rules, builtinGated()...)
	usesTools := slices.ContainsFunc(rules, func(r Rule) bool { return len(r.Tools) > 0 })
	usesLogs := slices.ContainsFunc(rules, func(r Rule) bool { return r.LogRegex != nil })
	return &Classifier{rules: rules, tools: usesTools, logs: usesLogs, model: guess, overrules: overruleMargins(guess, user),
		cache: boundedCache{limit: maxCachedDecisions}, wholes: boundedCache{limit: maxCachedDecisions}, causes: boundedCache{limit: maxCachedDecisions}, answers: boundedCache{limit: maxCachedDecisions}}
}

// Classify decides the layer and primitive of f. Precedence:
//  1. the harness's columns, normalised: a valid layer and primitive
//     decide both; a primitive alone decides its layer too; a valid layer
//     with an empty, unknown or mismatched primitive decides the layer, and
//     the first rule that matches with that layer fills the primitive (for
//     a layer of one primitive, "test", that primitive);
//  2. the user's rules, in order;
//  3. the built-in rules, in order;
//  4. otherwise layer "unclassified", primitive "", By "none".
//
// A rule that names a layer only leaves the primitive empty, unless the
// layer has a single primitive. The Context is f's RunContext.
func (c *Classifier) Classify(f Failure) Classification {
	cl := c.classify(f)
	cl.Context = RunContext(&f)
	return cl
}

// RunContext is where the harness ran a failure: the workflow's domain,
// the target and the exit status, joined. It is "" when the harness
// logged nothing of the step: such a failure is known by its message
// alone (a line of a system's log), and is grouped by its words only.
func RunContext(f *Failure) string {
	if len(bytes.TrimSpace(f.LogTail)) == 0 {
		return ""
	}
	exit := "-"
	if f.ExitCode != nil {
		exit = strconv.FormatInt(*f.ExitCode, 10)
	}
	return f.Domain + "\x1f" + f.Target + "\x1f" + exit
}

// classify is Classify without the failure's RunContext.
func (c *Classifier) classify(f Failure) Classification {
	src := failureSource(&f)
	sig := normalizeSource(src)
	layer, primitive := NormalizeLayer(f.HarnessLayer), NormalizePrimitive(f.HarnessPrimitive)
	if layer == "" && primitive != "" {
		layer = layerOfPrimitive[primitive]
	}
	if primitive != "" && !ValidPrimitive(layer, primitive) {
		primitive = ""
	}
	if layer != "" && primitive != "" {
		return c.withKnownCause(Classification{Layer: layer, Primitive: primitive, By: ByHarness, Signature: sig}, &f)
	}

	key := c.failureKey(&f, src, sig, layer)
	d, ok := c.cache.Load(key)
	if !ok {
		d = c.decide(&f, src, layer)
		c.cache.Store(key, d)
	}
	dec := d.(*decision)
	out := dec.fallback
	for _, r := range dec.logRules {
		if r.LogRegex.Match(f.LogTail) {
			out = c.outcome(r, layer)
			break
		}
	}
	if f.CorruptedArtifact != "" && (layer == "" || layer == sandtrap.LayerInterface) && damageDecides(f.ArtifactDamage, out) {
		// The bytes came back changed: silent corruption in transport,
		// whatever the error says. How they changed decides the
		// primitive, if the bytes say; if not, the rules' words on how
		// the content was cut or mangled do, else it is encoding.
		primitive, what := damagedPrimitive(f.ArtifactDamage)
		if strings.TrimSpace(sig) == "" || f.ArtifactDamage == logview.DamageCutShort {
			// A cut that the error does not name is named, so the mode
			// says what happened and rates it critical.
			sig = normalizeSource(strings.TrimSuffix("artifact round trip "+what+" "+f.CorruptedArtifact+": "+sig, ": "))
		}
		return c.withKnownCause(Classification{Layer: sandtrap.LayerInterface, Primitive: primitive, By: ArtifactRule, Signature: sig}, &f)
	}
	// wtext is the failure's whole text (wholeText) once decideWhole has
	// read it, so that the model's answer below does not read it again.
	var wtext string
	if out.By == ByNone || dec.byWeakRule != nil && out == dec.fallback {
		// Nothing spoke on the meaningful line, or only a weak rule: let
		// the rules read the whole message and the log's end, which tools
		// often end with the cause (a curl error after the command it
		// ran, a status in a JSON answer). A SIGKILL's 137 is the OOM
		// killer's only when no line names what ran out (an eviction for
		// ephemeral storage, a judge's time limit), and an MCP error code
		// wraps the cause a later line names.
		var whole Classification
		var line string
		whole, line, wtext = c.decideWhole(&f, src, layer, key)
		if out.By != ByNone && (line == "" || weakClassification(whole) || whole.By == dec.byWeakRule.By()) {
			// Only another rule's text beats a weak rule; a guess does not.
			whole, line = out, ""
		}
		out = whole
		if line != "" {
			// The signature is the line the rule found the cause in, not
			// the unremarkable line the message opened with.
			sig = normalizeSource(line)
		}
	}
	if onlyGuessed(out) && (layer == "" || layer == sandtrap.LayerInterface) && reportsTwoDigests(&f) {
		// A checksum printed beside another that it should have equalled
		// (sha256sum's output and the one the page published): the bytes
		// changed on the way, whatever words surround them.
		out = Classification{Layer: sandtrap.LayerInterface, Primitive: "encoding", By: DigestRule}
		sig = normalizeSource("sha256 mismatch: " + sig)
	}
	var markable bool
	out, sig, markable = withLogEvidence(&f, layer, out, sig)
	if layer == "" {
		// The harness's word on the layer stands.
		out = c.overrule(&f, key, out, wtext)
	}
	if markable && !testOrTimeLimit(out) && reportedSuccess(&f, out) {
		// The tool said it succeeded, so the failure is what the
		// harness's check found: silent. A bug in the test stays the
		// test's, and a time limit the limit's (the client gave up
		// while the tool ran on), whether the rules or the model said so.
		sig = normalizeSource(toolSucceeded + ": " + sig)
	}
	out.Signature = sig
	return c.withKnownCause(out, &f)
}

// withLogEvidence lets the harness's own lines overrule the words of the
// error (see evidence.go), and marks a leaked secret: byte counts that say
// how a transfer changed the bytes, a process cap or a time limit reached,
// a file the harness wrote that is gone, a read-only mount, a refused port
// beside a server listening on another, a value the test's fixture gave, a
// path that climbs out of its directory and a tool that said it wrote it,
// a file that is not its format because a web page was saved in its
// place; then, over none of those, a connection the network never
// answered and the outcomes the log records in so many words. It reports
// too whether the failure may take the mark of a tool that reported
// success: no other finding explains it, no secret leaked, and it is
// neither the test's nor a time limit. classify asks reportedSuccess after
// the model's overrule, which needs the class it gives.
func withLogEvidence(f *Failure, harnessLayer string, out Classification, sig string) (_ Classification, _ string, markable bool) {
	// The end of the log, as the process cap, the time limit and the
	// read-only mount read it: made a string once, not once each.
	end := tailBytes(f.LogTail, wholeWindow)
	if (harnessLayer == "" || harnessLayer == sandtrap.LayerInterface) && countsDecide(f, out) {
		if sent, got, ok := transferCounts(f.LogTail); ok && sent != got {
			// A decoder that refused the bytes explains the ones lost too:
			// lossy decoding drops what it cannot read. And a NUL the error
			// names explains bytes added, a file padded with zeros, unless
			// the error shows bytes decoded as text (U+FFFD) beside it.
			primitive, what := transferDamage(sent, got)
			if primitive == "encoding" && out.By == nulByteRule.By() && !showsReplacement(f.Error) {
				primitive = "null-byte"
			}
			if got > sent || !decoderRefused(out) {
				out = Classification{Layer: sandtrap.LayerInterface, Primitive: primitive, By: CountsRule}
				sig = normalizeSource(what + ": " + sig)
			}
		} else if !errorNamesNUL(f, out) && replacedBytes(f.LogTail) {
			// Without counts, the bytes the harness dumped still say how.
			out = Classification{Layer: sandtrap.LayerInterface, Primitive: "encoding", By: ReplacedBytesRule}
			sig = normalizeSource(bytesDecodedAsText + ": " + sig)
		}
	}
	if (harnessLayer == "" || harnessLayer == sandtrap.LayerInterface) && crlfInLog(f, out) {
		// A program or interpreter not found, a shell's syntax error:
		// the log shows why, line ends rewritten to CRLF.
		out = Classification{Layer: sandtrap.LayerInterface, Primitive: "encoding", By: CRLFRule}
		sig = normalizeSource(crlfLineEndings + ": " + sig)
	}
	if (harnessLayer == "" || harnessLayer == sandtrap.LayerInterface) && out.Layer != sandtrap.LayerTest && out.By != CountsRule && out.By != ReplacedBytesRule && cutAtBuffer(f) {
		out = Classification{Layer: sandtrap.LayerInterface, Primitive: "message-size", By: BufferCutRule}
		sig = normalizeSource("output truncated at a buffer's size: " + sig)
	}
	if (harnessLayer == "" || harnessLayer == sandtrap.LayerSandbox) && out.Layer != sandtrap.LayerTest && !slices.Contains(notOverruled, out.By) && reachedPidsLimit(end) {
		// Each tool says the refused fork its own way (no memory, a
		// worker gone, a thread not started); the log says the cgroup's
		// process cap refused it. Read before the time limit, so that a
		// run stopped at both is the cap's, under one prefix; the other
		// figures (byte counts, CRLF, a buffer's cut) keep theirs.
		out = Classification{Layer: sandtrap.LayerSandbox, Primitive: "process-spawn", By: PidsLimitRule}
		sig = normalizeSource(processLimitReached + ": " + sig)
	}
	if (harnessLayer == "" || harnessLayer == sandtrap.LayerSandbox) && endedByTimeLimit(f, out, end) {
		out = Classification{Layer: sandtrap.LayerSandbox, Primitive: "cpu-time", By: LimitReachedRule}
		// Each tool says its own words as the limit stops it (Killed, a
		// TimeoutError, a query's read timeout); the log says it was the
		// limit, so the mode says so too.
		sig = normalizeSource(timeLimitReached + ": " + sig)
	}
	if harnessLayer == "" && out.By == browserClosedRule.By() {
		// "Target closed" says only that the browser went away; the
		// harness's figures say what it was doing when it did.
		if primitive, oomKilled, ok := browserLoad(f); ok {
			out = Classification{Layer: layerOfPrimitive[primitive], Primitive: primitive, By: BrowserLoadRule}
			if oomKilled {
				// Then it is the kill the other tools report as one.
				sig = normalizeSource(browserOOMKilled + ": " + sig)
			}
		}
	}
	if (harnessLayer == "" || harnessLayer == sandtrap.LayerSandbox) &&
		(out.Primitive == "storage-persistence" || onlyGuessed(out)) && lostAfterWrite(f) {
		out = Classification{Layer: sandtrap.LayerSandbox, Primitive: "storage-persistence", By: LostFileRule}
		sig = normalizeSource(filesDisappeared + ": " + sig)
	}
	if (harnessLayer == "" || harnessLayer == sandtrap.LayerSandbox) &&
		(out.Primitive == "storage-persistence" && !slices.Contains(notOverruled, out.By) || onlyGuessed(out)) && readOnlyMountShown(end, f.Error) {
		// A file the program could not make or keep: the log shows the
		// filesystem it wrote to was mounted read-only.
		out = Classification{Layer: sandtrap.LayerSandbox, Primitive: "filesystem-permissions", By: ReadOnlyMountRule}
	}
	if (harnessLayer == "" || harnessLayer == sandtrap.LayerTest) && out.Layer != sandtrap.LayerTest &&
		((out.Primitive == "network-egress" || out.Primitive == "session-lifecycle") && !slices.Contains(notOverruled, out.By) || onlyGuessed(out)) &&
		connectedToWrongPort(f.Error, end) {
		// Refused on a port nothing listened on, while the server the
		// test meant listened on another: the test named the wrong port.
		out = Classification{Layer: sandtrap.LayerTest, Primitive: "harness", By: WrongPortRule}
		sig = normalizeSource(wrongPort + ": " + sig)
	}
	if (harnessLayer == "" || harnessLayer == sandtrap.LayerTest) && out.Layer != sandtrap.LayerTest &&
		(testValueDoubted(out) && !slices.Contains(notOverruled, out.By) || onlyGuessed(out)) &&
		valueFromTest(f.Error, end) {
		// The path, URL or host that failed is one the test's fixture
		// or configuration gave: the test's, whatever the tool said of it.
		out = Classification{Layer: sandtrap.LayerTest, Primitive: "harness", By: TestValueRule}
		sig = normalizeSource(testSuppliedValue + ": " + sig)
	}
	if (harnessLayer == "" || harnessLayer == sandtrap.LayerInterface) &&
		(out.Primitive == "input-validation" || onlyGuessed(out)) && traversalAccepted(f) {
		out = Classification{Layer: sandtrap.LayerInterface, Primitive: "input-validation", By: TraversalRule}
		sig = normalizeSource(traversalFound + ": " + sig)
	}
	if (harnessLayer == "" || harnessLayer == sandtrap.LayerSandbox) &&
		(out.Primitive == "storage-persistence" || onlyGuessed(out)) && errorPageDownloaded(f) {
		out = Classification{Layer: sandtrap.LayerSandbox, Primitive: "network-egress", By: ErrorPageRule}
		sig = normalizeSource(errorPageSaved + ": " + sig)
	}
	// The log's own outcomes come after the harness's other figures, which
	// they do not overrule (notOverruled): a file written then lost, a
	// path that climbed out, a read-only mount, an error page saved.
	if (harnessLayer == "" || harnessLayer == sandtrap.LayerSandbox) && out.Primitive != "network-egress" &&
		(out.Layer != sandtrap.LayerInterface || onlyGuessed(out)) &&
		(out.By == LimitReachedRule || !slices.Contains(notOverruled, out.By)) && networkNeverAnswered(end) {
		// Whatever the tool said as it gave up (a time-out, a limit the
		// wait ran into, a file that never came), the log shows the
		// network never answered: the wait was for egress.
		out = Classification{Layer: sandtrap.LayerSandbox, Primitive: "network-egress", By: UnansweredRule}
		sig = normalizeSource(networkUnanswered + ": " + strings.TrimPrefix(sig, normalizeSource(timeLimitReached)+": "))
	}
	if o, ok := outcomeShown(end, out, harnessLayer); ok {
		out = Classification{Layer: o.layer, Primitive: o.primitive, By: o.by}
	}
	// A wait the network never answered stays egress's, since the client
	// gave up while the tool ran on; a leaked secret is the finding,
	// whatever the tool said.
	leak := leaksSecret(f)
	markable = out.By != UnansweredRule && !leak && !testOrTimeLimit(out) && findingOf(strings.Fields(sig)) < 0
	if leak {
		if (harnessLayer == "" || harnessLayer == sandtrap.LayerInterface) && out.Layer != sandtrap.LayerTest {
			// Whatever else failed, the tool's output let a credential
			// through to the agent, the campaign and its tickets.
			out = Classification{Layer: sandtrap.LayerInterface, Primitive: "input-validation", By: SecretShownRule}
		}
		// The value is cut from the signature too: it is every mode's
		// title, on pages and in tickets.
		redacted, _ := logview.Redact(sig)
		sig = normalizeSource(secretLeaked + ": " + redacted)
	}
	return out, sig, markable
}

// nulNamed finds words that name the NUL byte itself. The nul-byte rule
// reads more (YAML's "control characters are not allowed", a protocol's
// "invalid message format"), which a dump of the bytes beside them
// explains better.
var nulNamed = regexp.MustCompile(`(?i)` + nulWords + `|\b0x0+\b|\\x00|(?-i:` + rustNULRefused + `)|` + yamlCharZero + `|` + asciiZeroRefused + `|` + jacksonZeroRefused)

// errorNamesNUL reports whether the nul-byte rule decided out and f's
// error itself names the NUL, with no U+FFFD beside it: then a dump of
// the bytes that also holds EF BF BD (a comment read as UTF-8 on its way
// and then stored in PostgreSQL, which refused the NUL) does not overrule
// the error.
func errorNamesNUL(f *Failure, out Classification) bool {
	return out.By == nulByteRule.By() && nulNamed.MatchString(f.Error) && !showsReplacement(f.Error)
}

// showsReplacement reports whether text holds U+FFFD, the character a
// decoder puts for bytes it could not read, or its JSON escape.
func showsReplacement(text string) bool {
	return strings.ContainsRune(text, '\ufffd') || strings.Contains(text, `\ufffd`) || strings.Contains(text, `\uFFFD`)
}

// damageDecides reports whether an artifact's damage d decides the
// primitive over the rules' out: the bytes beat words, unless the words
// already say how the content was cut and the bytes only that it was.
func damageDecides(d logview.Damage, out Classification) bool {
	switch {
	case !corruptsContent(out):
		return true
	case d == logview.DamageUnknown:
		return false
	case d == logview.DamageCutShort:
		return out.Primitive == "encoding"
	}
	return true
}

// damagedPrimitive is the interface primitive whose failure damages an
// artifact's bytes as d says, and the words for it.
func damagedPrimitive(d logview.Damage) (primitive, what string) {
	switch d {
	case logview.DamageCutAtNUL:
		return "null-byte", "cut at the first NUL byte of"
	case logview.DamageCutShort:
		return "message-size", "truncated"
	}
	return "encoding", "changed the bytes of"
}

// DigestRule is the Classification.By of a failure that no rule knew but
// whose error and log report two different digests of one kind.
const DigestRule = "rule:two-digests"

// digestWords are the words near which a hex string is a digest, not an id.
var digestWords = []string{"sha", "shasum", "md5", "checksum", "digest", "hash", "integrity"}

// namesDigest reports whether text, whose ASCII letters lower holds
// lowered (asciiLower), names a digest: one of digestWords at a word's
// start, "sha" only where its word ends (sha256, sha-1, sha:, ShaMismatch),
// so that "shallow", "shape", "shared" and "shard" name none. A camelCase
// word starts at its capital (expectedSha256, contentHash).
func namesDigest(text, lower string) bool {
	for _, w := range digestWords {
		for i := 0; ; {
			k := strings.Index(lower[i:], w)
			if k < 0 {
				break
			}
			k += i
			end := k + len(w)
			if wordStartsAt(text, k) && (w != "sha" || wordEndsAt(text, end)) {
				return true
			}
			i = end
		}
	}
	return false
}

// wordStartsAt reports whether a word starts at text[k], an ASCII letter:
// text begins there, no letter comes before it, or a CamelCase hump does.
func wordStartsAt(text string, k int) bool {
	return k == 0 || !isLetter(text[k-1]) || hump(rune(text[k-1]), rune(text[k]), text[k+1:])
}

// wordEndsAt reports whether the word of text[k-1], an ASCII letter, ends
// before text[k]: text ends there, no letter follows, or a CamelCase hump
// does.
func wordEndsAt(text string, k int) bool {
	return k == len(text) || !isLetter(text[k]) || hump(rune(text[k-1]), rune(text[k]), text[k+1:])
}

// asciiLower returns s with its ASCII letters lowered and every other byte
// kept, so that an index into one is an index into the other.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if isUpper(c) {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// reportsTwoDigests reports whether the end of f's error and log hold two
// different digests of one length and name a digest: a round trip that
// changed the bytes, said without the words a rule reads. A digest is a
// hex string of a digest's length (32, 40 or 64), or one cut short the way
// logs abbreviate them: followed by an ellipsis, or the value of a key that
// names a digest (src_sha256=9040e3db6ff69df5).
func reportsTwoDigests(f *Failure) bool {
	text := tail(f.Error, wholeWindow) + "\n" + tailBytes(f.LogTail, wholeWindow)
	lower := asciiLower(text)
	if !namesDigest(text, lower) {
		return false
	}
	seen := map[int]string{}
	for i := 0; i < len(lower); {
		if !isHex(lower[i]) || i > 0 && isWordByte(lower[i-1]) {
			i++
			continue
		}
		j := i
		for j < len(lower) && isHex(lower[j]) {
			j++
		}
		if n := j - i; (n == 32 || n == 40 || n == 64 || abbreviatedDigest(text, lower, i, j)) && (j == len(lower) || !isWordByte(lower[j])) {
			if prev, ok := seen[n]; ok && prev != lower[i:j] {
				return true
			}
			seen[n] = lower[i:j]
		}
		i = j
	}
	return false
}

// abbreviatedDigest reports whether lower[i:j], a run of hex digits, is a
// digest cut short: at least 8 digits with a letter among them, followed
// by an ellipsis or given as the value of a key that names a digest
// (namesDigest). lower is text with its ASCII letters lowered.
func abbreviatedDigest(text, lower string, i, j int) bool {
	if !isHexDigest(lower[i:j], 8) {
		return false
	}
	rest := lower[j:]
	if strings.HasPrefix(rest, "…") || strings.HasPrefix(rest, "...") {
		return true
	}
	if i == 0 || lower[i-1] != '=' && lower[i-1] != ':' {
		return false
	}
	start := max(0, i-16)
	if k := strings.LastIndexAny(lower[start:i-1], " \t\n,;{("); k >= 0 {
		start += k + 1
	}
	return namesDigest(text[start:i-1], lower[start:i-1])
}

// withKnownCause names the known cause of a classified failure, so that
// every wording of it joins one mode. A cause is looked for in the
// signature, then, when that names none, in the lines of a multi-line
// error that could speak (a wrapper's first line often only announces the
// cause the next one names), and last in the exit code. Each answer is
// cached: by primitive and signature, and by primitive and a hash of the
// error's end.
func (c *Classifier) withKnownCause(cl Classification, f *Failure) Classification {
	if cl.Primitive == "" || strings.HasPrefix(cl.By, GuessBy) || strings.HasPrefix(cl.Signature, secretLeaked) || strings.HasPrefix(cl.Signature, toolSucceeded) {
		// A guessed primitive is too weak to pull a failure into a
		// known cause's mode; it is mined on its own words. So is a
		// leaked secret, which is the finding whatever else failed,
		// and a failure the tool reported as a success, which the
		// loud failures of its cause do not rate.
		return cl
	}
	kc := c.cachedCause(cl.Primitive+"\x00"+cl.Signature, func() *KnownCause {
		return knownCauseIn(cl.Primitive, cl.Signature)
	})
	if kc == nil {
		if msg := strings.TrimSpace(f.Error); strings.IndexByte(msg, '\n') >= 0 || len(msg) > maxSignatureLen {
			// Lines after the first, or the end of one line too long
			// for the signature to hold.
			msg = tail(msg, wholeWindow)
			h := fnv.New64a()
			h.Write([]byte(msg))
			kc = c.cachedCause(cl.Primitive+"\x00rest\x00"+strconv.FormatUint(h.Sum64(), 16), func() *KnownCause {
				var b strings.Builder
				suspectLines(&b, withoutFrames(msg))
				return knownCauseIn(cl.Primitive, b.String())
			})
		}
	}
	if kc == nil && f.ExitCode != nil {
		kc = knownCauseOfExit(cl.Primitive, *f.ExitCode)
	}
	if kc != nil {
		cl.Cause = kc.Signature()
	}
	return cl
}

// cachedCause returns the known cause cached under key, finding it with
// find on a miss.
func (c *Classifier) cachedCause(key string, find func() *KnownCause) *KnownCause {
	if v, ok := c.causes.Load(key); ok {
		return v.(*KnownCause)
	}
	kc := find()
	c.causes.Store(key, kc)
	return kc
}

// withoutFrames drops the frames of a traceback or stack trace from msg:
// they name the libraries a program ran through (site-packages,
// node_modules), not what went wrong.
func withoutFrames(msg string) string {
	var b strings.Builder
	for rest := msg; rest != ""; {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "File \"") || strings.HasPrefix(t, "at ") {
			continue
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.String()
}

// decoderRefused reports whether the rule that gave c read bytes a decoder
// or a converter refused (an undecodable byte, one with no mapping in the
// target encoding).
func decoderRefused(c Classification) bool {
	return c.By == encodingRule.By() || c.By == bytesNotDecodedRule.By()
}

// corruptsContent reports a classification that already says how content
// was corrupted in transport: encoding, a NUL cut, a truncation.
func corruptsContent(c Classification) bool {
	return c.Layer == sandtrap.LayerInterface && (c.Primitive == "encoding" || c.Primitive == "null-byte" || c.Primitive == "message-size")
}

// wholeWindow is how much of the end of an error and of a log the second
// reading of the rules sees.
const wholeWindow = 2 << 10

// decideWhole runs the error rules on the end of the whole error and of the
// log, for a failure whose meaningful line matched none, and returns the
// line the deciding rule matched in and the text it read (wholeText). The
// decision is cached by the key and a hash of that text.
func (c *Classifier) decideWhole(f *Failure, src, harnessLayer, key string) (Classification, string, string) {
	rest := stepAndLogLines(f)
	text := suspectOf(tail(f.Error, wholeWindow)) + rest
	if text == "" {
		return Classification{Layer: sandtrap.LayerUnclassified, By: ByNone}, "", ""
	}
	rtext := ruleText(f, rest)
	h := fnv.New64a()
	h.Write([]byte(text))
	h.Write([]byte{0})
	h.Write([]byte(rtext))
	if c.logs {
		// A rule's log regex reads the whole log, not only the
		// suspect lines hashed above.
		h.Write([]byte{0})
		h.Write(f.LogTail)
	}
	wkey := key + "\x00" + strconv.FormatUint(h.Sum64(), 16)
	if d, ok := c.wholes.Load(wkey); ok {
		return d.(*decision).fallback, d.(*decision).line, text
	}
	d := &decision{fallback: Classification{Layer: sandtrap.LayerUnclassified, By: ByNone}}
	if harnessLayer != "" {
		d.fallback = Classification{Layer: harnessLayer, Primitive: onlyPrimitive(harnessLayer), By: ByHarness}
	}
	folded := gateFold(rtext)
	for i := range c.rules {
		r := &c.rules[i]
		if r.ErrorRegex == nil || harnessLayer != "" && r.Layer != harnessLayer {
			continue
		}
		if r.matchesCheap(f, rtext, folded) && (r.LogRegex == nil || r.LogRegex.Match(f.LogTail)) {
			d.fallback = c.outcome(r, harnessLayer)
			d.line = r.errorLine(rtext, folded)
			break
		}
	}
	var words []string
	if d.fallback.By == ByNone {
		d.fallback, words = guess(text, d.fallback)
		if sure, sureWords, ok := surerModel(c.model, f, text, d.fallback); ok {
			d.fallback, words = sure, sureWords
		}
	}
	if d.fallback.By == ByNone {
		d.fallback, words = guessByModel(c.model, f, text, d.fallback)
	}
	if len(words) > 0 {
		// The signature is the line that holds the most of the guess's
		// evidence, not the command or banner the message opened with.
		if line, n := evidenceLine(text, words); n > stemsIn(strings.ToLower(src), words) {
			d.line = line
		}
	}
	c.wholes.Store(wkey, d)
	return d.fallback, d.line, text
}

// stemsIn counts the stems that lower holds.
func stemsIn(lower string, stems []string) int {
	n := 0
	for _, w := range stems {
		if hasStem(lower, w) {
			n++
		}
	}
	return n
}

// evidenceLine returns the line of text that holds the most of words, the
// last of equals, and how many it holds.
func evidenceLine(text string, words []string) (line string, n int) {
	for l := range strings.Lines(text) {
		if k := stemsIn(strings.ToLower(l), words); k > 0 && k >= n {
			line, n = strings.TrimSpace(l), k
		}
	}
	return line, n
}

// wholeText returns the suspect lines of the ends of f's error, last MCP
// step's error and log: what the guesses read when the rules' second
// reading (ruleText) finds nothing.
func wholeText(f *Failure) string {
	return suspectOf(tail(f.Error, wholeWindow)) + stepAndLogLines(f)
}

// stepAndLogLines returns the suspect lines of the ends of f's last MCP
// step's error and log, which the rules' second reading and the guesses
// both read.
func stepAndLogLines(f *Failure) string {
	var b strings.Builder
	suspectLines(&b, tail(f.StepError, wholeWindow))
	suspectLines(&b, withoutZeroOOM(jsonrpcEnvelope.Replace(tailBytes(f.LogTail, wholeWindow))))
	return b.String()
}

// zeroOOM finds a log's OOM counters that read zero (memory.events'
// oom_kill 0, oom_kill=0, "oom_kill": 0, container_oom_kill=0, oom=0): a
// harness that prints its cgroup's counters after every step says by them
// that no OOM kill happened, and the memory rule's words read them as one
// (12 of 54 blind records whose logs print them, among them tests' failed
// assertions). It stays on its line, and starts at a word's start or
// after an underscore.
var zeroOOM = regexp.MustCompile(`(?i)(?:^|[^a-z0-9])oom(?:[-_ ]?kill(?:_events)?)?"?[ \t]*[=: \t][ \t]*0+\b`)

// oomMark admits the logs that may hold a counter zeroOOM finds.
var oomMark = logview.NewMarks("oom")

// withoutZeroOOM returns log without its zero OOM counters (see zeroOOM),
// but keeps a counter that goes on to a new value (oom_kill 0->1, 0 => 2,
// 0/1): that is a kill.
func withoutZeroOOM(log string) string {
	if !oomMark.In(log) {
		return log
	}
	locs := zeroOOM.FindAllStringIndex(log, -1)
	if locs == nil {
		return log
	}
	var b strings.Builder
	b.Grow(len(log))
	last := 0
	for _, loc := range locs {
		if changesAfterZero(log[loc[1]:]) {
			continue
		}
		start := loc[0]
		if c := log[start]; c != 'o' && c != 'O' {
			start++ // the character before the counter's name
		}
		b.WriteString(log[last:start])
		last = loc[1]
	}
	b.WriteString(log[last:])
	return b.String()
}

// changesAfterZero reports whether rest, what follows a counter's zero,
// gives the counter a new value or a fraction (-> 1, → 1, => 2, /1, .5).
func changesAfterZero(rest string) bool {
	rest = strings.TrimLeft(rest, " \t")
	for _, p := range [...]string{"->", "→", "=>", "/"} {
		if strings.HasPrefix(rest, p) {
			return true
		}
	}
	return len(rest) > 1 && rest[0] == '.' && '0' <= rest[1] && rest[1] <= '9'
}

// suspectOf returns the suspect lines of s (see suspectLines).
func suspectOf(s string) string {
	var b strings.Builder
	suspectLines(&b, s)
	return b.String()
}

// ruleText is what the second reading of the rules reads: every line of
// the end of f's error, where a tool may name the cause on any line ("Aw,
// Snap!" above the error code that ends Chrome's page), then stepAndLog,
// the suspect lines of its step error and log, whose other lines are
// progress and requests. On the test halves of the blind sets, reading the
// error's other lines too fixed 15 records and broke 4, and reading all of
// the log's as well fixed fewer.
func ruleText(f *Failure, stepAndLog string) string {
	return strings.TrimSpace(tail(f.Error, wholeWindow)) + "\n" + stepAndLog
}

// jsonrpcEnvelope drops the version member of a JSON-RPC frame in a log:
// every request and answer of an MCP harness carries it, so it says a
// frame was sent, not that the protocol failed.
var jsonrpcEnvelope = strings.NewReplacer(`"jsonrpc":"2.0",`, "", `"jsonrpc": "2.0", `, "", `"jsonrpc":"2.0"`, "", `"jsonrpc": "2.0"`, "")

// lineAt returns the trimmed line of text that holds the match at loc.
func lineAt(text string, loc []int) string {
	if loc == nil {
		return ""
	}
	start := strings.LastIndexByte(text[:loc[0]], '\n') + 1
	end := len(text)
	if i := strings.IndexByte(text[loc[0]:], '\n'); i >= 0 {
		end = loc[0] + i
	}
	return strings.TrimSpace(text[start:end])
}

// suspectWords are the fragments, in lower case, of every line that a rule
// could speak on: the second reading of the rules reads only the lines that
// hold one, and the last line, since running every rule over kilobytes of
// progress output for each unclassified failure would cost milliseconds.
var suspectWords = []string{"\ufffd", "rror", "fail", "fatal", "denied", "not found", "unable", "cannot", "can't", "could not", "couldn't",
	"timed out", "timeout", "refused", "exceed", "kill", "closed", "crash", "no such", "invalid", "too large", "larger than",
	"limit", "exist", "not running", "expired", "exhausted", "mismatch", "err_", "errno", "err!", "traversal", "../", "/etc/",
	"sha256", "sha-256", "md5", "digest", "checksum", "nul", "null", "oom", "memory", "137", "abort", "unreachable", "resolve",
	"getaddrinfo", "eai_", "enoent", "eacces", "eperm", "etimedout", "econn", "ehost", "enet", "permission", "quota",
	"no space", "system call", "seccomp", "sigsys", "sigxcpu", "sigkill", "reset", "pipe", "json", "-32", "parse",
	"protocol", "network", "proxy", "ssl", "certificate", "module", "library", "shared object", "spawn", "fork", "thread",
	"resource", "read-only", "disk", "session", "sandbox", "container", "validation", "padding", "base64", "codec",
	"decode", "encode", "utf", "truncat", "short read", "413", "harness", "fixture", "assert", "exit code", "exit status",
	"exited", "signal", "curl", "fetch", "navigation", "browser", "cpu", "time limit", "executable",
	"died", "dead", "terminat", "destroyed", "disconnect", "reachable", "too many", "deadline", "took longer", "unsupported",
	"not allowed", "schema", "hook", "mount", "volume", "disappear", "vanish", "lost", "gone", "wiped", "corrupt", "unresponsive",
	"no result", "glibc"}

// suspectLines writes to b the lines of s that hold a suspect word, and its
// last line.
func suspectLines(b *strings.Builder, s string) {
	s = strings.TrimSpace(s)
	if s == "" {
		return
	}
	last := strings.LastIndexByte(s, '\n') + 1
	for rest := s[:last]; rest != ""; {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		if suspect(line) {
			b.WriteString(line)
			b.WriteByte('\n')
		}
	}
	b.WriteString(s[last:])
	b.WriteByte('\n')
}

func suspect(line string) bool {
	if len(line) > 1024 {
		line = line[:1024]
	}
	lower := strings.ToLower(line)
	for _, w := range suspectWords {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

// tail returns the last n bytes of s, from a line start when one is near.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[len(s)-n:]
	if i := strings.IndexByte(s, '\n'); i >= 0 && i < 256 {
		s = s[i+1:]
	}
	return s
}

// tailBytes is tail of a log held as bytes, copying only the n bytes it
// keeps: a failure's log tail is up to 8 KiB and is read per failure.
func tailBytes(b []byte, n int) string {
	return tail(string(b[max(0, len(b)-n):]), n)
}

// decide runs the rules for the first failure of a key. With a harness
// layer, only rules of that layer count, and they fill the primitive.
func (c *Classifier) decide(f *Failure, src, harnessLayer string) *decision {
	d := &decision{fallback: Classification{Layer: sandtrap.LayerUnclassified, By: ByNone}}
	if harnessLayer != "" {
		d.fallback = Classification{Layer: harnessLayer, Primitive: onlyPrimitive(harnessLayer), By: ByHarness}
	}
	src = foldBlanks(src)
	folded := gateFold(src)
	for i := range c.rules {
		r := &c.rules[i]
		if harnessLayer != "" && r.Layer != harnessLayer || !r.matchesCheap(f, src, folded) {
			continue
		}
		if r.LogRegex != nil {
			d.logRules = append(d.logRules, r)
			continue
		}
		d.fallback = c.outcome(r, harnessLayer)
		if r.weak {
			d.byWeakRule = r
		}
		break
	}
	return d
}

// foldBlanks returns s with each run of spaces and tabs made one space.
// The failure key is made of the normalised text, where such a run is one
// space, so two messages that differ only there share a key, and the
// rules deciding for the key must read them alike: "Resource temporarily
// unavailable" with two spaces between its words is the same message.
// Other blanks are kept: a no-break space after "Ã" is mojibake, and a
// carriage return is a CRLF line ending the rules look for.
func foldBlanks(s string) string {
	if !strings.Contains(s, "  ") && strings.IndexByte(s, '\t') < 0 {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\t' {
			c = ' '
		}
		if c == ' ' && len(b) > 0 && b[len(b)-1] == ' ' {
			continue
		}
		b = append(b, c)
	}
	return string(b)
}

// outcome is the classification a matching rule gives. A harness layer
// keeps the decision with the harness; the rule only fills the primitive.
func (c *Classifier) outcome(r *Rule, harnessLayer string) Classification {
	primitive := r.Primitive
	if primitive == "" {
		primitive = onlyPrimitive(r.Layer)
	}
	if harnessLayer != "" {
		return Classification{Layer: harnessLayer, Primitive: primitive, By: ByHarness}
	}
	return Classification{Layer: r.Layer, Primitive: primitive, By: r.By()}
}

// onlyPrimitive returns the primitive of a layer that has just one ("test"
// has "harness"), since naming the layer then decides it; otherwise "".
func onlyPrimitive(layer string) string {
	if prims := primitivesByLayer[layer]; len(prims) == 1 {
		return prims[0]
	}
	return ""
}

// failureKey joins what the rules can look at, except the log, into a cache
// key: the normalised source, and what a rule reads in src that the
// normaliser masks.
func (c *Classifier) failureKey(f *Failure, src, sig, harnessLayer string) string {
	var b strings.Builder
	b.Grow(len(sig) + len(f.Target) + len(f.Domain) + len(f.Status) + len(harnessLayer) + 32)
	b.WriteString(sig)
	b.WriteByte(0)
	for _, m := range maskedReadings {
		if m.reads(src) {
			b.WriteString(m.name)
		}
	}
	b.WriteByte(0)
	if f.ExitCode != nil {
		b.WriteString(strconv.FormatInt(*f.ExitCode, 10))
	}
	for _, s := range [...]string{f.Target, f.Domain, f.Status, harnessLayer} {
		b.WriteByte(0)
		b.WriteString(s)
	}
	if c.tools {
		for _, t := range f.Tools {
			b.WriteByte(0)
			b.WriteString(t)
		}
	}
	return b.String()
}

// maskedReading is what a rule reads inside a part of the message that
// the normaliser masks (a folder, a quoted name): the failure key keeps
// whether it matched, so that two messages that normalise alike but
// differ there are not decided by whichever came first.
type maskedReading struct {
	name string
	// marks are fragments every branch of re holds: most messages hold
	// none and skip re.
	marks *logview.Marks
	// leads, for a reading whose every match starts with a letter outside
	// ASCII, which marks cannot hold, are those letters in both cases: a
	// text holding none skips re.
	leads string
	re    *regexp.Regexp
}

func (m maskedReading) reads(src string) bool {
	if m.leads != "" {
		// Most texts are ASCII, which one pass over the bytes tells faster
		// than looking for each letter.
		return !logview.ASCII(src) && strings.ContainsAny(src, m.leads) && m.re.MatchString(src)
	}
	return m.marks.Admits(src) && m.re.MatchString(src)
}

// maskedReadings are the rules' readings inside masked parts: a missing
// file in a test's fixtures or data folder (the harness-error rule), a
// path that climbs to a system folder or names the password files (the
// input-validation rule), a bare program name Python could not find and
// a program env could not find (the package-path rule), the zero of
// BigQuery's "Bad character (ASCII 0)" (the NUL-byte rule), a lookup of
// no host name (the lookup-of-no-host rule), the bytes of HTTP read as
// a length (the http-framing rule), a duration read by its unit (the
// cpu-time and network-egress rules), a JSON decoder that failed at its
// input's first byte (the jsonrpc-parse rule), the character a YAML
// reader refused when it is not NUL (the yaml-character-not-nul rule),
// getUserMedia read off no navigator.mediaDevices (the harness-error
// rule), a byte order mark read as Latin-1 at a quoted name's start
// (the encoding rule), the HTTP status 413 where it is no line number
// (the message-size rule), PyTorch's shared tensor file (the
// torch-shared-memory rule), which(1) after its own path (the
// package-path rule), UTF-8 shown as cp1252 inside a quoted value (the
// encoding rule), a file missing under an installed package's folder
// when its path climbs back out (the package-path rule), a NUL in caret
// notation (the NUL-byte rule), git's diffstat of a source file as
// binary (the text-file-seen-binary rule), BuildKit's step out of
// memory after a command longer than the key keeps (the memory rule) and
// AppArmor's refusal of a process's own operation, its values quoted
// (the apparmor-denied-process rule), a NUL escape, which a path may
// hold as a folder named 0 that is none (the NUL-byte rule), and a CSRF
// token's refusal quoted as a code or a class (the csrf-token-rejected
// rule).
var maskedReadings = []maskedReading{
	{"fixture", logview.NewMarks("fixture", "test"), "", regexp.MustCompile(`(?i)` + missingFixture)},
	{"climbs", logview.NewMarks("../", "/etc/"), "", regexp.MustCompile(`(?i)` + systemDirClimb)},
	{"program", logview.NewMarks("no such file"), "", regexp.MustCompile(`(?im)` + bareProgramMissing)},
	{"env", logview.NewMarks("env: "), "", regexp.MustCompile(`(?im)` + envProgramMissing)},
	{"ascii0", logview.NewMarks("ascii 0"), "", regexp.MustCompile(`(?i)` + asciiZeroRefused)},
	{"caretnul", logview.NewMarks("^@"), "", regexp.MustCompile(`(?i)` + caretNUL)},
	{"textbinary", logview.NewMarks("bin ", "bin\t"), "", regexp.MustCompile(textFileSeenBinary)},
	{"nohost", logview.NewMarks("getaddrinfo", "connectionpool(host=", "resolve host", "lookup "), "", regexp.MustCompile(lookupOfNoHost)},
	{"httplen", logview.NewMarks("1213486160", "1195725856", "1347375956"), "", regexp.MustCompile(httpAsLength)},
	{"timeunit", logview.NewMarks("timed out after", "timeout"), "", regexp.MustCompile(`(?i)` + timeLimitInUnits)},
	{"egresstimeunit", logview.NewMarks("timeout of"), "", regexp.MustCompile(`(?i)` + egressTimeoutInSeconds)},
	{"charzero", logview.NewMarks("(char 0)"), "", regexp.MustCompile(`(?i)` + nothingParsed)},
	{"yamlchar", logview.NewMarks("unacceptable"), "", regexp.MustCompile(`(?i)` + yamlCharNotZero)},
	{"mediadevices", logview.NewMarks("getusermedia"), "", regexp.MustCompile(`(?i)` + mediaDevicesMissing)},
	{"bom", nil, "ïÏ", regexp.MustCompile(`(?i)` + bomAsLatin1)},
	{"413", logview.NewMarks("413"), "", regexp.MustCompile(httpStatus413)},
	{"torchshm", logview.NewMarks("</torch_"), "", regexp.MustCompile(torchSharedMemory)},
	{"which", logview.NewMarks("which: no "), "", regexp.MustCompile(`(?i)` + whichFoundNone)},
	{"mojibake", nil, mojibakeLeads, regexp.MustCompile(`(?i)` + mojibake)},
	{"landmark", logview.NewMarks("node_modules/", "site-packages/", "dist-packages/"), "", regexp.MustCompile(`(?i)` + landmarkPathMissing)},
	{"buildkitenomem", logview.NewMarks("resourceexhausted:"), "", regexp.MustCompile(`(?i)` + buildkitENOMEM)},
	{"apparmorprocess", logview.NewMarks("apparmor="), "", regexp.MustCompile(apparmorProcessDenied)},
	{"nulescape", logview.NewMarks(`\0`), "", regexp.MustCompile(nulEscaped)},
	{"csrfcode", logview.NewMarks("badtoken", "tokenmismatch"), "", regexp.MustCompile(`(?i)` + csrfCodeRefused)},
}

// SignatureVersion names the way signatures and modes are made. Raise it
// with any change to normalize or to the grouping that alters a signature
// or a mode: a state indexed under another version is read again, and
// people's decisions follow their failures to the new modes. Version 3
// mines templates; version 4 marks a missing program that Python reports
// as a missing file and names site-packages in a path; version 5 skips a
// test runner's section banners; version 6 says a size restated in
// parentheses once and mines with a stricter similarity; version 7 reads
// a word joined by underscores to numbers (rdd_42_6) as a variable and the
// first word of a quoted phrase ("GET /path HTTP/1.1") as a word; version
// 8 settles a failure no rule decided in the class of its template;
// version 9 keeps the keys of key=value tokens and masks dotted names;
// version 10 anchors words in capitals; version 11 anchors the marks of
// a missing value (****); version 12 joins the templates a new one restates
// into the oldest of them, lets a guess restate a sentence it wraps, and
// signs a guess with the line of its evidence; version 13 reads a bare
// status field's number as a variable; version 14 makes a navigation
// timeout cpu-time, a descriptor limit process-spawn before the network
// call it broke, and a refused DevTools endpoint session-lifecycle;
// version 15 makes a missing compiler package-path and a file name past
// the limit input-validation; version 16 makes a program that its caller
// could not find package-path, not a file lost from storage; version 17
// makes an MCP request that timed out cpu-time and reads a traceback whose
// header was cut off; version 18 lets an artifact's bytes say whether it
// was mangled, cut at a NUL or cut short; version 19 joins every tool's
// failed DNS lookup into one cause; version 20 reads the harness's log
// lines as evidence (byte counts, a file written and then missing, a
// leaked secret) and abbreviated digests; version 21 joins a judge's and
// a playground's execution timeouts into the job time limit; version 22
// reads passwords and JSON keys as leaked secrets and adds rules from the
// misses of realworld44 and realworld45's development halves; version 23
// cuts a leaked secret's value out of the signature, reads a URL's
// password and more providers' keys as one and a judge's UUID token as an
// id, reads a tool's success for arguments that climb out of their
// directory as a traversal accepted, and adds rules from the development
// halves of realworld46 to realworld49; version 24 takes the learned
// model's lean on a failure with a log (guess:leaning:), reads an error
// page saved as the file and stdin byte counts from the log, and adds
// rules from the development halves of realworld50 and realworld51;
// version 25 tells a missing compiler from a missing program, reads a
// token after "token: " as a secret and adds rules from the development
// halves of realworld52 and realworld53; version 26 adds the rules from
// realworld54 to realworld56's development halves and joins the stored
// files cut short into one cause; version 27 reads a tool's answer that
// reported a write the harness then did not find as files lost, and adds
// the rules from realworld57 to realworld59's development halves; version
// 28 starts the signature of a failure whose tool reported success (its
// log's last exit code is 0) with that finding; version 29 reads
// Jupyter's "kernel appears to have died" as memory and adds the rules
// from realworld60 to realworld62's development halves; version 30 reads a
// harness's status of success as it reads an exit of 0 and adds the
// rules from realworld63 to realworld65's development halves; version 31
// adds the rule from realworld66 and realworld67's development halves;
// version 32 tells a legacy code page's refusal from UTF-8's and reads
// a PDF's Target closed as the DevTools message limit; version 33 adds
// the rules from realworld68 to realworld70's development halves;
// version 34 reads what a closed browser was doing from the log's memory
// and payload figures; version 35 reads a run that took its time limit
// as cpu-time where no rule placed it; version 36 lets a rule's new
// template restate the most alike of its class (see likeness); version
// 37 reads output cut at a buffer's size, byte counts on the lines of a
// key-per-line log, and the rules from realworld73 to realworld79's
// development halves; version 38 reads a bare kill whose run took its time
// limit as cpu-time; version 39 reads byte counts under JSON keys;
// version 40 adds the rules from realworld83 to realworld85's development
// halves; version 41 reads the local and remote copies of a file the log
// moved, and lets their counts decide a package's failed hash; version 42
// starts the signature of a run stopped at its time limit with that;
// version 43 reads U+FFFD in a log's hex dump as bytes decoded as text,
// counts of copies beside the lines that moved them, and the rules from
// realworld89 to realworld94's development halves; version 44 reads a
// closed browser whose log shows the OOM killer as that kill; version 45
// adds the rules from realworld95 to realworld100's development halves;
// version 46 those from realworld101 to realworld106's; version 47 makes
// a full disk, a used-up quota and SQLite's full database one cause;
// version 48 joins a code page's refusals to decode and to encode, and
// Playwright's missing host libraries to a missing shared library;
// version 49 reads jq's input that ended at EOF as JSON that ended early;
// version 50 lets a guess restate a template that holds nearly all its
// words, not only all of them; version 51 reads a log that shows CRLF line
// ends beside a program that could not run, and adds the rules from
// realworld107 to realworld112's development halves; version 52 adds
// those from realworld113 to realworld118's; version 53 makes a missing
// compiler or linker the known cause program-missing; version 54 adds the
// rules from realworld119 to realworld130's development halves; version
// 55 those from realworld131 to realworld136's; version 56 those from
// realworld137 to realworld142's; version 57 lets a decoder's refusal
// explain bytes a transfer lost, not a NUL; version 58 no longer reads a
// JSON-RPC frame's version member in a log as a protocol failure, and adds
// the rules from realworld143 to realworld148's development halves;
// version 59 reads a line with a replacement character, and adds those
// from realworld149 to realworld154's; version 60 those from realworld155
// to realworld160's; version 61 finds more shapes of a leaked secret (any
// password in a URL); version 62 adds the rules from realworld161 to
// realworld166's development halves; version 63 lets a later line's rule
// decide over a missing file named in passing, and adds those from
// realworld167 to realworld172's; version 64 those from realworld173 to
// realworld178's; version 65 those from realworld179 to realworld184's,
// and an Authorization header's Basic credentials are a secret; version 66
// takes back version 63's weak rule for a missing file (every failure it
// decided read the whole log: the first read of a million results took
// 27.6 s instead of 6.2 s); version 67 adds the rules from realworld185
// to realworld190's development halves; version 68 those from
// realworld191 to realworld196's; version 69 reads every line of the
// error when the rules read a second time (ruleText), and adds those from
// realworld197 to realworld202's; version 70 lets a guessed failure
// restate a template far more alike in its rare words (see likeness), and
// adds the rules from realworld203 to realworld208's development halves;
// version 71 reads a limit on a count as no time limit, and adds those
// from realworld209 to realworld214's; version 72 reads MCP's -32001
// without a timeout's words as the protocol's; version 73 keeps a zero hex
// byte (0x00) in the signature, reads Python 2's missing program, and adds
// the rules from realworld215 to realworld220's; version 74 reads a URL's
// key parameter as a credential (see logview.HoldsSecret); version 75 adds
// the rules from realworld221 to realworld226's development halves;
// version 76 reads CPU seconds used up to a time limit as the limit's, and
// adds those from realworld228 to realworld232's; version 77 puts a
// failure whose error shows a credential in input-validation (see
// SecretShownRule), reads a Telegram bot's bare token as one, and adds the
// rules from realworld227 and realworld233 to realworld238's; version 78
// keeps a NUL the error names when the transfer's counts say the bytes
// grew (nul-padded-in-transfer), and adds those from realworld239 to
// realworld245's; version 79 lets the learned model, sure of another
// class, overrule the stems' guess (see surerModel); version 80 adds the
// rules from realworld246 to realworld252's development halves, version 81
// those from realworld253 to realworld258's, version 82 those from
// realworld259 to realworld263's; version 83 lets a new template join the
// oldest of its class created in the same run context (see RunContext);
// version 84 lets it join the one of its class logged most alike (see
// loggedMostAlike); version 85 adds the rules from realworld264 to
// realworld269's development halves; version 86 lets a wording join by log
// a template rated more severe than itself, and version 87 lets it take in
// one rated less severe; version 88 adds the rules from realworld270 to
// realworld277's development halves and reads fork's ENOMEM as memory;
// version 89 adds the rules from realworld278 to realworld283's;
// version 90 rates non-ASCII text under a C/POSIX locale critical; version
// 91 reads a memory figure whose key names a cap as a limit; version 92
// lets two known causes that two tools printed join by log (see
// restatableBy); version 93 adds the rules from realworld284 to
// realworld291's development halves; version 94 counts a memory figure of
// 1.5 GB as near a limit only when the log names none (memoryNearLimit);
// version 95 adds the rules from realworld292 to realworld299's
// development halves, version 96 those from realworld300 to realworld307's
// (without realworld303); version 97 lets a guessed failure with a run
// context keep its guess (see Grouper.Settle); version 98 reads a
// transfer that lost a few bytes as rewritten, encoding (transferDamage);
// version 99 reads a call and its successful answer as one transfer
// (oneTransfer) and a binary width's largest number as a size limit;
// version 100 reads a file missing from a test's fixtures or data folder
// as the test's own; version 101 adds the rules from realworld308 to
// realworld315's development halves and lets a guess restate by likeness
// only at 0.7 (guessedLikenessThreshold); version 102 reads Erlang's
// {error,enospc} as a full disk; version 103 adds the rules from
// realworld316 to realworld323's development halves; version 104 keeps a
// missing fixture in the failure key; version 105 adds the rules from
// realworld324 to realworld331's development halves; version 106 reads
// only what the failure key keeps in the rules that version 101 to 105
// added; version 107 keeps /etc/passwd and /etc/shadow in a path, and
// reads OOM, JSON-RPC and a missing linker whole, so that two messages of
// one failure key are never told apart by a rule; version 108 adds the
// rules from realworld332 to realworld339's development halves; version
// 109 adds those from realworld340 to realworld347's and reads a secret
// given to an environment variable as a quoted literal; version 110 adds
// the rules from realworld348 to realworld355's development halves;
// version 111 takes out, on review, a rule that read a masked field and
// the quoted literal secret, narrows "failed to create sandbox" and reads
// Postgres's crash recovery after the memory and storage rules; version
// 112 reads DuckDB's invalid unicode in the encoding rule, and no escaped
// zero given as a setting's value as a NUL; version 113 reads a program
// that Node, pnpm, gpg, Ruby's exec or GLib found nothing to spawn for as
// a missing program, not a missing file; version 114 adds rules read
// across every set's development halves (python -m of a missing module,
// a liveness probe's timeout, Airflow's missing task log, IndexedDB's
// damaged store, a DevTools id the browser lost, an event the test waited
// for, WebDriver's file the browser lacks); version 115 adds the rules
// from realworld356 to realworld363's development halves; version 116
// adds those from realworld364 to realworld371's; version 117 reads a
// server on the sandbox's loopback that refuses as one not running there;
// version 118 adds the rules from realworld372 to realworld379's
// development halves; version 119 narrows, on review, the loopback rule
// to the addresses the failure key keeps and takes out two rules that read
// a generic error as the test's; version 120 marks an exception raised
// in multiprocessing's semaphore code, which the semaphore rule reads;
// version 121 reads a DevTools call refused with no parameter named, or
// with an id that does not deserialize, as protocol; version 122 reads
// Playwright's goto of a URL that downloads as the test's; version 123
// lets the learned model overrule the rules it doubts (overrule.go); version
// 124 adds rules from realworld380 to realworld387's development halves;
// version 125 weighs every rule's overrule by its record; version 126
// adds rules from realworld388 to realworld395's development halves;
// version 127 spares the harness's figures from the overrule, counts the
// records on failures with a log only, and narrows two of 124's rules;
// version 128 keeps in the failure key a path's climb to a system folder
// and adds rules from realworld404 to realworld411's development halves;
// version 129 keeps a bare program name in the failure key and adds
// rules from realworld412 to realworld419's development halves; version
// 130 reads a run at its cgroup's process cap as process-spawn; version
// 131 adds rules from realworld420 to realworld427's development halves;
// version 132 reads a file the storage rules placed on a read-only mount
// as a permission; version 133 (a review's mends) holds each pids count
// against its own cgroup's cap, reads the process cap before the time
// limit and joins its failures to the thread or process limit's known
// cause, and keeps env's missing program in the failure key; version 134
// reads a refused port beside a server listening on another as the test's;
// version 135 adds rules from realworld428 to realworld435's development
// halves and reads a kill after SIGXCPU as the CPU-time limit's; version
// 136 reads a value the error names that the test's fixture or
// configuration gave as the test's; version 137 adds rules from
// realworld436 to realworld443's development halves; version 138 reads
// a connection the log shows the network never answered as egress;
// version 139 reads a program not installed, NUL bytes found and a
// renderer crashed from the log; version 140 adds rules from
// realworld445 to realworld451's development halves; version 141 (a
// review's mends) reads the harness's other figures before the log's
// outcomes and an unanswered connection, keeps BigQuery's ASCII 0 in the
// failure key, and narrows the new evidence to whole values, delivered
// signals, getent's hosts and which's own output; version 142 reads an
// OOM kill, a throttled CPU and a count of U+FFFD from the log; version
// 143 guesses by logistic regression instead of naive Bayes; version 144
// makes an argument list over the kernel's limit message-size (Node's
// spawn E2BIG stays process-spawn) and a lookup of no host name the
// test's; version 145 (a review's mends) gives spawn E2BIG a known cause
// of its own and keeps a lookup of no host name in the failure key;
// version 146 reads no OOM kill in a log's OOM counters at zero; version
// 147 reads the bytes of HTTP taken for a length as a protocol mismatch;
// version 148 (a review's mends) drops memory.events' spaced zero counter
// (oom_kill 0) too and keeps one that went on to a kill (oom_kill 0->1);
// version 149 reads a time limit's "timed out after" in minutes and hours
// as in seconds, since the normaliser masks the unit; version 150 reads
// a frame's first byte taken for a protocol version (Beats' "unsupported
// protocol 71") as a protocol mismatch and uWSGI's harakiri as a time
// limit; version 151 reads ZeroC Ice's memory limit on a message (see
// Ice.MessageSizeMax), and any "maximum allowed is N bytes", as its size;
// version 152 (a review's mends) keeps in the failure key whether a
// timeout was spelt out in seconds, minutes or hours, which the cpu-time
// rule reads and the normaliser masks, reads every HARAKIRI ON (a worker,
// a mule, the spooler) as the time limit, and drops a generic "maximum
// allowed is N" from the message-size rule;
// version 153 (a second review's mends) keeps in the key every duration a
// rule reads by its unit (a task's timeout in seconds, libcurl's "Timeout
// of 30 seconds was reached") and no longer reads milliseconds as
// seconds spelt out; version 154 keeps in the key whether Python's JSON
// decoder failed at its input's first byte, which the jsonrpc-parse rule
// reads and the normaliser masks; version 155 reads PHP 8's undefined
// process functions (exec, proc_open…) as disabled ones, and
// Elasticsearch's "index read-only / allow delete" alone as its
// flood-stage block, in the disk-full known cause; version 156 (a
// review's mends) no longer reads an undefined pcntl_fork, an
// extension's, as disabled, and reads the core functions' names in any
// case; version 157 lets a NUL the error names stand over a dump of
// bytes that holds U+FFFD beside it, and reads psycopg 3's "text fields
// cannot contain NUL" as the database text's known cause; version 158
// reads the character a YAML reader refused, NUL or another, and keeps
// which in the failure key; version 159 reads curl's, ssh's and Go's
// lookups of null, undefined or a scheme as a URL the test never set;
// version 160 (a review's mends) lets only words that name the NUL stand
// over a dump of U+FFFD, and reads Go's lookup only after "dial tcp";
// version 161 reads Open MPI short of slots as a refused spawn and a
// negative errno 28 as a full disk; version 162 reads a byte named 0x00
// and Jena's code point 0 as NUL, a byte order mark shown as "ï»¿" or
// dumped as "ef bb bf" as encoding, and an MCP session id quoted in "not
// found" as the protocol's session, and keeps in the failure key whether
// getUserMedia was read off undefined; version 163 reads opkg short of
// room and libmdbx's full map as a full store; version 164 (a review's
// mends) reads a zero as NUL only when named as a byte's or a character's
// value, and keeps in the failure key a byte order mark read as Latin-1;
// version 165 reads a module pytest could not import for a test file as
// the test's; version 166 reads bubblewrap's failed private root and
// overflow ids as a refused spawn and Laravel's token mismatch as an
// expired session; version 167 reads the status 413 only where it is no
// line number or log time, and keeps in the failure key whether it read
// one; version 168 (a review's mends) reads the status 413 after "http",
// "status" or "code" and not as a value, a path's id or a duration,
// bubblewrap's lines only where "bwrap:" is a word of its own, and
// PyTorch's tensor that /dev/shm could not hold as memory; version 169
// reads which(1)'s program on no folder of the PATH and PyVista's missing
// X server as missing packages; version 170 reads a process started before
// Python finished bootstrapping as the test's and Chrome's crash handler
// with no database folder before the connection its browser then lost;
// version 171 reads V8's invalid string length as a message's size, git's
// file it could not write as a full disk and protobuf's message it could
// not parse as encoding; version 172 (a review's mends) reads Chrome's
// crash handler after the browser's other causes again, the status 413
// only after "http", "status" or "code" and a space, colon, quote or
// equals sign, the bootstrapping message across escaped line breaks,
// and keeps in the failure key whether PyTorch's shared tensor file and
// which(1) after its own path were read; version 173 reads bytes a
// decoder refused and shows (an MQTT payload, Python's UnicodeDecodeError
// as a value, Ruby's Encoding errors) as encoding before a NUL among them,
// the JVM's and .NET's missing methods as a library of another version,
// and a damaged Xapian index as the store's; version 174 reads a bare
// "parse error" in a rule of its own, zsh's carriage return read as a
// command or inside a word as a CRLF rewrite, NeDB's corrupt data file as
// a damaged store and pyusb with no backend as a missing package; version
// 175 (a review's mends) reads .NET's missing method or field only in the
// binder's own words, Python's bytes in double quotes, zsh's "not an
// identifier" before a carriage return and NeDB's newer corrupt-file
// wording; version 176 keeps in the failure key whether UTF-8 shown as
// cp1252 is inside a quoted value and whether a missing file's path
// names an installed package's folder it climbs back out of; version 177
// reads Thrift's unset client_protocol (a Hive server older than its
// client) as the protocol's, Python's unpacking of too many or too few
// values as the test's own bug, and no NUL in a redirect to Windows' null
// device ("> nul"); version 178 (a review's mends) keeps that reading of
// a NUL on the NUL's own line, so that a NUL at a log line's start signs
// with that line, and reads a NUL an arrow points to ("-> NUL"); version
// 179 reads Ansible's "Unable to use multiprocessing" as a refused spawn,
// Go's fork/exec of a path that is not there as a missing program, and
// Proxmox's invalid PVE ticket as the login's end; version 180 reads a
// daemon's socket missing after a restart as no file lost, and an expired
// token (TokenExpiredError, "token has expired") as the login's end;
// version 181 reads nsenter refused a namespace as a refused spawn;
// version 182 (a review's mends) reads those in their own words only:
// TokenExpiredError in its case, nsenter's namespace errors, a path that
// ends in .sock, and fork/exec's missing path in the package-path rule;
// version 183 reads struct's unsigned range as a message's size,
// safetensors' HeaderTooLarge as a stored file that is not the model, a
// read from localhost that timed out as the time limit, and "is not owned
// by" as a file's permissions; version 184 (a review's mends) reads
// those in their own words only: a read from localhost in a rule of its
// own, after one that keeps a proxy's read the network's, "is not owned
// by" the user only, struct's ranges of 16 bits or more; version 185
// reads OPC UA's closed or unknown session as the session's end,
// PostgreSQL with no background worker free as a refused spawn, shmget's
// "No space left on device" as memory, Go's JSON at a \x escape as
// encoding and Python's unterminated JSON string as a message cut short,
// and no longer takes a connect timeout for the run's time limit; version
// 186 reads Elasticsearch's flood-stage block in the rule of a full or
// damaged store, which the model does not overrule, the MCP SDK's
// "validation errors for ClientRequest" as the protocol's, OpenLDAP's
// "Can't contact LDAP server" as the network's, Java's
// MalformedInputException as encoding and the ws library's invalid frame
// length, status code or opcode as the protocol's; version 187 (a
// review's mends) reads those in their own words only: the flood stage's
// block, not any cluster block, a connect timeout's key but not a
// connection's, shmget but not a path or a file that names it, gopcua's
// StatusBadSessionIDInvalid and PostgreSQL's "failed to start a
// background worker" too, and no longer ClientRequest (one set); version
// 188 (a second review's mends) keeps a bare cluster_block_exception with
// the storage rule, reads the flood stage's hyphenated watermark, and
// reads no file named for shmget as shared memory; version 189 reads Go's
// "bufio.Scanner: token too long" as a message's size and GnuPG's unsafe
// home folder or file as a file's permissions; version 190 reads .NET's
// "GC heap initialization failed" as memory; version 191 reads GNU grep's
// "Binary file … matches" as a NUL byte and io_uring refused at setup as a
// refused spawn; version 192 takes the harness's exit code of 0, where
// the log records no exit or status, as a tool that reported success;
// version 193 reads the password in PHP's trace of PDO's constructor as a
// secret shown; version 194 (a review's mends) reads grep's binary file
// and io_uring's refusal late, among the rules, takes no exit code of 0
// for success beside a process killed or crashed, on a result that could
// not run, or under a leaked secret, lets a status that says neither
// (running, sent) give way to the exit code, and drops the mark of success
// when the model moves a failure to the test or a time limit; version 195
// (a second review's) reads the exit code after the model's overrule, with
// the class before it and after it both ruling a test or a time limit out,
// lets a line's failed exit code stand beside a status that says neither,
// reads stopped, terminated and their like as a failure, and no header's
// Proxy-Status as a status; version 196 reads a whole URL looked up as a
// host name by Node as the test's, and newuidmap's or a uid_map's error
// as a refused spawn; version 197 (a review's mend) reads a uid_map or
// gid_map only under /proc, not a file or a key of that name; version
// 198 reads a key that counts a limit's hits (limit_hits) as a count, not
// as a time limit; version 199 reads GStreamer's no element "x" as a
// missing plugin and Home Assistant's refused websocket command as the
// protocol's, and (a review's mend) only a key with "hits" as a count;
// version 200 reads a count's key that ends in a unit of time (job_limit_s)
// as a time limit, and one that ends in a count word (timeout_hits) as a
// count whatever else it names; version 201 reads a Unix socket that
// refuses, resets or is missing as its daemon gone rather than egress, Errno
// 28 with "Invalid argument" as no full disk, and a rate limit's window or
// interval as no time limit on the run; version 202 reads PyTorch's "Torch
// not compiled with CUDA enabled" as a missing CUDA build, not the test's
// assertion; version 203 (a review's mends) reads Go's datagram and packet
// sockets and a broken pipe as a daemon gone too but not "read unix
// timestamp", Errno 28 alike across spacing, a timeout's interval as a
// time limit, and PyTorch's missing or too old NVIDIA driver as
// package-path; version 204 reads Firefox's "Cross-Origin Request
// Blocked" and Chromium's CORS refusals without "blocked by CORS policy"
// (a preflight that fails the access check, no or a wildcard
// Access-Control-Allow-Origin) as egress, as that phrase was; version 205
// keeps /dev/shm in a signature, since the browser-crash rule reads it (a
// device such as /dev/ttyACM0 is still an occurrence); version 206 reads
// Node's spawn refused with ENAMETOOLONG (Windows' command line too long)
// as the refused spawn that E2BIG is, not a file name too long; version
// 207 (a review's mends) reads the CORS refusals only by the words the
// failure key keeps and only a preflight's failed access check, a Windows
// program path with spaces in a refused spawn, and /dev/shm/ with its
// slash as /dev/shm; version 208 reads Jackson's "(CTRL-CHAR, code 0)" as
// a NUL byte, and SELinux denying a process executable memory or a change
// of user or group as a refused process, not a file's permissions; version
// 209 (a review's mends) reads both across any spacing the failure key
// folds, SELinux's list of such permissions, and not execmod, a file's;
// version 210 rates a build log clipped at its limit critical; version 211
// reads a NUL in caret notation closing a name, after a double quote and
// in TeX's "^^@", and git's diffstat of a source file as binary as a NUL in
// it; version 212 (a review's mends) reads neither in a regular
// expression, git's revision syntax, a lock file, a minified script or a
// text file that may be UTF-16, and a rename's diffstat; version 213 puts
// a download whose bytes differ from their published digest in encoding;
// version 214 reads Chrome's crash handler without its database as a
// folder's permissions before the reset that follows, Flask-WTF's lost
// session token as the session's, WP-CLI outside WordPress as the test's,
// and git's diffstat across any spacing the failure key folds; version 215
// reads Xlib's lost display as the session's, gdb's register packet too
// long as a protocol's skew, NightConfig's file of NULs, Gradio's refused
// path and git's dubious ownership; version 216 (a review's mends) reads
// gdb's packet whatever its masked name, GDK's lost display, cargo's
// checksum as the download's cause, and Chrome's crash handler case-blind;
// version 217 reads asyncio's IncompleteReadError as a stream that ended
// mid-frame (protocol), not a size limit, and an HTTP client refusing a
// URL's control or unescaped characters as input refused; version 218
// reads Hugging Face's missing snapshot folder as egress, by a rule of its
// own with the class's name the network rule read, and BuildKit's
// ResourceExhausted with ENOMEM as memory;
// version 219 reads ChromeDriver's Chrome that crashed as it started as a
// refused spawn, unless ChromeDriver does not support that Chrome,
// Page.printToPDF's "Printing is not available" as a method
// the browser does not serve, and Android's INSTALL_FAILED_INSUFFICIENT_STORAGE
// as a full disk; version 220 (a review's mends) reads ChromeDriver that
// does not support its Chrome before the failed start, BuildKit's step out
// of memory after a command longer than the key keeps, and asyncio's
// stream and Hugging Face's hub case-blind; version 221 reads a disk
// without enough free space (apt, Postfix) as full, a zip member that fails
// its CRC as encoding, and Keycloak's inactive token as the session's;
// version 222 (a review's mends) reads free space only in apt's and
// Postfix's words, not a heap's, a GPU's or /dev/shm's, and the token
// after a word's start; version 223 names Docker's refused socket and
// inotify's watch limit as known causes of their own, apart from a file
// refused and the open file limit; version 224 no longer joins a TLS
// library's error that timed out to the certificate refused, and reads
// bash's shebang naming an interpreter that is not there as a package's;
// version 225 names Mesa's loader without its GL driver as a known cause
// of its own, apart from the libraries beside it; version 226 (a review's
// mends) keeps Docker's socket's name in the signature and reads it alone
// as Docker's, reads more wordings of inotify's watch limit but not a line
// that says EMFILE, reads only libGL's software rasterizer as Mesa's
// driver not installed, and looks for a TLS error's timeout on its own
// line; version 227 reads nginx's body over its limit and PHP's upload
// over upload_max_filesize as a 413, and runc's exec into a stopped
// container as the container not running, and joins pandas' missing
// optional dependency, Node's old JS allocation failure, XLA's refused
// allocation and GLib's refused fdwalk to the known causes they are;
// version 228 no longer reads "mojibake" inside a file's name as text
// decoded wrongly; version 229 reads bash's "command not found" in the
// languages it is translated to, a write to a full non-blocking pipe
// as message-size rather than a process limit, the JVM's
// IncompatibleClassChangeError and AbstractMethodError as a library of
// another version, and JUnit's test class with no runnable methods as
// the test's; version 230 (a review's mends) reads bash's translations
// from its own catalogues and only as its line, and a carriage return or
// a compiler in them as in English, joins XLA's allocator out of memory
// to the accelerator's, and reads more wordings of V8's, PHP's, runc's
// and JUnit's; version 231 reads PHP's undefined function of a bundled
// extension (mb_strlen, iconv, imap_open) as the extension not
// installed; version 232 reads Rust's thread that overflowed its stack
// and a sanitizer that cannot allocate as memory; version 233 reads
// coreutils' timeout refusing its duration as the test's; version 234
// (a review's mends) reads PHP's extension functions by their names, not
// their prefixes, and not curl_exec, a Rust test's own thread that
// overflowed its stack no more, and sleep's duration refused too;
// version 235 rates a JSON-RPC method the server lacks medium; version
// 236 reads sysctl refused by a read-only /proc/sys as a file's
// permissions whatever key it names, and a watch refused for space as
// inotify's watch limit; version 237 makes bytes carried as surrogates
// that an encoder refuses a known cause of their own, critical; version
// 238 rates a legacy code page's refusal and a codec that cannot encode
// critical again, not high; version 239 (a review's mends) reads a
// refused /proc/sys key in sysctl's other words and written to its file,
// pyinotify's and tail's watch refused for space, titles the surrogates'
// cause by lone surrogates, and rates a server's method not found medium
// without its code too; version 240 rates a server's worker killed for
// time high; version 241 rates cpu-time high unless the error names the
// limit that stopped it, and a program's own out-of-memory report high
// unless it is a GPU's; version 242 rates a refused process high unless
// the error names the limit or the setting that refused it; version 243
// (a review's mends) reads the words that make a failure critical, and a
// success over damaged data, before the words that make it clear, and
// names the kernel's and Python's argument list too long, Chromium's
// printed --no-sandbox, and AMD's and Apple's GPUs out of memory;
// version 244 reads an import Python calls most likely circular as the
// test's, and a program started with no terminal (/dev/tty that cannot
// be opened, gpg's pinentry with no tty) as a refused process; version
// 245 reads a NaN a JSON encoder refuses as input refused, SQLite's
// integrity check that reports damage as a damaged store, tcmalloc's
// large alloc as memory before a kernel's restart, and libjpeg's
// premature end of data segment as an image cut short; version 246
// gives a process started before Python finished bootstrapping, and an
// import Python calls circular, rules of their own; version 247 (a
// review's mends) reads tcmalloc's large alloc as memory before the
// session rule only beside a kernel's restart, and alone, like libjpeg's
// premature end of data segment, only when nothing else is read;
// version 248 reads AppArmor refusing a process its own operation as a
// refused process, over a renderer that then crashed, and a shared object
// with no ELF header as bytes that are not the binary; version 249 reads
// Rust's NulError and FromBytesWithNulError as a NUL byte; version 250
// (a review's mends) keeps a mark of AppArmor's refusal in the key, reads
// a loader's missing ELF header as encoding only when the transfer
// changed the bytes, and rates Rust's NUL refusals high in any print;
// version 251 reads a web application's refused CSRF token as the
// session's by a rule of its own; version 252 takes two hex strings for
// digests only beside a digest's name as a word ("sha" before no letter),
// not beside "shallow" or "shape"; version 253 does not read a Windows
// path's folder named 0 (mlruns\0\meta.yaml) as a NUL escape; version
// 254 reads wandb's network error before its retry loop as egress;
// version 255 (a review's mends) reads a NUL escape case-sensitively and
// not in a path's folder named 0 before any file or with doubled
// backslashes, keeps marks of it and of a quoted CSRF code in the key,
// narrows the CSRF rule, and finds a digest's name in camelCase and
// not in a key named shard; version 256 lets the learned model overrule
// none of the fourteen rules whose overruling broke at least 3 more
// development-half records than it fixed (spared, in overrule.go);
// version 257 gives a guessed or unclassified failure logged like the
// first failure of a template a rule, a known cause or the harness placed
// that template's class (loggedClass); version 258 (a review's mends)
// lets a template that takes such a template in lend its class too;
// version 259 joins templates of one class logged alike at 0.4 of their
// log words, not 0.5 (logLikeness); version 260 reads no NUL in "null
// bytes" right after "=", a key's value of null (nulWords); version 261
// reads "can't start new thread" with any run of blanks between "new"
// and "thread"; version 262 makes every run of spaces and tabs one space
// before the rules' first reading, as the failure key does (foldBlanks);
// version 263 reads a registry without the image asked for as the
// test's (registry-image-missing), and a name that holds
// "sandbox" (cs50/sandbox, xml-sandbox) as no sandbox gone; version 264
// (a review's mends) reads so in the rule's every branch, and a
// sandbox gone at the start of a later line signs with that line;
// version 265 reads a count or a digest keyed "sandbox" as the far end
// of the transfer, as "remote" is (countEnd); version 266 reads btoa's
// "characters outside of the Latin1 range" as the text's encoding, and a
// connection that found no socket to connect to ("could not connect to
// server: No such file or directory") as no file lost (lostAfterWrite);
// version 267 (a review's mends) reads such a connection only where
// "connect" stands alone, not in a path (connect.log, kafka-connect/), and
// PostgreSQL's own socket (.s.PGSQL.5432) as a socket; version 268 reads
// Chrome's zygote refused a renderer's OOM score as the process's start,
// not memory (oom-score-not-adjusted); version 269 reads pip's requirements
// file not found and SQLAlchemy's pool run out as the test's
// (harness-error).
const SignatureVersion = 269

// Fingerprint identifies what c decides: the signature version, every
// rule, the user's and the built-in ones, in order, the known causes and
// its guess model. An index built under
// another fingerprint holds classifications c would not make.
func (c *Classifier) Fingerprint() string {
	h := sha256.New()
	fmt.Fprintf(h, "signatures %d\n", SignatureVersion)
	pattern := func(re *regexp.Regexp) string {
		if re == nil {
			return ""
		}
		return re.String()
	}
	for _, r := range c.rules {
		fmt.Fprintf(h, "%q %q %q %v %q %q %q %q %q %q\n", r.Name, pattern(r.ErrorRegex), pattern(r.LogRegex),
			r.ExitCodes, r.Targets, r.Domains, r.Statuses, r.Tools, r.Layer, r.Primitive)
	}
	for _, k := range knownCauses {
		fmt.Fprintf(h, "cause %q %q %q %q %q %v\n", k.Name, k.Primitive, k.Title, k.re.String(), pattern(k.unless), k.exitCodes)
	}
	// The model as it decodes, so that the same model read from any file
	// gives the same fingerprint.
	model, _ := json.Marshal(c.model)
	fmt.Fprintf(h, "guess model %x prior %v margin %v unnamed %v stems %v leaning %v\n", sha256.Sum256(model), wordPrior, minBayesMargin, minUnnamedMargin, minStemsOverrule, minLeaningWords)
	// The margins each rule is overruled at, which the model's records,
	// the prior, the cut-off and the rules never overruled decide.
	for _, by := range slices.Sorted(maps.Keys(c.overrules)) {
		fmt.Fprintf(h, "overrule %q %v\n", by, c.overrules[by])
	}
	return hex.EncodeToString(h.Sum(nil))
}
