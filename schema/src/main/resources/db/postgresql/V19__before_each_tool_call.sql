-- Rewind to before a tool call (issue 24 item 1). A turn's file change keeps the path's first before-state; a rewind to
-- before a later call of the turn needs the state the path was in when that call began. Each link of a change to a
-- tool call now keeps the before-state that call found (before_snapshot_id): the snapshot a later call of the same
-- path took (which was looked at and dropped before), or the index's state a scan started from when it found a later
-- shell call's change of a path the turn had changed already. NULL where the call's before-state is the change's own
-- (the first call), and on every link made before V19, whose later calls' before-states are not known.
ALTER TABLE file_change_tool_call
    ADD COLUMN before_snapshot_id BIGINT REFERENCES snapshot (id);

CREATE INDEX file_change_tool_call_before ON file_change_tool_call (before_snapshot_id)
    WHERE before_snapshot_id IS NOT NULL;

-- A rewind to before a tool call of its turn: the call's external id (NULL for a rewind of whole turns or of paths).
-- Such a rewind rewinds some of the turn's changes, so, like a rewind of some paths, it never marks the turn rewound.
ALTER TABLE rewind_operation
    ADD COLUMN before_tool_call TEXT;
