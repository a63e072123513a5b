-- Git-ignored files in a tracked workspace (issue 24 item 2); the SQLite migration of the same number explains.
ALTER TABLE tracked_workspace
    ADD COLUMN ignored_files TEXT NOT NULL DEFAULT 'none' CHECK (ignored_files IN ('none', 'metadata', 'small'));
ALTER TABLE tracked_workspace
    ADD COLUMN ignored_max_bytes BIGINT NOT NULL DEFAULT 5242880;

ALTER TABLE snapshot
    DROP CONSTRAINT snapshot_reason_check;
ALTER TABLE snapshot
    ADD CONSTRAINT snapshot_reason_check CHECK (reason IN ('outside_workspace', 'escapes_workspace', 'hardlinked',
                                                           'special_file', 'directory', 'too_large', 'unreadable',
                                                           'changed_during_read', 'ignored_not_stored'));
