-- Retention and garbage collection (turndiff gc): the indexes that let a collection find what still refers to a
-- blob or a snapshot, and delete a turn, without scanning whole tables. With foreign keys on, SQLite looks up the
-- child rows of every parent row it deletes; without an index on the child column that is a full scan per row.
--
-- The space a collection frees is given back by incremental vacuum, which needs auto_vacuum = INCREMENTAL. A
-- new store is created with it (StoreFile); auto_vacuum of an existing store changes only with a full VACUUM,
-- which cannot run inside a migration's transaction, so an older store is converted by its first `turndiff gc`
-- (docs/store-layout.md, Retention and garbage collection).

CREATE INDEX snapshot_content ON snapshot (content_sha256);
CREATE INDEX file_change_diff ON file_change (diff_sha256);
CREATE INDEX file_change_before ON file_change (before_snapshot_id);
CREATE INDEX file_change_after ON file_change (after_snapshot_id);
CREATE INDEX index_entry_content ON index_entry (content_sha256);
CREATE INDEX rewind_entry_merged ON rewind_entry (merged_sha256);
CREATE INDEX rewind_entry_target ON rewind_entry (target_snapshot_id);
CREATE INDEX rewind_entry_expected ON rewind_entry (expected_snapshot_id);
CREATE INDEX rewind_operation_target ON rewind_operation (target_turn_id);
CREATE INDEX rewind_operation_rewind_turn ON rewind_operation (rewind_turn_id);
CREATE INDEX rewind_operation_turn_turn ON rewind_operation_turn (turn_id);
CREATE INDEX blob_stored_at ON blob (stored_at);

-- Settings kept with the store (`turndiff config`): the retention policy a `turndiff gc` without options uses.
-- One row per name; the value is text in the form the name documents (durations in ISO-8601).
CREATE TABLE store_setting
(
    name  TEXT NOT NULL PRIMARY KEY,
    value TEXT NOT NULL
);
