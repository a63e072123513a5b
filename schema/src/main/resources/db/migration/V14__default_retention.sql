-- A new store is bounded by default: it keeps a retention policy (`turndiff config`) that the service's
-- collections and `turndiff gc` apply, so that no store grows without end unless its user asks for that.
-- The default is RetentionPolicy.DEFAULT (a test keeps the two in step): turns finished over 30 days ago
-- ('PT720H'), never each session's newest 10, and more of the oldest while the pages in use pass 2 GiB.
--
-- Only a store that has recorded nothing and keeps no policy gets it: a store upgraded with turns in it keeps
-- what its user chose, which before this version could only be "nothing is removed" or a policy of their own;
-- its history is never cut short by an upgrade (`turndiff config --default-policy` adopts the default).
-- The same statement is db/postgresql's V14.

INSERT INTO store_setting (name, value)
SELECT defaults.name, defaults.value
FROM (SELECT 'gc.older_than' AS name, 'PT720H' AS value
      UNION ALL
      SELECT 'gc.keep_turns', '10'
      UNION ALL
      SELECT 'gc.max_size', '2147483648') AS defaults
WHERE NOT EXISTS (SELECT 1 FROM turn)
  AND NOT EXISTS (SELECT 1 FROM store_setting WHERE name LIKE 'gc.%');
