-- A template remembers whether a rule, a known cause or the harness
-- placed its first failure, so that after a restart a guessed failure
-- logged alike takes its class as it would have before (see triage's
-- loggedClass). Templates saved before this know nothing of it: no guess
-- takes their class.
ALTER TABLE templates ADD COLUMN decided INTEGER NOT NULL DEFAULT 0;
