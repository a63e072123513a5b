package io.turndiff.rewind;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TreeContent;
import io.turndiff.model.RequestException;
import io.turndiff.model.TestHook;
import io.turndiff.store.Store;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * A rewind plans for its dry run, then stores that plan in a transaction of its own; it plans again
 * there only when the store was written since the plan was made ({@code Store#changeMark}). Here
 * the turns change in that window (a turn added to the session, by this process or by another one
 * on the same store, or one begun and left open) and the rewind decides on the turns as they are
 * when it stores its operation, as it did when it always planned twice; and when nothing changed,
 * the run does what its dry run said.
 */
class PlannedAgainWhenChangedTest extends HarnessTest {

  /** The tree before the turns. */
  private Map<String, String> before;

  /** Two turns of the session: {@code a.txt}, then {@code b.txt}; returns the first. */
  private String twoTurns() {
    h.workspace.file("a.txt", "a before\n").file("b.txt", "b before\n").file("c.txt", "c before\n");
    before = TreeContent.of(h.workspace.root());
    String first = h.turn(List.of("a.txt"), () -> Files.writeString(file("a.txt"), "a after\n"));
    h.turn(List.of("b.txt"), () -> Files.writeString(file("b.txt"), "b after\n"));
    return first;
  }

  /**
   * A service whose rewinds run {@code meanwhile} once, between the dry run and the transaction
   * that stores the operation, on a thread of its own (as another caller would).
   */
  private RewindService withWindow(Consumer<RewindHarness> meanwhile, AtomicBoolean ran) {
    return new RewindService(
        h.store,
        h.handles,
        point -> {
          if (point == TestHook.Point.REWIND_DRY_RUN_DONE && ran.compareAndSet(false, true)) {
            Thread other = Thread.ofPlatform().start(() -> meanwhile.accept(h));
            try {
              other.join();
            } catch (InterruptedException e) {
              throw new IllegalStateException(e);
            }
          }
        });
  }

  @Test
  void aTurnAddedBetweenTheDryRunAndTheTransactionIsRewoundToo() throws Exception {
    String first = twoTurns();
    AtomicBoolean ran = new AtomicBoolean();
    RewindService rewind =
        withWindow(
            harness ->
                harness.turn(List.of("c.txt"), () -> Files.writeString(file("c.txt"), "c after\n")),
            ran);
    RewindRequest to = new RewindRequest(first, true, Optional.empty(), false, false);
    RewindReport dryRun =
        rewind.rewind(new RewindRequest(first, true, Optional.empty(), true, false));
    assertEquals(List.of("a.txt", "b.txt"), paths(dryRun.restored()));
    RewindReport report = rewind.rewind(to);
    rewind.makeDurable(report);
    assertTrue(ran.get());
    assertEquals(
        List.of("a.txt", "b.txt", "c.txt"),
        paths(report.restored()),
        "planned again: the turn added after the dry run is rewound with the others");
    assertEquals(3, report.turns().size());
    assertEquals(before, TreeContent.of(h.workspace.root()));
  }

  @Test
  void aTurnAnotherProcessAddedBetweenTheDryRunAndTheTransactionIsRewoundToo() throws Exception {
    String first = twoTurns();
    AtomicBoolean ran = new AtomicBoolean();
    try (Store second = TestStore.reopen(h.store)) {
      RewindService rewind =
          withWindow(
              harness -> {
                // another process's turn: written through a store of its own on the same file
                try (RewindHarness other =
                    new RewindHarness(harness.workspace, second, "session-1")) {
                  other.turn(List.of("c.txt"), () -> Files.writeString(file("c.txt"), "c after\n"));
                }
              },
              ran);
      RewindReport report =
          rewind.rewind(new RewindRequest(first, true, Optional.empty(), false, false));
      rewind.makeDurable(report);
      assertTrue(ran.get());
      assertEquals(List.of("a.txt", "b.txt", "c.txt"), paths(report.restored()));
    }
    assertEquals(before, TreeContent.of(h.workspace.root()));
  }

  @Test
  void aTurnBegunBetweenTheDryRunAndTheTransactionRefusesTheRewindUnwritten() throws Exception {
    String first = twoTurns();
    Map<String, String> after = TreeContent.of(h.workspace.root());
    AtomicBoolean ran = new AtomicBoolean();
    RewindService rewind =
        withWindow(
            harness ->
                harness.capture.beginTurn(
                    harness.workspace.root(), Optional.of("session-1"), Optional.empty()),
            ran);
    RequestException refused =
        assertThrows(
            RequestException.class,
            () -> rewind.rewind(new RewindRequest(first, true, Optional.empty(), false, false)));
    assertTrue(ran.get());
    assertEquals(RequestException.Problem.WRONG_STATE, refused.problem());
    assertTrue(refused.getMessage().contains("is open"), refused.getMessage());
    assertEquals(after, TreeContent.of(h.workspace.root()), "nothing written");
    assertTrue(
        h.store
            .read(
                tx ->
                    tx.rewinds()
                        .applyingIn(h.store.read(t -> t.turns().require(first)).sessionId()))
            .isEmpty(),
        "nothing stored");
  }

  @Test
  void withNothingChangedTheRunDoesWhatItsDryRunSaid() throws Exception {
    String first = twoTurns();
    AtomicBoolean ran = new AtomicBoolean();
    RewindService rewind = withWindow(harness -> {}, ran);
    RewindReport dryRun =
        rewind.rewind(new RewindRequest(first, true, Optional.empty(), true, false));
    RewindReport report =
        rewind.rewind(new RewindRequest(first, true, Optional.empty(), false, false));
    rewind.makeDurable(report);
    assertTrue(ran.get());
    assertEquals(paths(dryRun.restored()), paths(report.restored()));
    assertEquals(dryRun.turns(), report.turns());
    assertEquals(List.of("a.txt", "b.txt"), paths(report.restored()));
    assertEquals(before, TreeContent.of(h.workspace.root()));
  }
}
