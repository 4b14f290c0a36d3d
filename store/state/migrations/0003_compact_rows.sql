-- Rows keep their start time in seconds, in 4 bytes: read every file again.
DELETE FROM row_chunks;
DELETE FROM failures;
DELETE FROM counts;
UPDATE sources SET last_result_id = 0, last_result_key = '', device = 0, inode = 0;
