-- Table chat, kept with the game and shown in replays.
CREATE TABLE chat_lines (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq BIGINT NOT NULL,
    user_id TEXT NOT NULL REFERENCES users(id),
    name TEXT NOT NULL,
    guest BIGINT NOT NULL,
    spectator BIGINT NOT NULL,
    hidden_from_players BIGINT NOT NULL,
    body TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
