-- Two sessions in one workspace (issue 27). A change a scan found, which no tool call named, belongs to the turns that
-- could have made it: the turns open in the workspace while it was made. When that is more than one, the change is
-- recorded in each of them (a file_change row per turn, as any change), and each row names here the other turns that
-- could also have made it ("also possible: turn B1 of session B"); a rewind of one of them does not put the path back
-- over another session's possible work without saying so.
CREATE TABLE file_change_shared
(
    file_change_id INTEGER NOT NULL REFERENCES file_change (id),
    -- another turn that could have made the change (it has a file_change row of the same path)
    turn_id        INTEGER NOT NULL REFERENCES turn (id),
    PRIMARY KEY (file_change_id, turn_id)
);

CREATE INDEX file_change_shared_turn ON file_change_shared (turn_id);
