package io.turndiff.store;

import static io.turndiff.store.DialectStores.execute;
import static io.turndiff.store.DialectStores.number;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.model.DirectoryState;
import io.turndiff.model.TurnKind;
import io.turndiff.model.TurnState;
import io.turndiff.model.WorkspacePath;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The statements every finish runs, prepared once per connection: the end of a turn's shell calls
 * still in flight ({@link ToolCalls#endAll}), the turn marked finished ({@link Turns#markFinished})
 * and the read of its directory changes ({@link DirectoryChanges#ofTurn}). Two turns of two
 * sessions finish one after the other through the same store, the writer's statements run the
 * second time with the other turn's values, and what each touched is read back in a store opened
 * again: the finishing turn's own rows only, a call that ended before keeping its end, a call that
 * is not a shell's left as it was. Both dialects.
 */
class FinishStatementsTest {

  private static final long ENDED_EARLIER = 1L;

  @TempDir Path temp;

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgres"})
  void theStatementsOfAFinishTouchOnlyItsTurnsRowsEachTimeTheyRun(String dialect) throws Exception {
    StoreAddress address = DialectStores.fresh(dialect, temp);
    long first;
    long second;
    try (Store store = Store.open(address)) {
      first = DialectStores.agentTurn(store);
      second =
          store.write(
              tx -> {
                long workspace = tx.turns().byId(first).orElseThrow().workspaceId();
                StoredSession session = tx.sessions().create("other", workspace);
                return tx.turns().begin("u", session, TurnKind.AGENT).id();
              });
      store.write(
          tx -> {
            tx.toolCalls().beginShell(first, "in-flight", "Bash", Optional.of("make"));
            tx.toolCalls().beginShell(first, "ended", "Bash", Optional.of("ls"));
            tx.toolCalls().record(first, "edit");
            tx.toolCalls().beginShell(second, "other-in-flight", "Bash", Optional.empty());
            for (String path : List.of("b", "a/c", "a")) {
              tx.directoryChanges()
                  .recordBefore(first, DirectoryState.present(WorkspacePath.of(path), 0755));
            }
            tx.directoryChanges()
                .recordBefore(second, DirectoryState.absent(WorkspacePath.of("new")));
            return null;
          });
      execute(
          address,
          "UPDATE tool_call SET ended_at = " + ENDED_EARLIER + " WHERE external_id = 'ended'");

      store.write(
          tx -> {
            tx.toolCalls().endAll(first);
            tx.turns().markFinished(first);
            return null;
          });
      // recorded b, a/c, a: without the query's ORDER BY, PostgreSQL may answer them so (a small
      // table is scanned in the order its rows were written); SQLite keeps the table in the
      // order of its key, (turn, path), so there the order holds either way
      assertEquals(
          List.of("a", "a/c", "b"),
          store.read(tx -> tx.directoryChanges().ofTurn(first)).stream()
              .map(change -> change.path().toString())
              .toList(),
          "the first turn's directories, by path");
      assertEquals(
          TurnState.OPEN,
          store.read(tx -> tx.turns().byId(second)).orElseThrow().state(),
          "the other turn still open after the first's finish");
      assertEquals(
          List.of(false),
          store.read(tx -> tx.toolCalls().ofTurn(second)).stream()
              .map(StoredToolCall::ended)
              .toList(),
          "the other turn's call still in flight after the first's finish");

      // the same prepared statements, run again with the second turn's values
      store.write(
          tx -> {
            tx.toolCalls().endAll(second);
            tx.turns().markFinished(second);
            return null;
          });
      assertEquals(
          List.of("new"),
          store.read(tx -> tx.directoryChanges().ofTurn(second)).stream()
              .map(change -> change.path().toString())
              .toList(),
          "the second turn's directories only");
    }

    try (Store store = Store.open(address)) {
      for (long turn : List.of(first, second)) {
        StoredTurn finished = store.read(tx -> tx.turns().byId(turn)).orElseThrow();
        assertEquals(TurnState.FINISHED, finished.state(), "turn " + turn);
        assertTrue(finished.finishedAt().isPresent(), "turn " + turn + " finished at");
      }
      assertEquals(
          List.of("in-flight true", "ended true", "edit false"),
          store.read(tx -> tx.toolCalls().ofTurn(first)).stream()
              .map(call -> call.externalId() + " " + call.ended())
              .toList());
      assertEquals(
          List.of("other-in-flight true"),
          store.read(tx -> tx.toolCalls().ofTurn(second)).stream()
              .map(call -> call.externalId() + " " + call.ended())
              .toList());
    }
    assertEquals(
        ENDED_EARLIER,
        number(address, "SELECT ended_at FROM tool_call WHERE external_id = 'ended'"),
        "a call that ended before the finish keeps its own end");
    assertEquals(
        2,
        number(address, "SELECT count(*) FROM tool_call WHERE ended_at > " + ENDED_EARLIER),
        "the two calls in flight, ended by their finishes");
  }
}
