-- A template remembers the tool that printed its first failure (the
-- leading word of its signature's last line, see triage's toolOf), so
-- that after a restart two known causes printed by two tools and logged
-- alike join as they would have before.
ALTER TABLE templates ADD COLUMN tool TEXT NOT NULL DEFAULT '';
