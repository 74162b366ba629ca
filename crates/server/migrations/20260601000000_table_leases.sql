-- Which node of a cluster runs each live table. A node holds a table while
-- `expires_ms` (its own clock, ms since the Unix epoch) lies ahead; every new holder
-- raises `epoch`, and a holder's writes check the epoch in their own transaction, so
-- a node that lost the table can no longer store anything for it.
CREATE TABLE table_leases (
    table_id TEXT PRIMARY KEY,
    node TEXT NOT NULL,
    epoch BIGINT NOT NULL,
    expires_ms BIGINT NOT NULL
);
CREATE INDEX table_leases_node ON table_leases(node);
