package handlers

import (
	"fmt"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"

	"sandtrap"
	"sandtrap/logview"
	"sandtrap/paths"
	"sandtrap/views"
)

// logLimit is how much of a log the result page shows; the rest is a
// download.
const logLimit = 1 << 20

// logTailBytes is how much of the end of a cut log the page shows: the
// last few hundred lines, where a failure usually explains itself.
const logTailBytes = 64 << 10

// hexPreview is how many bytes of a binary the page dumps.
const hexPreview = 256

// resultParams reads the run and the result id from the path.
func resultParams(r *http.Request) (string, int64, error) {
	raw := chi.URLParam(r, "id")
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || id < 0 {
		return "", 0, sandtrap.Errorf(sandtrap.ENOTFOUND, "result %q not found: a result id is a whole number", raw)
	}
	return chi.URLParam(r, "run"), id, nil
}

// showResult serves GET /runs/{run}/results/{id}: one result with its
// error, log, artifacts and steps.
func (h *Handler) showResult(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	runID, id, err := resultParams(r)
	if err != nil {
		return err
	}
	run, err := h.runs.FindRun(ctx, runID)
	if err != nil {
		return err
	}
	res, cl, err := h.results.FindResult(ctx, run.ID, id)
	if err != nil {
		return err
	}
	logBytes, logSize, err := h.results.ResultLog(ctx, run.ID, id, logLimit)
	if err != nil {
		return err
	}
	arts, err := h.artifactViews(r, run.ID, id)
	if err != nil {
		return err
	}
	steps, err := h.results.Steps(ctx, run.ID, id)
	if err != nil {
		return err
	}
	p, errorSecrets := resultPage(run, res, cl.Layer, cl.Primitive, cl.ClassifiedBy, cl.Mode, cl.Signature)
	cut := logSize > int64(len(logBytes))
	logBytes, logSecrets := logview.RedactBytes(logBytes)
	p.Log = logview.Render(logBytes, logLimit)
	p.Log.TotalBytes = logSize
	p.Log.Truncated = p.Log.Truncated || cut
	p.LogSize = formatBytes(logSize)
	if p.Log.Truncated {
		tail, err := h.results.ResultLogTail(ctx, run.ID, id, logTailBytes)
		if err != nil {
			return err
		}
		tail, tailSecrets := logview.RedactBytes(tail)
		logSecrets += tailSecrets
		p.LogTail, p.LogTailBytes = logview.RenderTail(tail), int64(len(tail))
	}
	p.Artifacts = arts
	stepSecrets := 0
	for _, s := range steps {
		v, n := stepView(s)
		p.Steps = append(p.Steps, v)
		stepSecrets += n
	}
	p.SecretNotice = secretNotice(errorSecrets, logSecrets, stepSecrets)
	p.Shell = withRun(h.shell(ctx, res.Test+" · "+run.Name, "runs", []views.Crumb{
		{Label: "Runs", Href: "/"}, {Label: run.Name, Href: paths.Run(run.ID)},
		{Label: "failures", Href: paths.Failures(run.ID, emptyFilter)}, {Label: res.Test}}), run)
	return render(w, r, views.Result(p))
}

// redacted is text as sandtrap shows it and sends it on: with the value
// of every credential it holds in plain text cut (see
// logview.Redact). The campaign keeps the text whole; the raw log
// download and the artifacts stay byte for byte.
func redacted(text string) string {
	r, _ := logview.Redact(text)
	return r
}

// secretNotice tells people that credentials were cut from what the page
// shows and that they leaked: the value must be rotated, whatever else
// failed.
func secretNotice(inError, inLog, inSteps int) string {
	var where []string
	for _, w := range []struct {
		n    int
		name string
	}{{inError, "the error"}, {inLog, "the log"}, {inSteps, "the MCP steps"}} {
		if w.n > 0 {
			where = append(where, w.name)
		}
	}
	if len(where) == 0 {
		return ""
	}
	if n := inError + inLog + inSteps; n > 1 {
		return fmt.Sprintf("%d credentials leaked into %s: their values are hidden here and in tickets. The campaign database and the log download still hold them: rotate them.",
			n, strings.Join(where, " and "))
	}
	return fmt.Sprintf("A credential leaked into %s: its value is hidden here and in tickets. The campaign database and the log download still hold it: rotate it.",
		strings.Join(where, " and "))
}

// unclassified says why a result has no classification to show, or ""
// when it has one: only failures are classified, and a failure committed
// since the last indexing pass is not yet.
func unclassified(status, layer string) string {
	switch {
	case !sandtrap.IsFailure(status):
		return "This result did not fail."
	case layer == "":
		return "Not classified yet: sandtrap has not indexed this result. Reload in a moment."
	}
	return ""
}

// resultPage builds the view model of one result, and counts the
// credentials cut from its error.
func resultPage(run sandtrap.Run, res sandtrap.Result, layer, primitive, by, mode, sig string) (views.ResultPage, int) {
	shownError, errorSecrets := logview.Redact(res.Error)
	p := views.ResultPage{
		ID: res.ID, Test: res.Test, Title: res.Title, Status: res.Status,
		Error: logview.RenderText(shownError), HasError: res.HasError,
		Unclassified: unclassified(res.Status, layer),
		Layer:        layer, Primitive: primitive, By: by, Mode: mode, Signature: sig,
		LogHref:  paths.Result(run.ID, res.ID) + "/log",
		Problems: res.Problems,
	}
	if mode != "" {
		p.ModeHref = paths.Mode(mode)
	}
	text := func(label, v string, mono bool) views.Field {
		return views.Field{Label: label, Value: logview.RenderText(v), Mono: mono}
	}
	p.Fields = []views.Field{
		text("Result", strconv.FormatInt(res.ID, 10), true),
		text("Test", res.Test, true),
		{Label: "Target", Value: logview.RenderText(res.Target), Href: paths.Failures(run.ID, emptyFilter.With("target", res.Target))},
		{Label: "Domain", Value: logview.RenderText(res.Domain), Href: paths.Failures(run.ID, emptyFilter.With("domain", res.Domain))},
		text("Status", res.Status, false),
		text("Started", orDash(res.StartedAt), true),
		text("Duration", formatMS(res.DurationMS), true),
		text("Exit code", exitCode(res.ExitCode), true),
		text("Attempt", strconv.Itoa(res.Attempt), true),
		text("Worker", orDash(res.Worker), true),
	}
	if res.Layer != "" || res.Primitive != "" {
		p.Fields = append(p.Fields, text("Harness said", strings.Trim(clipLabel(res.Layer)+" / "+clipLabel(res.Primitive), " /"), true))
	}
	return p, errorSecrets
}

// maxLabelShown is how much of a harness's layer or primitive label the
// result page shows; the classifier reads no more of it either.
const maxLabelShown = 256

// clipLabel cuts a harness label past maxLabelShown bytes, saying how long
// it was, so that a runaway label cannot fill the page.
func clipLabel(s string) string {
	if len(s) <= maxLabelShown {
		return s
	}
	cut := maxLabelShown
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "… (cut: " + strconv.Itoa(len(s)) + " bytes)"
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func exitCode(c *int64) string {
	if c == nil {
		return "—"
	}
	return strconv.FormatInt(*c, 10)
}

func formatMS(ms int64) string {
	if ms < 0 {
		return "—"
	}
	if ms < 1000 {
		return fmt.Sprintf("%d ms", ms)
	}
	return fmt.Sprintf("%.1f s", float64(ms)/1000)
}

// formatBytes is a size for people: "1.2 MiB".
func formatBytes(n int64) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d bytes", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/1024)
	default:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
}

// artifactViews checks each artifact's round trip: an artifact whose
// digest differs from expected_sha256 is compared byte by byte with the
// sibling that has the expected digest, to find the first differing offset.
func (h *Handler) artifactViews(r *http.Request, runID string, resultID int64) ([]views.ArtifactView, error) {
	ctx := r.Context()
	arts, err := h.results.Artifacts(ctx, runID, resultID)
	if err != nil {
		return nil, err
	}
	bySHA := map[string]sandtrap.Artifact{}
	for _, a := range arts {
		bySHA[a.SHA256] = a
	}
	var out []views.ArtifactView
	for _, a := range arts {
		_, data, err := h.results.ArtifactData(ctx, runID, resultID, a.ID)
		if err != nil {
			return nil, err
		}
		v := views.ArtifactView{
			ID: a.ID, Name: logview.RenderText(a.Name), MediaType: orDash(a.MediaType), Size: formatBytes(a.Size),
			Href:   paths.Result(runID, resultID) + "/artifacts/" + strconv.FormatInt(a.ID, 10),
			SHA256: a.SHA256, Expected: a.ExpectedSHA256,
		}
		v.Inline, _ = logview.InlineImage(a.MediaType, data)
		diffAt := -1
		if a.ExpectedSHA256 != "" {
			v.Check = "ok"
			if a.ExpectedSHA256 != a.SHA256 {
				v.Check = "mismatch"
				var sent []byte
				if orig, ok := bySHA[a.ExpectedSHA256]; ok {
					_, od, err := h.results.ArtifactData(ctx, runID, resultID, orig.ID)
					if err != nil {
						return nil, err
					}
					sent = od
					diffAt = logview.FirstDiff(data, od)
					v.DiffOffset = fmt.Sprintf("%d (0x%x)", diffAt, diffAt)
					v.DiffAgainst = logview.Visible(orig.Name)
				}
				v.Damage = logview.RoundTripDamage(data, sent).Describe()
			}
		}
		switch {
		case diffAt >= 0:
			v.Hex = logview.HexAround(data, diffAt, 48)
		case !v.Inline && !logview.IsText(data):
			v.Hex, v.HexMore = logview.Hex(data, hexPreview)
		}
		out = append(out, v)
	}
	return out, nil
}

// stepView is one MCP step as the page shows it, and how many credentials
// were cut from its error and its messages.
func stepView(s sandtrap.Step) (views.StepView, int) {
	stepError, n := logview.Redact(s.Error)
	request, inRequest := payload(s.Request)
	response, inResponse := payload(s.Response)
	return views.StepView{
		Seq: s.Seq, Tool: s.Tool, Duration: formatMS(s.DurationMS),
		Error: logview.RenderText(stepError), HasError: s.Error != "",
		Request: request, Response: response,
	}, n + inRequest + inResponse
}

// payload shows an MCP message as text when it is text, with its
// credentials cut, else as hex; and how many it cut.
func payload(b []byte) (views.Payload, int) {
	p := views.Payload{Size: formatBytes(int64(len(b))), Empty: len(b) == 0}
	n := 0
	if logview.IsText(b) {
		p.IsText = true
		b, n = logview.RedactBytes(b)
		p.Text = logview.Render(b, 64<<10)
	} else {
		p.Hex, p.HexMore = logview.Hex(b, hexPreview)
	}
	return p, n
}

// downloadLog serves GET /runs/{run}/results/{id}/log: the whole log as a
// plain-text attachment, whatever bytes it holds.
func (h *Handler) downloadLog(w http.ResponseWriter, r *http.Request) error {
	runID, id, err := resultParams(r)
	if err != nil {
		return err
	}
	run, err := h.runs.FindRun(r.Context(), runID)
	if err != nil {
		return err
	}
	b, _, err := h.results.ResultLog(r.Context(), run.ID, id, 1<<62)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": fmt.Sprintf("result-%d.log", id)}))
	_, err = w.Write(b)
	return err
}

// downloadArtifact serves GET /runs/{run}/results/{id}/artifacts/{artifact}.
// Only verified images and plain text are shown inline; everything else,
// HTML and SVG above all, is an attachment the browser never runs.
func (h *Handler) downloadArtifact(w http.ResponseWriter, r *http.Request) error {
	runID, id, err := resultParams(r)
	if err != nil {
		return err
	}
	aid, err := strconv.ParseInt(chi.URLParam(r, "artifact"), 10, 64)
	if err != nil {
		return sandtrap.Errorf(sandtrap.ENOTFOUND, "artifact %q not found", chi.URLParam(r, "artifact"))
	}
	run, err := h.runs.FindRun(r.Context(), runID)
	if err != nil {
		return err
	}
	a, data, err := h.results.ArtifactData(r.Context(), run.ID, id, aid)
	if err != nil {
		return err
	}
	ct, attach := logview.SafeDownloadType(a.MediaType, data)
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Content-Security-Policy", "default-src 'none'; sandbox")
	name := path.Base(strings.ReplaceAll(a.Name, "\\", "/"))
	if name == "." || name == "/" || name == "" {
		name = fmt.Sprintf("artifact-%d", a.ID)
	}
	disp := "inline"
	if attach {
		disp = "attachment"
	}
	w.Header().Set("Content-Disposition", mime.FormatMediaType(disp, map[string]string{"filename": name}))
	_, err = w.Write(data)
	return err
}
