-- Reviews of finished games computed by the server: one row per game, claimed by a
-- node ('pending'), then 'done' with the review as JSON, or 'failed' with why.
CREATE TABLE game_reviews (
    game_id TEXT PRIMARY KEY REFERENCES games(id),
    status TEXT NOT NULL,
    review TEXT,
    error TEXT,
    claimed_ms BIGINT NOT NULL,
    done_ms BIGINT
);
CREATE INDEX game_reviews_status ON game_reviews(status, claimed_ms);
-- The scanner looks at recently finished games only.
CREATE INDEX games_finished ON games(finished_ms);
