-- What the hook calls showed of each runtime in each directory (the same change as db/migration/V26, which
-- explains it).
CREATE TABLE hook_sighting
(
    runtime             TEXT    NOT NULL,
    directory           TEXT    NOT NULL,
    session             TEXT    NOT NULL,
    last_at             BIGINT  NOT NULL,
    last_event          TEXT    NOT NULL,
    runtime_version     TEXT,
    runtime_pid         BIGINT,
    runtime_start_ticks BIGINT,
    runtime_boot_id     TEXT,
    prompt_at           BIGINT,
    prompt_begun        BIGINT  NOT NULL CHECK (prompt_begun IN (0, 1)),
    prompt_tool_calls   BIGINT  NOT NULL,
    prompt_ended        BIGINT  NOT NULL CHECK (prompt_ended IN (0, 1)),
    prompt_runtime_turn TEXT,
    prompt_turn         TEXT,
    warned_since        BIGINT,
    warning             TEXT,
    PRIMARY KEY (runtime, directory)
);
