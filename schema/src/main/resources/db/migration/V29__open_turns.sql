-- The open turns, indexed by themselves. Every hook asks for the turns still open (Turns.open: the
-- service's turns in flight, a begin's candidates, a runtime gone without its end), and without an
-- index SQLite read every turn the store ever kept to find the few that are open: a cost that grew
-- with the store's history, on every hook. A partial index holds only the open turns, in the order
-- the question asks for them; a turn leaves it when it is finished. SQLite uses a partial index only
-- when the query names its condition as written here (the state as a literal, not a bound parameter).
CREATE INDEX turn_open ON turn (began_at, id) WHERE state = 'open';
