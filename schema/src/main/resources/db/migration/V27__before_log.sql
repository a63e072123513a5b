-- The before log (issue 23 item 1; docs/store-layout.md, "The before log"): a snapshot call appends the
-- before-state of each path it names here, one row a path, instead of writing the tool call, file change,
-- snapshot and blob rows and their indexes; the next other transaction on the store folds every row into
-- those tables and deletes it (a finish, a begin, a scan, a query: Store folds before it runs the work). A row
-- holds the snapshot's columns as the snapshot table has them (checked there when it is folded), the tool
-- call that named the path and when, the symlink it was reached through, and the content, compressed, when the
-- call read it. Its only index answers "does the turn hold this path already" (the first before-state wins).
-- No foreign key: a row is never read but by the fold, which runs before any transaction that could delete its
-- turn.
CREATE TABLE before_log
(
    id               INTEGER PRIMARY KEY,
    turn_id          INTEGER NOT NULL,
    tool_call        TEXT    NOT NULL,
    tool_name        TEXT,
    called_at        INTEGER NOT NULL,
    via              BLOB,
    path             BLOB    NOT NULL,
    boundary         TEXT    NOT NULL,
    present          INTEGER,
    file_type        TEXT,
    size             INTEGER,
    mtime_ns         INTEGER,
    mode             INTEGER,
    inode            INTEGER,
    nlink            INTEGER,
    sha256           TEXT,
    sampled_sha256   TEXT,
    content_sha256   TEXT,
    captured         INTEGER NOT NULL,
    link_target      BLOB,
    fingerprint      TEXT,
    reason           TEXT,
    reason_detail    TEXT,
    taken_at         INTEGER NOT NULL,
    -- the content the call read, compressed on its own as the blob table stores it (null: none read)
    content_size     INTEGER,
    content_encoding TEXT,
    content_data     BLOB
);

CREATE INDEX before_log_path ON before_log (turn_id, path);
