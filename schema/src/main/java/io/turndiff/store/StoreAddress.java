package io.turndiff.store;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where a store lives: a SQLite file on this machine, or a PostgreSQL database that many machines
 * share ({@link PostgresDatabase}).
 */
public sealed interface StoreAddress permits StoreAddress.SqliteFile, PostgresDatabase {

  /** How the store is named in messages and reports: never with a password. */
  String display();

  /** A SQLite store file (absolute). */
  record SqliteFile(Path path) implements StoreAddress {
    public SqliteFile {
      path = Objects.requireNonNull(path, "path").toAbsolutePath();
    }

    @Override
    public String display() {
      return path.toString();
    }
  }
}
