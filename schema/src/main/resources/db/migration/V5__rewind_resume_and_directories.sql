-- A rewind that was interrupted is found and resumed by the next request for the same turns, and rewinds
-- put back directories as well as files: those a turn created are removed, those it removed come back with
-- their mode.

-- The process applying an operation ('pid:start time in epoch ms'): a request that finds an operation still
-- applying resumes it when that process is gone, and refuses while it runs.
ALTER TABLE rewind_operation ADD COLUMN runner TEXT;

-- The directories above the paths a turn recorded (and, in a tracked workspace, those the scan saw appear or
-- go): the state when the turn first recorded a path under them, and when it finished. Present means a
-- directory, with its permission bits; a directory is never a file change.
CREATE TABLE directory_change
(
    id             INTEGER PRIMARY KEY,
    turn_id        INTEGER NOT NULL REFERENCES turn (id),
    path           BLOB    NOT NULL,
    before_present INTEGER NOT NULL CHECK (before_present IN (0, 1)),
    before_mode    INTEGER CHECK ((before_present = 1) = (before_mode IS NOT NULL)),
    -- NULL while the turn is open, or when it was something other than a directory or an absence
    after_present  INTEGER CHECK (after_present IN (0, 1)),
    after_mode     INTEGER CHECK (after_mode IS NULL OR after_present = 1),
    UNIQUE (turn_id, path)
);

-- What a rewind does to directories, journaled before it is done: 'create' one that is missing and that a
-- rewound turn removed or a restored file needs, 'remove' one a rewound turn created, once it is empty.
-- planned -> done | skipped (with a reason)
CREATE TABLE rewind_directory
(
    id           INTEGER PRIMARY KEY,
    operation_id INTEGER NOT NULL REFERENCES rewind_operation (id),
    path         BLOB    NOT NULL,
    action       TEXT    NOT NULL CHECK (action IN ('create', 'remove')),
    -- create: the permission bits it gets (NULL: mkdir's default); remove: the ones it had
    mode         INTEGER,
    status       TEXT    NOT NULL CHECK (status IN ('planned', 'done', 'skipped')),
    reason       TEXT,
    detail       TEXT,
    UNIQUE (operation_id, path)
);

CREATE INDEX rewind_directory_operation ON rewind_directory (operation_id);

-- The directories of a tracked workspace with their permission bits, as the last scan saw them.
CREATE TABLE index_directory
(
    workspace_id INTEGER NOT NULL REFERENCES workspace (id),
    path         BLOB    NOT NULL,
    mode         INTEGER NOT NULL,
    PRIMARY KEY (workspace_id, path)
);

-- 1 once index_directory holds the workspace's directories (an index written before this migration has none)
ALTER TABLE tracked_workspace ADD COLUMN directories_indexed INTEGER NOT NULL DEFAULT 0
    CHECK (directories_indexed IN (0, 1));
