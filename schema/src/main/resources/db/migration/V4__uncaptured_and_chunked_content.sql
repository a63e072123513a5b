-- What turndiff could not capture is never taken for "unchanged", and a rewind stores what it overwrites
-- whatever its size:
--  * file_change.change gains 'unknown': a side was not captured and nothing known proves a change (every
--    path that leads outside the workspace is 'unknown');
--  * snapshot.sampled_sha256: the bounded fingerprint of a file over the size limit (a hash of sampled
--    blocks), which can show a change but never sameness;
--  * blob.encoding gains 'chunked': content too large to hold in memory, kept as ordered zstd chunks in
--    content_chunk and keyed, like every blob, by the SHA-256 of the whole content.
--
-- SQLite cannot change a CHECK constraint in place: blob and file_change are rebuilt the way SQLite documents
-- ("Making Other Kinds Of Table Schema Changes"): foreign keys off (which Flyway runs outside a transaction),
-- the rebuild inside one savepoint (all of it lands, or none), foreign keys on again.

PRAGMA foreign_keys = OFF;

SAVEPOINT v4;

CREATE TABLE blob_v4
(
    sha256    TEXT    NOT NULL PRIMARY KEY CHECK (length(sha256) = 64),
    size      INTEGER NOT NULL CHECK (size >= 0),
    -- raw and zstd: data holds the content; chunked: data is empty, the content is in content_chunk
    encoding  TEXT    NOT NULL CHECK (encoding IN ('raw', 'zstd', 'chunked')),
    data      BLOB    NOT NULL,
    stored_at INTEGER NOT NULL
);

INSERT INTO blob_v4 (sha256, size, encoding, data, stored_at)
SELECT sha256, size, encoding, data, stored_at
FROM blob;

DROP TABLE blob;

ALTER TABLE blob_v4 RENAME TO blob;

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

CREATE TABLE file_change_v4
(
    id                 INTEGER PRIMARY KEY,
    turn_id            INTEGER NOT NULL REFERENCES turn (id),
    path               BLOB    NOT NULL,
    via                BLOB,
    detected_by        TEXT    NOT NULL CHECK (detected_by IN ('snapshot', 'scan')),
    before_snapshot_id INTEGER NOT NULL REFERENCES snapshot (id),
    after_snapshot_id  INTEGER REFERENCES snapshot (id),
    change             TEXT CHECK (change IN ('added', 'modified', 'deleted', 'unchanged', 'type_changed',
                                              'unknown')),
    lines_added        INTEGER,
    lines_removed      INTEGER,
    diff_sha256        TEXT REFERENCES blob (sha256),
    UNIQUE (turn_id, path)
);

INSERT INTO file_change_v4 (id, turn_id, path, via, detected_by, before_snapshot_id, after_snapshot_id, change,
                            lines_added, lines_removed, diff_sha256)
SELECT id, turn_id, path, via, detected_by, before_snapshot_id, after_snapshot_id, change, lines_added,
       lines_removed, diff_sha256
FROM file_change;

DROP TABLE file_change;

ALTER TABLE file_change_v4 RENAME TO file_change;

CREATE INDEX file_change_path ON file_change (path);

RELEASE v4;

PRAGMA foreign_keys = ON;
