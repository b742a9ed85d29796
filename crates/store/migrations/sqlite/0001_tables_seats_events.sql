-- A table is reached only through its token (the invite link).
CREATE TABLE tables (
    id         INTEGER PRIMARY KEY,
    token      TEXT    NOT NULL UNIQUE,
    game       TEXT    NOT NULL,
    created_at INTEGER NOT NULL
) STRICT;

-- A seat: one person at one table, recognised by the SHA-256 of their secret cookie.
CREATE TABLE seats (
    table_id    INTEGER NOT NULL REFERENCES tables (id),
    player      INTEGER NOT NULL,
    name        TEXT    NOT NULL,
    secret_hash BLOB    NOT NULL UNIQUE,
    creator     INTEGER NOT NULL DEFAULT 0,
    removed     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, player)
) STRICT;

-- The log: the single source of truth. A duplicate (table_id, seq) is a conflict.
CREATE TABLE events (
    table_id INTEGER NOT NULL REFERENCES tables (id),
    seq      INTEGER NOT NULL,
    at       INTEGER NOT NULL,
    player   INTEGER,
    body     TEXT    NOT NULL,
    PRIMARY KEY (table_id, seq)
) STRICT;
