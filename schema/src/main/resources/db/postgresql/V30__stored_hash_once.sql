-- A stored file's hash kept once: the same change as db/migration/V30, which explains it.
UPDATE snapshot SET sha256 = NULL WHERE content_sha256 IS NOT NULL AND sha256 = content_sha256;
UPDATE before_log SET sha256 = NULL WHERE content_sha256 IS NOT NULL AND sha256 = content_sha256;
UPDATE index_entry SET sha256 = NULL WHERE content_sha256 IS NOT NULL AND sha256 = content_sha256;
