-- A stored file's hash kept once (issue 23 items 5 and 7; docs/store-layout.md, "A stored file's hash,
-- once"). A snapshot, a before-log entry or an index entry whose content is stored kept its SHA-256 twice,
-- as 64 hex characters in sha256 and again in content_sha256, the blob's key. Since this version such a row
-- keeps it in content_sha256 alone, and sha256 is empty: the store reads the hash from the content's key
-- (Snapshots.row, WorkspaceIndexes.hashNotStored). sha256 still holds the hash of what was read but not
-- stored: a file over the size limit, one indexed with metadata only.
--
-- What it saves: 64 bytes and their column's header in every stored file's row. At 250,000 tracked files,
-- 16 MB of a 161 MB store (docs/performance.md, "A stored file's hash, once").
--
-- Only values change: each table keeps its columns and constraints, so the migration is three updates on
-- both dialects (the same in db/postgresql/V30). The snapshot's CHECK (content_sha256 IS NULL OR
-- content_sha256 = sha256) holds vacuously where sha256 is empty and still forbids two different hashes;
-- a row with both set and equal, as a build before this version writes it, is read as the same snapshot
-- (Snapshots.toSnapshot). The pages the updates free are reused by later writes; the file does not shrink
-- until VACUUM.

UPDATE snapshot SET sha256 = NULL WHERE content_sha256 IS NOT NULL AND sha256 = content_sha256;
UPDATE before_log SET sha256 = NULL WHERE content_sha256 IS NOT NULL AND sha256 = content_sha256;
UPDATE index_entry SET sha256 = NULL WHERE content_sha256 IS NOT NULL AND sha256 = content_sha256;
