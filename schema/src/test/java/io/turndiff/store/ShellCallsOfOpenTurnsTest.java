package io.turndiff.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.turndiff.model.TurnKind;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a finish asks of its workspace's open turns before it places a change the watch found: their
 * shell calls in flight ({@link ToolCalls#inFlight}, oldest first) and which of them bracket their
 * shell calls ({@link ToolCalls#bracketing}). Both run as statements prepared once per length of
 * their {@code IN} list, the list filled up to a power of two with its first value again: asked
 * here of every count of turns from one to {@value #TURNS} + 1, up and then down on one read
 * connection (each count rebinding a statement a smaller or a larger count prepared: a list not
 * filled again answers for the turns a larger count left bound), on both dialects — every answer
 * exactly the turns and calls asked, the calls oldest first.
 */
class ShellCallsOfOpenTurnsTest {

  /**
   * Turns of every kind, and one more: past a list length of 8, so lists of 1, 2, 4, 8 and 16 are
   * all prepared.
   */
  private static final int TURNS = 11;

  @TempDir Path temp;

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgres"})
  void everyCountOfTurnsGetsExactlyItsCallsInFlightAndItsBracketingTurns(String dialect) {
    StoreAddress address = DialectStores.fresh(dialect, temp);
    try (Store store = Store.open(address)) {
      Made made = store.write(ShellCallsOfOpenTurnsTest::turnsOfEveryKind);
      for (int count = 1; count <= made.ids().size(); count++) {
        ask(store, made, count);
      }
      for (int count = made.ids().size(); count >= 1; count--) {
        ask(store, made, count);
      }
      assertEquals(List.of(), store.read(tx -> tx.toolCalls().inFlight(List.of())), "none asked");
      assertEquals(Set.of(), store.read(tx -> tx.toolCalls().bracketing(List.of())), "none asked");
    }
  }

  /**
   * The turns made, in order, with the calls still in flight (each with its turn, oldest first) and
   * the turns that bracket.
   */
  private record Made(List<Long> ids, Map<Long, Long> callsInFlight, Set<Long> bracketing) {}

  /**
   * {@value #TURNS} open turns in one workspace, by their index: a shell call in flight (every
   * third from 0; the first of them gets a second one after every turn is made, so the calls' order
   * is not their turns': on SQLite a missing sort fails); a shell call begun and ended, which makes
   * the turn one that brackets (from 1); marked as bracketing when begun, with only an edit
   * recorded (from 2). And one more, asked first: a turn with only an edit, neither in flight nor
   * bracketing.
   */
  private static Made turnsOfEveryKind(StoreTransaction tx) {
    StoredWorkspace workspace = tx.workspaces().register("/w", "/w", 1, 2);
    StoredSession session = tx.sessions().create("session", workspace.id());
    List<Long> ids = new ArrayList<>();
    Map<Long, Long> inFlight = new LinkedHashMap<>();
    Set<Long> bracketing = new HashSet<>();
    for (int i = 0; i < TURNS; i++) {
      long turn = tx.turns().begin("turn-" + i, session, TurnKind.AGENT).id();
      ids.add(turn);
      switch (i % 3) {
        case 0 -> {
          inFlight.put(
              tx.toolCalls().beginShell(turn, "call-" + i, "Bash", Optional.of("make")), turn);
          bracketing.add(turn);
        }
        case 1 -> {
          tx.toolCalls().beginShell(turn, "call-" + i, "Bash", Optional.of("ls"));
          tx.toolCalls().end(turn, "call-" + i);
          bracketing.add(turn);
        }
        default -> {
          tx.turns().markBracketingCalls(turn);
          tx.toolCalls().record(turn, "edit-" + i, Optional.of("Edit"));
          bracketing.add(turn);
        }
      }
    }
    long first = ids.getFirst();
    inFlight.put(tx.toolCalls().beginShell(first, "call-0b", "Bash", Optional.empty()), first);
    long plain = tx.turns().begin("plain", session, TurnKind.AGENT).id();
    tx.toolCalls().record(plain, "edit-plain", Optional.of("Edit"));
    ids.addFirst(plain);
    return new Made(ids, inFlight, bracketing);
  }

  /** Asks both questions of the first {@code count} turns made. */
  private static void ask(Store store, Made made, int count) {
    List<Long> asked = made.ids().subList(0, count);
    List<Long> expectedCalls = new ArrayList<>();
    made.callsInFlight()
        .forEach(
            (call, turn) -> {
              if (asked.contains(turn)) {
                expectedCalls.add(call);
              }
            });
    Set<Long> expectedBracketing = new HashSet<>(asked);
    expectedBracketing.retainAll(made.bracketing());
    assertEquals(
        expectedCalls,
        store.read(tx -> tx.toolCalls().inFlight(asked)).stream().map(StoredToolCall::id).toList(),
        "the calls in flight of " + count + " turns, oldest first");
    assertEquals(
        expectedBracketing,
        store.read(tx -> tx.toolCalls().bracketing(asked)),
        "the bracketing turns among " + count);
  }
}
