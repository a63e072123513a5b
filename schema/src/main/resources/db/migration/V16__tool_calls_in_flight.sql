-- The tool call in flight (issue 27). A shell tool call bracketed by its runtime's Pre and Post hooks owns what the
-- watcher saw change between them: the call's Pre and its Post each write the workspace's index (a scan of the
-- watcher's dirty set), so the calls in flight stay the same through every interval a scan's change is found in.
--
-- tool_call gains what a user recognizes it by (the runtime's tool name, e.g. Bash, and the first line of its
-- command, at most 200 characters), whether it is a shell call whose end is awaited (in_flight_from: when its Pre
-- came), and when its end came (ended_at; NULL while in flight, or for a call whose runtime sends no end, which the
-- turn's finish then ends).
ALTER TABLE tool_call
    ADD COLUMN tool_name TEXT;
ALTER TABLE tool_call
    ADD COLUMN command TEXT;
ALTER TABLE tool_call
    ADD COLUMN shell INTEGER NOT NULL DEFAULT 0 CHECK (shell IN (0, 1));
ALTER TABLE tool_call
    ADD COLUMN ended_at INTEGER;

-- A turn whose runtime brackets its shell calls with Pre and Post hooks (its hooks say so when they begin it): a change
-- made while none of its calls was in flight is not its own. Other turns (the CLI's, a runtime without Post hooks)
-- could have made any change while they were open.
ALTER TABLE turn
    ADD COLUMN brackets_calls INTEGER NOT NULL DEFAULT 0 CHECK (brackets_calls IN (0, 1));

-- Each file change's tool calls, as one fact: 'named' (a tool call named the path: its snapshot; the calls are in
-- file_change_tool_call), 'calls' (a scan found it, made while these shell calls were in flight, all listed in
-- file_change_tool_call: one, or several overlapping), 'outside' (made while no tool call of any open turn was in
-- flight: an editor's save during a turn), 'unknown' (a scan found it and the calls in flight through its interval
-- are not known: no watcher, so the interval spans calls). Rows recorded before V16 are 'named' or 'unknown'.
ALTER TABLE file_change
    ADD COLUMN made_during TEXT NOT NULL DEFAULT 'unknown'
        CHECK (made_during IN ('named', 'calls', 'outside', 'unknown'));

UPDATE file_change
SET made_during = 'named'
WHERE detected_by = 'snapshot';

CREATE INDEX tool_call_shell_in_flight ON tool_call (turn_id) WHERE shell = 1 AND ended_at IS NULL;
