-- A directory a snapshot named that appeared from nothing, or went leaving nothing, is no file change (the same
-- change as db/migration/V13, which explains it). PostgreSQL widens the change's CHECK in place.
ALTER TABLE file_change
    DROP CONSTRAINT file_change_change_check;

ALTER TABLE file_change
    ADD CONSTRAINT file_change_change_check CHECK (change IN ('added', 'modified', 'deleted', 'unchanged',
                                                              'type_changed', 'unknown', 'directory_created',
                                                              'directory_removed'));
