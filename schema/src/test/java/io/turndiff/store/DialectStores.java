package io.turndiff.store;

import io.turndiff.model.BoundaryKind;
import io.turndiff.model.DetectedBy;
import io.turndiff.model.FileMetadata;
import io.turndiff.model.FileType;
import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import io.turndiff.model.TurnKind;
import io.turndiff.model.WorkspacePath;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.flywaydb.core.Flyway;
import org.sqlite.SQLiteDataSource;

/** Stores of either dialect for tests of blob storage, and the rows such a test refers with. */
final class DialectStores {

  /** Removes everything nothing refers to, however recently it was stored. */
  static final RetentionPolicy COLLECT_NOW =
      new RetentionPolicy(
          Optional.empty(), OptionalInt.empty(), OptionalLong.empty(), Duration.ZERO);

  private static final Instant TAKEN_AT = Instant.ofEpochMilli(1_700_000_000_123L);

  private DialectStores() {}

  /** A fresh store of the dialect: a SQLite file in {@code temp}, or an empty PostgreSQL one. */
  static StoreAddress fresh(String dialect, Path temp) {
    return dialect.equals("postgres")
        ? PostgresServer.emptyDatabase()
        : new StoreAddress.SqliteFile(temp.resolve("turndiff.db"));
  }

  static Connection connect(StoreAddress address) throws SQLException {
    return switch (address) {
      case StoreAddress.SqliteFile sqlite ->
          DriverManager.getConnection("jdbc:sqlite:" + sqlite.path());
      case PostgresDatabase database -> database.connect();
    };
  }

  /** The one number {@code sql} answers, read in a connection of its own. */
  static long number(StoreAddress address, String sql) throws SQLException {
    try (Connection connection = connect(address);
        Statement statement = connection.createStatement();
        ResultSet row = statement.executeQuery(sql)) {
      row.next();
      return row.getLong(1);
    }
  }

  /** Runs {@code sql} in a connection of its own, beside the store's. */
  static void execute(StoreAddress address, String sql) throws SQLException {
    try (Connection connection = connect(address);
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }

  /** Brings a fresh store at {@code address} to the migration {@code version}, and no further. */
  static void migrateTo(StoreAddress address, String version) {
    var flyway =
        switch (address) {
          case StoreAddress.SqliteFile sqlite -> {
            SQLiteDataSource dataSource = new SQLiteDataSource();
            dataSource.setUrl("jdbc:sqlite:" + sqlite.path());
            yield Flyway.configure().dataSource(dataSource).locations("classpath:db/migration");
          }
          case PostgresDatabase database ->
              Flyway.configure()
                  .dataSource(
                      database.url(),
                      database.user().orElse(null),
                      database.password().orElse(null))
                  .locations("classpath:" + Postgresql.MIGRATIONS);
        };
    flyway.target(version).load().migrate();
  }

  /** The row of an agent turn open in a session of a workspace, all three new. */
  static long agentTurn(Store store) {
    return store.write(
        tx -> {
          StoredWorkspace workspace = tx.workspaces().register("/w", "/w", 1, 2);
          StoredSession session = tx.sessions().create("s", workspace.id());
          return tx.turns().begin("t", session, TurnKind.AGENT).id();
        });
  }

  /** A turn whose record of a file has the content {@code sha} as its before-state. */
  static void referTo(Store store, Sha256 sha, long size) {
    Snapshot snapshot =
        Snapshot.regularFile(
            WorkspacePath.of("src/a.txt"),
            BoundaryKind.OPENAT2,
            new FileMetadata(FileType.REGULAR, size, 1L, 0644, 1, 1),
            sha,
            TAKEN_AT);
    store.write(
        tx -> {
          StoredWorkspace workspace = tx.workspaces().register("/w", "/w", 1, 2);
          StoredSession session = tx.sessions().create("s", workspace.id());
          StoredTurn turn = tx.turns().begin("t", session, TurnKind.AGENT);
          long before = tx.snapshots().insert(snapshot);
          return tx.fileChanges()
              .begin(turn.id(), snapshot.path(), Optional.empty(), DetectedBy.SNAPSHOT, before);
        });
  }
}
