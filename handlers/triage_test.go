package handlers

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sandtrap/filing"
	"sandtrap/static"
	"sandtrap/store"
	"sandtrap/store/campaign"
)

// post sends a triage request as JSON, from the given origin when set.
func post(t *testing.T, url, body, origin string) (*http.Response, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if origin != "" {
		req.Header.Set("Origin", origin)
		req.Header.Set("Sec-Fetch-Site", "cross-site")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	json.NewDecoder(resp.Body).Decode(&out)
	return resp, out
}

func TestTriageRefusesWhatItCannotDo(t *testing.T) {
	srv, _ := newServer(t)
	var results struct {
		Results []struct{ Mode string } `json:"results"`
	}
	r, err := http.Get(srv.URL + "/api/runs/r1/results")
	if err != nil {
		t.Fatal(err)
	}
	json.NewDecoder(r.Body).Decode(&results)
	r.Body.Close()
	mode := results.Results[0].Mode
	tests := []struct {
		name, mode, body, origin string
		status                   int
		says                     string
	}{
		{"a status outside the vocabulary is a 400 naming it", mode, `{"op":"status","status":"done"}`, "", 400, `unknown status "done"`},
		{"a primitive of another layer is a 400", mode, `{"op":"classify","layer":"sandbox","primitive":"encoding"}`, "", 400, `primitive "encoding" is not one of layer sandbox`},
		{"an unknown action is a 400", mode, `{"op":"explode"}`, "", 400, `unknown triage action "explode"`},
		{"an unknown field is a 400", mode, `{"op":"status","colour":"red"}`, "", 400, "colour"},
		{"an unknown mode is a 404", "m-000000000000", `{"op":"status","status":"triaged"}`, "", 404, "not found"},
		{"a post from another site is refused", mode, `{"op":"status","status":"triaged"}`, "https://evil.example", 403, ""},
		{"a good change answers with the mode", mode, `{"op":"status","status":"triaged"}`, "", 200, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := post(t, srv.URL+"/api/modes/"+tt.mode+"/triage", tt.body, tt.origin)
			if resp.StatusCode != tt.status {
				t.Fatalf("got status %d (%v), want %d", resp.StatusCode, body, tt.status)
			}
			if tt.says != "" {
				msg, _ := body["error"].(map[string]any)["message"].(string)
				if !strings.Contains(msg, tt.says) {
					t.Errorf("got message %q, want it to say %q", msg, tt.says)
				}
			}
			if tt.status == 200 {
				m, _ := body["mode"].(map[string]any)
				if m["status"] != "triaged" {
					t.Errorf("got mode %v, want status triaged", m)
				}
			}
		})
	}
}

func TestTheModesAPIGivesTheOwnerThePagesShow(t *testing.T) {
	srv, _ := newServer(t, func(c *Config) { c.Owners = filing.DefaultOwnership() })
	type apiModes struct {
		Modes []struct {
			ID, Layer, Primitive, Owner string
			OwnerRouted                 bool `json:"owner_routed"`
		} `json:"modes"`
	}
	read := func() apiModes {
		t.Helper()
		var out apiModes
		_, body := get(t, srv.URL+"/api/runs/r1/modes")
		if err := json.Unmarshal([]byte(body), &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	byLayer := map[string]string{"interface/encoding": "mcp-server", "test/harness": "agent-harness"}
	var encoding string
	for _, m := range read().Modes {
		want, known := byLayer[m.Layer+"/"+m.Primitive]
		if m.Owner == "" || !m.OwnerRouted || known && m.Owner != want {
			t.Errorf("got owner %q (routed %v) for %s/%s, want %q from the routes", m.Owner, m.OwnerRouted, m.Layer, m.Primitive, want)
		}
		if m.Primitive == "encoding" {
			encoding = m.ID
		}
	}
	if encoding == "" {
		t.Fatal("got no encoding mode, want the round-trip failure's")
	}
	if resp, body := post(t, srv.URL+"/api/modes/"+encoding+"/triage", `{"op":"owner","owner":"platform-sandbox"}`, ""); resp.StatusCode != 200 {
		t.Fatalf("got status %d (%v) reassigning the mode", resp.StatusCode, body)
	}
	for _, m := range read().Modes {
		if m.ID == encoding && (m.Owner != "platform-sandbox" || m.OwnerRouted) {
			t.Errorf("got owner %q (routed %v) after a person chose platform-sandbox, want theirs", m.Owner, m.OwnerRouted)
		}
	}
}

func TestTheModesTabLeadsToAQueueFromEveryPage(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "campaign.db")
	w, err := campaign.OpenWriter(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 6, 30, 22, 0, 0, 0, time.UTC)
	for i, id := range []string{"older", "newer"} {
		at := start.Add(time.Duration(i) * 24 * time.Hour)
		end := at.Add(time.Hour)
		if err := w.InsertRun(ctx, campaign.Run{ID: id, Name: id, StartedAt: at, FinishedAt: &end}); err != nil {
			t.Fatal(err)
		}
		if _, err := w.InsertResults(ctx, []campaign.Result{{RunID: id, Test: "t", Target: "browser", Domain: "web-browsing", Status: "failed", Error: ptr("page.goto: Target crashed")}}); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	st, err := store.Open(ctx, store.Options{StatePath: filepath.Join(t.TempDir(), "state.db"), Campaigns: []string{path}})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	st.Start(ctx)
	if err := st.WaitIndexed(ctx); err != nil {
		t.Fatal(err)
	}
	h, err := New(Config{Runs: st, Activity: st, Results: st, Modes: st, Triager: st, Compare: st, Static: static.FS})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h.Routes())
	defer srv.Close()
	tests := []struct{ page, want string }{
		{"/", "/runs/newer/modes"},
		{"/teams", "/runs/newer/modes"},
		{"/compare?base=older&head=newer", "/runs/newer/modes"},
		{"/runs/older", "/runs/older/modes"},
		{"/runs/older/failures", "/runs/older/modes"},
	}
	for _, tt := range tests {
		t.Run("from "+tt.page+" it opens "+tt.want, func(t *testing.T) {
			_, body := get(t, srv.URL+tt.page)
			if want := `<a href="` + tt.want + `" data-nav="modes"`; !strings.Contains(body, want) {
				t.Errorf("got no %s in the page, want the Modes tab to open that queue", want)
			}
		})
	}
}
