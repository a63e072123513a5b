-- A finished change's line diff is computed after finish (the same change as db/migration/V11, which explains
-- the column); 0/1 as every such column here but snapshot.present and snapshot.captured.
ALTER TABLE file_change
    ADD COLUMN diff_pending BIGINT NOT NULL DEFAULT 0 CHECK (diff_pending IN (0, 1));

CREATE INDEX file_change_diff_pending ON file_change (turn_id) WHERE diff_pending = 1;
