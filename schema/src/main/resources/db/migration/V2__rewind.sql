-- Rewind operations: one request to put turns back, with its plan, its journal and its receipt.

CREATE TABLE rewind_operation
(
    id             INTEGER PRIMARY KEY,
    external_id    TEXT    NOT NULL UNIQUE,
    session_id     INTEGER NOT NULL REFERENCES session (id),
    -- the turn the request named; with scope 'to' it and every later turn of the session are rewound
    target_turn_id INTEGER NOT NULL REFERENCES turn (id),
    scope          TEXT    NOT NULL CHECK (scope IN ('turn', 'to')),
    force          INTEGER NOT NULL CHECK (force IN (0, 1)),
    -- applying: planned and possibly part-written (a crash leaves it here); done: the receipt is final
    state          TEXT    NOT NULL CHECK (state IN ('applying', 'done')),
    -- the turn (kind 'rewind') that records the state of every file the rewind touched, before and after
    rewind_turn_id INTEGER NOT NULL REFERENCES turn (id),
    created_at     INTEGER NOT NULL,
    finished_at    INTEGER
);

CREATE TABLE rewind_operation_turn
(
    operation_id INTEGER NOT NULL REFERENCES rewind_operation (id),
    turn_id      INTEGER NOT NULL REFERENCES turn (id),
    PRIMARY KEY (operation_id, turn_id)
);

-- One row per path the rewound turns recorded: the plan, then the journal, then the receipt.
CREATE TABLE rewind_entry
(
    id                   INTEGER PRIMARY KEY,
    operation_id         INTEGER NOT NULL REFERENCES rewind_operation (id),
    path                 BLOB    NOT NULL,
    -- what the plan puts back: the oldest before-state, and the newest after-state expected on disk
    target_snapshot_id   INTEGER NOT NULL REFERENCES snapshot (id),
    expected_snapshot_id INTEGER REFERENCES snapshot (id),
    -- planned -> started (journaled before the write) -> restored | merged | skipped | unchanged
    status               TEXT    NOT NULL CHECK (status IN ('planned', 'started', 'restored', 'merged',
                                                            'skipped', 'unchanged')),
    reason               TEXT,
    detail               TEXT,
    -- the content a merge wrote
    merged_sha256        TEXT REFERENCES blob (sha256),
    UNIQUE (operation_id, path)
);

CREATE INDEX rewind_entry_operation ON rewind_entry (operation_id);
