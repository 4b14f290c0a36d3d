-- A template remembers the run context it was created in (the domain,
-- target and exit status of its first failure, when the harness logged
-- it), so that after a restart a new template of the same primitive and
-- context joins it as it would have before (see triage.RunContext).
ALTER TABLE templates ADD COLUMN context TEXT NOT NULL DEFAULT '';
