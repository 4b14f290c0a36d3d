-- Triage decisions, kept by failure-mode id so they apply to every run and
-- every file; and the index gains each result's start time.

CREATE TABLE decisions (
    mode_id     TEXT PRIMARY KEY,
    layer       TEXT NOT NULL DEFAULT '',
    primitive   TEXT NOT NULL DEFAULT '',
    severity    TEXT NOT NULL DEFAULT '',
    title       TEXT NOT NULL DEFAULT '',
    status      TEXT NOT NULL DEFAULT '',
    merged_into TEXT NOT NULL DEFAULT '',
    owner       TEXT NOT NULL DEFAULT '',
    updated_at  TEXT NOT NULL
);

-- notes are appended, never overwritten, so two people writing at once
-- both keep what they wrote.
CREATE TABLE notes (
    id         INTEGER PRIMARY KEY,
    mode_id    TEXT NOT NULL,
    body       TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX notes_by_mode ON notes (mode_id, id);

-- history records every decision, for the mode page's activity list.
CREATE TABLE history (
    id         INTEGER PRIMARY KEY,
    mode_id    TEXT NOT NULL,
    what       TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX history_by_mode ON history (mode_id, id);

-- Rows now carry their start time: read every file again.
DELETE FROM row_chunks;
DELETE FROM failures;
DELETE FROM counts;
UPDATE sources SET last_result_id = 0, last_result_key = '', device = 0, inode = 0;
