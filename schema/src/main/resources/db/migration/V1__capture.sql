-- The capture schema: workspaces, sessions, turns, tool calls, snapshots, file changes and blobs.
-- Times are epoch milliseconds; file modification times are epoch nanoseconds.
-- Paths are workspace-relative raw bytes (BLOB): names need not be UTF-8, and two different names must
-- never collapse into one key.

CREATE TABLE workspace
(
    id          INTEGER PRIMARY KEY,
    root_given  TEXT    NOT NULL,
    root_real   TEXT    NOT NULL UNIQUE,
    -- identity of the root directory when it was last opened: a root replaced by another directory is
    -- noticed before anything is read through a stale name
    root_device INTEGER NOT NULL,
    root_inode  INTEGER NOT NULL,
    created_at  INTEGER NOT NULL
);

CREATE TABLE session
(
    id           INTEGER PRIMARY KEY,
    external_id  TEXT    NOT NULL UNIQUE,
    workspace_id INTEGER NOT NULL REFERENCES workspace (id),
    created_at   INTEGER NOT NULL
);

CREATE INDEX session_workspace ON session (workspace_id);

CREATE TABLE turn
(
    id          INTEGER PRIMARY KEY,
    external_id TEXT    NOT NULL UNIQUE,
    session_id  INTEGER NOT NULL REFERENCES session (id),
    seq         INTEGER NOT NULL,
    kind        TEXT    NOT NULL CHECK (kind IN ('agent', 'rewind')),
    state       TEXT    NOT NULL CHECK (state IN ('open', 'finished', 'rewound')),
    began_at    INTEGER NOT NULL,
    finished_at INTEGER,
    UNIQUE (session_id, seq)
);

CREATE TABLE tool_call
(
    id          INTEGER PRIMARY KEY,
    turn_id     INTEGER NOT NULL REFERENCES turn (id),
    external_id TEXT    NOT NULL,
    called_at   INTEGER NOT NULL,
    UNIQUE (turn_id, external_id)
);

-- Content addressed by the SHA-256 of the uncompressed bytes; stored once however many snapshots use it.
CREATE TABLE blob
(
    sha256    TEXT    NOT NULL PRIMARY KEY CHECK (length(sha256) = 64),
    size      INTEGER NOT NULL CHECK (size >= 0),
    encoding  TEXT    NOT NULL CHECK (encoding IN ('raw', 'zstd')),
    data      BLOB    NOT NULL,
    stored_at INTEGER NOT NULL
);

-- The state of one path at one moment.
CREATE TABLE snapshot
(
    id             INTEGER PRIMARY KEY,
    path           BLOB    NOT NULL,
    boundary       TEXT    NOT NULL CHECK (boundary IN ('openat2', 'secure_directory_stream')),
    -- 1 present, 0 absent, NULL when it could not be known (never guessed as absent)
    present        INTEGER CHECK (present IN (0, 1)),
    file_type      TEXT CHECK (file_type IN ('regular', 'directory', 'symlink', 'fifo', 'socket',
                                             'char_device', 'block_device', 'unknown')),
    size           INTEGER,
    mtime_ns       INTEGER,
    mode           INTEGER,
    inode          INTEGER,
    nlink          INTEGER,
    -- SHA-256 of the content whenever it was read (streamed for files over the size limit)
    sha256         TEXT CHECK (sha256 IS NULL OR length(sha256) = 64),
    -- set only when the content itself was stored
    content_sha256 TEXT REFERENCES blob (sha256),
    -- the state is completely known: stored content, a link's text, or a known absence
    captured       INTEGER NOT NULL CHECK (captured IN (0, 1)),
    link_target    BLOB,
    fingerprint    TEXT,
    reason         TEXT CHECK (reason IN ('outside_workspace', 'escapes_workspace', 'hardlinked',
                                          'special_file', 'directory', 'too_large', 'unreadable',
                                          'changed_during_read')),
    reason_detail  TEXT,
    taken_at       INTEGER NOT NULL,
    CHECK (content_sha256 IS NULL OR content_sha256 = sha256),
    CHECK (captured = 0 OR reason IS NULL),
    CHECK (present IS NOT NULL OR captured = 0)
);

-- A path's before and after snapshot in a turn, with its diff.
CREATE TABLE file_change
(
    id                 INTEGER PRIMARY KEY,
    turn_id            INTEGER NOT NULL REFERENCES turn (id),
    path               BLOB    NOT NULL,
    via                BLOB,
    detected_by        TEXT    NOT NULL CHECK (detected_by IN ('snapshot', 'scan')),
    before_snapshot_id INTEGER NOT NULL REFERENCES snapshot (id),
    after_snapshot_id  INTEGER REFERENCES snapshot (id),
    change             TEXT CHECK (change IN ('added', 'modified', 'deleted', 'unchanged', 'type_changed')),
    lines_added        INTEGER,
    lines_removed      INTEGER,
    diff_sha256        TEXT REFERENCES blob (sha256),
    UNIQUE (turn_id, path)
);

CREATE INDEX file_change_path ON file_change (path);

-- Every tool call that asked for a path's before-state; the first one's snapshot is the one kept.
CREATE TABLE file_change_tool_call
(
    file_change_id INTEGER NOT NULL REFERENCES file_change (id),
    tool_call_id   INTEGER NOT NULL REFERENCES tool_call (id),
    PRIMARY KEY (file_change_id, tool_call_id)
);

CREATE INDEX file_change_tool_call_tool_call ON file_change_tool_call (tool_call_id);
