-- Tracked workspaces: an index of every path that is not ignored, with its stat and content hash, and a
-- content baseline in the blob table, so that a turn's changes made by shell commands can be found.

CREATE TABLE tracked_workspace
(
    workspace_id  INTEGER PRIMARY KEY REFERENCES workspace (id),
    -- wall-clock time (epoch ns) when the scan that wrote the index began: an entry modified within a
    -- timestamp tick of it is "racy" and is hashed again on the next scan, whatever its stat says
    indexed_at_ns INTEGER NOT NULL,
    -- incremented on every write, so a process can tell that its cached copy of the index is stale
    version       INTEGER NOT NULL,
    -- 1 when the file or byte budget was reached and some subtrees are left out (see index_left_out)
    partial       INTEGER NOT NULL CHECK (partial IN (0, 1)),
    max_files     INTEGER NOT NULL,
    max_bytes     INTEGER NOT NULL
);

CREATE TABLE index_entry
(
    workspace_id   INTEGER NOT NULL REFERENCES workspace (id),
    path           BLOB    NOT NULL,
    file_type      TEXT    NOT NULL CHECK (file_type IN ('regular', 'symlink', 'fifo', 'socket',
                                                         'char_device', 'block_device', 'unknown', 'directory')),
    size           INTEGER NOT NULL,
    mtime_ns       INTEGER NOT NULL,
    ctime_ns       INTEGER NOT NULL,
    inode          INTEGER NOT NULL,
    mode           INTEGER NOT NULL,
    nlink          INTEGER NOT NULL,
    link_target    BLOB,
    -- the content's hash when it was read; the content itself when it is in the baseline
    sha256         TEXT CHECK (sha256 IS NULL OR length(sha256) = 64),
    content_sha256 TEXT REFERENCES blob (sha256),
    -- why only metadata is indexed (hardlinked, special_file, too_large, escapes_workspace, unreadable, ...)
    reason         TEXT,
    PRIMARY KEY (workspace_id, path)
);

-- Subtrees the budgets left out: changes under them are not seen.
CREATE TABLE index_left_out
(
    workspace_id INTEGER NOT NULL REFERENCES workspace (id),
    path         BLOB    NOT NULL,
    PRIMARY KEY (workspace_id, path)
);
