-- A run's failures are read back on their own when its rows were evicted
-- from memory: find them by run, not by a scan of every failure.
CREATE INDEX failures_by_run ON failures (source_id, run_id, result_id);
