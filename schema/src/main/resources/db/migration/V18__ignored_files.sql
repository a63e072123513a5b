-- Git-ignored files in a tracked workspace (issue 24 item 2): a `.env` or a build output the shell deletes has a
-- before-state only if the index holds it. Directories git ignores as a whole (node_modules) are still never
-- entered; the files git ignores inside walked directories are indexed as the workspace's header says:
-- 'none' (not indexed, as before V18), 'metadata' (stat and hash only: a shared store does not take secrets' bytes
-- unless told to) or 'small' (content stored, up to ignored_max_bytes per file). Workspaces tracked before V18
-- keep 'none' until they are tracked again.
ALTER TABLE tracked_workspace
    ADD COLUMN ignored_files TEXT NOT NULL DEFAULT 'none' CHECK (ignored_files IN ('none', 'metadata', 'small'));
ALTER TABLE tracked_workspace
    ADD COLUMN ignored_max_bytes INTEGER NOT NULL DEFAULT 5242880;

-- A snapshot of an ignored file whose content the workspace's 'metadata' setting kept out of the store has the
-- reason 'ignored_not_stored'. The CHECK widens in place in the stored CREATE statement, as V7 widened one.
PRAGMA writable_schema = ON;

UPDATE sqlite_schema
SET sql = replace(sql, '''changed_during_read''))', '''changed_during_read'', ''ignored_not_stored''))')
WHERE type = 'table'
  AND name = 'snapshot';

PRAGMA writable_schema = RESET;

CREATE TEMP TABLE v18_check (ok INTEGER NOT NULL CHECK (ok = 1));
INSERT INTO v18_check
SELECT count(*)
FROM sqlite_schema
WHERE type = 'table'
  AND name = 'snapshot'
  AND instr(sql, '''changed_during_read'', ''ignored_not_stored''') > 0;
DROP TABLE v18_check;
