-- The same schema as SQLite's (migrations/sqlite), in PostgreSQL's types.

-- A table is reached only through its token (the invite link); `invite` is the code a
-- newcomer's link must carry, NULL while joining is closed.
CREATE TABLE tables (
    id         BIGSERIAL PRIMARY KEY,
    token      TEXT   NOT NULL UNIQUE,
    game       TEXT   NOT NULL,
    created_at BIGINT NOT NULL,
    invite     TEXT
);

-- A seat: one person at one table, recognised by the SHA-256 of their secret cookie.
CREATE TABLE seats (
    table_id    BIGINT  NOT NULL REFERENCES tables (id),
    player      BIGINT  NOT NULL,
    name        TEXT    NOT NULL,
    secret_hash BYTEA   NOT NULL UNIQUE,
    creator     BOOLEAN NOT NULL DEFAULT FALSE,
    removed     BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (table_id, player)
);

-- The log: the single source of truth. A duplicate (table_id, seq) is a conflict: two writers
-- that both read the same last seq cannot both append after it.
CREATE TABLE events (
    table_id BIGINT NOT NULL REFERENCES tables (id),
    seq      BIGINT NOT NULL,
    at       BIGINT NOT NULL,
    player   BIGINT,
    body     TEXT   NOT NULL,
    PRIMARY KEY (table_id, seq)
);
