-- The open turns, indexed by themselves: the same change as db/migration/V29, which explains it.
CREATE INDEX turn_open ON turn (began_at, id) WHERE state = 'open';
