package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"runtime/debug"
	"sync"
	"time"

	"sandtrap/alert"
	"sandtrap/filing"
	"sandtrap/handlers"
	"sandtrap/ingest"
	"sandtrap/live"
	"sandtrap/mcpserver"
	"sandtrap/notify"
	"sandtrap/static"
	"sandtrap/store"
	"sandtrap/triage"
)

// serveConfig is what serve's flags say.
type serveConfig struct {
	addr, state, config, publicURL string
	readOnly                       bool
	campaigns                      []string
	poll                           time.Duration
	memoryLimitMiB, indexMemoryMiB int64
	tokenEnv                       string
	ingest                         string
	ingestMaxBody                  byteSize
	authProxyHeader, trustedProxy  string
}

func parseServe(args []string, stderr io.Writer) (serveConfig, error) {
	c := serveConfig{ingestMaxBody: handlers.DefaultIngestMaxBody}
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.addr, "addr", "127.0.0.1:8080", "address to listen on; loopback unless you mean it")
	fs.StringVar(&c.state, "state", "sandtrap-state.db", "sandtrap's own state file (created if missing)")
	fs.StringVar(&c.config, "config", "", "TOML file with classification rules")
	fs.StringVar(&c.publicURL, "public-url", "", "base URL of this server as others reach it")
	fs.BoolVar(&c.readOnly, "read-only", false, "refuse every change to sandtrap's state")
	fs.DurationVar(&c.poll, "poll", 20*time.Millisecond, "how often each campaign file is checked for new commits")
	fs.StringVar(&c.tokenEnv, "token-env", "SANDTRAP_TOKEN", "environment variable holding the access token every request must carry; required to listen beyond loopback")
	fs.Int64Var(&c.memoryLimitMiB, "memory-limit", defaultMemoryLimitMiB, "most MiB of the soft memory limit, which follows what the index holds (the garbage collector works harder near it); GOMEMLIMIT overrides it, 0 turns it off")
	fs.Int64Var(&c.indexMemoryMiB, "index-memory", defaultIndexMemoryMiB, "MiB the rows and comparison facts of finished runs may hold in memory; beyond it those looked at least lately leave memory, and rows are read back from the state when needed; 0 keeps every run in memory")
	fs.StringVar(&c.ingest, "ingest", "", "campaign file that harnesses write over HTTP (POST /api/ingest/...); created when missing, written by sandtrap alone, served with the others")
	fs.Var(&c.ingestMaxBody, "ingest-max-body", "largest body of an ingest request, in bytes or with KiB, MiB or GiB")
	fs.StringVar(&c.authProxyHeader, "auth-proxy-header", "", "header in which an authenticating proxy names who it let in (X-Forwarded-Email), recorded on their decisions; needs --trusted-proxy")
	fs.StringVar(&c.trustedProxy, "trusted-proxy", "", "comma-separated CIDRs of the proxies --auth-proxy-header is believed from; from any other address it is ignored")
	fs.Usage = func() {
		fmt.Fprintln(stderr, commandUsage("serve"))
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return c, usageError{err.Error()}
	}
	c.campaigns = fs.Args()
	if c.indexMemoryMiB < 0 {
		return c, usageError{fmt.Sprintf("--index-memory %d: give the MiB the index may hold, or 0 to keep every run in memory", c.indexMemoryMiB)}
	}
	if len(c.campaigns) == 0 && c.ingest == "" {
		fs.Usage()
		return c, usageError{"serve needs at least one campaign file, or an --ingest file"}
	}
	return c, nil
}

// defaultIndexMemoryMiB is --index-memory unless told otherwise: it holds
// the comparison facts of two runs of a million results, or about 2,000
// runs of a thousand.
const defaultIndexMemoryMiB = 96

// defaultMemoryLimitMiB is --memory-limit unless told otherwise: the most
// the soft limit rises to as the index fills (see memoryLimit). It leaves
// the collector room above a full index: the rest of the heap (counts of
// every run, the batches a read is working on, pages being rendered) and
// the runtime's own overhead come to 40–50 MiB over a history of 3,000
// runs, and at 150 MiB the heap's goal sat at the limit, so the collector
// ran back to back: 336 collections and twice the CPU for the first read,
// against 43 at 200 MiB.
const defaultMemoryLimitMiB = 200

// memoryLimitRoom is what the soft limit leaves beside what the index
// holds: the rules' compiled expressions and the models, the batches a
// read is working on, the mode tables and pages being rendered. With
// 200 MiB whatever the index held, the first read of one run of a million
// results peaked at 197–222 MB, about 35 MB of it outside Go's heap
// (SQLite's caches, the program's text); following the index, it peaks at
// 179–187 MB in the same time, and a full index of a long history nears
// the 200 MiB it needs (docs/bench.md).
const memoryLimitRoom = 90 << 20

// memoryLimit is the soft memory limit when the index holds held bytes:
// room for the rest beside it, at most max.
func memoryLimit(held, max int64) int64 {
	return min(max, memoryLimitRoom+held)
}

// followIndex sets the soft memory limit to follow what the index holds,
// every tenth of a second until ctx ends: a collector bound to a full
// index's limit lets the heap of a first read grow past what one run
// needs.
func followIndex(ctx context.Context, held func() int64, max int64) {
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		debug.SetMemoryLimit(memoryLimit(held(), max))
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// The server's timeouts: a client has 5 s to send its headers and 30 s for
// its whole request, and a connection idle for 2 minutes is closed. There is
// no WriteTimeout: live pages hold a stream open for hours, and each write to
// a stream has a deadline of its own.
const (
	readHeaderTimeout = 5 * time.Second
	readTimeout       = 30 * time.Second
	idleTimeout       = 2 * time.Minute
)

// runServe opens the campaign files, indexes them in the background and
// serves until ctx ends, then shuts down gracefully.
func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c, err := parseServe(args, stderr)
	if err != nil {
		return err
	}
	logger := slog.New(slog.NewTextHandler(stderr, nil))
	token := os.Getenv(c.tokenEnv)
	hosts, err := servedHosts(c.addr, c.publicURL)
	if err != nil {
		return usageError{err.Error()}
	}
	if token == "" && !loopback(c.addr) {
		return usageError{fmt.Sprintf("serving on %s, beyond loopback, needs an access token: put one in $%s (or name another variable with --token-env)", c.addr, c.tokenEnv)}
	}
	trustedProxies, err := proxyIdentity(c.authProxyHeader, c.trustedProxy)
	if err != nil {
		return usageError{err.Error()}
	}
	followLimit := os.Getenv("GOMEMLIMIT") == "" && c.memoryLimitMiB > 0
	if followLimit {
		debug.SetMemoryLimit(memoryLimit(0, c.memoryLimitMiB<<20))
	}
	var cfg triage.Config
	if c.config != "" {
		loaded, err := triage.LoadConfig(c.config)
		if err != nil {
			return err
		}
		cfg = *loaded
	}
	// The ingest file is written before the store first reads it: a new
	// one must have its schema by then.
	var ingester handlers.Ingester
	stopIngest := func() error { return nil }
	campaigns := c.campaigns
	if c.ingest != "" {
		campaigns = append(campaigns, c.ingest)
		if !c.readOnly {
			in, err := ingest.Open(ctx, c.ingest)
			if err != nil {
				return err
			}
			// Once the server has stopped taking requests, what is queued
			// is committed; the deferred Close covers early returns.
			defer in.Close()
			stopIngest = in.Close
			ingester = in
		}
	}
	hub := live.NewHub(logger)
	// Filing and alerts wait for the store; changes reach them through
	// these channels so that the watchers never wait on a tracker or a
	// receiver.
	changed := make(chan struct{}, 1)
	alertsChanged := make(chan struct{}, 1)
	st, err := store.Open(ctx, store.Options{
		StatePath:   c.state,
		Campaigns:   campaigns,
		Classifier:  triage.NewClassifier(cfg.Rules),
		Poll:        c.poll,
		IndexMemory: c.indexMemoryMiB << 20,
		Logf:        func(format string, args ...any) { logger.Info(fmt.Sprintf(format, args...)) },
		ReadOnly:    c.readOnly,
		OnChange: func(ch store.Change) {
			hub.Publish(ch)
			for _, wake := range []chan struct{}{changed, alertsChanged} {
				select {
				case wake <- struct{}{}:
				default:
				}
			}
		},
	})
	if err != nil {
		return err
	}
	defer st.Close()
	if followLimit {
		limitCtx, stopFollowing := context.WithCancel(ctx)
		defer stopFollowing()
		go followIndex(limitCtx, st.IndexHeld, c.memoryLimitMiB<<20)
	}
	owners := cfg.Owners.Ownership()
	facts := filing.Facts(st, c.publicURL)
	filer := &filing.Filer{Outbox: st, Facts: facts, Owners: owners, Getenv: os.Getenv,
		HTTP: trackerClient(), Log: logger,
		OnFiled: func(string) { hub.Publish(store.Change{Triage: true}) }}
	h, err := handlers.New(handlers.Config{Runs: st, Activity: st, Results: st, Modes: st, Triager: st, Compare: st, ReadOnly: c.readOnly, Hub: hub,
		Filer: filer, Tickets: st, Facts: facts, Owners: owners, Alerts: cfg.Alerts, AlertSends: st, Ingest: ingester, IngestMaxBody: int64(c.ingestMaxBody),
		Token: token, Hosts: hosts, Static: static.FS, Logger: logger,
		AuthProxyHeader: c.authProxyHeader, TrustedProxies: trustedProxies})
	if err != nil {
		return err
	}
	tools := mcpserver.Config{Runs: st, Modes: st, Results: st, Compare: st, Tickets: st, Facts: facts, Owners: owners, Logger: logger}
	if ingester != nil {
		tools.Ingest = ingester
	}
	if token != "" {
		// Triage and filing change the state: offered only to clients that
		// carry the token.
		tools.Actions = h
	}
	ln, err := net.Listen("tcp", c.addr)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", c.addr, err)
	}
	alerts, err := newAlerts(c, cfg.Alerts, st, ln.Addr(), logger)
	if err != nil {
		ln.Close()
		return err
	}
	srv := &http.Server{
		Handler:           h.RoutesWithMCP(mcpserver.HTTPHandler(mcpserver.New(tools))),
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		IdleTimeout:       idleTimeout,
		BaseContext:       func(net.Listener) context.Context { return ctx },
	}
	// Everything that uses the store stops, in this order, before the
	// deferred st.Close: filings in flight are saved, renders end.
	ctx, stop := context.WithCancel(ctx)
	var background sync.WaitGroup
	defer func() {
		stop()
		background.Wait()
		hub.Close()
	}()
	st.Start(ctx)
	if !c.readOnly {
		background.Go(func() {
			// A filing a stop left resumes once its mode is read again:
			// started at once, it could find no such mode and fail for good.
			if st.WaitIndexed(ctx) == nil {
				filer.Run(ctx)
			}
		})
		background.Go(func() { filer.WatchReturns(ctx, st, changed) })
	}
	if alerts != nil {
		background.Go(func() { alerts.Run(ctx, alertsChanged) })
	}
	fmt.Fprintf(stdout, "sandtrap is serving %d campaign file(s) at http://%s/\n", len(campaigns), ln.Addr())
	if ingester != nil {
		fmt.Fprintf(stdout, "ingest: POST to http://%s/api/ingest/runs writes into %s\n", ln.Addr(), c.ingest)
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return stopIngest()
}

// newAlerts returns the notifier of the [[alert]] tables, nil when there
// are none or the state is read-only. A variable that holds no secret is
// an error that names it. Links go to --public-url, else to the address
// served on.
func newAlerts(c serveConfig, alerts []alert.Alert, st *store.Store, addr net.Addr, log *slog.Logger) (*notify.Notifier, error) {
	if len(alerts) == 0 {
		return nil, nil
	}
	if c.readOnly {
		log.Warn("alerts are off: serving read-only keeps no outbox to send them from", "alerts", len(alerts))
		return nil, nil
	}
	base := c.publicURL
	if base == "" {
		base = "http://" + addr.String()
	}
	return notify.New(notify.Config{Alerts: alerts, Runs: st, Outbox: st, Getenv: os.Getenv, HTTP: trackerClient(),
		Links: alert.Links{Base: base}, Log: log})
}

// trackerClient is the HTTP client of the trackers. It refuses redirects to
// another host: Go drops Authorization there, but not GitLab's PRIVATE-TOKEN.
func trackerClient() *http.Client {
	return &http.Client{
		Timeout: 30 * time.Second,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= 5 {
				return fmt.Errorf("stopped after %d redirects", len(via))
			}
			if req.URL.Host != via[0].URL.Host {
				return fmt.Errorf("refused a redirect from %s to another host, %s", via[0].URL.Host, req.URL.Host)
			}
			return nil
		},
	}
}

// loopback reports whether addr listens on loopback only.
func loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// servedHosts are the names, besides loopback, that requests may address
// the server by: the listening host and the host of --public-url.
func servedHosts(addr, publicURL string) ([]string, error) {
	var hosts []string
	if host, _, err := net.SplitHostPort(addr); err == nil && host != "" {
		if ip := net.ParseIP(host); ip == nil || !ip.IsUnspecified() {
			hosts = append(hosts, host)
		}
	}
	if publicURL != "" {
		u, err := url.Parse(publicURL)
		if err != nil || u.Hostname() == "" {
			return nil, fmt.Errorf("--public-url %q is not a URL like https://sandtrap.example.com", publicURL)
		}
		hosts = append(hosts, u.Hostname())
	}
	return hosts, nil
}
