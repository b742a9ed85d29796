-- The invitation: a code, separate from the table's address, that a newcomer's link must carry
-- to take a seat. The creator can renew it (the old link stops admitting anyone) or close
-- joining (NULL). Existing tables get a fresh code.
ALTER TABLE tables ADD COLUMN invite TEXT;
UPDATE tables SET invite = lower(hex(randomblob(16)));
