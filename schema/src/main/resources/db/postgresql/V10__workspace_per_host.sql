-- A workspace is registered per machine: host_id (HostId) joins the real root in the key (the same change as
-- db/migration/V10, which explains the NULL host of rows registered before host ids). PostgreSQL drops the
-- UNIQUE of root_real in place.
ALTER TABLE workspace
    ADD COLUMN host_id TEXT CHECK (host_id IS NULL OR length(host_id) BETWEEN 1 AND 128);

ALTER TABLE workspace
    DROP CONSTRAINT workspace_root_real_key;

ALTER TABLE workspace
    ADD CONSTRAINT workspace_host_id_root_real_key UNIQUE (host_id, root_real);

CREATE INDEX workspace_root_real ON workspace (root_real);
