-- The precomputed index of every campaign file sandtrap has read.

-- sources are the campaign files, with how far their results were read.
CREATE TABLE sources (
    id             INTEGER PRIMARY KEY,
    path           TEXT NOT NULL UNIQUE,
    device         INTEGER NOT NULL DEFAULT 0,
    inode          INTEGER NOT NULL DEFAULT 0,
    last_result_id INTEGER NOT NULL DEFAULT 0,
    -- last_result_key identifies the row at last_result_id, so a file that
    -- was replaced by another one with as many rows is noticed.
    last_result_key TEXT NOT NULL DEFAULT '',
    indexed_at     TEXT
);

-- names interns the facet values (targets, domains, statuses, deciders) as
-- small codes per kind, so the packed rows stay small.
CREATE TABLE names (
    kind  TEXT NOT NULL,
    code  INTEGER NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (kind, code),
    UNIQUE (kind, value)
);

-- modes are the failure modes seen so far, keyed by their stable id.
CREATE TABLE modes (
    id         TEXT PRIMARY KEY,
    layer      TEXT NOT NULL,
    primitive  TEXT NOT NULL,
    signature  TEXT NOT NULL,
    first_seen TEXT NOT NULL
);

-- row_chunks holds every result of a run as packed fixed-size records
-- (id, test hash, status, target, domain), 4096 to a chunk.
CREATE TABLE row_chunks (
    source_id INTEGER NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
    run_id    TEXT NOT NULL,
    chunk     INTEGER NOT NULL,
    data      BLOB NOT NULL,
    PRIMARY KEY (source_id, run_id, chunk)
) WITHOUT ROWID;

-- failures holds what the pages need of each failed result without going
-- back to the campaign file: its test, error, mode and who classified it.
CREATE TABLE failures (
    source_id     INTEGER NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
    result_id     INTEGER NOT NULL,
    run_id        TEXT NOT NULL,
    test          TEXT NOT NULL,
    error         TEXT NOT NULL,
    mode_id       TEXT NOT NULL,
    classified_by TEXT NOT NULL,
    attempt       INTEGER NOT NULL,
    PRIMARY KEY (source_id, result_id)
) WITHOUT ROWID;

-- counts is the breakdown of each run by target, domain, status and mode;
-- layer and primitive follow from the mode.
CREATE TABLE counts (
    source_id INTEGER NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
    run_id    TEXT NOT NULL,
    target    TEXT NOT NULL,
    domain    TEXT NOT NULL,
    status    TEXT NOT NULL,
    mode_id   TEXT NOT NULL,
    n         INTEGER NOT NULL,
    PRIMARY KEY (source_id, run_id, target, domain, status, mode_id)
) WITHOUT ROWID;
