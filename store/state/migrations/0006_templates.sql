-- Failure modes are templates mined from signatures. A template keeps the
-- id it was minted with as it generalises; one absorbed by another leaves
-- an alias, so old links, tickets and decisions still resolve.

CREATE TABLE templates (
    id        TEXT PRIMARY KEY,
    layer     TEXT NOT NULL,
    primitive TEXT NOT NULL,
    template  TEXT NOT NULL, -- as people read it: the mode's signature
    tokens    TEXT NOT NULL, -- as the miner compares it, typed tokens as <*>
    count     INTEGER NOT NULL, -- distinct signatures mined into it
    seq       INTEGER NOT NULL
);

CREATE TABLE aliases (
    alias      TEXT PRIMARY KEY,
    target     TEXT NOT NULL,
    reason     TEXT NOT NULL,
    created_at TEXT NOT NULL
);

-- carry holds, while the campaign files are read again under a new
-- classifier, the old mode of each failure, so that every old mode id
-- resolves to the new mode of its failures and people's decisions, notes,
-- tickets and filings follow them.
CREATE TABLE carry (
    source_id INTEGER NOT NULL,
    result_id INTEGER NOT NULL,
    old_mode  TEXT NOT NULL,
    PRIMARY KEY (source_id, result_id)
) WITHOUT ROWID;
