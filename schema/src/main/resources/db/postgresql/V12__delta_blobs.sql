-- A content may be stored as a zstd delta against another stored content (the same change as db/migration/V12,
-- which explains the columns). PostgreSQL widens the encoding's CHECK in place.
ALTER TABLE blob
    DROP CONSTRAINT blob_encoding_check;

ALTER TABLE blob
    ADD CONSTRAINT blob_encoding_check CHECK (encoding IN ('raw', 'zstd', 'chunked', 'delta'));

ALTER TABLE blob
    ADD COLUMN base_sha256 TEXT REFERENCES blob (sha256);

ALTER TABLE blob
    ADD COLUMN depth BIGINT NOT NULL DEFAULT 0 CHECK (depth >= 0);

CREATE INDEX blob_base_sha256 ON blob (base_sha256) WHERE base_sha256 IS NOT NULL;
