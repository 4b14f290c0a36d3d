// Package drain mines message templates online, after Drain: P. He, J. Zhu,
// Z. Zheng and M. R. Lyu, "Drain: An Online Log Parsing Approach with Fixed
// Depth Tree", IEEE ICWS 2017, pp. 33–40.
//
// Each message is a sequence of tokens whose variable parts the caller has
// already masked as Wildcard. A message goes down a tree of fixed depth:
// first by its group (the caller's partition, which two messages must share
// to meet), then by its token count, then by its first Depth tokens. The leaf
// holds templates; the message joins the most similar one whose share of
// equal positions reaches Similarity (a masked variable in both counts as
// equal), and the positions where they differ become Wildcard. Otherwise it
// starts a template of its own.
//
// Two changes to the paper serve stable failure-mode ids. A template keeps
// the id minted when it was created, however far it generalises. And when a
// template generalises until another template of its leaf is one of its
// instances, it absorbs that template and reports the absorbed id, so the
// caller can keep it as an alias. Anchor tokens (error codes, exception
// names) never generalise: two messages that differ in one never share a
// template.
package drain

import (
	"slices"
	"strings"
)

// Wildcard stands for a variable token.
const Wildcard = "<*>"

// Config tunes a Miner. Zero values take the paper's defaults.
type Config struct {
	// Depth is how many leading tokens key the tree below the token count
	// (the paper's depth less its two fixed layers); 2 when zero.
	Depth int
	// Similarity is the share of equal positions a message needs to join a
	// template; 0.5 when zero.
	Similarity float64
	// MaxChildren caps the children of an inner node; later tokens share a
	// Wildcard child. 100 when zero.
	MaxChildren int
	// Anchor reports tokens that must match exactly; nil for none.
	Anchor func(token string) bool
}

// Template is a mined template.
type Template struct {
	ID     string
	Group  string
	Tokens []string
	// Count is how many messages joined it, including absorbed templates'.
	Count int64
	// Seq orders templates by creation: the older of two keeps its id when
	// one absorbs the other.
	Seq int64
}

// String is the template's tokens joined by single spaces.
func (t *Template) String() string { return strings.Join(t.Tokens, " ") }

// Result says what adding a message did.
type Result struct {
	Template *Template
	// Created is set when the message started a new template.
	Created bool
	// Changed is set when the template's tokens changed.
	Changed bool
	// Absorbed lists the templates merged into Template; their ids should
	// resolve to Template's from now on.
	Absorbed []*Template
}

// Miner is an online template miner. It is not safe for concurrent use.
type Miner struct {
	cfg  Config
	mint func(group string, tokens []string) string
	tree map[leafKey]*node
	byID map[string]*Template
	seq  int64
}

type leafKey struct {
	group string
	n     int
}

type node struct {
	children  map[string]*node
	templates []*Template
}

// New returns a Miner. mint gives the id of a new template from its group
// and first tokens; it must not return an id in use.
func New(cfg Config, mint func(group string, tokens []string) string) *Miner {
	if cfg.Depth <= 0 {
		cfg.Depth = 2
	}
	if cfg.Similarity <= 0 {
		cfg.Similarity = 0.5
	}
	if cfg.MaxChildren <= 0 {
		cfg.MaxChildren = 100
	}
	return &Miner{cfg: cfg, mint: mint, tree: map[leafKey]*node{}, byID: map[string]*Template{}}
}

// Len is the number of templates.
func (m *Miner) Len() int { return len(m.byID) }

// Get returns the template with this id.
func (m *Miner) Get(id string) (*Template, bool) {
	t, ok := m.byID[id]
	return t, ok
}

// Templates returns every template, in no particular order.
func (m *Miner) Templates() []*Template {
	out := make([]*Template, 0, len(m.byID))
	for _, t := range m.byID {
		out = append(out, t)
	}
	return out
}

// Restore puts back a template saved earlier, with its id, tokens, count
// and sequence, so that new messages match it first. Restoring an id twice
// replaces nothing and reports false.
func (m *Miner) Restore(t Template) bool {
	if _, ok := m.byID[t.ID]; ok || len(t.Tokens) == 0 {
		return false
	}
	tp := &Template{ID: t.ID, Group: t.Group, Tokens: append([]string(nil), t.Tokens...), Count: t.Count, Seq: t.Seq}
	leaf := m.leaf(tp.Group, tp.Tokens, true)
	leaf.templates = append(leaf.templates, tp)
	m.byID[tp.ID] = tp
	m.seq = max(m.seq, tp.Seq)
	return true
}

// Remove takes a template out, as if it had never been mined; it reports
// whether the template was there.
func (m *Miner) Remove(id string) bool {
	t, ok := m.byID[id]
	if !ok {
		return false
	}
	leaf := m.leaf(t.Group, t.Tokens, false)
	if leaf != nil {
		leaf.templates = slices.DeleteFunc(leaf.templates, func(o *Template) bool { return o == t })
	}
	delete(m.byID, id)
	return true
}

// Match returns the template that tokens would join, without changing
// anything, or nil.
func (m *Miner) Match(group string, tokens []string) *Template {
	leaf := m.leaf(group, tokens, false)
	if leaf == nil {
		return nil
	}
	t, _ := m.best(leaf, tokens)
	return t
}

// Add mines one message of group.
func (m *Miner) Add(group string, tokens []string) Result {
	if len(tokens) == 0 {
		tokens = []string{""}
	}
	leaf := m.leaf(group, tokens, true)
	t, _ := m.best(leaf, tokens)
	if t == nil {
		m.seq++
		own := append([]string(nil), tokens...)
		t = &Template{ID: m.mint(group, own), Group: group, Tokens: own, Count: 1, Seq: m.seq}
		leaf.templates = append(leaf.templates, t)
		m.byID[t.ID] = t
		return Result{Template: t, Created: true, Changed: true}
	}
	t.Count++
	changed := false
	for i, tok := range tokens {
		if t.Tokens[i] != tok && t.Tokens[i] != Wildcard {
			t.Tokens[i] = Wildcard
			changed = true
		}
	}
	res := Result{Template: t, Changed: changed}
	if changed {
		res.Template, res.Absorbed = m.absorb(leaf, t)
	}
	return res
}

// absorb merges into t every other template of its leaf that is an instance
// of t. The older template survives, taking the generalised tokens.
func (m *Miner) absorb(leaf *node, t *Template) (*Template, []*Template) {
	var absorbed []*Template
	kept := leaf.templates[:0]
	survivor := t
	for _, o := range leaf.templates {
		if o == t || !m.instanceOf(o.Tokens, t.Tokens) {
			kept = append(kept, o)
			continue
		}
		absorbed = append(absorbed, o)
	}
	if len(absorbed) == 0 {
		return t, nil
	}
	// The oldest of t and the absorbed keeps its id.
	for i, o := range absorbed {
		if o.Seq < survivor.Seq {
			absorbed[i] = survivor
			survivor = o
		}
	}
	for _, o := range absorbed {
		survivor.Count += o.Count
		delete(m.byID, o.ID)
	}
	if survivor != t {
		survivor.Tokens = t.Tokens
		for i, o := range kept {
			if o == t {
				kept[i] = survivor
			}
		}
	}
	for i := len(kept); i < len(leaf.templates); i++ {
		leaf.templates[i] = nil
	}
	leaf.templates = kept
	return survivor, absorbed
}

// instanceOf reports whether every position of tokens matches pattern,
// where a Wildcard in pattern matches anything but an anchor, as in
// similarity.
func (m *Miner) instanceOf(tokens, pattern []string) bool {
	for i, p := range pattern {
		if p == Wildcard && tokens[i] != Wildcard && m.anchor(tokens[i]) || p != Wildcard && p != tokens[i] {
			return false
		}
	}
	return true
}

// best returns the leaf's template most similar to tokens, if it is similar
// enough, and its similarity. Ties go to the template with more wildcards,
// the more general one, as in Drain's reference implementation, then to the
// older one.
func (m *Miner) best(leaf *node, tokens []string) (*Template, float64) {
	var (
		bestT    *Template
		bestSim  = -1.0
		bestVars = 0
	)
	for _, t := range leaf.templates {
		sim, vars, ok := m.similarity(t.Tokens, tokens)
		if !ok {
			continue
		}
		if sim > bestSim || sim == bestSim && (vars > bestVars || vars == bestVars && t.Seq < bestT.Seq) {
			bestT, bestSim, bestVars = t, sim, vars
		}
	}
	if bestT == nil || bestSim < m.cfg.Similarity {
		return nil, bestSim
	}
	return bestT, bestSim
}

// similarity is the paper's simSeq, the share of positions where the
// template's token equals the message's, with one change: a position where
// both hold a typed variable counts as equal, since the caller masked both
// for the same kind of value (the paper counts it as unequal, which keeps
// apart lines that are mostly values, such as "connection from <ip> at
// <date>"). A position where the two differ and either is an anchor rules
// the template out.
func (m *Miner) similarity(template, tokens []string) (sim float64, vars int, ok bool) {
	equal := 0
	for i, p := range template {
		switch {
		case p == Wildcard:
			vars++
			if tokens[i] == Wildcard {
				// Both hold a typed variable: alike in kind.
				equal++
			} else if m.anchor(tokens[i]) {
				return 0, 0, false
			}
		case p == tokens[i]:
			equal++
		case m.anchor(p) || m.anchor(tokens[i]):
			return 0, 0, false
		}
	}
	// A message that is all variables matches a template of the same
	// shape: nothing else tells them apart.
	if len(template) == vars {
		return 1, vars, true
	}
	return float64(equal) / float64(len(template)), vars, true
}

func (m *Miner) anchor(tok string) bool { return m.cfg.Anchor != nil && m.cfg.Anchor(tok) }

// leaf walks the tree to the leaf of tokens, creating nodes when create is
// set; it returns nil when the leaf does not exist. A token without a child
// of its own gets one while the node has room, and shares the Wildcard child
// after that, as in the paper.
func (m *Miner) leaf(group string, tokens []string, create bool) *node {
	key := leafKey{group, len(tokens)}
	n := m.tree[key]
	if n == nil {
		if !create {
			return nil
		}
		n = &node{children: map[string]*node{}}
		m.tree[key] = n
	}
	for i := 0; i < m.cfg.Depth && i < len(tokens); i++ {
		tok := tokens[i]
		if child := n.children[tok]; child != nil {
			n = child
			continue
		}
		if len(n.children) >= m.cfg.MaxChildren {
			tok = Wildcard
		}
		child := n.children[tok]
		if child == nil {
			if !create {
				return nil
			}
			child = &node{children: map[string]*node{}}
			n.children[tok] = child
		}
		n = child
	}
	return n
}
