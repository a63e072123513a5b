package io.turndiff.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.turndiff.model.RuntimeProcess;
import io.turndiff.model.TurnEnding;
import io.turndiff.model.TurnKind;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every look-up of a turn reads it by position ({@link TurnRow}), each of its optional parts empty
 * where its column is NULL: three turns, one with none of them (open, no runtime), one with all (a
 * runtime with its boot id, an ending, finished), one with a runtime without a boot id, each found
 * alike by every look-up that finds it, then in a store opened again. Both dialects.
 */
class TurnRowTest {

  @TempDir Path temp;

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgres"})
  void everyLookUpReadsEveryPartOfATurn(String dialect) throws Exception {
    StoreAddress address = DialectStores.fresh(dialect, temp);
    RuntimeProcess withBoot = new RuntimeProcess(4242, 987_654_321L, Optional.of("boot-1"));
    RuntimeProcess withoutBoot = new RuntimeProcess(77, 12L, Optional.empty());
    long[] sessions = new long[2];
    long workspace;
    try (Store store = Store.open(address)) {
      workspace =
          store.write(
              tx -> {
                StoredWorkspace w = tx.workspaces().register("/given/w", "/real/w", 1, 2);
                StoredSession first = tx.sessions().create("s", w.id());
                StoredSession second = tx.sessions().create("other", w.id());
                sessions[0] = first.id();
                sessions[1] = second.id();
                tx.turns().begin("open-one", first, TurnKind.AGENT);
                long ended = tx.turns().begin("ended-one", first, TurnKind.AGENT).id();
                tx.turns().recordRuntime(ended, withBoot);
                tx.turns().noteEnding(ended, TurnEnding.RUNTIME_GONE);
                tx.turns().markFinished(ended);
                long other = tx.turns().begin("other-one", second, TurnKind.REWIND).id();
                tx.turns().recordRuntime(other, withoutBoot);
                tx.turns().markFinished(other);
                return w.id();
              });
      checkLookUps(store, workspace, sessions, withBoot, withoutBoot);
    }
    try (Store again = Store.open(address)) {
      checkLookUps(again, workspace, sessions, withBoot, withoutBoot);
    }
  }

  private static void checkLookUps(
      Store store,
      long workspace,
      long[] sessions,
      RuntimeProcess withBoot,
      RuntimeProcess withoutBoot) {
    StoredTurn open = store.read(tx -> tx.turns().require("open-one"));
    StoredTurn ended = store.read(tx -> tx.turns().require("ended-one"));
    StoredTurn other = store.read(tx -> tx.turns().require("other-one"));

    assertEquals(List.of("open-one", "s", "agent", "open"), facts(open));
    assertEquals(Optional.empty(), open.finishedAt());
    assertEquals(Optional.empty(), open.runtime());
    assertEquals(Optional.empty(), open.ending());
    assertEquals(1, open.seq());
    assertEquals(workspace, open.workspaceId());
    assertEquals(sessions[0], open.sessionId());

    assertEquals(List.of("ended-one", "s", "agent", "finished"), facts(ended));
    assertEquals(2, ended.seq());
    assertEquals(Optional.of(withBoot), ended.runtime());
    assertEquals(Optional.of(TurnEnding.RUNTIME_GONE), ended.ending());
    assertEquals(true, ended.finishedAt().isPresent());
    assertEquals(false, ended.finishedAt().get().isBefore(ended.beganAt()));

    assertEquals(List.of("other-one", "other", "rewind", "finished"), facts(other));
    assertEquals(Optional.of(withoutBoot), other.runtime(), "a runtime without its boot id");
    assertEquals(Optional.empty(), other.ending());

    for (StoredTurn turn : List.of(open, ended, other)) {
      assertEquals(Optional.of(turn), store.read(tx -> tx.turns().byId(turn.id())));
      assertEquals(
          Optional.of(turn), store.read(tx -> tx.turns().inSession(turn.sessionId(), turn.seq())));
      assertEquals(List.of(turn), store.read(tx -> tx.turns().withIdPrefix(turn.externalId(), 5)));
    }
    assertEquals(List.of(open, ended), store.read(tx -> tx.turns().ofSession(sessions[0])));
    assertEquals(List.of(open), store.read(tx -> tx.turns().open()));
    assertEquals(
        Optional.of(open),
        store.read(tx -> tx.turns().lastOfKindBefore(sessions[0], 2, TurnKind.AGENT)));
    assertEquals(
        List.of(other),
        store.read(
            tx ->
                tx.turns()
                    .ofOtherSessionsBetween(
                        workspace, sessions[0], Instant.EPOCH, Instant.now().plusSeconds(60))));
    assertEquals(
        List.of(open, ended),
        store.read(tx -> tx.turns().listing(sessions[0], 0, 10)).stream()
            .map(TurnListing::turn)
            .toList());
  }

  private static List<String> facts(StoredTurn turn) {
    return List.of(
        turn.externalId(), turn.sessionExternalId(), turn.kind().code(), turn.state().code());
  }
}
