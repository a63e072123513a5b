-- A workspace is registered per machine: host_id (HostId) joins the real root in the key, so two machines whose
-- workspaces have the same path get two rows, and a service works only in its own host's workspaces.
-- A migration cannot know which machine a row belongs to: rows registered before host ids keep host_id NULL,
-- and the first host that registers that root adopts the row (Workspaces.register).
--
-- SQLite cannot drop the UNIQUE of root_real in place, so the table is rebuilt with the same ids inside the
-- migration's transaction. Foreign keys stay on; deferred to the commit, the rows that point at a workspace id
-- (sessions, the tracking tables) are orphans only between the DROP and the INSERT, which brings every id back
-- (a missing one fails the commit and leaves the store at V9).
PRAGMA defer_foreign_keys = ON;

CREATE TEMP TABLE v10_workspace AS
SELECT id, root_given, root_real, root_device, root_inode, created_at
FROM workspace;

DROP TABLE workspace;

CREATE TABLE workspace
(
    id          INTEGER PRIMARY KEY,
    root_given  TEXT    NOT NULL,
    root_real   TEXT    NOT NULL,
    -- identity of the root directory when it was last opened: a root replaced by another directory is
    -- noticed before anything is read through a stale name
    root_device INTEGER NOT NULL,
    root_inode  INTEGER NOT NULL,
    created_at  INTEGER NOT NULL,
    -- the machine holding the workspace; NULL: registered before host ids (V10), adopted by the first host
    host_id     TEXT CHECK (host_id IS NULL OR length(host_id) BETWEEN 1 AND 128),
    UNIQUE (host_id, root_real)
);

INSERT INTO workspace (id, root_given, root_real, root_device, root_inode, created_at, host_id)
SELECT id, root_given, root_real, root_device, root_inode, created_at, NULL
FROM v10_workspace;

DROP TABLE v10_workspace;

CREATE INDEX workspace_root_real ON workspace (root_real);
