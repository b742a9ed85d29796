-- A published story: the code of its read-only page (`/s/CODE`), NULL while unpublished.
ALTER TABLE tables ADD COLUMN share TEXT;
CREATE UNIQUE INDEX tables_share ON tables (share);
