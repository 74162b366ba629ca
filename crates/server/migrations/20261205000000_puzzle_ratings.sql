-- Puzzle ratings of registered players (Glicko-2), the puzzles' own ratings, and the
-- one rated attempt each player has at each puzzle.
CREATE TABLE puzzle_ratings (
    user_id TEXT PRIMARY KEY REFERENCES users(id),
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    attempts BIGINT NOT NULL,
    solved BIGINT NOT NULL,
    updated_ms BIGINT NOT NULL
);

CREATE TABLE puzzle_stats (
    puzzle_id TEXT PRIMARY KEY,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    attempts BIGINT NOT NULL,
    solved BIGINT NOT NULL
);

CREATE TABLE puzzle_attempts (
    user_id TEXT NOT NULL REFERENCES users(id),
    puzzle_id TEXT NOT NULL,
    solved INTEGER NOT NULL,
    rating_before DOUBLE PRECISION,
    rating_after DOUBLE PRECISION,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (user_id, puzzle_id)
);
