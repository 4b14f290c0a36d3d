-- Tickets, one per failure mode, and the outbox of filings: the intent to
-- file is written before the tracker is called, so nothing is lost.

CREATE TABLE tickets (
    mode_id    TEXT PRIMARY KEY,
    team       TEXT NOT NULL,
    tracker    TEXT NOT NULL,
    key        TEXT NOT NULL,
    url        TEXT NOT NULL,
    state      TEXT NOT NULL,
    -- snapshot is what the last filing reported, as JSON, so the next
    -- comment can say what is new.
    snapshot   TEXT NOT NULL,
    filed_at   TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

CREATE TABLE outbox (
    id         INTEGER PRIMARY KEY,
    mode_id    TEXT NOT NULL,
    team       TEXT NOT NULL,
    state      TEXT NOT NULL, -- pending, sending, done, failed
    attempts   INTEGER NOT NULL DEFAULT 0,
    next_at    TEXT NOT NULL,
    action     TEXT NOT NULL DEFAULT '',
    last_error TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX outbox_by_state ON outbox (state, next_at);
CREATE INDEX outbox_by_mode ON outbox (mode_id, id);
