package io.turndiff.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A prepared query's parameters, bound by name on a real SQLite connection: each name is one
 * placeholder, and a query that uses a name twice is refused when it is prepared, not bound to one
 * of its placeholders and run with the other empty; so is a value written without a name, which no
 * caller could bind.
 */
class PreparedQueryTest {

  private Connection connection;
  private DSLContext dsl;

  @BeforeEach
  void open() throws SQLException {
    connection = DriverManager.getConnection("jdbc:sqlite::memory:");
    dsl = DSL.using(connection, SQLDialect.SQLITE);
  }

  @AfterEach
  void close() throws SQLException {
    connection.close();
  }

  @Test
  void eachNameIsBoundToItsOwnPlaceholder() {
    try (PreparedQuery query =
        PreparedQuery.of(
            dsl,
            connection,
            dsl.select(
                DSL.param("tens", Long.class)
                    .mul(DSL.inline(10L))
                    .plus(DSL.param("ones", Long.class))),
            false)) {
      assertEquals(Optional.of(42L), query.bind("ones", 2L).bind("tens", 4L).firstLong());
      assertEquals(Optional.of(17L), query.bind("tens", 1L).bind("ones", 7L).firstLong());
    }
  }

  @Test
  void aNameUsedTwiceIsRefusedWhenPrepared() {
    IllegalStateException refused =
        assertThrows(
            IllegalStateException.class,
            () ->
                PreparedQuery.of(
                    dsl,
                    connection,
                    dsl.select(DSL.param("n", Long.class).plus(DSL.param("n", Long.class))),
                    false));
    assertTrue(refused.getMessage().contains("[n]"), refused.getMessage());
  }

  @Test
  void aValueWithoutANameIsRefusedWhenPrepared() {
    // no caller could bind it: SQLite would run the statement with NULL there, and PostgreSQL's
    // driver refuse to run it (as it did a rewind's clearRunner first written with setNull)
    IllegalStateException refused =
        assertThrows(
            IllegalStateException.class,
            () ->
                PreparedQuery.of(
                    dsl,
                    connection,
                    dsl.select(DSL.param("n", Long.class).plus(DSL.val(1L))),
                    false));
    assertTrue(refused.getMessage().contains("without a name"), refused.getMessage());
  }

  @Test
  void anUnknownNameIsRefusedWhenBound() {
    try (PreparedQuery query =
        PreparedQuery.of(dsl, connection, dsl.select(DSL.param("n", Long.class)), false)) {
      IllegalArgumentException refused =
          assertThrows(IllegalArgumentException.class, () -> query.bind("m", 1L));
      assertTrue(refused.getMessage().contains("no parameter m"), refused.getMessage());
    }
  }
}
