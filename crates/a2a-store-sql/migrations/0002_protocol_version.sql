-- a2a-store-sql schema version 2: the protocol version a task was created through (and a push
-- config registered through) is named `protocol_version`; A2A 1.1 gives "generation" its own
-- meaning (a task's change counter).
ALTER TABLE a2a_tasks RENAME COLUMN generation TO protocol_version;
ALTER TABLE a2a_push_configs RENAME COLUMN generation TO protocol_version;
ALTER TABLE a2a_push_outbox RENAME COLUMN generation TO protocol_version;
