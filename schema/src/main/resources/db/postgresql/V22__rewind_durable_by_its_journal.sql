-- A rewind is made durable by its journal, not file by file (issue 23 item 3): its files are written and renamed
-- without an fsync each, and one syncfs of the workspace's file system at its end makes them all durable. Until then
-- a power loss may take back what the journal says was written, so the operation keeps the boot it ran in
-- (/proc/sys/kernel/random/boot_id, NULL where the system has none) and whether its end was made durable: one not
-- synced, found from another boot, has every path it journaled as written checked again and redone from the store.
ALTER TABLE rewind_operation
    ADD COLUMN boot_id TEXT;
-- 1 once the operation finished and its writes were synced; every rewind before this migration synced each file and
-- directory as it went, so those already done are synced
ALTER TABLE rewind_operation
    ADD COLUMN synced BIGINT NOT NULL DEFAULT 0 CHECK (synced IN (0, 1));
UPDATE rewind_operation
SET synced = 1
WHERE state = 'done';
