package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"sandtrap/store/campaign"
)

// fakeGitHub is a GitHub of our own for the filing tests: issues with
// labels, comments, and a state people can change.
type fakeGitHub struct {
	mu       sync.Mutex
	issues   []*fakeIssue
	creates  int
	comments int
	reopens  int
}

type fakeIssue struct {
	Number int      `json:"number"`
	State  string   `json:"state"`
	Title  string   `json:"title"`
	Labels []string `json:"-"`
	URL    string   `json:"html_url"`
}

func (g *fakeGitHub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if r.Header.Get("Authorization") != "Bearer test-token" {
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprint(w, `{"message":"Bad credentials"}`)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	path := strings.TrimPrefix(r.URL.Path, "/api/v3/repos/acme/sandbox/issues")
	var number int
	fmt.Sscanf(path, "/%d", &number)
	find := func() *fakeIssue {
		if number < 1 || number > len(g.issues) {
			return nil
		}
		return g.issues[number-1]
	}
	switch {
	case r.Method == "POST" && path == "":
		var body struct {
			Title  string   `json:"title"`
			Labels []string `json:"labels"`
		}
		json.NewDecoder(r.Body).Decode(&body)
		g.creates++
		is := &fakeIssue{Number: len(g.issues) + 1, State: "open", Title: body.Title, Labels: body.Labels}
		is.URL = fmt.Sprintf("https://github.example/acme/sandbox/issues/%d", is.Number)
		g.issues = append(g.issues, is)
		w.WriteHeader(http.StatusCreated)
		json.NewEncoder(w).Encode(is)
	case r.Method == "GET" && path == "":
		var out []*fakeIssue
		for _, is := range g.issues {
			for _, l := range is.Labels {
				if l == r.URL.Query().Get("labels") {
					out = append(out, is)
				}
			}
		}
		json.NewEncoder(w).Encode(out)
	case r.Method == "GET" && find() != nil:
		json.NewEncoder(w).Encode(find())
	case r.Method == "PATCH" && find() != nil:
		find().State = "open"
		g.reopens++
		json.NewEncoder(w).Encode(find())
	case r.Method == "POST" && strings.HasSuffix(path, "/comments") && find() != nil:
		g.comments++
		w.WriteHeader(http.StatusCreated)
		fmt.Fprint(w, `{"id":1}`)
	default:
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `{"message":"Not Found"}`)
	}
}

func (g *fakeGitHub) counts() (creates, comments, reopens int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.creates, g.comments, g.reopens
}

func (g *fakeGitHub) close(number int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.issues[number-1].State = "closed"
}

// filingConfig routes every layer to one team on the fake GitHub.
func filingConfig(t *testing.T, apiURL string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "sandtrap.toml")
	cfg := `[[team]]
name = "platform"
tracker = "github"
repo = "acme/sandbox"
api_url = "` + apiURL + `"
token_env = "SANDTRAP_TEST_TOKEN"
labels = ["sandtrap"]
`
	for _, layer := range []string{"interface", "sandbox", "test", "unclassified"} {
		cfg += "\n[[route]]\nlayer = \"" + layer + "\"\nteam = \"platform\"\n"
	}
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestBrowserFilesModesOnceCommentsAfterAndReopensOnReturn(t *testing.T) {
	chromiumPath(t)
	gh := &fakeGitHub{}
	fake := httptest.NewServer(gh)
	defer fake.Close()
	t.Setenv("SANDTRAP_TEST_TOKEN", "test-token")
	campaign := demoCampaign(t)
	base := startServe(t, "--config", filingConfig(t, fake.URL), "--public-url", "https://sandtrap.example", campaign)
	ids := firstModes(t, base)
	mode := ids[0]
	ctx := newBrowser(t, 1366, 900, false)

	browse(t, ctx, chromedp.Navigate(base+"/modes/"+mode), chromedp.WaitVisible(chromedp.CSS(`[data-testid=filing-panel]`)))
	owner := read(t, ctx, chromedp.Text(chromedp.CSS(`[data-testid=owner]`)))
	if owner != "platform" {
		t.Errorf("got owner %q, want the routed team platform", owner)
	}
	body := read(t, ctx, chromedp.Evaluate[string](`document.querySelector("[data-testid=ticket-body]").textContent`))
	for _, want := range []string{"sandtrap:mode=" + mode, "https://sandtrap.example/modes/" + mode} {
		if !strings.Contains(body, want) {
			t.Errorf("got a ticket preview without %q", want)
		}
	}
	browse(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=file]`)))
	waitFor(t, ctx, `!!document.querySelector("[data-testid=ticket]")`)
	ticket := read(t, ctx, chromedp.Text(chromedp.CSS(`[data-testid=ticket]`)))
	if !strings.Contains(ticket, "acme/sandbox#1") {
		t.Errorf("got ticket %q, want acme/sandbox#1", ticket)
	}
	screenshot(t, ctx, "mode-filed-1366")

	// Filing again comments on the same ticket.
	browse(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=file]`)))
	waitFor(t, ctx, `document.querySelector("[data-testid=triage-message], [data-testid=filing-panel]") && document.body.innerText.includes("added a comment")`)
	if creates, comments, _ := gh.counts(); creates != 1 || comments != 1 {
		t.Errorf("got %d tickets and %d comments, want one ticket and one comment", creates, comments)
	}

	// File every untriaged critical mode from the queue, one ticket each.
	browse(t, ctx, chromedp.Navigate(base+"/runs/2026-06-30-overnight/modes"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=file-critical]`)))
	critical := read(t, ctx, chromedp.Evaluate[int](`[...document.querySelectorAll("[data-testid=queue-row]")].filter(r => r.innerText.includes("critical") && !r.querySelector("[data-testid=queue-ticket]")).length`))
	browse(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=file-critical]`)))
	waitFor(t, ctx, `(document.querySelector("[data-testid=filing-progress]") || {innerText: ""}).innerText.includes("`+fmt.Sprintf("%d of %d", critical, critical)+`")`)
	if creates, _, _ := gh.counts(); creates != 1+critical {
		t.Errorf("got %d tickets after filing %d critical modes, want %d", creates, critical, 1+critical)
	}
	if got, want := read(t, ctx, chromedp.Evaluate[string](`document.querySelector("[data-testid=filed-count]").innerText`)), fmt.Sprintf("%d filed", critical); got != want {
		t.Errorf("got %q in the progress, want %q", got, want)
	}

	// People close the first ticket; the mode comes back in a new run, and
	// its ticket is reopened.
	gh.close(1)
	addReturningRun(t, campaign, base, mode)
	deadline := time.Now().Add(patience)
	for {
		if _, _, reopens := gh.counts(); reopens == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the ticket was not reopened within %s of its mode coming back", patience)
		}
		time.Sleep(100 * time.Millisecond)
	}
	browse(t, ctx, chromedp.Navigate(base+"/modes/"+mode), chromedp.WaitVisible(chromedp.CSS(`[data-testid=ticket-state]`)))
	if state := read(t, ctx, chromedp.Text(chromedp.CSS(`[data-testid=ticket-state]`))); state != "open" {
		t.Errorf("got ticket state %q after the mode came back, want open", state)
	}

	// The comparison of the new run links the mode to its ticket.
	browse(t, ctx, chromedp.Navigate(base+"/compare?base=2026-07-01-overnight&head=2026-07-03-overnight"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=mode-change-row]`)))
	links := read(t, ctx, chromedp.Evaluate[string](`[...document.querySelectorAll("[data-testid=mode-ticket]")].map(a => a.textContent).join(" ")`))
	if !strings.Contains(links, "acme/sandbox#1") {
		t.Errorf("got ticket links %q on the comparison, want acme/sandbox#1", links)
	}
	screenshot(t, ctx, "compare-ticket-1366")
}

// addReturningRun writes a new finished run holding one failure of mode,
// copied from an earlier occurrence, as a harness would after a fix.
func addReturningRun(t *testing.T, path, base, mode string) {
	t.Helper()
	resp, err := http.Get(base + "/api/runs/2026-06-30-overnight/results?mode=" + mode + "&limit=1")
	if err != nil {
		t.Fatal(err)
	}
	var page struct {
		Results []struct {
			Test, Target, Domain, Status string
			Error                        *string
		} `json:"results"`
	}
	json.NewDecoder(resp.Body).Decode(&page)
	resp.Body.Close()
	if len(page.Results) == 0 {
		t.Fatalf("mode %s has no failure to copy", mode)
	}
	r := page.Results[0]
	ctx := context.Background()
	w, err := campaign.OpenWriter(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	start := time.Date(2026, 7, 3, 22, 0, 0, 0, time.UTC)
	end := start.Add(time.Hour)
	if err := w.InsertRun(ctx, campaign.Run{ID: "2026-07-03-overnight", Name: "After the fix", StartedAt: start, FinishedAt: &end}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.InsertResults(ctx, []campaign.Result{{RunID: "2026-07-03-overnight", Test: r.Test, Target: r.Target,
		Domain: r.Domain, Status: r.Status, Error: r.Error}}); err != nil {
		t.Fatal(err)
	}
}
