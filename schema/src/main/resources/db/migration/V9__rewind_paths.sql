-- A rewind of some paths of a turn (`turndiff rewind --turn T PATH…`): the paths it was asked for, as parsed
-- (relative to the workspace). An operation with no row here rewinds every path its turns recorded; one with
-- rows rewinds only the paths at or under them, and a resumed run keeps exactly that set.
CREATE TABLE rewind_operation_path
(
    operation_id INTEGER NOT NULL REFERENCES rewind_operation (id),
    path         BLOB    NOT NULL,
    PRIMARY KEY (operation_id, path)
);
