-- A change a scan found at a file git ignores (issue 24 item 2): a tracked workspace that keeps ignored files records
-- a `.env` the shell rewrote or deleted like any other file, and the panel shows such a file's diff only on request,
-- since it may hold secrets. The scan decides it (the file's verdict from .gitignore and git's index when it found
-- the change) and marks the record: 1 for a file git ignores, 0 for every other record (a tool call's snapshot, a
-- file git tracks or does not ignore, every record made before V24).
ALTER TABLE file_change
    ADD COLUMN ignored_by_git INTEGER NOT NULL DEFAULT 0 CHECK (ignored_by_git IN (0, 1));
