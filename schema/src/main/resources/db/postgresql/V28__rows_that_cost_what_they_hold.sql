-- Rows that cost what they hold: the same change as db/migration/V28, which explains it, but for its
-- WITHOUT ROWID tables (PostgreSQL's tables have no rowid, and a primary key is its own index there already);
-- directory_change loses its id, which nothing read or referred to, and its unique pair becomes its key.

ALTER TABLE snapshot DROP COLUMN fingerprint;
ALTER TABLE before_log DROP COLUMN fingerprint;

DROP INDEX rewind_entry_operation;
DROP INDEX rewind_directory_operation;
DROP INDEX blob_stored_at;

ALTER TABLE directory_change DROP COLUMN id;
ALTER TABLE directory_change DROP CONSTRAINT directory_change_turn_id_path_key;
ALTER TABLE directory_change ADD PRIMARY KEY (turn_id, path);
