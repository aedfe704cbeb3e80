-- a2a-store-sql schema version 1. `{serial}` is the dialect's auto-numbered key type
-- (SQLite: INTEGER PRIMARY KEY AUTOINCREMENT, PostgreSQL: BIGSERIAL PRIMARY KEY).
CREATE TABLE a2a_tasks (
    number {serial},
    id TEXT NOT NULL UNIQUE,
    principal TEXT NOT NULL,
    tenant TEXT NOT NULL,
    generation TEXT NOT NULL,
    context_id TEXT NOT NULL,
    state TEXT NOT NULL,
    time_key BIGINT NOT NULL,
    terminal_at BIGINT,
    last_seq BIGINT NOT NULL,
    bytes BIGINT NOT NULL,
    task TEXT NOT NULL,
    replica TEXT,
    lease_until BIGINT
);
CREATE INDEX a2a_tasks_list ON a2a_tasks (principal, tenant, time_key, number);
CREATE INDEX a2a_tasks_terminal ON a2a_tasks (terminal_at);
CREATE INDEX a2a_tasks_lease ON a2a_tasks (lease_until);
CREATE INDEX a2a_tasks_replica ON a2a_tasks (replica);
CREATE TABLE a2a_events (
    task_id TEXT NOT NULL REFERENCES a2a_tasks (id) ON DELETE CASCADE,
    seq BIGINT NOT NULL,
    event TEXT NOT NULL,
    PRIMARY KEY (task_id, seq)
);
CREATE TABLE a2a_push_configs (
    task_id TEXT NOT NULL,
    config_id TEXT NOT NULL,
    position BIGINT NOT NULL,
    config TEXT NOT NULL,
    generation TEXT NOT NULL,
    delivered BIGINT NOT NULL DEFAULT 0,
    dropped BIGINT NOT NULL DEFAULT 0,
    last_error TEXT,
    PRIMARY KEY (task_id, config_id)
);
CREATE TABLE a2a_push_outbox (
    id {serial},
    task_id TEXT NOT NULL,
    config_id TEXT NOT NULL,
    seq BIGINT NOT NULL,
    event TEXT NOT NULL,
    config TEXT NOT NULL,
    generation TEXT NOT NULL,
    bytes BIGINT NOT NULL,
    attempts BIGINT NOT NULL DEFAULT 0,
    due_at BIGINT NOT NULL,
    lease BIGINT,
    lease_until BIGINT,
    last_error TEXT,
    dead BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX a2a_push_outbox_queue ON a2a_push_outbox (task_id, config_id, dead, id);
CREATE TABLE a2a_counters (
    name TEXT PRIMARY KEY,
    value BIGINT NOT NULL
);
INSERT INTO a2a_counters (name, value) VALUES ('lease', 0), ('outbox_waiting', 0), ('outbox_bytes', 0);
