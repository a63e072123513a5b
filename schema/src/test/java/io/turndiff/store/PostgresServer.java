package io.turndiff.store;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The store module's real PostgreSQL: one embedded server for the test JVM, a new empty database
 * per call. (The other modules' tests use test-fixtures' TestPostgres, which this module cannot
 * depend on: test-fixtures depends on it.)
 */
final class PostgresServer {

  private static final AtomicInteger DATABASES = new AtomicInteger();
  private static EmbeddedPostgres server;

  private PostgresServer() {}

  private static synchronized EmbeddedPostgres server() {
    if (server == null) {
      try {
        server =
            EmbeddedPostgres.builder()
                .setServerConfig("fsync", "off")
                .setServerConfig("synchronous_commit", "off")
                .setServerConfig("full_page_writes", "off")
                .setPGStartupWait(Duration.ofSeconds(120))
                .start();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot start PostgreSQL for the tests", e);
      }
    }
    return server;
  }

  /** A new database with nothing in it. */
  static PostgresDatabase emptyDatabase() {
    String name = "store_test_" + DATABASES.incrementAndGet();
    try (Connection connection = server().getPostgresDatabase().getConnection();
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE DATABASE " + name);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create a database: " + e.getMessage(), e);
    }
    return PostgresDatabase.of(
        "jdbc:postgresql://localhost:" + server.getPort() + "/" + name + "?user=postgres",
        PostgresDatabase.Source.ENVIRONMENT,
        Optional.empty(),
        Map.of());
  }
}
