-- Who made each decision, wrote each note and asked for each filing: a
-- person's name from an authenticating proxy, "token", "local", or
-- "sandtrap" when it acted on its own. Rows from before are nobody's ('').
-- (0007 belongs to another change; numbers may arrive out of order.)

ALTER TABLE history ADD COLUMN who TEXT NOT NULL DEFAULT '';
ALTER TABLE notes ADD COLUMN who TEXT NOT NULL DEFAULT '';
ALTER TABLE outbox ADD COLUMN who TEXT NOT NULL DEFAULT '';
