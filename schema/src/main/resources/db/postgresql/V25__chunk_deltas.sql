-- A big file's after-state is stored chunk by chunk against its before-state (the same change as db/migration/V25,
-- which explains the encodings). PostgreSQL widens the chunk encoding's CHECK in place.
ALTER TABLE content_chunk
    DROP CONSTRAINT content_chunk_encoding_check;

ALTER TABLE content_chunk
    ADD CONSTRAINT content_chunk_encoding_check CHECK (encoding IN ('raw', 'zstd', 'same', 'delta'));
