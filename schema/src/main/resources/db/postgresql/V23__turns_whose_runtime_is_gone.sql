-- A turn whose runtime is gone is finished by the service (issue 21 item 0); the SQLite migration of the same
-- number explains.
ALTER TABLE turn
    ADD COLUMN runtime_pid BIGINT;
ALTER TABLE turn
    ADD COLUMN runtime_start_ticks BIGINT;
ALTER TABLE turn
    ADD COLUMN runtime_boot_id TEXT;
ALTER TABLE turn
    ADD COLUMN ending TEXT CHECK (ending IN ('session_ended', 'runtime_gone'));
