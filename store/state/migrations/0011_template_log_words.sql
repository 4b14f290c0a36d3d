-- A template remembers the words of its first failure's log (see
-- triage.LogWords), space-separated, so that after a restart a new
-- template of the same class logged alike joins it as it would have
-- before.
ALTER TABLE templates ADD COLUMN log_words TEXT NOT NULL DEFAULT '';
