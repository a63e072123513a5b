-- Rows that cost what they hold (issue 23 item 5; docs/performance.md, "Where the store's bytes are"). What
-- the store kept that nothing reads, and keys stored twice:
--
-- 1. snapshot.fingerprint and before_log.fingerprint go: the text "regular:4737:1796…:0644" was derived from
--    the row's own type, size, mtime and mode columns, written with every snapshot and never read back (a
--    snapshot's fingerprint is computed from its kind when asked for: Snapshot.fingerprint()). About 37 bytes
--    of every snapshot row.
-- 2. rewind_entry_operation and rewind_directory_operation go: each is the first column of its table's
--    UNIQUE (operation_id, path), whose index answers every look-up by operation_id (the store's reads and
--    the foreign key's check when an operation is deleted) as well (EXPLAIN QUERY PLAN in
--    StoreRowsMigrationTest). blob_stored_at goes too: no statement of the store's is planned through it (a
--    collection finds its blobs by key, by name or in key order, and tests stored_at on the row it found:
--    EXPLAIN QUERY PLAN of both, in the same test), while every blob stored or looked up again wrote it.
-- 3. index_entry, index_directory and directory_change are kept WITHOUT ROWID: their key, (workspace, path)
--    or (turn, path), is their identity, and as rowid tables each path was stored twice, in the row and in the
--    key's own index. directory_change loses its id, which nothing read or referred to. The rows are small (a
--    stat, two hashes, a path; a directory's two modes), as WITHOUT ROWID wants. SQLite changes a table to
--    WITHOUT ROWID only by making it again: made under a new name, filled, the old one dropped, renamed;
--    nothing has a foreign key into these tables, so it runs in the migration's transaction.
--
-- The same change in db/postgresql/V28 but for the rowid: PostgreSQL's tables have none; directory_change
-- loses its id there too, and its unique pair becomes its key.

ALTER TABLE snapshot DROP COLUMN fingerprint;
ALTER TABLE before_log DROP COLUMN fingerprint;

DROP INDEX rewind_entry_operation;
DROP INDEX rewind_directory_operation;
DROP INDEX blob_stored_at;

CREATE TABLE index_entry_v28
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
) WITHOUT ROWID;
INSERT INTO index_entry_v28 (workspace_id, path, file_type, size, mtime_ns, ctime_ns, inode, mode, nlink,
                             link_target, sha256, content_sha256, reason)
SELECT workspace_id, path, file_type, size, mtime_ns, ctime_ns, inode, mode, nlink, link_target, sha256,
       content_sha256, reason
FROM index_entry;
DROP TABLE index_entry;
ALTER TABLE index_entry_v28 RENAME TO index_entry;
CREATE INDEX index_entry_content ON index_entry (content_sha256);

CREATE TABLE index_directory_v28
(
    workspace_id INTEGER NOT NULL REFERENCES workspace (id),
    path         BLOB    NOT NULL,
    mode         INTEGER NOT NULL,
    PRIMARY KEY (workspace_id, path)
) WITHOUT ROWID;
INSERT INTO index_directory_v28 (workspace_id, path, mode)
SELECT workspace_id, path, mode
FROM index_directory;
DROP TABLE index_directory;
ALTER TABLE index_directory_v28 RENAME TO index_directory;

CREATE TABLE directory_change_v28
(
    turn_id        INTEGER NOT NULL REFERENCES turn (id),
    path           BLOB    NOT NULL,
    before_present INTEGER NOT NULL CHECK (before_present IN (0, 1)),
    before_mode    INTEGER CHECK ((before_present = 1) = (before_mode IS NOT NULL)),
    -- NULL while the turn is open, or when it was something other than a directory or an absence
    after_present  INTEGER CHECK (after_present IN (0, 1)),
    after_mode     INTEGER CHECK (after_mode IS NULL OR after_present = 1),
    PRIMARY KEY (turn_id, path)
) WITHOUT ROWID;
INSERT INTO directory_change_v28 (turn_id, path, before_present, before_mode, after_present, after_mode)
SELECT turn_id, path, before_present, before_mode, after_present, after_mode
FROM directory_change;
DROP TABLE directory_change;
ALTER TABLE directory_change_v28 RENAME TO directory_change;
