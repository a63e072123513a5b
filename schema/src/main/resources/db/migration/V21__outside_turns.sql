-- Outside turns (issue 22 item 6): in a tracked workspace, the changes a turn's begin finds that no turn could have
-- made (the user's own edits between turns, a tool run with no hooks) are recorded as a finished turn of their own,
-- of kind 'outside' ("outside any turn"), in the beginning turn's session just before it, so that the timeline is
-- complete and a rewind's conflict can name them. The CHECK on turn.kind widens in place in the stored CREATE
-- statement, as V4 widened its CHECKs (the reasons are written there): no row is copied, and the edit runs inside
-- the migration's transaction.

PRAGMA writable_schema = ON;

UPDATE sqlite_schema
SET sql = replace(sql, 'CHECK (kind IN (''agent'', ''rewind''))', 'CHECK (kind IN (''agent'', ''rewind'', ''outside''))')
WHERE type = 'table'
  AND name = 'turn';

PRAGMA writable_schema = RESET;

-- The edit must have happened (a CHECK spelled otherwise would leave 'outside' refused, silently).
CREATE TEMP TABLE v21_check (ok INTEGER NOT NULL CHECK (ok = 1));
INSERT INTO v21_check
SELECT count(*)
FROM sqlite_schema
WHERE type = 'table'
  AND name = 'turn'
  AND instr(sql, '''agent'', ''rewind'', ''outside''') > 0;
DROP TABLE v21_check;
