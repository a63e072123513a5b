-- A finished change's line diff and line counts are computed after finish, in the background (CaptureService,
-- PendingDiffs): diff_pending is 1 from the finish that recorded the change until they are stored, 0 after.
-- While it is 1, lines_added, lines_removed and diff_sha256 are not yet known (NULL), and a query computes them
-- from the two stored states on the spot: the same diff the background stores. Rows recorded before V11 have
-- theirs.
ALTER TABLE file_change
    ADD COLUMN diff_pending INTEGER NOT NULL DEFAULT 0 CHECK (diff_pending IN (0, 1));

CREATE INDEX file_change_diff_pending ON file_change (turn_id) WHERE diff_pending = 1;
