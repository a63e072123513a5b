-- A big file's after-state is stored chunk by chunk against its before-state (issue 23 item 8): a content stored in
-- chunks may have a base (blob.base_sha256, the foreign key V12 added for deltas, so garbage collection keeps the base
-- while this content needs it), and each of its chunks is then one of
--  * 'same': the very bytes of the base's chunk at the same seq (data empty; size says how many);
--  * 'delta': a zstd frame compressed against the base's chunk at the same seq as a raw-content dictionary
--    (zstd's "patch-from", with zstd's checksum, so decoding against any other chunk fails);
--  * 'raw' or 'zstd' as before, when the base has no chunk there or the chunk is smaller on its own.
-- A 30 MB file with a few changed lines so costs about one chunk.
--
-- SQLite cannot ALTER a CHECK constraint: the chunk encoding's is widened in the stored CREATE statement, as V4 did
-- (see there).

PRAGMA writable_schema = ON;

UPDATE sqlite_schema
SET sql = replace(sql, 'CHECK (encoding IN (''raw'', ''zstd''))',
                  'CHECK (encoding IN (''raw'', ''zstd'', ''same'', ''delta''))')
WHERE type = 'table'
  AND name = 'content_chunk';

PRAGMA writable_schema = RESET;

