package triage

import (
	"cmp"
	"sandtrap"
	"slices"
	"strconv"
	"strings"

	"sandtrap/drain"
)

// A failure mode is a template mined from signatures (package drain) within
// one layer and primitive, so two causes never share a mode because their
// words are alike. The normaliser has already replaced what it knows to
// vary; the miner then generalises what it did not know, such as a program
// name after "fork blocked for", as the members of a template show it.

// TemplateTokens splits a signature into the tokens the miner compares, with
// typed tokens masked as drain.Wildcard: the normaliser's placeholders,
// quoted strings, paths, URLs, host:port pairs, and tokens holding digits
// other than the codes the normaliser keeps (Errno 13, exit code 137,
// -32700, HTTP 404) and short digit runs inside words (python3, sha256).
func TemplateTokens(signature string) []string {
	if name, _, ok := KnownCauseOf(signature); ok {
		// One token: a known cause's mode never generalises, and never
		// takes in another cause's.
		return []string{knownCausePrefix + name + "]"}
	}
	return maskFields(strings.Fields(signature))
}

// maskFields masks, in place, the tokens of fields that vary between the
// failures of one cause, as the miner compares them, and returns fields.
func maskFields(fields []string) []string {
	for i, tok := range fields {
		prev := ""
		if i > 0 {
			prev = fields[i-1]
		}
		if variableToken(tok, prev) {
			fields[i] = maskValues(tok)
		}
	}
	return fields
}

// maskValues returns a variable token as the miner compares it: a list of
// key=value pairs (uid=0, num=20,flags=62) keeps its keys, since lines
// that name other keys are other events; anything else is drain.Wildcard.
func maskValues(tok string) string {
	sep := "="
	if !strings.Contains(tok, "=") {
		sep = ":"
	}
	if !strings.Contains(tok, sep) || strings.ContainsAny(tok, "/\\'\"`") {
		return drain.Wildcard
	}
	pairs := strings.Split(strings.TrimRight(tok, ","), ",")
	for i, p := range pairs {
		key, value, ok := strings.Cut(p, sep)
		if !ok || key == "" || !isKey(key) || sep == ":" && strings.Contains(key, ".") {
			return drain.Wildcard
		}
		if hasDigit(value) || strings.Contains(value, "<") {
			pairs[i] = key + sep + drain.Wildcard
		}
	}
	return strings.Join(pairs, ",")
}

// isKey reports a word of letters, digits and underscores that starts
// with a letter.
func isKey(s string) bool {
	if !isLetter(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; !isLetter(c) && !isDigit(c) && c != '_' && c != '.' && c != '-' {
			return false
		}
	}
	return true
}

// shownTokens splits a signature into the tokens people read, one for each
// token of TemplateTokens: a known cause's whole signature is one.
func shownTokens(signature string) []string {
	if _, _, ok := KnownCauseOf(signature); ok {
		return []string{signature}
	}
	return strings.Fields(signature)
}

// variableToken reports whether tok, after prev, varies between the
// failures of one cause.
func variableToken(tok, prev string) bool {
	if tok == drain.Wildcard {
		return true
	}
	if strings.Contains(tok, "<") && strings.Contains(tok, ">") {
		return true // a placeholder of the normaliser, maybe inside quotes
	}
	core := strings.Trim(tok, `'"`+"`()[]{},;.")
	if core == "" {
		return false
	}
	if q := tok[0]; (q == '\'' || q == '"' || q == '`') && len(tok) > 2 && closesQuote(tok[1:], q) && !keptQuotedToken(tok) {
		return true
	}
	if strings.Contains(core, "://") || strings.ContainsAny(core, "/\\") && len(core) > 1 {
		return true
	}
	if dottedName(strings.TrimRight(core, ":")) && !AnchorToken(tok) {
		return true // com.apple.CacheDelete.daily, a reverse-DNS or package name
	}
	if !hasDigit(core) {
		return false
	}
	if keptCode(core, prev) {
		return false
	}
	return !shortDigitsInWord(core) || numberedName(core)
}

// dottedName reports a name of three or more dotted parts, each a word.
func dottedName(s string) bool {
	parts := strings.Split(s, ".")
	if len(parts) < 3 {
		return false
	}
	for _, p := range parts {
		// Java's inner classes join with $ (MRAppMaster$Router).
		if p == "" || !isKey(strings.ReplaceAll(p, "$", "_")) {
			return false
		}
	}
	return true
}

// closesQuote reports whether the rest of a token after its opening quote q
// closes it: a quoted single token is a name that varies, while the first
// word of a quoted phrase ("GET /path HTTP/1.1") is compared as a word.
func closesQuote(rest string, q byte) bool {
	return strings.IndexByte(strings.TrimRight(rest, ",;.:)]}"), q) >= 0
}

// numberedName reports a word joined by underscores to numbers, such as
// rdd_42_6 or task_7: an instance's id, not a name. x86_64 and GLIBC_2.34,
// whose first part holds a digit or whose number has a dot, are names.
func numberedName(w string) bool {
	parts := strings.Split(w, "_")
	if len(parts) < 2 || !isLetters(parts[0]) {
		return false
	}
	for _, p := range parts[1:] {
		if p != "" && isCode(p) {
			return true
		}
	}
	return false
}

func isLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isLetter(s[i]) {
			return false
		}
	}
	return s != ""
}

// keptQuotedToken reports quoted constants the normaliser keeps, such as a
// codec name, which tell encoding failures apart.
func keptQuotedToken(tok string) bool {
	return keptQuoted(strings.Trim(tok, `'"`+"`:,;."))
}

// keptCode reports a number the normaliser keeps because it names an error
// (after Errno, code, signal, HTTP, exit, rc) or is a JSON-RPC code. A bare
// status is one field of a record (status: 404 len: 176), so it varies.
func keptCode(core, prev string) bool {
	if strings.HasPrefix(core, "-32") && len(core) == 6 {
		return true
	}
	switch strings.ToLower(strings.Trim(prev, `'"[(:,=`)) {
	case "errno", "error", "code", "signal", "http", "exit", "rc", "curl", "exited", "returned":
		return true
	}
	if i := strings.IndexByte(core, '='); i > 0 {
		switch strings.ToLower(core[:i]) {
		case "error", "errno", "code", "rc", "signal":
			return true
		}
	}
	return false
}

// shortDigitsInWord reports a word with letters and at most three digits
// in a row, such as python3, sha256, x86_64 or utf-8: names, not values.
func shortDigitsInWord(w string) bool {
	letters, run := false, 0
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case isDigit(c):
			run++
			if run > 3 {
				return false
			}
		case isLetter(c):
			letters = true
			run = 0
		default:
			run = 0
		}
	}
	return letters
}

func hasDigit(s string) bool {
	for i := 0; i < len(s); i++ {
		if isDigit(s[i]) {
			return true
		}
	}
	return false
}

// AnchorToken reports tokens that name an error: exception and error class
// names (PermissionError:, java.io.IOException), errno names (ENOENT,
// EACCES), error constants (net::ERR_NAME_NOT_RESOLVED) and the codes the
// normaliser keeps. Two failures that differ in one are two causes.
func AnchorToken(tok string) bool {
	core := strings.Trim(tok, `'"`+"`()[]{},;:.")
	if core == "" || core == drain.Wildcard {
		return false
	}
	if i := strings.LastIndex(core, "::"); i >= 0 {
		core = core[i+2:]
	}
	if i := strings.LastIndexByte(core, '.'); i >= 0 && i < len(core)-1 {
		core = core[i+1:]
	}
	if isCode(core) {
		return true // a number the normaliser kept: Errno 13, HTTP 404, exit code 137
	}
	switch {
	case strings.HasSuffix(core, "Error") || strings.HasSuffix(core, "Exception") || strings.HasSuffix(core, "Exit"):
		return len(core) > 5 && isUpper(core[0])
	case strings.HasPrefix(core, "ERR_"):
		return true
	case len(core) >= 4 && core[0] == 'E' && allUpperOrDigit(core):
		return true // ENOENT, EACCES, EAI_AGAIN
	case strings.HasPrefix(core, "-32") && len(core) == 6 && hasDigit(core):
		return true
	case strings.HasPrefix(core, "SIG") && len(core) > 4 && allUpperOrDigit(core):
		return true
	case len(core) >= 2 && strings.Trim(core, "*?") == "":
		// A mark for a missing value (****, ??): a reading that failed
		// is another event than a reading.
		return true
	case len(core) >= 3 && isLetters(core) && allUpperOrDigit(core):
		// A word in capitals is a constant a program names: a state
		// (from NEW to SCHEDULED), a scheme (HTTPS), a level.
		return true
	}
	return false
}

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }

// isCode reports a token of digits alone, maybe negative: in a signature,
// the normaliser has replaced every number that varies, so what is left
// names an error.
func isCode(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

func allUpperOrDigit(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isUpper(c) && !isDigit(c) && c != '_' {
			return false
		}
	}
	return true
}

// ModeGroup is the miner's group of a layer and primitive: templates never
// cross it.
func ModeGroup(layer, primitive string) string { return layer + "/" + primitive }

// splitGroup is the inverse of ModeGroup.
func splitGroup(group string) (layer, primitive string) {
	layer, primitive, _ = strings.Cut(group, "/")
	return layer, primitive
}

// mintModeID is the id of a template when it is first created: ModeID of its
// layer, primitive and first tokens. A signature with nothing to mask keeps
// the id it had before templates were mined.
func mintModeID(group string, tokens []string) string {
	layer, primitive := splitGroup(group)
	return ModeID(layer, primitive, strings.Join(tokens, " "))
}

// maxGrouperCache bounds the per-signature cache of a Grouper; past it the
// cache starts over, and the miner answers for the signatures it forgot.
const maxGrouperCache = 1 << 17

// Grouper assigns failures to failure modes by mining templates from their
// signatures. Each distinct (layer, primitive, signature) is mined once and
// cached. Ids are minted when a template is created and kept as it
// generalises; a template absorbed by another becomes an alias of it. A
// Grouper is not safe for concurrent use.
type Grouper struct {
	miner   *drain.Miner
	cache   map[grouperKey]string
	aliases map[string]string
	// shown holds each template as people read it: the signature's own
	// tokens where every member agrees (a path, <size>), drain.Wildcard
	// where they differ. Masking it gives the miner's tokens back.
	shown map[string][]string
	// words indexes the live templates of each group by their words, to
	// find the template a new one of another length restates.
	words wordIndex
	// byCodes holds, per group, the oldest template naming each set of
	// error codes.
	byCodes map[string]map[string]string
	// like finds the template a new one restates by likeness.
	like likeness
	// byContext holds, per group and RunContext, the templates created in
	// that context, oldest first; contextOf is each one's context.
	byContext map[string][]string
	contextOf map[string]string
	// logs indexes the live templates of each group by the words of
	// their first failure's log (see loggedMostAlike); toolOf is the
	// tool that printed each one's first failure (see toolOf).
	logs   wordIndex
	toolOf map[string]string
	// decidedLogs indexes, by the words of their first failure's log, the
	// live templates whose first failure a rule, a known cause or the
	// harness placed, or that took in such a template (see loggedClass),
	// all groups in one (decidedGroup): a guess is compared with every
	// class's.
	decidedLogs wordIndex
	// pool mines every signature of every class together, to settle the
	// class of failures no rule decided (see Settle); poolClass holds the
	// class of each pool template, its first member's.
	pool      *drain.Miner
	poolClass map[string]string
	poolSeq   int
	settled   map[grouperKey]string
}

type grouperKey struct{ layer, primitive, signature string }

// GroupingConfig is the miner's configuration: two leading tokens key the
// tree, as in the paper, and seven positions in ten must agree. The
// paper's half merged log events that differ in one word ("VM Paused" and
// "VM Started"); failures of one cause differ in their variables, which
// the normaliser has masked, so the stricter share does not split them
// (measured on both blind sets: no change).
var GroupingConfig = drain.Config{Depth: 2, Similarity: 0.7, MaxChildren: 100, Anchor: AnchorToken}

// NewGrouper returns an empty Grouper.
func NewGrouper() *Grouper {
	g := &Grouper{cache: map[grouperKey]string{}, aliases: map[string]string{}, shown: map[string][]string{},
		words: newWordIndex(), byCodes: map[string]map[string]string{}, like: newLikeness(),
		byContext: map[string][]string{}, contextOf: map[string]string{}, logs: newWordIndex(), toolOf: map[string]string{}, decidedLogs: newWordIndex()}
	g.miner = drain.New(GroupingConfig, g.mint)
	g.poolClass, g.settled = map[string]string{}, map[grouperKey]string{}
	g.pool = drain.New(GroupingConfig, func(string, []string) string {
		g.poolSeq++
		return "p" + strconv.Itoa(g.poolSeq)
	})
	return g
}

// poolGroup is the one group of the pool.
const poolGroup = "*"

// Settle returns cl with the class that its failure's mode will have. A
// failure that a rule, a known cause or the harness decided keeps its
// class, and its signature is noted in the pool under that class. One that
// nothing decided, or that was only guessed from its words, takes the
// class of the pool template its signature joins: the words of one event
// differ in its variables ("Invalid user ubnt", "Invalid user anonymous"),
// and a guess that followed them would split one cause over primitives.
// Only a signature that starts a pool template keeps its own guess, and so
// does a failure with a harness's log (a run context): its guess read the
// log besides the words, and over the blind campaigns the template's class
// was right for 20 % of the guesses it overruled. Before all that, a guess
// or an unclassified failure whose log, its failure's log tail, is logged
// like the first failure of a template a rule, a known cause or the
// harness placed takes that template's class (see loggedClass).
func (g *Grouper) Settle(cl Classification, log []byte) Classification {
	if class, ok := g.loggedClass(cl, log); ok {
		return reclassBy(cl, class, GuessBy+loggedAlike)
	}
	sig := cl.ModeSignature()
	if strings.TrimSpace(sig) == "" {
		// No words: nothing says which template it is one of.
		return cl
	}
	// What settling gives depends on the class, the signature and whether
	// the failure settles, not on which words a guess named.
	key := grouperKey{cl.Layer, cl.Primitive + "\x00" + strconv.FormatBool(settles(cl)), sig}
	class, ok := g.settled[key]
	if !ok {
		own := ModeGroup(cl.Layer, cl.Primitive)
		res := g.pool.Add(poolGroup, TemplateTokens(sig))
		class = g.poolClass[res.Template.ID]
		if res.Created || class == "" {
			class = own
			g.poolClass[res.Template.ID] = own
		}
		for _, t := range res.Absorbed {
			delete(g.poolClass, t.ID)
		}
		if !settles(cl) {
			class = own
		}
		if len(g.settled) >= maxGrouperCache {
			clear(g.settled)
		}
		g.settled[key] = class
	}
	return reclass(cl, class)
}

// SettleLookup is Settle for a failure looked up rather than mined: it
// notes nothing.
func (g *Grouper) SettleLookup(cl Classification, log []byte) Classification {
	if class, ok := g.loggedClass(cl, log); ok {
		return reclassBy(cl, class, GuessBy+loggedAlike)
	}
	if !settles(cl) || strings.TrimSpace(cl.ModeSignature()) == "" {
		return cl
	}
	if t := g.pool.Match(poolGroup, TemplateTokens(cl.ModeSignature())); t != nil && g.poolClass[t.ID] != "" {
		return reclass(cl, g.poolClass[t.ID])
	}
	return cl
}

// reclass returns cl in class, a ModeGroup, saying who placed it there.
func reclass(cl Classification, class string) Classification {
	if layer, _ := splitGroup(class); layer == sandtrap.LayerUnclassified {
		return reclassBy(cl, class, ByNone)
	}
	return reclassBy(cl, class, GuessBy+"like its template")
}

// reclassBy returns cl in class, a ModeGroup, placed there by by.
func reclassBy(cl Classification, class, by string) Classification {
	layer, primitive := splitGroup(class)
	if layer == cl.Layer && primitive == cl.Primitive {
		return cl
	}
	cl.Layer, cl.Primitive, cl.Cause, cl.By = layer, primitive, "", by
	return cl
}

// settles reports whether Settle may give cl its pool template's class: a
// weak class of a failure without a harness's log.
func settles(cl Classification) bool {
	return weakClassification(cl) && cl.Context == ""
}

// weakClassification reports a class that no rule, cause or harness gave.
func weakClassification(cl Classification) bool {
	return cl.Layer == sandtrap.LayerUnclassified || strings.HasPrefix(cl.By, GuessBy)
}

// mint gives a new template the id mintModeID makes of it, unless a
// template or alias holds that id already (a form seen, absorbed and seen
// again): then a numbered variant.
func (g *Grouper) mint(group string, tokens []string) string {
	id := mintModeID(group, tokens)
	for n := 2; g.taken(id); n++ {
		id = mintModeID(group, append(tokens[:len(tokens):len(tokens)], "#"+strconv.Itoa(n)))
	}
	return id
}

func (g *Grouper) taken(id string) bool {
	_, live := g.miner.Get(id)
	return live || g.aliases[id] != ""
}

// SavedTemplate is a template as the state keeps it.
type SavedTemplate struct {
	ID, Layer, Primitive string
	// Template is the template as people read it, tokens joined by single
	// spaces: the mode's signature.
	Template string
	// Tokens is the miner's form, with typed tokens as drain.Wildcard,
	// joined by single spaces.
	Tokens     string
	Count, Seq int64
	// Context is the RunContext the template was created in, "" for none.
	Context string
	// LogWords are the LogWords of its first failure's log, nil for none,
	// and Tool the tool that printed its first failure (see toolOf).
	LogWords []string
	Tool     string
	// Decided says that a rule, a known cause or the harness placed its
	// first failure, so that a guess logged alike takes its class (see
	// loggedClass).
	Decided bool
}

// Restore puts back a saved template.
func (g *Grouper) Restore(t SavedTemplate) {
	shown := shownTokens(t.Template)
	group := ModeGroup(t.Layer, t.Primitive)
	tokens := strings.Split(t.Tokens, " ")
	if t.Tokens == "" || len(tokens) != len(shown) {
		tokens = TemplateTokens(t.Template)
	}
	if g.miner.Restore(drain.Template{ID: t.ID, Group: group, Tokens: tokens, Count: t.Count, Seq: t.Seq}) {
		g.shown[t.ID] = shown
		g.index(group, t.ID, tokens, templateWords(tokens), signatureWords(t.Template))
		g.noteContext(group, t.ID, t.Context)
		g.noteLog(group, t.ID, t.LogWords, t.Tool)
		if t.Decided {
			g.markDecided(t.ID)
		}
		// The pool learns the saved classes, so that a failure after a
		// restart settles where its template's failures did.
		if res := g.pool.Add(poolGroup, tokens); res.Created {
			g.poolClass[res.Template.ID] = group
		}
	}
}

// RestoreAlias records that the template alias was absorbed by target.
func (g *Grouper) RestoreAlias(alias, target string) { g.aliases[alias] = target }

// Assignment is the mode of one failure and what mining it changed.
type Assignment struct {
	ModeID string
	// Template is the mode's template, as it stands after this failure.
	Template SavedTemplate
	// Created and Changed say whether the template is new or generalised.
	Created, Changed bool
	// Absorbed are the ids that now resolve to ModeID.
	Absorbed []string
}

// restating says how much of an older template's words a new template of
// another length must share to restate it.
type restating int

const (
	// restateExact asks for the same words: a failure nothing classified
	// has only its words, and lines of a log that share most words are
	// often different events ("Failed password for root" and "Failed
	// password for invalid user").
	restateExact restating = iota
	// restateNearly asks that nearly every word of the shorter be in the
	// longer (guessedShare): a guessed failure is placed by its words too,
	// but a tool's prefix around one sentence adds words, and its own
	// wording of the sentence changes one or two ("permissions for" and
	// "permissions into").
	restateNearly
	// restateMost asks for most words, or the same error codes: a rule
	// placed the failure, so its class already says much of the cause.
	restateMost
)

// restatingOf is how strictly a failure of this class restates.
func restatingOf(cl Classification) restating {
	switch {
	case cl.Layer == sandtrap.LayerUnclassified, strings.HasPrefix(cl.By, GuessLeaning):
		return restateExact
	case strings.HasPrefix(cl.By, GuessBy):
		return restateNearly
	}
	return restateMost
}

// Assign returns the failure mode of a failure with this layer, primitive
// and signature.
func (g *Grouper) Assign(layer, primitive, signature string) Assignment {
	return g.assign(layer, primitive, signature, runEvidence{}, restatingOf(Classification{Layer: layer}))
}

// runEvidence is what a failure's run says of it beside the signature it
// is mined from, for mining: its RunContext, its log's tail and its own
// signature, whose tool (toolOf) is read when it starts a template.
type runEvidence struct {
	context string
	log     []byte
	own     string
	decided bool
}

// AssignClassified returns the failure mode of a classified failure, as
// Settle placed it; log is the failure's log tail (Failure.LogTail), nil
// when there is none.
func (g *Grouper) AssignClassified(cl Classification, log []byte) Assignment {
	return g.assign(cl.Layer, cl.Primitive, cl.ModeSignature(), runEvidence{cl.Context, log, cl.Signature, !weakClassification(cl)}, restatingOf(cl))
}

// assign mines signature in its layer and primitive's group; ev is what
// the failure's run says of it, and how says how strictly a new template
// restates an older one.
func (g *Grouper) assign(layer, primitive, signature string, ev runEvidence, how restating) Assignment {
	key := grouperKey{layer, primitive, signature}
	if id, ok := g.cache[key]; ok {
		id = g.Resolve(id)
		return Assignment{ModeID: id, Template: g.saved(id)}
	}
	tokens := shownTokens(signature)
	res := g.miner.Add(ModeGroup(layer, primitive), TemplateTokens(signature))
	id := res.Template.ID
	a := Assignment{ModeID: id, Created: res.Created, Changed: res.Changed && !res.Created}
	group := ModeGroup(layer, primitive)
	if res.Created {
		g.shown[id] = tokens
		words, likeWords, logWords := templateWords(res.Template.Tokens), signatureWords(signature), LogWords(ev.log)
		tool := toolOf(ev.own)
		var severity string
		if ev.context != "" && how != restateExact || len(logWords) > 0 {
			severity, _ = Severity(layer, primitive, strings.Join(tokens, " "))
		}
		restated, outranked := g.restates(group, res.Template.Tokens, words, likeWords, ev.context, logWords, tool, severity, how)
		if len(restated) > 0 {
			// A template of another length that says the same words is
			// the same cause: the new one is taken back before anything
			// used its id, and the signature maps to the oldest it
			// restates. The others it restates are one cause with that
			// one through it, and become its aliases.
			g.miner.Remove(id)
			delete(g.shown, id)
			into := restated[0]
			a = Assignment{ModeID: into}
			for _, other := range restated[1:] {
				g.absorb(group, into, other, &a)
			}
			a.Template = g.saved(into)
			g.remember(key, into)
			return a
		}
		g.index(group, id, res.Template.Tokens, words, likeWords)
		g.noteLog(group, id, logWords, tool)
		if ev.decided {
			g.markDecided(id)
		}
		if outranked != "" {
			// One cause logged alike, which the older template rates
			// less severe: the new one takes it in, so that its failures
			// are rated as the worse of the two wordings says.
			g.absorb(group, id, outranked, &a)
		}
		if how != restateExact {
			// A lean or an unclassified failure joins no template by its
			// context, and none joins it.
			g.noteContext(group, id, ev.context)
		}
	} else if g.generalise(id, tokens) {
		a.Changed = true
	}
	for _, t := range res.Absorbed {
		g.aliases[t.ID] = id
		a.Absorbed = append(a.Absorbed, t.ID)
		g.generalise(id, g.shown[t.ID])
		delete(g.shown, t.ID)
		g.inherit(id, t.ID)
		g.unindex(group, t.ID)
	}
	a.Template = g.saved(a.ModeID)
	g.remember(key, a.ModeID)
	return a
}

// absorb makes the live template other of group an alias of into, which
// takes its count, and records it in a.
func (g *Grouper) absorb(group, into, other string, a *Assignment) {
	if t, ok := g.miner.Get(other); ok {
		if survivor, ok := g.miner.Get(into); ok {
			survivor.Count += t.Count
		}
	}
	g.miner.Remove(other)
	g.aliases[other] = into
	delete(g.shown, other)
	g.inherit(into, other)
	g.unindex(group, other)
	a.Absorbed = append(a.Absorbed, other)
}

// inherit gives template into what the template other, which it
// takes in, lends to new failures: a mode a rule placed stays one whose
// class a guess logged alike takes.
func (g *Grouper) inherit(into, other string) {
	if g.isDecided(other) {
		g.markDecided(into)
	}
}

// decidedGroup is the one group of Grouper.decidedLogs.
const decidedGroup = "*"

// markDecided notes that template id lends its class to guesses
// logged alike (see loggedClass): it is indexed by the words of its first
// failure's log, and a template without them lends nothing.
func (g *Grouper) markDecided(id string) {
	if words := g.logs.wordsOf[id]; len(words) > 0 && !g.isDecided(id) {
		g.decidedLogs.add(decidedGroup, id, words)
	}
}

// isDecided reports whether template id lends its class (markDecided).
func (g *Grouper) isDecided(id string) bool {
	_, ok := g.decidedLogs.wordsOf[id]
	return ok
}

func (g *Grouper) remember(key grouperKey, id string) {
	if len(g.cache) >= maxGrouperCache {
		clear(g.cache)
	}
	g.cache[key] = id
}

// Restating templates. Drain compares messages of one length only, but
// tools wrap one cause in prefixes of their own ("grpc: received message
// larger than max" and "rpc error: code = ResourceExhausted desc = grpc:
// received message larger than max"). A new template whose words are,
// for the most part, the words of an older template of its group restates
// it: at least minSharedWords shared, covering restateShare of the shorter
// template's words.
const (
	minSharedWords = 4
	restateShare   = 0.7
	// guessedShare is restateNearly's share. Lines of one system's log
	// that differ in one word of six are often two events (OpenSSH's
	// "Failed password for root" and "… for invalid user"), and a guess
	// places those too: at 0.7 the real logs' grouping fell.
	guessedShare = 0.85
)

// templateWords returns the distinct lower-cased words of a template's
// constant tokens, without punctuation and short function words.
func templateWords(tokens []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, tok := range tokens {
		if tok == drain.Wildcard {
			continue
		}
		for _, w := range strings.FieldsFunc(strings.ToLower(tok), func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-')
		}) {
			if len(w) < 3 || stopWords[w] || seen[w] {
				continue
			}
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

var stopWords = map[string]bool{"the": true, "and": true, "for": true, "with": true, "from": true, "was": true, "are": true, "this": true, "that": true}

// errorCodes returns the error codes a template names, sorted and joined:
// JSON-RPC codes (-32601), errno names (EAI_AGAIN, ENOENT), error
// constants (ERR_NAME_NOT_RESOLVED, RESOURCE_EXHAUSTED). Tools print one
// code in many sentences; within a layer and primitive, one code is one
// cause.
func errorCodes(tokens []string) string {
	var codes []string
	for _, tok := range tokens {
		for _, w := range strings.FieldsFunc(tok, func(r rune) bool {
			return !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r >= 'a' && r <= 'z')
		}) {
			if isErrorCode(w) && !slices.Contains(codes, w) {
				codes = append(codes, w)
			}
		}
	}
	slices.Sort(codes)
	return strings.Join(codes, " ")
}

func isErrorCode(w string) bool {
	switch {
	case strings.HasPrefix(w, "-32") && len(w) == 6 && allUpperOrDigit(w[1:]):
		return true
	case strings.HasPrefix(w, "ERR_") && len(w) > 5:
		return allUpperOrDigit(w[4:])
	case len(w) >= 5 && w[0] == 'E' && allUpperOrDigit(w):
		return true
	case strings.Contains(w, "_") && len(w) >= 6 && allUpperOrDigit(w) && w[0] != '_':
		return true
	}
	return false
}

// restates returns the live templates of group that a new template with
// these tokens and words (templateWords) restates, oldest first: a
// template that was minted with the same id before and has since become
// an alias (the form seen again after its cause was restated), one that
// names the same error codes, or one whose words it shares as much as how
// asks; failing those, when a rule or a guess placed it, the one most
// alike to its signature's words, likeWords, a guess's far more alike
// (see likeness), or else the oldest created in its run context, context,
// whose signature rates the severity it rates, severity. Before the
// likeness, the one whose first failure's log is most alike to its own,
// logWords (see loggedMostAlike), is restated when it is rated severity or
// worse, and returned as outranked, for the new template to absorb, when
// it is rated less severe and nothing else is restated.
func (g *Grouper) restates(group string, tokens, words, likeWords []string, context string, logWords []string, tool, severity string, how restating) (ids []string, outranked string) {
	var found []*drain.Template
	restatable, eligible, loggable := g.restatableBy(group, tokens, tool)
	add := func(id string) {
		if t, ok := restatable(id); ok && !slices.Contains(found, t) {
			found = append(found, t)
		}
	}
	if alias := mintModeID(group, tokens); g.aliases[alias] != "" {
		add(g.Resolve(alias))
	}
	if codes := errorCodes(tokens); codes != "" && how == restateMost {
		if id, ok := g.byCodes[group][codes]; ok {
			add(g.Resolve(id))
		}
	}
	if len(words) >= minSharedWords {
		shared := map[string]int{}
		for _, w := range words {
			for _, id := range g.words.ids[group][w] {
				shared[id]++
			}
		}
		for id, n := range shared {
			theirs := len(g.words.wordsOf[id])
			if n < minSharedWords || float64(n) < restateShare*float64(min(len(words), theirs)) {
				continue
			}
			switch shorter := min(len(words), theirs); {
			case how == restateExact && (n != len(words) || n != theirs):
				continue
			case how == restateNearly && float64(n) < guessedShare*float64(shorter):
				continue
			}
			add(id)
		}
	}
	if len(found) == 0 && len(logWords) > 0 {
		if t, ok := g.loggedMostAlike(group, logWords, loggable); ok {
			if g.ratedAtLeast(t, severity) {
				add(t.ID)
			} else {
				outranked = t.ID
			}
		}
	}
	if len(found) == 0 && (how == restateMost || how == restateNearly) {
		threshold := likenessThreshold
		if how == restateNearly {
			threshold = guessedLikenessThreshold
		}
		if id, ok := g.like.mostAlike(group, likeWords, eligible, threshold); ok {
			add(id)
		}
		if len(found) == 0 && context != "" {
			if id, ok := g.joinedByContext(group, context, severity, eligible); ok {
				add(id)
			}
		}
	}
	slices.SortFunc(found, func(a, b *drain.Template) int { return cmp.Compare(a.Seq, b.Seq) })
	for _, t := range found {
		ids = append(ids, t.ID)
	}
	if len(ids) > 0 {
		outranked = ""
	}
	return ids, outranked
}

// findings start the signatures of what the harness's evidence found in a
// failure that keeps its class (see withLogEvidence and classify): a
// template that names one and one that does not say the same words of two
// findings, a leaked token and the failure without one, never one
// restating the other.
var findings = [][]string{
	strings.Fields(secretLeaked + ":"),
	strings.Fields(traversalFound + ":"),
	strings.Fields(filesDisappeared + ":"),
	strings.Fields(errorPageSaved + ":"),
	strings.Fields(toolSucceeded + ":"),
}

// findingOf returns which of findings tokens start with, or -1.
func findingOf(tokens []string) int {
	for i, words := range findings {
		if len(tokens) >= len(words) && slices.Equal(tokens[:len(words)], words) {
			return i
		}
	}
	return -1
}

func (g *Grouper) index(group, id string, tokens, words, likeWords []string) {
	if codes := errorCodes(tokens); codes != "" {
		if g.byCodes[group] == nil {
			g.byCodes[group] = map[string]string{}
		}
		if _, ok := g.byCodes[group][codes]; !ok {
			g.byCodes[group][codes] = id
		}
	}
	g.words.add(group, id, words)
	g.like.add(group, id, likeWords)
}

func (g *Grouper) unindex(group, id string) {
	g.decidedLogs.remove(decidedGroup, id)
	g.words.remove(group, id)
	g.like.remove(group, id)
	g.logs.remove(group, id)
}

// noteLog records the LogWords of template id's first failure, and the
// tool that printed it.
func (g *Grouper) noteLog(group, id string, logWords []string, tool string) {
	if len(logWords) > 0 {
		g.logs.add(group, id, logWords)
	}
	if tool != "" {
		g.toolOf[id] = tool
	}
}

// restatableBy returns, for a new template of group with these tokens,
// printed by tool (see toolOf), whether a template id can be restated by
// it (live, of the group, with the same finding), whether it is eligible
// by likeness or run context (restatable, and not two known causes: each
// names one cause on purpose), and whether it can be joined by log
// (restatable, and two known causes only when two tools printed them).
//
// One tool tells its own errors apart, and logs alike around each of them;
// two tools that print two known causes in a run logged alike print one
// cause in their own words. Over the 283 blind sets, pairs of known causes
// of one class logged alike were one cause 372 times in 384 when their
// tools differed.
func (g *Grouper) restatableBy(group string, tokens []string, tool string) (restatable func(id string) (*drain.Template, bool), eligible, loggable func(id string) bool) {
	finding, known := findingOf(tokens), knownTemplate(tokens)
	restatable = func(id string) (*drain.Template, bool) {
		t, live := g.miner.Get(id)
		return t, live && t.Group == group && findingOf(t.Tokens) == finding
	}
	bothKnown := func(id string) (ok, both bool) {
		t, ok := restatable(id)
		return ok, ok && known && knownTemplate(t.Tokens)
	}
	eligible = func(id string) bool {
		ok, both := bothKnown(id)
		return ok && !both
	}
	loggable = func(id string) bool {
		ok, both := bothKnown(id)
		theirs := g.toolOf[id]
		return ok && (!both || tool != "" && theirs != "" && tool != theirs)
	}
	return restatable, eligible, loggable
}

// joinedByContext returns the oldest live template of group, eligible to
// be restated, created in context, whose signature rates severity. The
// same primitive failing in the same kind of workflow, on the same target,
// with the same exit status, is one cause in other words (see RunContext),
// unless their signatures rate it differently: a mode has one severity.
func (g *Grouper) joinedByContext(group, context, severity string, eligible func(id string) bool) (string, bool) {
	layer, primitive := splitGroup(group)
	for _, id := range g.byContext[contextKey(group, context)] {
		if id = g.Resolve(id); eligible(id) {
			if theirs, _ := Severity(layer, primitive, g.text(id)); theirs == severity {
				return id, true
			}
		}
	}
	return "", false
}

// noteContext records that template id of group was created in context.
func (g *Grouper) noteContext(group, id, context string) {
	if context == "" {
		return
	}
	key := contextKey(group, context)
	g.byContext[key] = append(g.byContext[key], id)
	g.contextOf[id] = context
}

func contextKey(group, context string) string { return group + "\x00" + context }

// Lookup returns the mode a failure with this layer, primitive and signature
// would get, without mining it: ok is false when it would start a new one.
func (g *Grouper) Lookup(layer, primitive, signature string) (id string, ok bool) {
	if id, ok := g.cache[grouperKey{layer, primitive, signature}]; ok {
		return g.Resolve(id), true
	}
	group, tokens := ModeGroup(layer, primitive), TemplateTokens(signature)
	if t := g.miner.Match(group, tokens); t != nil {
		return g.Resolve(t.ID), true
	}
	// A form whose template was restated away is known by its alias.
	if alias := mintModeID(group, tokens); g.aliases[alias] != "" {
		return g.Resolve(alias), true
	}
	return "", false
}

// LookupClassified is Lookup for a classified failure with this log tail,
// as AssignClassified would place it: a signature that would start a
// template of its own gets the template its run context or its log joins
// it to, if any.
func (g *Grouper) LookupClassified(cl Classification, log []byte) (id string, ok bool) {
	if id, ok := g.Lookup(cl.Layer, cl.Primitive, cl.ModeSignature()); ok {
		return id, true
	}
	byContext, logWords := cl.Context != "" && restatingOf(cl) != restateExact, LogWords(log)
	if !byContext && len(logWords) == 0 {
		return "", false
	}
	group := ModeGroup(cl.Layer, cl.Primitive)
	tokens := TemplateTokens(cl.ModeSignature())
	_, eligible, loggable := g.restatableBy(group, tokens, toolOf(cl.Signature))
	severity, _ := Severity(cl.Layer, cl.Primitive, strings.Join(shownTokens(cl.ModeSignature()), " "))
	if t, ok := g.loggedMostAlike(group, logWords, loggable); ok && g.ratedAtLeast(t, severity) {
		return t.ID, true
	}
	if byContext {
		return g.joinedByContext(group, cl.Context, severity, eligible)
	}
	return "", false
}

// Resolve follows aliases from id to the template that absorbed it.
func (g *Grouper) Resolve(id string) string {
	return Root(id, func(id string) string { return g.aliases[id] })
}

// generalise turns the shown tokens of template id into what the miner
// keeps where tokens differ, and reports whether any changed.
func (g *Grouper) generalise(id string, tokens []string) bool {
	shown := g.shown[id]
	if len(shown) != len(tokens) {
		return false
	}
	t, mined := g.miner.Get(id)
	changed := false
	for i, tok := range tokens {
		if shown[i] == tok {
			continue
		}
		// Where members differ, the template shows what the miner
		// keeps there: drain.Wildcard, or a token masked in part
		// (uid=<*>), so that masking the shown form gives the miner's.
		gen := drain.Wildcard
		if mined && i < len(t.Tokens) {
			gen = t.Tokens[i]
		}
		if shown[i] != gen {
			shown[i] = gen
			changed = true
		}
	}
	return changed
}

func (g *Grouper) saved(id string) SavedTemplate {
	t, ok := g.miner.Get(id)
	if !ok {
		return SavedTemplate{ID: id}
	}
	layer, primitive := splitGroup(t.Group)
	return SavedTemplate{ID: t.ID, Layer: layer, Primitive: primitive, Template: g.shownText(t), Tokens: t.String(), Count: t.Count, Seq: t.Seq, Context: g.contextOf[t.ID], LogWords: g.logs.wordsOf[t.ID], Tool: g.toolOf[t.ID], Decided: g.isDecided(t.ID)}
}

// text is the template id as people read it, "" when it is not live.
func (g *Grouper) text(id string) string {
	if t, ok := g.miner.Get(id); ok {
		return g.shownText(t)
	}
	return ""
}

// shownText is t as people read it: its shown tokens where they are kept.
func (g *Grouper) shownText(t *drain.Template) string {
	if shown, ok := g.shown[t.ID]; ok && len(shown) == len(t.Tokens) {
		return strings.Join(shown, " ")
	}
	return t.String()
}

// Templates returns every template.
func (g *Grouper) Templates() []SavedTemplate {
	ts := g.miner.Templates()
	out := make([]SavedTemplate, 0, len(ts))
	for _, t := range ts {
		out = append(out, g.saved(t.ID))
	}
	return out
}
