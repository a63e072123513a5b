-- Outside turns (issue 22 item 6); the SQLite migration of the same number explains.
ALTER TABLE turn
    DROP CONSTRAINT turn_kind_check;
ALTER TABLE turn
    ADD CONSTRAINT turn_kind_check CHECK (kind IN ('agent', 'rewind', 'outside'));
