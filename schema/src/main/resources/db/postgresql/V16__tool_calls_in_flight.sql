-- The tool call in flight: a shell call's name, command, end, and each file change's calls (the same change as
-- db/migration/V16, which explains it).
ALTER TABLE tool_call
    ADD COLUMN tool_name TEXT;
ALTER TABLE tool_call
    ADD COLUMN command TEXT;
ALTER TABLE tool_call
    ADD COLUMN shell BIGINT NOT NULL DEFAULT 0 CHECK (shell IN (0, 1));
ALTER TABLE tool_call
    ADD COLUMN ended_at BIGINT;

ALTER TABLE turn
    ADD COLUMN brackets_calls BIGINT NOT NULL DEFAULT 0 CHECK (brackets_calls IN (0, 1));

ALTER TABLE file_change
    ADD COLUMN made_during TEXT NOT NULL DEFAULT 'unknown'
        CHECK (made_during IN ('named', 'calls', 'outside', 'unknown'));

UPDATE file_change
SET made_during = 'named'
WHERE detected_by = 'snapshot';

CREATE INDEX tool_call_shell_in_flight ON tool_call (turn_id) WHERE shell = 1 AND ended_at IS NULL;
