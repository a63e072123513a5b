package io.turndiff.store;

import static io.turndiff.store.DialectStores.number;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.turndiff.model.TurnKind;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The statements a hook's begin and its note about the turn before run at every prompt, prepared
 * once per connection: the session a runtime names ({@link Sessions#byExternalId}), its workspace
 * ({@link Workspaces#byId}), the turn marked as one whose runtime brackets its shell calls ({@link
 * Turns#markBracketingCalls}), whether prompts are kept ({@link StoreSettings#get}), the prompt
 * recorded ({@link Prompts#record}) and the rewinds that undid the turn before ({@link
 * RewindOperations#doneCovering}). The writes run twice with the two turns' values; each read runs
 * with several values, on the writer and then on a read connection, and answers for its own values
 * only; what the writes left is read back in a store opened again. Both dialects.
 */
class BeginStatementsTest {

  @TempDir Path temp;

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgres"})
  void eachStatementAnswersForTheValuesBoundEachTimeItRuns(String dialect) throws Exception {
    StoreAddress address = DialectStores.fresh(dialect, temp);
    try (Store store = Store.open(address)) {
      StoredWorkspace[] workspaces = new StoredWorkspace[2];
      StoredSession[] sessions = new StoredSession[2];
      long[] turns = new long[2];
      store.write(
          tx -> {
            workspaces[0] = tx.workspaces().register("/given/w", "/real/w", 1, 2);
            workspaces[1] = tx.workspaces().register("/given/v", "/real/v", 1, 3);
            sessions[0] = tx.sessions().create("s", workspaces[0].id());
            sessions[1] = tx.sessions().create("other", workspaces[1].id());
            turns[0] = tx.turns().begin("t", sessions[0], TurnKind.AGENT).id();
            turns[1] = tx.turns().begin("u", sessions[1], TurnKind.AGENT).id();
            return null;
          });
      long first = turns[0];
      long second = turns[1];

      store.write(
          tx -> {
            tx.turns().markBracketingCalls(first);
            tx.settings().put(Prompts.SETTING, "keep");
            tx.settings().put("other", "value");
            tx.prompts().record(first, "the first prompt");
            tx.prompts().record(first, "a repeated hook's prompt");
            tx.prompts().record(second, "the second prompt");
            return null;
          });
      assertEquals(
          Set.of(first),
          store.read(tx -> tx.toolCalls().bracketing(List.of(first, second))),
          "only the marked turn brackets its calls");
      store.write(
          tx -> {
            tx.turns().markBracketingCalls(second);
            return null;
          });

      long[] operations = new long[2];
      store.write(
          tx -> {
            operations[0] = rewind(tx, "done-first", sessions[0], second, List.of(first)).id();
            operations[1] = rewind(tx, "both", sessions[0], second, List.of(first, second)).id();
            tx.rewinds().markDone(operations[0]);
            return null;
          });
      for (ConnectionUnderTest on : ConnectionUnderTest.writerThenReader(store)) {
        assertEquals(
            Map.of(first, List.of(operations[0])),
            doneCovering(on, List.of(first, second)),
            on.name() + ": the done operation only, the other still applying");
      }
      store.write(
          tx -> {
            tx.rewinds().markDone(operations[1]);
            return null;
          });

      for (ConnectionUnderTest on : ConnectionUnderTest.writerThenReader(store)) {
        assertEquals(
            List.of(Optional.of(sessions[0]), Optional.of(sessions[1]), Optional.empty()),
            on.apply(
                tx ->
                    List.of("s", "other", "unknown").stream()
                        .map(id -> tx.sessions().byExternalId(id))
                        .toList()),
            on.name() + ": each session by its runtime's id, none for an id never seen");
        assertEquals(
            List.of(Optional.of(workspaces[1]), Optional.of(workspaces[0]), Optional.empty()),
            on.apply(
                tx ->
                    List.of(workspaces[1].id(), workspaces[0].id(), workspaces[1].id() + 100)
                        .stream()
                        .map(id -> tx.workspaces().byId(id))
                        .toList()),
            on.name() + ": each workspace by its row, none for a row that does not exist");
        assertEquals(
            List.of(Optional.of("keep"), Optional.of("value"), Optional.empty()),
            on.apply(
                tx ->
                    List.of(Prompts.SETTING, "other", "absent").stream()
                        .map(name -> tx.settings().get(name))
                        .toList()),
            on.name() + ": each setting by its name");
        assertEquals(
            Map.of(first, List.of(operations[0], operations[1]), second, List.of(operations[1])),
            doneCovering(on, List.of(first, second)),
            on.name() + ": each turn's done operations, oldest first");
        assertEquals(
            Map.of(second, List.of(operations[1])),
            doneCovering(on, List.of(second, second + 100, second + 200)),
            on.name() + ": a list of three (its statement four long) finds its one turn rewound");
      }
    }

    try (Store store = Store.open(address)) {
      long first = store.read(tx -> tx.turns().byExternalId("t")).orElseThrow().id();
      long second = store.read(tx -> tx.turns().byExternalId("u")).orElseThrow().id();
      assertEquals(
          Set.of(first, second),
          store.read(tx -> tx.toolCalls().bracketing(List.of(first, second))),
          "both turns bracket their calls, each marked by its own run of the statement");
      assertEquals(
          List.of(Optional.of("the first prompt"), Optional.of("the second prompt")),
          store.read(tx -> List.of(tx.prompts().of(first), tx.prompts().of(second))),
          "each turn's first prompt");
    }
    assertEquals(
        2, number(address, "SELECT count(*) FROM turn_prompt"), "one prompt row for each turn");
  }

  private static StoredRewindOperation rewind(
      StoreTransaction tx, String id, StoredSession session, long rewindTurn, List<Long> turns) {
    return tx.rewinds()
        .create(
            id,
            session.id(),
            turns.getFirst(),
            "turn",
            false,
            rewindTurn,
            turns,
            List.of(),
            Optional.empty(),
            Optional.empty());
  }

  /** The operations {@link RewindOperations#doneCovering} finds on {@code on}, by their rows. */
  private static Object doneCovering(ConnectionUnderTest on, List<Long> turns) {
    return on.apply(
        tx -> {
          Map<Long, List<Long>> found = new HashMap<>();
          tx.rewinds()
              .doneCovering(turns)
              .forEach(
                  (turn, operations) ->
                      found.put(turn, operations.stream().map(StoredRewindOperation::id).toList()));
          return found;
        });
  }
}
