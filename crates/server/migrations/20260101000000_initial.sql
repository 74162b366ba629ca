-- Stella schema. Portable SQL: runs unchanged on SQLite and PostgreSQL.
-- Times are milliseconds since the Unix epoch (BIGINT); flags are 0/1 BIGINT.

CREATE TABLE users (
    id TEXT PRIMARY KEY,
    username TEXT NOT NULL,
    username_key TEXT NOT NULL UNIQUE,
    password_hash TEXT,
    is_guest BIGINT NOT NULL,
    created_ms BIGINT NOT NULL
);

CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id),
    created_ms BIGINT NOT NULL,
    expires_ms BIGINT NOT NULL
);
CREATE INDEX sessions_user ON sessions(user_id);

CREATE TABLE games (
    id TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    rated BIGINT NOT NULL,
    reserve_ms BIGINT,
    increment_ms BIGINT,
    status TEXT NOT NULL,
    created_by TEXT,
    created_ms BIGINT NOT NULL,
    started_ms BIGINT,
    finished_ms BIGINT,
    reason TEXT,
    record TEXT,
    clock TEXT,
    start_v BIGINT
);
CREATE INDEX games_status ON games(status);

CREATE TABLE seats (
    game_id TEXT NOT NULL REFERENCES games(id),
    seat BIGINT NOT NULL,
    colour TEXT NOT NULL,
    user_id TEXT REFERENCES users(id),
    computer_level BIGINT,
    place BIGINT,
    rating_before DOUBLE PRECISION,
    rating_after DOUBLE PRECISION,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX seats_user ON seats(user_id);

CREATE TABLE moves (
    game_id TEXT NOT NULL REFERENCES games(id),
    ply BIGINT NOT NULL,
    colour TEXT NOT NULL,
    path TEXT NOT NULL,
    clock TEXT,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, ply)
);

CREATE TABLE ratings (
    user_id TEXT NOT NULL REFERENCES users(id),
    category TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    PRIMARY KEY (user_id, category)
);
CREATE INDEX ratings_board ON ratings(category, rating);

CREATE TABLE rating_history (
    user_id TEXT NOT NULL REFERENCES users(id),
    category TEXT NOT NULL,
    game_id TEXT NOT NULL REFERENCES games(id),
    rating_before DOUBLE PRECISION NOT NULL,
    rating_after DOUBLE PRECISION NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (user_id, category, game_id)
);
