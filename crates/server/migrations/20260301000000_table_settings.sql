-- Settings a resumed table needs: the invitation of a private table (none for a
-- public one) and, for untimed tables, the time each move may take.
ALTER TABLE games ADD COLUMN invite TEXT;
ALTER TABLE games ADD COLUMN move_time_ms BIGINT;
