package drain

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// counter mints ids t1, t2, … in creation order.
func counter() func(string, []string) string {
	n := 0
	return func(string, []string) string { n++; return fmt.Sprintf("t%d", n) }
}

func anchor(tok string) bool {
	return strings.HasSuffix(tok, "Error:") || strings.HasPrefix(tok, "ERR_")
}

func TestAdd(t *testing.T) {
	tests := []struct {
		name     string
		messages []string // group|message
		want     []string // the template each message ends in, after all are added
		wantTpl  map[string]string
	}{
		{
			name:     "messages that differ in one token share a template that generalises there",
			messages: []string{"g|Permission denied: <*> for user alice", "g|Permission denied: <*> for user bob"},
			want:     []string{"t1", "t1"},
			wantTpl:  map[string]string{"t1": "Permission denied: <*> for user <*>"},
		},
		{
			name:     "messages of different lengths never meet",
			messages: []string{"g|disk full", "g|disk full again"},
			want:     []string{"t1", "t2"},
		},
		{
			name:     "messages of different groups never meet",
			messages: []string{"a|Killed", "b|Killed"},
			want:     []string{"t1", "t2"},
		},
		{
			name:     "messages below the similarity threshold start their own template",
			messages: []string{"g|connection reset by peer now", "g|connection lost to the host"},
			want:     []string{"t1", "t2"},
		},
		{
			name:     "an anchor that differs keeps two otherwise similar messages apart",
			messages: []string{"g|page.goto: ERR_NAME_NOT_RESOLVED at <*>", "g|page.goto: ERR_CONNECTION_REFUSED at <*>"},
			want:     []string{"t1", "t2"},
		},
		{
			name:     "an exception name is an anchor",
			messages: []string{"g|PermissionError: [Errno 13] denied <*>", "g|FileNotFoundError: [Errno 13] denied <*>"},
			want:     []string{"t1", "t2"},
		},
		{
			name: "a template that generalises absorbs another and the older id survives",
			messages: []string{
				"g|fork blocked for gcc in job", // t1
				"g|fork blocked for javac in run",
				"g|fork blocked for rustc in job", // joins t1 or t2, generalising
			},
			want:    []string{"t1", "t1", "t1"},
			wantTpl: map[string]string{"t1": "fork blocked for <*> in <*>"},
		},
		{
			name:     "a message of variables only joins a template of its shape",
			messages: []string{"g|<*> <*>", "g|<*> <*>"},
			want:     []string{"t1", "t1"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := New(Config{Anchor: anchor}, counter())
			var got []*Template
			aliases := map[string]string{}
			for _, msg := range tt.messages {
				group, text, _ := strings.Cut(msg, "|")
				res := m.Add(group, strings.Fields(text))
				for _, a := range res.Absorbed {
					aliases[a.ID] = res.Template.ID
				}
				got = append(got, res.Template)
			}
			resolve := func(id string) string {
				for aliases[id] != "" {
					id = aliases[id]
				}
				return id
			}
			for i, tp := range got {
				if g := resolve(tp.ID); g != tt.want[i] {
					t.Errorf("message %d %q: got template %s, want %s", i, tt.messages[i], g, tt.want[i])
				}
			}
			for id, want := range tt.wantTpl {
				tp, ok := m.Get(id)
				if !ok {
					t.Fatalf("template %s is gone", id)
				}
				if got := tp.String(); got != want {
					t.Errorf("template %s: got %q, want %q", id, got, want)
				}
			}
		})
	}
}

func TestAbsorbing(t *testing.T) {
	tests := []struct {
		name         string
		saved        []Template
		message      string
		wantID       string
		wantTokens   string
		wantCount    int64
		wantAbsorbed []string
	}{
		{
			name: "a template that generalises over another absorbs it",
			saved: []Template{
				{ID: "old", Group: "g", Tokens: strings.Fields("p q a <*>"), Count: 2, Seq: 1},
				{ID: "young", Group: "g", Tokens: strings.Fields("p q b <*>"), Count: 3, Seq: 2},
			},
			message:      "p q c x",
			wantID:       "old",
			wantTokens:   "p q <*> <*>",
			wantCount:    6,
			wantAbsorbed: []string{"young"},
		},
		{
			name: "when the younger template generalises over the older, the older id survives",
			saved: []Template{
				{ID: "old", Group: "g", Tokens: strings.Fields("p q a x"), Count: 2, Seq: 1},
				{ID: "young", Group: "g", Tokens: strings.Fields("p q <*> y"), Count: 3, Seq: 2},
			},
			message:      "p q <*> x",
			wantID:       "old",
			wantTokens:   "p q <*> <*>",
			wantCount:    6,
			wantAbsorbed: []string{"young"},
		},
		{
			name: "a template that is not an instance stays",
			saved: []Template{
				{ID: "old", Group: "g", Tokens: strings.Fields("p q a c"), Count: 1, Seq: 1},
				{ID: "young", Group: "g", Tokens: strings.Fields("p q b <*>"), Count: 1, Seq: 2},
			},
			message:    "p q a d",
			wantID:     "old",
			wantTokens: "p q a <*>",
			wantCount:  2,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := New(Config{}, counter())
			for _, s := range tt.saved {
				m.Restore(s)
			}
			res := m.Add("g", strings.Fields(tt.message))
			if res.Template.ID != tt.wantID || res.Template.String() != tt.wantTokens || res.Template.Count != tt.wantCount {
				t.Errorf("got %s %q count %d, want %s %q count %d", res.Template.ID, res.Template.String(), res.Template.Count,
					tt.wantID, tt.wantTokens, tt.wantCount)
			}
			var absorbed []string
			for _, a := range res.Absorbed {
				absorbed = append(absorbed, a.ID)
				if _, ok := m.Get(a.ID); ok {
					t.Errorf("absorbed template %s is still there", a.ID)
				}
			}
			if !slices.Equal(absorbed, tt.wantAbsorbed) {
				t.Errorf("got absorbed %v, want %v", absorbed, tt.wantAbsorbed)
			}
			if got, want := m.Len(), len(tt.saved)-len(tt.wantAbsorbed); got != want {
				t.Errorf("got %d templates, want %d", got, want)
			}
			if got := m.Match("g", strings.Fields(tt.message)); got == nil || got.ID != tt.wantID {
				t.Errorf("the message matches %v afterwards, want %s", got, tt.wantID)
			}
		})
	}
}

func TestRestoredTemplatesAreMatchedFirst(t *testing.T) {
	m := New(Config{}, counter())
	if !m.Restore(Template{ID: "m-saved", Group: "sandbox/filesystem-permissions", Tokens: strings.Fields("Permission denied: <*>"), Count: 4, Seq: 7}) {
		t.Fatal("restore refused a new template")
	}
	if m.Restore(Template{ID: "m-saved", Group: "g", Tokens: []string{"x"}}) {
		t.Error("restore accepted an id twice")
	}
	if got := m.Match("sandbox/filesystem-permissions", strings.Fields("Permission denied: <*>")); got == nil || got.ID != "m-saved" {
		t.Errorf("got %v, want the restored template", got)
	}
	res := m.Add("sandbox/filesystem-permissions", strings.Fields("Permission denied: <*>"))
	if res.Created || res.Template.ID != "m-saved" || res.Template.Count != 5 {
		t.Errorf("got %+v, want the restored template with count 5", res.Template)
	}
	res = m.Add("other", strings.Fields("fresh"))
	if res.Template.Seq != 8 {
		t.Errorf("got seq %d, want 8: new templates follow the restored ones", res.Template.Seq)
	}
}

func TestMatchChangesNothing(t *testing.T) {
	m := New(Config{}, counter())
	m.Add("g", strings.Fields("a b c"))
	if got := m.Match("g", strings.Fields("a b d")); got == nil || got.ID != "t1" {
		t.Fatalf("got %v, want t1", got)
	}
	tp, _ := m.Get("t1")
	if got, want := tp.String(), "a b c"; got != want || tp.Count != 1 {
		t.Errorf("got %q count %d, want %q count 1", got, tp.Count, want)
	}
	if got := m.Match("g", strings.Fields("z b c")); got != nil {
		t.Errorf("got %s for a first token never seen, want nil", got.ID)
	}
	if got := m.Match("h", strings.Fields("a b c")); got != nil {
		t.Errorf("got %s for another group, want nil", got.ID)
	}
}

func TestTokensPastMaxChildrenShareAWildcardBranch(t *testing.T) {
	m := New(Config{MaxChildren: 2}, counter())
	for _, first := range []string{"alpha", "beta", "gamma", "delta"} {
		m.Add("g", []string{first, "failed", "now"})
	}
	ids := map[string]bool{}
	for _, tp := range m.Templates() {
		ids[tp.String()] = true
	}
	got := slices.Sorted(func(yield func(string) bool) {
		for k := range ids {
			if !yield(k) {
				return
			}
		}
	})
	want := []string{"<*> failed now", "alpha failed now", "beta failed now"}
	if !slices.Equal(got, want) {
		t.Errorf("got templates %q, want %q", got, want)
	}
}

func TestAddIsDeterministic(t *testing.T) {
	msgs := []string{"a b c d", "a b x d", "a q c d", "a b c e", "z b c d", "a b <*> d"}
	run := func() []string {
		m := New(Config{}, counter())
		var out []string
		for _, s := range msgs {
			out = append(out, m.Add("g", strings.Fields(s)).Template.ID)
		}
		return out
	}
	first := run()
	for i := 0; i < 5; i++ {
		if got := run(); !slices.Equal(got, first) {
			t.Fatalf("run %d: got %v, want %v", i, got, first)
		}
	}
}

func TestVariablesInBothCountAsAlike(t *testing.T) {
	m := New(Config{}, counter())
	first := m.Add("g", strings.Fields("connection from <*> () at <*> <*> <*> <*> <*>"))
	second := m.Add("g", strings.Fields("connection from <*> <*> at <*> <*> <*> <*> <*>"))
	if second.Created || second.Template.ID != first.Template.ID {
		t.Errorf("got a new template %s for a line that differs from %s in one position, want one template", second.Template.ID, first.Template.ID)
	}
}

func TestRemoveForgetsATemplate(t *testing.T) {
	m := New(Config{}, counter())
	a := m.Add("g", strings.Fields("disk full on volume"))
	if !m.Remove(a.Template.ID) || m.Remove(a.Template.ID) {
		t.Fatal("got Remove reporting wrongly whether the template was there")
	}
	if got := m.Match("g", strings.Fields("disk full on volume")); got != nil {
		t.Errorf("got %s after Remove, want no template", got.ID)
	}
	if res := m.Add("g", strings.Fields("disk full on volume")); !res.Created {
		t.Error("got a removed template back, want a new one")
	}
}

func TestAnAnchorIsNeverAbsorbedIntoAWildcard(t *testing.T) {
	m := New(Config{Anchor: anchor}, counter())
	m.Restore(Template{ID: "gen", Group: "g", Tokens: strings.Fields("open <*> failed x"), Seq: 1})
	m.Restore(Template{ID: "err", Group: "g", Tokens: strings.Fields("open ERR_X failed y"), Seq: 2})
	res := m.Add("g", strings.Fields("open <*> failed z"))
	if len(res.Absorbed) != 0 {
		t.Errorf("got %v absorbed, want the template with an anchor kept apart", res.Absorbed)
	}
}
