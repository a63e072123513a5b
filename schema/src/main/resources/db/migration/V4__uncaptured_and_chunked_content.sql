-- What turndiff could not capture is never taken for "unchanged", and a rewind stores what it overwrites
-- whatever its size:
--  * file_change.change gains 'unknown': a side was not captured and nothing known proves a change (every
--    path that leads outside the workspace is 'unknown');
--  * snapshot.sampled_sha256: the bounded fingerprint of a file over the size limit (a hash of sampled
--    blocks), which can show a change but never sameness;
--  * blob.encoding gains 'chunked': content too large to hold in memory, kept as ordered zstd chunks in
--    content_chunk and keyed, like every blob, by the SHA-256 of the whole content.
--
-- SQLite cannot ALTER a CHECK constraint. The two that widen are edited in place in the stored CREATE
-- statements, the procedure SQLite documents for CHECK constraints ("ALTER TABLE", making other kinds of
-- table schema changes): no row is copied, and unlike a table rebuild (which needs foreign keys off, hence
-- no transaction) it runs inside the migration's transaction, so the whole migration and Flyway's history row
-- land together or not at all, and a second process migrating at the same time waits for the first. The
-- RESET makes this connection read the edited schema; the DDL below changes the schema cookie, so every
-- other connection reads it again too.

PRAGMA writable_schema = ON;

UPDATE sqlite_schema
SET sql = replace(sql, 'CHECK (encoding IN (''raw'', ''zstd''))',
                  'CHECK (encoding IN (''raw'', ''zstd'', ''chunked''))')
WHERE type = 'table'
  AND name = 'blob';

UPDATE sqlite_schema
SET sql = replace(sql, '''unchanged'', ''type_changed''))',
                  '''unchanged'', ''type_changed'', ''unknown''))')
WHERE type = 'table'
  AND name = 'file_change';

PRAGMA writable_schema = RESET;

-- Content streamed in chunks. A row is written when the first chunk is, and gets its sha256 (and the blob
-- row) in the transaction that writes the last one; a row without sha256 is an upload in progress, or one
-- whose writer died (removed by the next upload once it is a day old).
CREATE TABLE chunked_content
(
    id         INTEGER PRIMARY KEY,
    sha256     TEXT UNIQUE REFERENCES blob (sha256),
    started_at INTEGER NOT NULL
);

CREATE TABLE content_chunk
(
    content_id INTEGER NOT NULL REFERENCES chunked_content (id),
    seq        INTEGER NOT NULL CHECK (seq >= 0),
    -- the chunk's size uncompressed
    size       INTEGER NOT NULL CHECK (size > 0),
    encoding   TEXT    NOT NULL CHECK (encoding IN ('raw', 'zstd')),
    data       BLOB    NOT NULL,
    PRIMARY KEY (content_id, seq)
);

ALTER TABLE snapshot ADD COLUMN sampled_sha256 TEXT CHECK (sampled_sha256 IS NULL OR length(sampled_sha256) = 64);

-- Changes recorded before this migration compared uncaptured states by fingerprint and may say 'unchanged'
-- where nothing was known: they say 'unknown' now, as a new record would.
UPDATE file_change
SET change = 'unknown'
WHERE change = 'unchanged'
  AND EXISTS (SELECT 1
              FROM snapshot
              WHERE snapshot.captured = 0
                AND snapshot.id IN (file_change.before_snapshot_id, file_change.after_snapshot_id));
