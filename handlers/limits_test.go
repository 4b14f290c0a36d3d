package handlers

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func TestBodiesOverTheLimitOfAStateChangeAre413(t *testing.T) {
	srv, _ := newServer(t)
	_, body := get(t, srv.URL+"/api/runs/r1/modes")
	var list struct {
		Modes []struct{ ID string } `json:"modes"`
	}
	if err := json.Unmarshal([]byte(body), &list); err != nil || len(list.Modes) == 0 {
		t.Fatalf("got %s, want the run's modes", body)
	}
	mode := list.Modes[0].ID
	big := strings.Repeat("x", 1<<20)
	form := url.Values{"op": {"note"}, "note": {big}, "into": {mode}, "from": {mode}, "team": {big}}.Encode()
	note, _ := json.Marshal(map[string]string{"op": "note", "note": big})
	team, _ := json.Marshal(map[string]string{"team": big})
	const formType, jsonType = "application/x-www-form-urlencoded", "application/json"
	requests := []struct {
		name, path, ctype, body string
	}{
		{"a triage form", "/modes/" + mode + "/triage", formType, form},
		{"a merge form", "/runs/r1/modes/merge", formType, form},
		{"a filing form", "/modes/" + mode + "/file", formType, form},
		{"the form that files every critical mode", "/runs/r1/file-critical", formType, form},
		{"a triage request to the API", "/api/modes/" + mode + "/triage", jsonType, string(note)},
		{"a filing request to the API", "/api/modes/" + mode + "/file", jsonType, string(team)},
	}
	for _, rq := range requests {
		for _, sized := range []bool{true, false} {
			name := rq.name + " over the limit is refused by its length"
			var b io.Reader = strings.NewReader(rq.body)
			if !sized {
				name = rq.name + " over the limit is refused as it is read"
				b = unsized{b}
			}
			t.Run(name, func(t *testing.T) {
				status, answer := postIngest(t, srv.URL+rq.path, rq.ctype, b)
				if status != http.StatusRequestEntityTooLarge {
					t.Errorf("got %d, want 413: %.300s", status, answer)
				}
				if !strings.Contains(answer, "over 64.0 KiB") {
					t.Errorf("got %.300s, want it to name the limit", answer)
				}
			})
		}
	}
	t.Run("the longest note fits within the limit", func(t *testing.T) {
		longest, _ := json.Marshal(map[string]string{"op": "note", "note": strings.Repeat("é", 5000)})
		if status, answer := postIngest(t, srv.URL+"/api/modes/"+mode+"/triage", jsonType, strings.NewReader(string(longest))); status != http.StatusOK {
			t.Errorf("got %d for a note of 10,000 bytes, want 200: %.300s", status, answer)
		}
	})
}
