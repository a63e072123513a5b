-- A change a scan found at a file git ignores (issue 24 item 2); the SQLite migration of the same number explains.
ALTER TABLE file_change
    ADD COLUMN ignored_by_git BIGINT NOT NULL DEFAULT 0 CHECK (ignored_by_git IN (0, 1));
