-- The outbox of alerts. A send is written, with its message, before the
-- receiver is called. Its unique key is the dedup: each alert's event for
-- one mode in one run (mode_id '' for run-finished) is queued once, however
-- often it is detected and across restarts.

CREATE TABLE alert_outbox (
    id         INTEGER PRIMARY KEY,
    alert      TEXT NOT NULL,
    event      TEXT NOT NULL,
    mode_id    TEXT NOT NULL,
    run_id     TEXT NOT NULL,
    message    TEXT NOT NULL, -- JSON: what the alert says
    state      TEXT NOT NULL, -- pending, sending, sent, failed
    attempts   INTEGER NOT NULL DEFAULT 0,
    next_at    TEXT NOT NULL,
    last_error TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (alert, event, mode_id, run_id)
);
CREATE INDEX alert_outbox_by_state ON alert_outbox (state, next_at);

-- alert_runs are the runs alerts watch: each run seen live, from then until
-- its end has been told. A run already finished when first seen is history,
-- not news, and is never watched.
CREATE TABLE alert_runs (
    run_id     TEXT PRIMARY KEY,
    seen_at    TEXT NOT NULL,
    done_at    TEXT NOT NULL DEFAULT ''
);
