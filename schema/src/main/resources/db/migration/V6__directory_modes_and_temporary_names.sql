-- A rewind puts back a directory's mode that a turn changed, and every file it stages is found again by a
-- resumed run:
--  * rewind_directory.action gains 'mode': set the permission bits of a directory that exists before and
--    after the rewound turns but with other bits (mode holds the bits it sets);
--  * rewind_entry.temporary_name: the name a rewind stages the path's new content under, journaled before
--    the file is created, so that a run killed before it renamed or removed the file lets the next run
--    remove it (and nothing else: a name the rewind did not journal is never removed).

-- NULL: nothing staged under a journaled name (an entry an older turndiff planned gets none: the name it
-- tried first may as well be a file someone else made, and a rewind removes only what it made)
ALTER TABLE rewind_entry ADD COLUMN temporary_name TEXT;

-- SQLite cannot change a CHECK constraint in place: rewind_directory is rebuilt (no table refers to it).
CREATE TABLE rewind_directory_v6
(
    id           INTEGER PRIMARY KEY,
    operation_id INTEGER NOT NULL REFERENCES rewind_operation (id),
    path         BLOB    NOT NULL,
    action       TEXT    NOT NULL CHECK (action IN ('create', 'remove', 'mode')),
    -- create: the permission bits it gets (NULL: mkdir's default); remove: the ones it had; mode: the ones it
    -- sets (the turns' before-state)
    mode         INTEGER CHECK (action <> 'mode' OR mode IS NOT NULL),
    status       TEXT    NOT NULL CHECK (status IN ('planned', 'done', 'skipped')),
    reason       TEXT,
    detail       TEXT,
    UNIQUE (operation_id, path)
);

INSERT INTO rewind_directory_v6 (id, operation_id, path, action, mode, status, reason, detail)
SELECT id, operation_id, path, action, mode, status, reason, detail
FROM rewind_directory;

DROP TABLE rewind_directory;

ALTER TABLE rewind_directory_v6 RENAME TO rewind_directory;

CREATE INDEX rewind_directory_operation ON rewind_directory (operation_id);
