-- Group commit: the appends waiting at one moment, from many tables, in one call and so one
-- transaction, one round trip and one notice. Arrays are per append (`table_ids` in
-- increasing order, no table twice), except `owners`, `seqs`, `ats`, `players` and `bodies`,
-- which are per event: `owners` gives the append an event belongs to (from 1) and `seqs` its
-- number should that append land. A NULL `seat_players[i]`, `removes[i]` or `invites[i]`
-- means none. The work is done a statement per batch, not per append.
--
-- The tables' rows are locked first, in the order of their ids (so two servers' batches
-- never deadlock). The log's last number read after the lock is the one each append must
-- follow: an append that did not see it gets -1 and writes nothing, and the others go on. No
-- insert can then meet another writer's row, so no error aborts the batch for one table.
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
    owners        INT[],
    seqs          BIGINT[],
    ats           BIGINT[],
    players       BIGINT[],
    bodies        TEXT[]
) RETURNS BIGINT[] LANGUAGE plpgsql
-- Planned once (a plan for every call's arrays costs more than the work it plans), and by
-- key: a plan made while the tables were small must not scan them whole once they are large.
SET plan_cache_mode = force_generic_plan
SET enable_seqscan = off
AS $$
DECLARE
    results BIGINT[];
    notice  TEXT := '';
    item    TEXT;
BEGIN
    PERFORM 1 FROM tables WHERE id = ANY (table_ids) ORDER BY id FOR NO KEY UPDATE;
    -- A statement of its own, so that it sees what the lock waited for.
    SELECT array_agg(
               CASE WHEN coalesce(
                        (SELECT max(seq) FROM events WHERE table_id = table_ids[i]), 0)
                         = afters[i]
                    THEN afters[i] + counts[i] ELSE -1 END
               ORDER BY i)
    INTO results
    FROM generate_subscripts(table_ids, 1) AS i;
    INSERT INTO events (table_id, seq, at, player, body)
    SELECT table_ids[e.owner], e.seq, e.at, e.player, e.body
    FROM unnest(owners, seqs, ats, players, bodies) AS e(owner, seq, at, player, body)
    WHERE results[e.owner] >= 0;
    IF cardinality(array_remove(seat_players, NULL)) > 0 THEN
        INSERT INTO seats (table_id, player, name, secret_hash, creator)
        SELECT table_ids[i], seat_players[i], seat_names[i], seat_hashes[i], seat_creators[i]
        FROM generate_subscripts(table_ids, 1) AS i
        WHERE seat_players[i] IS NOT NULL AND results[i] >= 0;
    END IF;
    IF cardinality(array_remove(removes, NULL)) > 0 THEN
        UPDATE seats SET removed = TRUE
        FROM generate_subscripts(table_ids, 1) AS i
        WHERE removes[i] IS NOT NULL AND results[i] >= 0
          AND seats.table_id = table_ids[i] AND seats.player = removes[i];
    END IF;
    IF cardinality(array_remove(invites, NULL)) > 0 THEN
        UPDATE tables SET invite = invites[i]
        FROM generate_subscripts(table_ids, 1) AS i
        WHERE invites[i] IS NOT NULL AND results[i] >= 0
          AND tables.id = table_ids[i] AND tables.invite IS NOT NULL;
    END IF;
    FOR i IN 1 .. coalesce(array_length(table_ids, 1), 0) LOOP
        CONTINUE WHEN results[i] < 0;
        item := table_ids[i] || ':' || results[i];
        IF invites[i] IS NOT NULL THEN
            item := item || ' ' || table_ids[i] || ':invite';
        END IF;
        IF length(notice) + length(item) >= 7900 THEN
            PERFORM pg_notify('prophecy_events', notice);
            notice := '';
        END IF;
        notice := CASE WHEN notice = '' THEN item ELSE notice || ' ' || item END;
    END LOOP;
    IF notice <> '' THEN
        PERFORM pg_notify('prophecy_events', notice);
    END IF;
    RETURN results;
END
$$;
