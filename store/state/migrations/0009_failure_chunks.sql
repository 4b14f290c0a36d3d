-- Failures are saved packed, 1,024 to a blob per run, as rows are: one row
-- per failure made saving them a third of a first read. Every file is read
-- again into the new table. Until then, carry keeps the mode each failure
-- had, so that whatever the next read decides, people's decisions follow
-- their failures (an unchanged mode stays itself).

INSERT OR IGNORE INTO carry (source_id, result_id, old_mode)
    SELECT source_id, result_id, mode_id FROM failures;
DROP TABLE failures;

-- failure_chunks holds the failures of a run in id order: per chunk, its
-- distinct error texts, modes and deciders once, then each failure's id,
-- test, attempt and references to those (see store/failchunks.go).
CREATE TABLE failure_chunks (
    source_id INTEGER NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
    run_id    TEXT NOT NULL,
    chunk     INTEGER NOT NULL,
    data      BLOB NOT NULL,
    PRIMARY KEY (source_id, run_id, chunk)
) WITHOUT ROWID;

DELETE FROM row_chunks;
DELETE FROM counts;
UPDATE sources SET last_result_id = 0, last_result_key = '', device = 0, inode = 0;
