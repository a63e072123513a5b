-- Per-hunk rewind (issue 22 item 8): a rewind of one hunk of one file of its turn keeps the hunk's number (1-based, as the
-- turn's diff of that file numbers its hunks; NULL for every other rewind). Its one path is its operation's path, so it
-- is a rewind of some paths, which never marks the turn rewound; unlike one, it does not put that path back whole, so a
-- later rewind of the turn or of the path still puts back what the other hunks changed.
ALTER TABLE rewind_operation
    ADD COLUMN hunk INTEGER;
