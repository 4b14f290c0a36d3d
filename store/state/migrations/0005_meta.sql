-- meta holds facts about the state as a whole, such as the fingerprint of
-- the classifier its index was built with.
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
