-- Two sessions in one workspace: a change more than one open turn could have made (the same table as
-- db/migration/V15, which explains it).
CREATE TABLE file_change_shared
(
    file_change_id BIGINT NOT NULL REFERENCES file_change (id),
    turn_id        BIGINT NOT NULL REFERENCES turn (id),
    PRIMARY KEY (file_change_id, turn_id)
);

CREATE INDEX file_change_shared_turn ON file_change_shared (turn_id);
