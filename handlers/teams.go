package handlers

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"

	"sandtrap"
	"sandtrap/filing"
	"sandtrap/paths"
	"sandtrap/tracker"
	"sandtrap/triage"
	"sandtrap/views"
)

// listTeams serves GET /teams: each team, its routes and its queue in the
// latest run.
func (h *Handler) listTeams(w http.ResponseWriter, r *http.Request) error {
	p, err := h.teamsPage(r.Context())
	if err != nil {
		return err
	}
	return render(w, r, views.Teams(p))
}

// teamsPage routes the latest run's modes to their teams and counts each
// team's queue.
func (h *Handler) teamsPage(ctx context.Context) (views.TeamsPage, error) {
	p := views.TeamsPage{Shell: h.shell(ctx, "Teams", "teams", []views.Crumb{{Label: "Runs", Href: "/"}, {Label: "teams"}})}
	byTeam := map[string]*views.TeamView{}
	var order []string
	for _, t := range h.owners.Teams {
		byTeam[t.Name] = &views.TeamView{Name: t.Name, Tracker: t.Tracker, TrackerText: trackerText(t.Tracker), Destination: destination(t), Labels: strings.Join(t.Labels, ", ")}
		order = append(order, t.Name)
	}
	for i, rt := range h.owners.Routes {
		if tv := byTeam[rt.Team]; tv != nil {
			tv.Routes = append(tv.Routes, fmt.Sprintf("%d. %s", i+1, routeText(rt)))
		}
	}
	if tv := byTeam[filing.TriageTeam]; tv != nil && len(tv.Routes) == 0 {
		tv.About = "Every mode that no route takes lands here."
	}
	alerts, err := h.alertsView(ctx)
	if err != nil {
		return p, err
	}
	p.Alerts = alerts
	newest, err := h.runs.FindRuns(ctx, sandtrap.RunFilter{Limit: 1})
	if err != nil || len(newest.Runs) == 0 {
		return p, err
	}
	latest := newest.Runs[0]
	p.RunName = latest.Name
	modes, _, err := h.modes.RunModes(ctx, latest.ID, sandtrap.ResultFilter{})
	if err != nil {
		return p, err
	}
	tickets := map[string]filing.Stored{}
	if h.tickets != nil {
		if tickets, err = h.tickets.Tickets(ctx); err != nil {
			return p, err
		}
	}
	triage.Rank(modes)
	for _, m := range modes {
		name, _ := ownerOf(h.owners, m)
		tv := byTeam[name]
		if tv == nil {
			tv = &views.TeamView{Name: name, Tracker: "not configured", TrackerText: "not configured: add a [[team]] table for it"}
			byTeam[name] = tv
			order = append(order, name)
		}
		tm := views.TeamMode{ID: m.ID, Title: m.Title, Href: paths.Mode(m.ID), Severity: m.Severity, Status: m.Status}
		tv.Owned++
		if m.Status == triage.StatusFixed {
			tv.Fixed++
		}
		if t, ok := tickets[m.ID]; ok {
			tm.TicketKey, tm.TicketURL, tm.TicketState = t.Key, t.URL, t.State
			tv.Filed++
			if t.State == "open" {
				tv.Open++
			}
		}
		tv.Modes = append(tv.Modes, tm)
	}
	sort.SliceStable(order, func(i, j int) bool { return byTeam[order[i]].Owned > byTeam[order[j]].Owned })
	for _, name := range order {
		p.Teams = append(p.Teams, *byTeam[name])
	}
	return p, nil
}

// destination is where a team's tickets go.
func destination(t filing.Team) string {
	switch {
	case t.Repo != "":
		return t.Repo
	case t.Project != "":
		return t.Project
	}
	return t.APIURL
}

// routeText says what a route matches: "layer=sandbox primitive=memory".
func routeText(r filing.Route) string {
	var parts []string
	for _, kv := range [][2]string{{"layer", r.Layer}, {"primitive", r.Primitive}, {"domain", r.Domain}, {"target", r.Target}, {"mode", r.Mode}} {
		if kv[1] != "" {
			parts = append(parts, kv[0]+"="+kv[1])
		}
	}
	if len(parts) == 0 {
		return "everything"
	}
	return strings.Join(parts, " ")
}

// apiListTeams serves GET /api/teams: the teams, their routes and queues.
func (h *Handler) apiListTeams(r *http.Request) (any, error) {
	p, err := h.teamsPage(r.Context())
	if err != nil {
		return nil, err
	}
	type mode struct {
		ID       string `json:"id"`
		Title    string `json:"title"`
		Severity string `json:"severity"`
		Status   string `json:"status"`
		Ticket   string `json:"ticket,omitempty"`
		State    string `json:"ticket_state,omitempty"`
	}
	type team struct {
		Name    string   `json:"name"`
		Tracker string   `json:"tracker"`
		Routes  []string `json:"routes"`
		Owned   int      `json:"owned"`
		Filed   int      `json:"filed"`
		Open    int      `json:"open"`
		Fixed   int      `json:"fixed"`
		Modes   []mode   `json:"modes"`
	}
	out := make([]team, 0, len(p.Teams))
	for _, t := range p.Teams {
		tt := team{Name: t.Name, Tracker: t.Tracker, Routes: t.Routes, Owned: t.Owned, Filed: t.Filed, Open: t.Open, Fixed: t.Fixed, Modes: []mode{}}
		for _, m := range t.Modes {
			tt.Modes = append(tt.Modes, mode{ID: m.ID, Title: m.Title, Severity: m.Severity, Status: m.Status, Ticket: m.TicketURL, State: m.TicketState})
		}
		out = append(out, tt)
	}
	return map[string]any{"teams": out}, nil
}

// ownerOf returns the team that owns m in its run: the one a person chose,
// or else the one the routes give, and whether it came from the routes.
func ownerOf(owners filing.Ownership, m sandtrap.ModeStat) (team string, routed bool) {
	return owners.Owner(filing.ModeFacts{ID: m.ID, Layer: m.Layer, Primitive: m.Primitive, PerDomain: m.Domains, PerTarget: m.Targets}, m.Owner)
}

// trackerText names a team's tracker for people.
func trackerText(name string) string {
	switch name {
	case filing.TrackerNone:
		return "no tracker: file by hand from the Markdown"
	case tracker.GitHub:
		return "tracker: GitHub Issues"
	case tracker.GitLab:
		return "tracker: GitLab"
	case tracker.Jira:
		return "tracker: Jira"
	case tracker.Webhook:
		return "tracker: a signed webhook"
	}
	return "tracker: " + name
}
