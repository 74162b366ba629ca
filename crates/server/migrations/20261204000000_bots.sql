-- Bot accounts and their API tokens. A bot account plays through a program with a
-- token instead of a password session; tokens are stored as their SHA-256 and can be
-- revoked.
ALTER TABLE users ADD COLUMN is_bot INTEGER NOT NULL DEFAULT 0;

CREATE TABLE api_tokens (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id),
    token_hash TEXT NOT NULL UNIQUE,
    label TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    last_used_ms BIGINT,
    revoked_ms BIGINT
);
CREATE INDEX api_tokens_user ON api_tokens(user_id);
