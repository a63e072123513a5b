package io.turndiff.store;

import static io.turndiff.store.DialectStores.connect;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.model.TurnKind;
import io.turndiff.model.TurnState;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * V29, the index of the open turns: {@link Turns#open} answers the turns still open, oldest first,
 * among many finished and rewound ones, before and after the store is reopened, on both dialects;
 * and on SQLite its statement is planned through the index (a partial index, which SQLite uses only
 * when the query names its condition as the index does: the state written into the query, not
 * bound), so a hook's question no longer reads every turn the store kept.
 */
class OpenTurnsIndexTest {

  private static final int SESSIONS = 3;
  private static final int TURNS_PER_SESSION = 40;

  @TempDir Path temp;

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgres"})
  void theOpenTurnsAreAnsweredOldestFirstAmongFinishedAndRewoundOnes(String dialect)
      throws Exception {
    StoreAddress address = DialectStores.fresh(dialect, temp);
    List<String> open;
    try (Store store = Store.open(address)) {
      open = store.write(OpenTurnsIndexTest::turnsMostlyFinished);
      assertEquals(open, externalIds(store.read(tx -> tx.turns().open())));
    }
    try (Store again = Store.open(address)) {
      assertEquals(open, externalIds(again.read(tx -> tx.turns().open())), "reopened");
      StoredTurn byName = again.read(tx -> tx.turns().byExternalId("turn-1-7")).orElseThrow();
      assertEquals("turn-1-7", byName.externalId(), "the turn's own id, not its session's");
      assertEquals("session-1", byName.sessionExternalId());
      assertEquals(8, byName.seq());
      assertEquals(
          byName, again.read(tx -> tx.turns().byId(byName.id())).orElseThrow(), "by its key");
      again.write(
          tx -> {
            long first = tx.turns().byExternalId(open.getFirst()).orElseThrow().id();
            tx.turns().markFinished(first);
            return null;
          });
      assertEquals(
          open.subList(1, open.size()),
          externalIds(again.read(tx -> tx.turns().open())),
          "a finished turn leaves the open ones");
    }
    try (Connection connection = connect(address)) {
      assertTrue(hasIndex(connection, dialect, "turn_open"), "V29's index on " + dialect);
    }
  }

  @Test
  void sqlitePlansTheOpenTurnsThroughTheirIndex() throws Exception {
    StoreAddress address = DialectStores.fresh("sqlite", temp);
    try (Store store = Store.open(address)) {
      store.write(OpenTurnsIndexTest::turnsMostlyFinished);
    }
    String query =
        DSL.using(SQLDialect.SQLITE).render(Turns.openQuery(DSL.using(SQLDialect.SQLITE)));
    try (Connection connection = connect(address)) {
      List<String> plan = plan(connection, query);
      assertTrue(
          plan.stream().anyMatch(step -> step.contains("USING INDEX turn_open")),
          query + " planned as " + plan);
      assertTrue(
          plan.stream().noneMatch(step -> step.equals("SCAN turn")),
          query + " reads every turn: " + plan);
    }
  }

  /**
   * {@value #SESSIONS} sessions of {@value #TURNS_PER_SESSION} turns each, all finished but the
   * last of each session, one of every ten rewound instead: the external ids of the open ones, in
   * the order they began.
   */
  private static List<String> turnsMostlyFinished(StoreTransaction tx) {
    StoredWorkspace workspace = tx.workspaces().register("/w", "/w", 1, 2);
    List<String> open = new ArrayList<>();
    for (int s = 0; s < SESSIONS; s++) {
      StoredSession session = tx.sessions().create("session-" + s, workspace.id());
      for (int t = 0; t < TURNS_PER_SESSION; t++) {
        String externalId = "turn-" + s + "-" + t;
        long id = tx.turns().begin(externalId, session, TurnKind.AGENT).id();
        if (t == TURNS_PER_SESSION - 1) {
          open.add(externalId);
        } else if (t % 10 == 3) {
          tx.turns().markState(id, TurnState.REWOUND);
        } else {
          tx.turns().markFinished(id);
        }
      }
    }
    return open;
  }

  private static List<String> externalIds(List<StoredTurn> turns) {
    return turns.stream().map(StoredTurn::externalId).toList();
  }

  private static boolean hasIndex(Connection connection, String dialect, String name)
      throws SQLException {
    String sql =
        dialect.equals("postgres")
            ? "SELECT count(*) FROM pg_indexes WHERE indexname = ?"
            : "SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name = ?";
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      statement.setString(1, name);
      try (ResultSet row = statement.executeQuery()) {
        return row.next() && row.getLong(1) == 1;
      }
    }
  }

  private static List<String> plan(Connection connection, String query) throws SQLException {
    List<String> steps = new ArrayList<>();
    try (Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("EXPLAIN QUERY PLAN " + query)) {
      while (rows.next()) {
        steps.add(rows.getString("detail"));
      }
    }
    return steps;
  }
}
