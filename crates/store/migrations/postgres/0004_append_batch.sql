-- Group commit: the appends waiting at one moment, from many tables, in one call and so one
-- transaction, one round trip and one notice. Arrays are per append, except `ats`, `players`
-- and `bodies`, which are per event, every append's events one after the other (`counts`
-- says how many each has). A NULL `seat_players[i]`, `removes[i]` or `invites[i]` means none.
--
-- Each append locks its table's row first (the batch comes sorted by table, so that two
-- servers' batches lock in one order and never deadlock). The log's last number read after
-- the lock is the one the append follows: an append that did not see it gets -1 and writes
-- nothing, and the others in the batch go on. No insert can then meet another writer's row,
-- so no error aborts the batch for one table's sake.
--
-- Returns, per append, the table's new last event number, or -1 after a conflict. The notice
-- on `prophecy_events` lists `TABLE:SEQ` (and `TABLE:invite`) items separated by spaces,
-- several notices when they do not fit in one (PostgreSQL takes up to 8,000 bytes).
CREATE FUNCTION prophecy_append(
    table_ids     BIGINT[],
    afters        BIGINT[],
    counts        INT[],
    seat_players  BIGINT[],
    seat_names    TEXT[],
    seat_hashes   BYTEA[],
    seat_creators BOOLEAN[],
    removes       BIGINT[],
    invites       TEXT[],
    ats           BIGINT[],
    players       BIGINT[],
    bodies        TEXT[]
) RETURNS BIGINT[] LANGUAGE plpgsql AS $$
DECLARE
    results BIGINT[] := '{}';
    notice  TEXT := '';
    item    TEXT;
    first   INT := 1;
    last    BIGINT;
BEGIN
    FOR i IN 1 .. coalesce(array_length(table_ids, 1), 0) LOOP
        PERFORM 1 FROM tables WHERE id = table_ids[i] FOR NO KEY UPDATE;
        SELECT coalesce(max(seq), 0) INTO last FROM events WHERE table_id = table_ids[i];
        IF last <> afters[i] THEN
            results := results || (-1)::BIGINT;
        ELSE
            IF seat_players[i] IS NOT NULL THEN
                INSERT INTO seats (table_id, player, name, secret_hash, creator)
                VALUES (table_ids[i], seat_players[i], seat_names[i], seat_hashes[i],
                        seat_creators[i]);
            END IF;
            IF removes[i] IS NOT NULL THEN
                UPDATE seats SET removed = TRUE
                WHERE table_id = table_ids[i] AND player = removes[i];
            END IF;
            INSERT INTO events (table_id, seq, at, player, body)
            SELECT table_ids[i], afters[i] + n, ats[first + n - 1], players[first + n - 1],
                   bodies[first + n - 1]
            FROM generate_series(1, counts[i]) AS n;
            results := results || (afters[i] + counts[i]);
            item := table_ids[i] || ':' || (afters[i] + counts[i]);
            IF invites[i] IS NOT NULL THEN
                UPDATE tables SET invite = invites[i]
                WHERE id = table_ids[i] AND invite IS NOT NULL;
                item := item || ' ' || table_ids[i] || ':invite';
            END IF;
            IF length(notice) + length(item) >= 7900 THEN
                PERFORM pg_notify('prophecy_events', notice);
                notice := '';
            END IF;
            notice := CASE WHEN notice = '' THEN item ELSE notice || ' ' || item END;
        END IF;
        first := first + counts[i];
    END LOOP;
    IF notice <> '' THEN
        PERFORM pg_notify('prophecy_events', notice);
    END IF;
    RETURN results;
END
$$;
