package handlers

import (
	"context"
	"fmt"
	"strings"
	"time"

	"sandtrap/alert"
	"sandtrap/paths"
	"sandtrap/views"
)

// AlertOutbox reads the alerts' outbox.
type AlertOutbox interface {
	AlertSends(ctx context.Context, limit int) ([]alert.Send, error)
}

// alertSendsShown is how many of the latest sends /teams lists.
const alertSendsShown = 20

// alertsView is the alerts section of /teams. It names each destination by
// the variable that holds its secret: a webhook's URL may carry one too.
func (h *Handler) alertsView(ctx context.Context) (views.AlertsView, error) {
	var v views.AlertsView
	if len(h.alerts) == 0 {
		return v, nil
	}
	if h.readOnly {
		v.Off = "Alerts are off: sandtrap is serving read-only."
	}
	for _, a := range h.alerts {
		av := views.AlertView{Name: a.Name, Destination: "a signed webhook, secret in $" + a.SecretEnv, Events: strings.Join(alert.Events, ", ")}
		if a.Destination() == alert.Slack {
			av.Destination = "Slack, URL in $" + a.SlackWebhookEnv
		}
		if a.Events != nil {
			av.Events = strings.Join(a.Events, ", ")
		}
		keeps := []string{"high or worse"}
		if a.MinSeverity != "" {
			keeps[0] = a.MinSeverity + " or worse"
		}
		for _, f := range []struct {
			key    string
			values []string
		}{{"targets", a.Targets}, {"domains", a.Domains}, {"layers", a.Layers}} {
			if len(f.values) > 0 {
				keeps = append(keeps, fmt.Sprintf("%s %s", f.key, strings.Join(f.values, ", ")))
			}
		}
		av.Keeps = strings.Join(keeps, "; ")
		v.Alerts = append(v.Alerts, av)
	}
	if h.alertSends == nil {
		return v, nil
	}
	sends, err := h.alertSends.AlertSends(ctx, alertSendsShown)
	if err != nil {
		return v, err
	}
	for _, s := range sends {
		sv := views.AlertSendView{When: s.UpdatedAt.UTC().Format(time.DateTime), Alert: s.Alert, Event: s.Event, RunID: s.RunID, RunHref: paths.Run(s.RunID),
			ModeID: s.ModeID, State: s.State, Attempts: s.Attempts, LastError: s.LastError}
		if s.ModeID != "" {
			sv.ModeHref = paths.Mode(s.ModeID)
		}
		v.Sends = append(v.Sends, sv)
	}
	return v, nil
}
