package io.turndiff.rewind;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.capture.workspace.WorkspaceHandles;
import io.turndiff.fixtures.HeldWriteLock;
import io.turndiff.fixtures.StoreRows;
import io.turndiff.fixtures.TestStore;
import io.turndiff.model.RequestException;
import io.turndiff.model.TestHook;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.Store;
import io.turndiff.store.StoredRewindEntry;
import io.turndiff.store.StoredRewindOperation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A rewind that did not finish is found by the next rewind of the same turns, which resumes it (the
 * same request) or refuses naming it (another one); a rewind that fails mid-way leaves no staged
 * file behind.
 */
class RewindResumeTest extends HarnessTest {

  private static final int FILES = 6;

  /**
   * A turn that rewrote {@code FILES} files, the tree before it, and its rewind's operation,
   * interrupted.
   */
  private record Interrupted(String turn, Map<String, String> before, String operation) {}

  private Interrupted interruptedTurn() throws Exception {
    Rewritten rewritten = rewrittenTurn();
    return new Interrupted(
        rewritten.turn(), rewritten.before(), interruptedRewind(rewritten.turn()));
  }

  private List<Path> temporaries() throws Exception {
    try (Stream<Path> files = Files.walk(h.workspace.root())) {
      return files.filter(path -> path.getFileName().toString().startsWith(".turndiff-")).toList();
    }
  }

  /**
   * Rewinds {@code turn} with a service that fails before its third rename; returns the operation's
   * id.
   */
  private String interruptedRewind(String turn) {
    return h.interruptedRewind(new RewindRequest(turn, false, Optional.empty(), false, false), 3);
  }

  private StoredRewindOperation operation(String id) {
    return h.store.read(tx -> tx.rewinds().byExternalId(id)).orElseThrow();
  }

  @Test
  void aRewindThatFailsMidWayLeavesNoStagedFileAndTheSameRequestWithoutItsIdResumesIt()
      throws Exception {
    Interrupted interrupted = interruptedTurn();
    String turn = interrupted.turn();
    String id = interrupted.operation();
    assertEquals(List.of(), temporaries(), "every staged file was renamed into place or removed");
    assertFalse(operation(id).done());
    assertTrue(
        h.workspace.readText("f0.txt").startsWith("before"),
        "two renames landed before the failure");
    assertTrue(h.workspace.readText("f5.txt").startsWith("after"), "the rest did not");

    List<String> announced = new ArrayList<>();
    RewindReport resumed =
        h.rewind.rewind(
            new RewindRequest(turn, false, Optional.empty(), false, false),
            (operation, wasResumed) ->
                announced.add(operation + (wasResumed ? " resumed" : " new")));
    assertEquals(List.of(id + " resumed"), announced);
    assertEquals(id, resumed.operation(), "the unfinished operation, not a new one");
    assertTrue(resumed.complete(), resumed.toString());
    assertEquals(FILES, resumed.restored().size());
    assertEquals(interrupted.before(), tree(), "the tree the turn started from, nothing staged");
    assertTrue(operation(id).done());
    assertEquals(1L, StoreRows.count(h.store).get("rewind_operation"), "no second operation");
  }

  /** The turn of {@link #interruptedTurn} and the tree before it, not rewound yet. */
  private record Rewritten(String turn, Map<String, String> before) {}

  private Rewritten rewrittenTurn() throws Exception {
    List<String> paths = new ArrayList<>();
    for (int i = 0; i < FILES; i++) {
      h.workspace.file("f" + i + ".txt", "before " + i + "\n");
      paths.add("f" + i + ".txt");
    }
    Map<String, String> before = tree();
    String turn =
        h.turn(
            paths,
            () -> {
              for (int i = 0; i < FILES; i++) {
                Files.writeString(file("f" + i + ".txt"), "after " + i + "\n");
              }
            });
    return new Rewritten(turn, before);
  }

  /** Rewinds {@code turn} with a service whose hook fails at {@code failing}; returns the id. */
  private String failedRewind(String turn, TestHook failing) {
    List<String> ids = new ArrayList<>();
    assertThrows(
        IllegalStateException.class,
        () ->
            new RewindService(h.store, h.handles, failing)
                .rewind(
                    new RewindRequest(turn, false, Optional.empty(), false, false),
                    (id, resumed) -> ids.add(id)));
    return ids.getFirst();
  }

  private List<String> journal(String id) {
    return h.store.read(tx -> tx.rewinds().entries(operation(id).id())).stream()
        .map(entry -> entry.status().code())
        .toList();
  }

  @Test
  void aRewindThatFailsWhileItStagesLeavesNoStagedFileAndIsResumed() throws Exception {
    Rewritten rewritten = rewrittenTurn();
    Map<String, String> after = tree();
    AtomicInteger staged = new AtomicInteger();
    String id =
        failedRewind(
            rewritten.turn(),
            point -> {
              if (point == TestHook.Point.REWIND_FILE_STAGED && staged.incrementAndGet() == 3) {
                throw new IllegalStateException("the rewind fails while it stages");
              }
            });
    assertEquals(List.of(), temporaries(), "every file staged before the failure was removed");
    assertEquals(after, tree(), "nothing was renamed");
    // every path is journaled started, with what it replaces, before its file is staged: the one
    // synced commit comes before the first file is made
    assertEquals(Collections.nCopies(FILES, "started"), journal(id));

    RewindReport resumed = h.rewindTurn(rewritten.turn());
    assertEquals(id, resumed.operation());
    assertTrue(resumed.complete(), resumed.toString());
    assertEquals(FILES, resumed.restored().size());
    assertEquals(rewritten.before(), tree());
    assertEquals(List.of(), temporaries());
  }

  @Test
  void aRewindThatFailsAfterItsRenamesBeforeItJournaledThemDoneIsResumedAsRestored()
      throws Exception {
    Rewritten rewritten = rewrittenTurn();
    String id =
        failedRewind(
            rewritten.turn(),
            point -> {
              if (point == TestHook.Point.BEFORE_REWIND_JOURNALED_DONE) {
                throw new IllegalStateException("the rewind fails after its renames");
              }
            });
    assertEquals(rewritten.before(), tree(), "every rename had landed");
    assertEquals(List.of(), temporaries());
    assertEquals(Collections.nCopies(FILES, "started"), journal(id));

    RewindReport resumed = h.rewindTurn(rewritten.turn());
    assertEquals(id, resumed.operation());
    assertTrue(resumed.complete(), resumed.toString());
    assertEquals(FILES, resumed.restored().size(), "each landed rename is journaled done");
    assertEquals(rewritten.before(), tree());
    assertTrue(h.rewindTurn(resumed.rewindTurn().orElseThrow()).complete(), "and undone");
  }

  @Test
  void aResumedPathIsPutInPlaceOnlyIfItStillHoldsItsStateRightBeforeItsRename() throws Exception {
    Interrupted interrupted = interruptedTurn();
    assertTrue(
        h.workspace.readText("f2.txt").startsWith("after"),
        "the interrupted run stopped before f2's rename");
    AtomicBoolean edited = new AtomicBoolean();
    RewindService resuming =
        new RewindService(
            h.store,
            h.handles,
            point -> {
              if (point == TestHook.Point.BEFORE_REWIND_RENAME
                  && edited.compareAndSet(false, true)) {
                h.workspace.file(
                    "f2.txt",
                    "after 2, then the user's edit\n"); // the first path the resumed run renames
              }
            });
    RewindReport resumed =
        resuming.rewind(
            new RewindRequest(interrupted.turn(), false, Optional.empty(), false, false));
    assertEquals(interrupted.operation(), resumed.operation());
    assertEquals(
        List.of(
            new RewindReport.Skipped(
                WorkspacePath.of("f2.txt"), "conflict", "it changed while the rewind ran")),
        resumed.skipped(),
        resumed.toString());
    assertEquals(FILES - 1, resumed.restored().size(), resumed.toString());
    assertEquals(
        "after 2, then the user's edit\n", h.workspace.readText("f2.txt"), "never overwritten");
    assertEquals("before 3\n", h.workspace.readText("f3.txt"));
    assertEquals(List.of(), temporaries(), "the staged file of the path left is removed");
  }

  @Test
  void anotherRequestForTheTurnsOfAnUnfinishedOperationIsRefusedNamingIt() throws Exception {
    Interrupted interrupted = interruptedTurn();
    String turn = interrupted.turn();
    String id = interrupted.operation();
    String later = h.turn(List.of("g.txt"), () -> h.workspace.file("g.txt", "g\n"));
    Map<String, String> tree = tree();
    Map<String, Long> rows = StoreRows.count(h.store);
    for (RewindRequest other :
        List.of(
            new RewindRequest(turn, false, Optional.empty(), false, true),
            new RewindRequest(turn, false, Optional.of("op-new"), false, false),
            new RewindRequest(turn, true, Optional.empty(), false, false))) {
      RequestException refused = assertThrows(RequestException.class, () -> h.rewind.rewind(other));
      assertEquals(RequestException.Problem.WRONG_STATE, refused.problem());
      assertTrue(
          refused.getMessage().contains("'" + id + "'")
              && refused.getMessage().contains("--operation " + id),
          refused.getMessage());
    }
    assertEquals(tree, tree(), "nothing written");
    assertEquals(rows, StoreRows.count(h.store));
    assertTrue(
        h.rewindTurn(later).complete(), "a turn the operation does not cover is rewound as usual");
    RewindReport dry = h.dryRun(turn);
    assertEquals(id, dry.operation(), "a dry run shows the unfinished operation");
    assertTrue(h.rewindTurn(turn).complete());
  }

  @Test
  void anOperationALiveProcessIsApplyingIsNeverResumedUntilThatProcessIsGone() throws Exception {
    Interrupted interrupted = interruptedTurn();
    String turn = interrupted.turn();
    String id = interrupted.operation();
    Process other = new ProcessBuilder("sleep", "60").start();
    try {
      long started = other.info().startInstant().map(Instant::toEpochMilli).orElseThrow();
      h.store.write(
          tx -> {
            tx.rewinds().setRunner(operation(id).id(), other.pid() + ":" + started);
            return null;
          });
      RequestException busy = assertThrows(RequestException.class, () -> h.rewindTurn(turn));
      assertTrue(busy.getMessage().contains("process " + other.pid()), busy.getMessage());
    } finally {
      other.destroyForcibly();
      assertTrue(other.waitFor(30, TimeUnit.SECONDS));
    }
    assertEquals(id, h.rewindTurn(turn).operation(), "resumed once its runner is gone");
    assertEquals(interrupted.before(), tree());
  }

  @Test
  void aRewindThatFailsMidWayLeavesNoRunnerStoredSoAnotherProcessMayResumeIt() throws Exception {
    h.workspace.file("f0.txt", "0\n").file("f1.txt", "1\n");
    String turn =
        h.turn(
            List.of("f0.txt", "f1.txt"),
            () -> {
              h.workspace.file("f0.txt", "a\n");
              h.workspace.file("f1.txt", "b\n");
            });
    List<String> ids = new ArrayList<>();
    List<Optional<String>> runnerWhileApplying = new ArrayList<>();
    RewindService failing =
        new RewindService(
            h.store,
            h.handles,
            point -> {
              if (point != TestHook.Point.BEFORE_REWIND_RENAME) {
                return;
              }
              runnerWhileApplying.add(
                  h.store.read(tx -> tx.rewinds().runner(operation(ids.getFirst()).id())));
              throw new IllegalStateException(
                  "fails mid-way (a disk full, a store busy past its timeout, ...)");
            });
    assertThrows(
        IllegalStateException.class,
        () ->
            failing.rewind(
                new RewindRequest(turn, false, Optional.empty(), false, false),
                (id, resumed) -> ids.add(id)));
    String self = ProcessHandle.current().pid() + ":";
    assertTrue(
        runnerWhileApplying.getFirst().orElseThrow().startsWith(self), "stored while it applies");
    assertEquals(
        Optional.empty(),
        h.store.read(tx -> tx.rewinds().runner(operation(ids.getFirst()).id())),
        "nobody applies the operation now: a process that lives on (serve) must not keep every other one out");
    RewindReport resumed = h.rewindTurn(turn);
    assertEquals(ids.getFirst(), resumed.operation());
    assertEquals(
        Optional.empty(),
        h.store.read(tx -> tx.rewinds().runner(operation(ids.getFirst()).id())),
        "nor once it is done");
  }

  @Test
  void twoRewindsOfOneTurnAtOnceMakeOneOperationAndTheOtherIsRefusedOrResumesIt() throws Exception {
    h.workspace.file("a.txt", "before\n");
    Map<String, String> before = tree();
    String turn = h.turn(List.of("a.txt"), () -> Files.writeString(file("a.txt"), "after\n"));
    // two stores on the one file, as two processes have; a third connection holds the write lock so
    // that both requests have made every read before either can create its operation
    try (Store second = TestStore.reopen(h.store);
        WorkspaceHandles secondHandles = new WorkspaceHandles(second, BoundaryOptions.defaults());
        HeldWriteLock lock = HeldWriteLock.on(h.store)) {
      List<RewindService> services = List.of(h.rewind, new RewindService(second, secondHandles));
      List<Object> outcomes = Collections.synchronizedList(new ArrayList<>());
      List<Thread> racers = new ArrayList<>();
      for (RewindService service : services) {
        racers.add(
            Thread.ofPlatform()
                .start(
                    () -> {
                      try {
                        outcomes.add(
                            service.rewind(
                                new RewindRequest(turn, false, Optional.empty(), false, false)));
                      } catch (RuntimeException e) {
                        outcomes.add(e);
                      }
                    }));
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (!racers.stream().allMatch(RewindResumeTest::waitsToCreateItsOperation)) {
        assertTrue(
            System.nanoTime() < deadline,
            "both requests reach the write that creates their operation");
        Thread.sleep(5);
      }
      lock.release();
      for (Thread racer : racers) {
        racer.join(TimeUnit.SECONDS.toMillis(60));
        assertFalse(racer.isAlive());
      }
      assertEquals(
          1L, StoreRows.count(h.store).get("rewind_operation"), "one operation: " + outcomes);
      List<RewindReport> reports =
          outcomes.stream()
              .filter(RewindReport.class::isInstance)
              .map(RewindReport.class::cast)
              .toList();
      assertTrue(reports.stream().anyMatch(RewindReport::complete), outcomes.toString());
      String id = reports.getFirst().operation();
      for (Object outcome : outcomes) {
        switch (outcome) {
          case RewindReport report ->
              assertEquals(id, report.operation(), "the same operation, resumed");
          case RequestException refused -> {
            assertEquals(
                RequestException.Problem.WRONG_STATE, refused.problem(), refused.getMessage());
            assertTrue(refused.getMessage().contains(id), refused.getMessage());
          }
          default ->
              throw new AssertionError("neither a report nor a refusal", (Throwable) outcome);
        }
      }
    }
    assertEquals(before, tree(), "rewound once, nothing staged left");
  }

  /**
   * Whether {@code thread} is in the store write of a new rewind, the one that creates its
   * operation.
   */
  private static boolean waitsToCreateItsOperation(Thread thread) {
    List<String> frames =
        Stream.of(thread.getStackTrace())
            .map(frame -> frame.getClassName() + "#" + frame.getMethodName())
            .toList();
    return frames.contains("io.turndiff.store.Store#write")
        && frames.contains("io.turndiff.rewind.RewindService#rewind")
        && frames.stream()
            .noneMatch(frame -> frame.startsWith("io.turndiff.rewind.RewindService#apply"));
  }

  @Test
  void aFileSomeoneElseMadeUnderATemporaryNameIsLeftAndEveryStagedFileIsUnderAJournaledName()
      throws Exception {
    List<String> paths = new ArrayList<>();
    for (int i = 0; i < FILES; i++) {
      h.workspace.file("f" + i + ".txt", "before " + i + "\n");
      paths.add("f" + i + ".txt");
    }
    h.workspace.file(".turndiff-planted.tmp", "the user's own\n");
    Map<String, String> before = tree();
    String turn =
        h.turn(
            paths,
            () -> {
              for (int i = 0; i < FILES; i++) {
                Files.writeString(file("f" + i + ".txt"), "after " + i + "\n");
              }
            });
    // the boundary hands out the planted name first: the rewind must journal another before it
    // stages
    AtomicInteger handedOut = new AtomicInteger();
    BoundaryOptions options =
        BoundaryOptions.builder()
            .temporaryNames(
                () ->
                    handedOut.getAndIncrement() == 0
                        ? ".turndiff-planted.tmp"
                        : ".turndiff-test-" + handedOut.get() + ".tmp")
            .build();
    List<Path> stagedAtFirstRename = new ArrayList<>();
    List<Path> journaledAtFirstRename = new ArrayList<>();
    try (WorkspaceHandles handles = new WorkspaceHandles(h.store, options)) {
      RewindService service =
          new RewindService(
              h.store,
              handles,
              point -> {
                if (point != TestHook.Point.BEFORE_REWIND_RENAME
                    || !stagedAtFirstRename.isEmpty()) {
                  return;
                }
                try {
                  temporaries().stream()
                      .filter(path -> !path.endsWith(".turndiff-planted.tmp"))
                      .forEach(stagedAtFirstRename::add);
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
                h.store
                    .read(
                        tx ->
                            tx.rewinds()
                                .entries(tx.rewinds().byExternalId("op-names").orElseThrow().id()))
                    .forEach(
                        entry ->
                            entry
                                .temporaryName()
                                .ifPresent(
                                    name ->
                                        journaledAtFirstRename.add(
                                            file(entry.path().display()).resolveSibling(name))));
              });
      RewindReport report =
          service.rewind(new RewindRequest(turn, false, Optional.of("op-names"), false, false));
      assertTrue(report.complete(), report.toString());
    }
    assertEquals(
        FILES, stagedAtFirstRename.size(), "every path was staged before the first rename");
    assertEquals(
        stagedAtFirstRename.stream().sorted().toList(),
        journaledAtFirstRename.stream().sorted().toList(),
        "each staged file is under the name journaled for its path, and no other name was journaled");
    assertEquals(before, tree(), "the tree the turn started from; the planted file untouched");
    List<Optional<String>> names =
        h.store.read(tx -> tx.rewinds().entries(operation("op-names").id())).stream()
            .map(StoredRewindEntry::temporaryName)
            .toList();
    assertFalse(
        names.contains(Optional.of(".turndiff-planted.tmp")),
        "the taken name was journaled over: " + names);
  }
}
