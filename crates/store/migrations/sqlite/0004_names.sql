-- The table's name as its creator gave it (trimmed, checked by the server); NULL when none:
-- the game then names the table itself.
ALTER TABLE tables ADD COLUMN name TEXT;
