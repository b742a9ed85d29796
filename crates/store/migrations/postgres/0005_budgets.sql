-- Per-address budgets that every server on the database draws on (tables created, seats taken,
-- bytes written…), so that several servers give an address one budget, not one each.
--
-- A budget is a GCRA: `tat` is its theoretical arrival time, in microseconds since the epoch on
-- PostgreSQL's clock (`clock_timestamp()`, so the servers' clocks do not matter). A budget of
-- `per_minute` units, all at once if need be, holds whatever of the minute before `tat` lies
-- ahead of now; a unit costs 60 s / `per_minute`. A row whose `tat` has passed is a full budget,
-- the same as no row: such rows may be deleted at any time.
CREATE TABLE budgets (
    address TEXT   NOT NULL,
    kind    TEXT   NOT NULL,
    tat     BIGINT NOT NULL,
    PRIMARY KEY (address, kind)
);

-- Takes a grant of at least `least_units` and at most `most_units` of the budget, as many as
-- fit: returns how many (`granted`), or 0 and the microseconds until `least_units` would fit
-- (`wait_micros`; NULL when they never can, being more than the whole budget). A function, so
-- that a refusal's wait comes in the same round trip; the row's lock orders the servers.
CREATE FUNCTION prophecy_take_grant(
    budget_address TEXT,
    budget_kind    TEXT,
    least_units    INT,
    most_units     INT,
    per_minute     INT,
    OUT granted     INT,
    OUT wait_micros BIGINT
) LANGUAGE plpgsql AS $$
DECLARE
    window_us CONSTANT BIGINT := 60000000;
    now_us    BIGINT := (extract(epoch FROM clock_timestamp()) * 1000000)::BIGINT;
    last_tat  BIGINT;
    backlog   BIGINT;
    fits      BIGINT;
BEGIN
    granted := 0;
    IF least_units < 1 OR per_minute < 1 OR least_units > per_minute THEN
        RETURN;
    END IF;
    LOOP
        SELECT tat INTO last_tat FROM budgets
        WHERE address = budget_address AND kind = budget_kind FOR UPDATE;
        IF FOUND THEN
            backlog := greatest(last_tat - now_us, 0);
            fits := least(most_units, (window_us - backlog) * per_minute / window_us);
            IF fits < least_units THEN
                wait_micros := greatest(
                    backlog + least_units * window_us / per_minute - window_us, 1);
                RETURN;
            END IF;
            UPDATE budgets SET tat = now_us + backlog + fits * window_us / per_minute
            WHERE address = budget_address AND kind = budget_kind;
            granted := fits;
            RETURN;
        END IF;
        -- No row: the whole budget is there. Another server may insert first: then read again.
        fits := least(most_units, per_minute);
        INSERT INTO budgets (address, kind, tat)
        VALUES (budget_address, budget_kind, now_us + fits * window_us / per_minute)
        ON CONFLICT DO NOTHING;
        IF FOUND THEN
            granted := fits;
            RETURN;
        END IF;
    END LOOP;
END
$$;
