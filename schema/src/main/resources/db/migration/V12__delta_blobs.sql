-- A content may be stored as a zstd delta against another stored content (its base): encoding 'delta', its data a
-- zstd frame compressed with the base's whole content as a raw-content dictionary (zstd's "patch-from"), decoded
-- with the same content. A capture stores a changed file's after-state so against its before-state when that is
-- smaller than compressing it on its own. The blob stays keyed by the SHA-256 of its own whole content.
--  * base_sha256: the base of a delta, NULL for a whole blob; a foreign key, so no base can go while a delta
--    needs it (garbage collection removes a base only with, or after, the last delta on it);
--  * depth: 0 for a whole blob, the base's depth + 1 for a delta. Blobs.MAX_DEPTH bounds it, so that reading a
--    content decodes at most MAX_DEPTH + 1 frames.
--
-- SQLite cannot ALTER a CHECK constraint: the encoding's is widened in the stored CREATE statement, as V4 did
-- (see there).

PRAGMA writable_schema = ON;

UPDATE sqlite_schema
SET sql = replace(sql, 'CHECK (encoding IN (''raw'', ''zstd'', ''chunked''))',
                  'CHECK (encoding IN (''raw'', ''zstd'', ''chunked'', ''delta''))')
WHERE type = 'table'
  AND name = 'blob';

PRAGMA writable_schema = RESET;

ALTER TABLE blob ADD COLUMN base_sha256 TEXT REFERENCES blob (sha256);

ALTER TABLE blob ADD COLUMN depth INTEGER NOT NULL DEFAULT 0 CHECK (depth >= 0);

-- which deltas a blob is the base of: garbage collection asks before it removes one
CREATE INDEX blob_base_sha256 ON blob (base_sha256) WHERE base_sha256 IS NOT NULL;
