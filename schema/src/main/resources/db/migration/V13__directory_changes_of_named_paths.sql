-- A directory is never a file change: a path a snapshot named that was nothing and became a directory is
-- recorded as 'directory_created', one that was a directory and became nothing as 'directory_removed' (they were
-- 'added' and 'deleted', counted as files and rewound as files). The directory itself is a directory_change
-- row of the turn, which the directories' rewind removes or makes again.
--
-- SQLite cannot ALTER a CHECK constraint: file_change.change's is widened in the stored CREATE statement, as V4
-- did (see there).

PRAGMA writable_schema = ON;

UPDATE sqlite_schema
SET sql = replace(sql, '''unchanged'', ''type_changed'', ''unknown''))',
                  '''unchanged'', ''type_changed'', ''unknown'', ''directory_created'', ''directory_removed''))')
WHERE type = 'table'
  AND name = 'file_change';

PRAGMA writable_schema = RESET;
