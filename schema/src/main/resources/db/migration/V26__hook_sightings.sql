-- What the hook calls showed of each runtime in each directory (issue 21 item 0; docs/runtime-hooks.md, "hooks
-- status"), kept so that a restarted service still shows it: the last call received (event, time, session), the
-- runtime's version and process as the hook script reported them, the last prompt's hooks (its first call's time,
-- whether its begin arrived, how many tool calls, whether its end did, the runtime's id of it and the turn it
-- made), and the standing warning with the time it was first seen. One row per runtime and directory, written by
-- the service at most every few seconds (never a commit per hook call) and when it stops. Times are epoch
-- milliseconds. A row is the service's memory, not a record of the work: nothing else refers to it.
CREATE TABLE hook_sighting
(
    runtime             TEXT    NOT NULL,
    directory           TEXT    NOT NULL,
    session             TEXT    NOT NULL,
    last_at             INTEGER NOT NULL,
    last_event          TEXT    NOT NULL,
    runtime_version     TEXT,
    runtime_pid         INTEGER,
    runtime_start_ticks INTEGER,
    runtime_boot_id     TEXT,
    prompt_at           INTEGER,
    prompt_begun        INTEGER NOT NULL CHECK (prompt_begun IN (0, 1)),
    prompt_tool_calls   INTEGER NOT NULL,
    prompt_ended        INTEGER NOT NULL CHECK (prompt_ended IN (0, 1)),
    prompt_runtime_turn TEXT,
    prompt_turn         TEXT,
    warned_since        INTEGER,
    warning             TEXT,
    PRIMARY KEY (runtime, directory)
);
