-- A third boundary records snapshots: 'openat' (openat with O_NOFOLLOW one component at a time, where openat2 is
-- blocked; docs/boundary.md). The CHECK on snapshot.boundary widens in place in the stored CREATE statement, as
-- V4 widened its CHECKs (the reasons are written there): no row is copied, and the edit runs inside the
-- migration's transaction.

PRAGMA writable_schema = ON;

UPDATE sqlite_schema
SET sql = replace(sql, 'CHECK (boundary IN (''openat2'', ''secure_directory_stream''))',
                  'CHECK (boundary IN (''openat2'', ''openat'', ''secure_directory_stream''))')
WHERE type = 'table'
  AND name = 'snapshot';

PRAGMA writable_schema = RESET;

-- The edit must have happened (a CHECK spelled otherwise would leave 'openat' refused, silently).
CREATE TEMP TABLE v7_check (ok INTEGER NOT NULL CHECK (ok = 1));
INSERT INTO v7_check
SELECT count(*)
FROM sqlite_schema
WHERE type = 'table'
  AND name = 'snapshot'
  AND instr(sql, '''openat'', ''secure_directory_stream''') > 0;
DROP TABLE v7_check;
