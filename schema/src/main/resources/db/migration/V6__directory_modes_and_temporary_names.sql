-- A rewind puts back a directory's mode that a turn changed, and every file it stages is found again by a
-- resumed run:
--  * rewind_directory.action gains 'mode': set the permission bits of a directory that exists before and
--    after the rewound turns with other bits (its mode column holds the bits it sets: the turns' before-mode);
--  * rewind_entry.temporary_name: the name a rewind stages the path's new content under, journaled before
--    the file is created, so that a run killed before it renamed or removed the file lets the next run
--    remove it (and nothing else: a name the rewind did not journal is never removed).
--
-- The CHECK constraint widens in place in the stored CREATE statement, as V4 does (no row is copied, and it
-- all lands with Flyway's history row in the migration's transaction).

PRAGMA writable_schema = ON;

UPDATE sqlite_schema
SET sql = replace(sql, 'CHECK (action IN (''create'', ''remove''))',
                  'CHECK (action IN (''create'', ''remove'', ''mode''))')
WHERE type = 'table'
  AND name = 'rewind_directory';

PRAGMA writable_schema = RESET;

-- NULL: nothing staged under a journaled name (an entry an older turndiff planned gets none: the name it
-- tried first may as well be a file someone else made, and a rewind removes only what it made)
ALTER TABLE rewind_entry ADD COLUMN temporary_name TEXT;
