-- A new store is bounded by default: the same statement, and the same reasons, as db/migration/V14.

INSERT INTO store_setting (name, value)
SELECT defaults.name, defaults.value
FROM (SELECT 'gc.older_than' AS name, 'PT720H' AS value
      UNION ALL
      SELECT 'gc.keep_turns', '10'
      UNION ALL
      SELECT 'gc.max_size', '2147483648') AS defaults
WHERE NOT EXISTS (SELECT 1 FROM turn)
  AND NOT EXISTS (SELECT 1 FROM store_setting WHERE name LIKE 'gc.%');
