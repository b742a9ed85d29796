-- A table watchers may follow: the code of its page (`/w/CODE`), NULL while none is open.
ALTER TABLE tables ADD COLUMN watch TEXT;
CREATE UNIQUE INDEX tables_watch ON tables (watch);
