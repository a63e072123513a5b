package io.turndiff.rewind;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.turndiff.fixtures.TestStore;
import io.turndiff.model.BoundaryKind;
import io.turndiff.model.PathInput;
import io.turndiff.model.Sha256;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.StoredRewindOperation;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A rewind writes its files without syncing each and syncs the file system once at its end; a power
 * loss before then may take back what its journal says was written. The test plays the power loss
 * on the files the journal says were written (cut short, emptied, zeros in the middle, the rename
 * undone, the file gone) and has the operation recorded as run in another boot without its sync
 * (the store's row, as a power loss leaves it); the next start redoes each from the store, byte for
 * byte, says so, and writes over nothing it has not stored.
 */
class PowerLossRecoveryTest extends HarnessTest {

  private static final int FILES = 6;

  /** A content long enough that cutting it short and zeroing a block are both visible. */
  private static String before(int i) {
    return ("before " + i + "\n").repeat(700);
  }

  private String rewrittenTurn() throws Exception {
    return rewrittenTurn(h);
  }

  private String rewrittenTurn(RewindHarness harness) throws Exception {
    List<String> paths = new ArrayList<>();
    for (int i = 0; i < FILES; i++) {
      h.workspace.file("f" + i + ".txt", before(i));
      paths.add("f" + i + ".txt");
    }
    return harness.turn(
        paths,
        () -> {
          for (int i = 0; i < FILES; i++) {
            Files.writeString(file("f" + i + ".txt"), "after " + i + "\n");
          }
        });
  }

  /**
   * What a power loss leaves of f0–f4, and f5 edited after the rewind (someone's work the rewind
   * never stored: never to be written over).
   */
  private void powerLoss() throws Exception {
    byte[] f0 = Files.readAllBytes(file("f0.txt"));
    Files.write(file("f0.txt"), Arrays.copyOf(f0, f0.length / 3));
    Files.write(file("f1.txt"), new byte[0]);
    byte[] f2 = Files.readAllBytes(file("f2.txt"));
    Arrays.fill(f2, 1024, 2048, (byte) 0);
    Files.write(file("f2.txt"), f2);
    Files.writeString(file("f3.txt"), "after 3\n"); // the rename never reached the disk
    Files.delete(file("f4.txt"));
    Files.writeString(file("f5.txt"), "the user's edit after the rewind\n");
  }

  private void ranInAnotherBootUnsynced(String operation) {
    h.store.writeDurably(
        tx -> {
          long id = tx.rewinds().byExternalId(operation).orElseThrow().id();
          tx.rewinds().runningInBoot(id, Optional.of("00000000-0000-0000-0000-000000000000"));
          return null;
        });
  }

  /**
   * A restart of the machine as the store sees it: every operation of the workspace not marked
   * synced was last applied in another boot. (A synced one is never checked, whatever its boot.)
   */
  private void restart(long workspace) {
    h.store.writeDurably(
        tx -> {
          tx.rewinds()
              .doneUnsyncedIn(workspace)
              .forEach(
                  operation ->
                      tx.rewinds()
                          .runningInBoot(
                              operation.id(), Optional.of("00000000-0000-0000-0000-000000000000")));
          return null;
        });
  }

  private boolean settled(String operation, long workspace) {
    return h.store.read(tx -> tx.rewinds().doneUnsyncedIn(workspace)).stream()
        .noneMatch(unsynced -> unsynced.externalId().equals(operation));
  }

  /**
   * What the next rewind in the workspace found of the earlier operations it checked: what it was
   * told of each path, by path, and which operations; and whether it was made durable after its
   * answer.
   */
  private record NextRewind(Map<String, String> told, Set<String> checked, boolean synced) {}

  /**
   * Rewinds a new turn of {@code file}, the next rewind in the workspace, which starts by making
   * the earlier ones durable (checking those that may be from another boot), and makes it durable
   * after its answer, as the command line does.
   */
  private NextRewind nextRewind(RewindHarness harness, String file) throws Exception {
    h.workspace.file(file, "before\n");
    String turn = harness.turn(List.of(file), () -> Files.writeString(file(file), "after\n"));
    Map<String, String> told = new TreeMap<>();
    Set<String> checked = new TreeSet<>();
    RewindReport next =
        harness.rewind.rewind(
            new RewindRequest(turn, false, Optional.empty(), false, false),
            new RewindStarted() {
              @Override
              public void started(String id, boolean resumed) {}

              @Override
              public void recovered(String id, Map<WorkspacePath, String> paths) {
                checked.add(id);
                paths.forEach((path, what) -> told.put(path.display(), what));
              }
            });
    assertTrue(next.complete(), next.toString());
    return new NextRewind(told, checked, harness.rewind.makeDurable(next));
  }

  private List<Path> temporaries() throws Exception {
    try (Stream<Path> files = Files.walk(h.workspace.root())) {
      return files.filter(path -> path.getFileName().toString().startsWith(".turndiff-")).toList();
    }
  }

  /**
   * {@link #nextRewind} over the harness's own boundary; returns what it was told of the paths it
   * checked of {@code checked}, the one earlier operation it may check, by path.
   */
  private Map<String, String> rewindOfAnotherTurn(String checked) throws Exception {
    NextRewind next = nextRewind(h, "other.txt");
    assertTrue(Set.of(checked).containsAll(next.checked()), next.checked().toString());
    assertTrue(next.synced(), "synced after its answer");
    return next.told();
  }

  @Test
  void aFinishedRewindFromAnotherBootHasWhatAPowerLossTookRedoneFromTheStore() throws Exception {
    String turn = rewrittenTurn();
    RewindReport rewound = h.rewindTurn(turn);
    assertTrue(rewound.complete(), rewound.toString());
    String operation = rewound.operation();
    long workspace = h.workspaceIdOf(turn);
    assertEquals(
        List.of(),
        h.store.read(tx -> tx.rewinds().doneUnsyncedIn(workspace)),
        "its end was synced, and the operation says so");

    powerLoss();
    ranInAnotherBootUnsynced(operation);
    assertEquals(1, h.store.read(tx -> tx.rewinds().doneUnsyncedIn(workspace)).size());

    // the next rewind in the workspace (a turn of another file) starts by making the earlier one
    // durable
    Map<String, String> told = rewindOfAnotherTurn(operation);

    for (int i = 0; i < 5; i++) {
      assertEquals(before(i), h.workspace.readText("f" + i + ".txt"), "f" + i + " redone");
    }
    assertEquals(
        "the user's edit after the rewind\n",
        h.workspace.readText("f5.txt"),
        "what no power loss makes is never written over");
    assertEquals(
        List.of("f0.txt", "f1.txt", "f2.txt", "f3.txt", "f4.txt", "f5.txt"),
        List.copyOf(told.keySet()));
    assertTrue(
        told.get("f0.txt").startsWith("redone: it held " + before(0).length() / 3 + " bytes"),
        told.toString());
    assertTrue(told.get("f3.txt").contains("what the rewind replaced"), told.toString());
    assertEquals("redone: it was gone", told.get("f4.txt"));
    assertTrue(told.get("f5.txt").startsWith("left: "), told.toString());

    // the receipt says it too: the redone paths in its notes, and the one left, still restored
    // (the rewind did put it back; the edit came after)
    RewindReport receipt =
        h.rewind.rewind(new RewindRequest(turn, false, Optional.of(operation), false, false));
    assertEquals(6, receipt.notes().size(), receipt.toString());
    receipt
        .notes()
        .forEach(
            (path, note) ->
                assertTrue(
                    note.startsWith(
                        path.display().equals("f5.txt")
                            ? PowerLossRecovery.LEFT
                            : PowerLossRecovery.REDONE),
                    path + ": " + note));
    assertEquals(List.of(), receipt.skipped(), receipt.toString());
    assertEquals(FILES, receipt.restored().size(), receipt.toString());
    assertTrue(receipt.complete(), receipt.toString());
    assertEquals(
        List.of(),
        h.store.read(tx -> tx.rewinds().doneUnsyncedIn(workspace)),
        "made durable (one syncfs) and marked synced");
    assertEquals(List.of(), temporaries(), "no staged file left");
  }

  /**
   * A path a power loss took back whose stored content now reads back as other bytes (its row
   * changed on disk) is not redone with those bytes: it is left, named, and the others are redone;
   * the next rewind goes on. Before the check, the changed bytes were written back as the redo.
   */
  @Test
  void aPathWhoseStoredContentReadsBackWrongIsLeftNotRedoneWithIt() throws Exception {
    assumeFalse(TestStore.onPostgres(), "the row is replaced in the SQLite file");
    String turn = rewrittenTurn();
    String operation = h.rewindTurn(turn).operation();
    powerLoss();
    ranInAnotherBootUnsynced(operation);
    Sha256 f1Before = Sha256.of(before(1).getBytes(StandardCharsets.UTF_8));
    StoredRow.replaceBytes(temp, f1Before, "changed on disk\n");

    Map<String, String> told = rewindOfAnotherTurn(operation);

    assertEquals(
        "left: its before-state's stored content "
            + f1Before
            + " reads back as "
            + Sha256.of("changed on disk\n".getBytes(StandardCharsets.UTF_8))
            + ": the store is damaged; the file is left as it is",
        told.get("f1.txt"));
    assertEquals("", h.workspace.readText("f1.txt"), "what the power loss left, not the row");
    assertEquals(before(0), h.workspace.readText("f0.txt"), "the others redone");
    assertEquals(before(4), h.workspace.readText("f4.txt"));
    assertEquals(List.of(), temporaries(), "no staged file left");
  }

  /**
   * A rewind answers once its files are in place and its journal says done, and says so: {@code
   * in_place}, the operation done and not synced, until the sync after the answer; then {@code
   * synced}, in the receipt of the same operation asked for again.
   */
  @Test
  void theReceiptSaysInPlaceUntilTheSyncAfterTheAnswerThenSynced() throws Exception {
    String turn = rewrittenTurn();
    RewindRequest request = new RewindRequest(turn, false, Optional.empty(), false, false);
    assertEquals(
        RewindReport.Durability.NOTHING_WRITTEN,
        h.rewind.rewind(new RewindRequest(turn, false, Optional.empty(), true, false)).durability(),
        "a dry run writes nothing");
    RewindReport answered = h.rewind.rewind(request);
    long workspace = h.workspaceIdOf(turn);
    assertTrue(answered.complete(), answered.toString());
    assertEquals(RewindReport.Durability.IN_PLACE, answered.durability());
    for (int i = 0; i < FILES; i++) {
      assertEquals(before(i), h.workspace.readText("f" + i + ".txt"), "in place when it answers");
    }
    assertEquals(List.of(), temporaries(), "no staged file left when it answers");
    assertEquals(
        List.of(answered.operation()),
        h.store.read(tx -> tx.rewinds().doneUnsyncedIn(workspace)).stream()
            .map(StoredRewindOperation::externalId)
            .toList(),
        "done, and not marked synced before the sync");
    RewindRequest again =
        new RewindRequest(turn, false, Optional.of(answered.operation()), false, false);
    assertEquals(RewindReport.Durability.IN_PLACE, h.rewind.rewind(again).durability());

    assertTrue(h.rewind.makeDurable(answered));
    assertEquals(List.of(), h.store.read(tx -> tx.rewinds().doneUnsyncedIn(workspace)));
    RewindReport receipt = h.rewind.rewind(again);
    assertTrue(receipt.replayed());
    assertEquals(RewindReport.Durability.SYNCED, receipt.durability());
    assertTrue(h.rewind.makeDurable(receipt), "synced already: nothing more to do");
  }

  /**
   * The window the answer opens: the files in place, the sync not made. A power loss in it (the
   * files the journal says were written cut short, emptied, zeroed, the rename undone, gone; the
   * operation's row from another boot, as the store keeps it when its synced mark never came) is
   * found by the next rewind in the workspace, which redoes each from the store and writes over
   * nothing it has not stored. A receipt of the operation asked for in the next boot does not mark
   * it synced: only the check does.
   */
  @Test
  void aPowerLossBetweenTheAnswerAndItsSyncIsRedoneFromTheStoreByTheNextRewind() throws Exception {
    String turn = rewrittenTurn();
    RewindReport answered =
        h.rewind.rewind(new RewindRequest(turn, false, Optional.empty(), false, false));
    assertEquals(RewindReport.Durability.IN_PLACE, answered.durability());
    long workspace = h.workspaceIdOf(turn);
    assertEquals(1, h.store.read(tx -> tx.rewinds().doneUnsyncedIn(workspace)).size());
    // the power goes before the sync after the answer
    powerLoss();
    ranInAnotherBootUnsynced(answered.operation());

    RewindReport asked =
        h.rewind.rewind(
            new RewindRequest(turn, false, Optional.of(answered.operation()), false, false));
    assertEquals(RewindReport.Durability.IN_PLACE, asked.durability());
    assertFalse(h.rewind.makeDurable(asked), "not marked synced before it is checked");
    assertEquals(1, h.store.read(tx -> tx.rewinds().doneUnsyncedIn(workspace)).size());

    h.workspace.file("other.txt", "other before\n");
    String other =
        h.turn(List.of("other.txt"), () -> Files.writeString(file("other.txt"), "other after\n"));
    RewindReport next = h.rewindTurn(other);
    assertTrue(next.complete(), next.toString());
    for (int i = 0; i < 5; i++) {
      assertEquals(before(i), h.workspace.readText("f" + i + ".txt"), "f" + i + " redone");
    }
    assertEquals("the user's edit after the rewind\n", h.workspace.readText("f5.txt"));
    RewindReport receipt =
        h.rewind.rewind(
            new RewindRequest(turn, false, Optional.of(answered.operation()), false, false));
    assertEquals(6, receipt.notes().size(), "five redone, one left: " + receipt);
    assertEquals(List.of(), receipt.skipped(), receipt.toString());
    assertEquals(RewindReport.Durability.SYNCED, receipt.durability());
    assertEquals(List.of(), h.store.read(tx -> tx.rewinds().doneUnsyncedIn(workspace)));
    assertEquals(List.of(), temporaries(), "no staged file left");
  }

  /**
   * A path a rewind of some of the turn's paths put back, then edited by the user, after a restart
   * that finds the rewind unsynced: the check leaves the edit, and the path stays put back in the
   * rewind's journal, so a whole-turn rewind, even forced, leaves it as the user left it. The check
   * once journaled it skipped, and the forced rewind then wrote the turn's before-state over the
   * edit.
   */
  @Test
  void aPathEditedAfterItsOwnRewindIsLeftByAForcedWholeTurnRewindAfterARestart() throws Exception {
    String turn = rewrittenTurn();
    RewindReport one =
        h.rewind.rewind(
            new RewindRequest(
                turn, false, Optional.empty(), false, false, PathInput.texts(List.of("f5.txt"))));
    assertTrue(one.complete(), one.toString());
    ranInAnotherBootUnsynced(one.operation());
    Files.writeString(file("f5.txt"), "the user's edit after its rewind\n");

    RewindReport whole = h.force(turn);
    assertTrue(whole.complete(), whole.toString());
    assertEquals(
        "the user's edit after its rewind\n",
        h.workspace.readText("f5.txt"),
        "not written again, even with --force");
    assertEquals(List.of("f5.txt"), paths(whole.unchanged()), whole.toString());
    for (int i = 0; i < FILES - 1; i++) {
      assertEquals(before(i), h.workspace.readText("f" + i + ".txt"));
    }
    RewindReport receipt =
        h.rewind.rewind(
            new RewindRequest(
                turn,
                false,
                Optional.of(one.operation()),
                false,
                false,
                PathInput.texts(List.of("f5.txt"))));
    assertEquals(List.of("f5.txt"), paths(receipt.restored()), receipt.toString());
    assertTrue(
        receipt.notes().get(WorkspacePath.of("f5.txt")).startsWith(PowerLossRecovery.LEFT),
        receipt.toString());
    assertEquals(List.of(), temporaries());
  }

  /**
   * A later turn that wrote a path of an unsynced rewind again — here with the very content the
   * rewind replaced, as an agent redoing its edit does — is that turn's work, not what a power loss
   * left: the check after a restart leaves it and says which turn changed it.
   */
  @Test
  void aLaterTurnsWriteOfTheReplacedContentIsNotTakenForAPowerLoss() throws Exception {
    String turn = rewrittenTurn();
    String operation = h.rewindTurn(turn).operation();
    ranInAnotherBootUnsynced(operation);
    String again = h.turn(List.of("f0.txt"), () -> Files.writeString(file("f0.txt"), "after 0\n"));

    Map<String, String> told = rewindOfAnotherTurn(operation);
    assertEquals("after 0\n", h.workspace.readText("f0.txt"), "the later turn's write stands");
    assertEquals(List.of("f0.txt"), List.copyOf(told.keySet()), told.toString());
    assertTrue(told.get("f0.txt").contains("turn '" + again + "'"), told.toString());
    RewindReport rewindOfAgain = h.rewindTurn(again);
    assertTrue(rewindOfAgain.complete(), rewindOfAgain.toString());
    assertEquals(before(0), h.workspace.readText("f0.txt"), "that turn rewinds as recorded");
  }

  /**
   * The check's limit, bounded: an operation the check after a restart found with every path in
   * place is known to be on the disk (synced after the check; or, where the file system cannot be
   * synced, read in a later boot than the one that wrote it) and marked so, never checked again. A
   * file of it the user deletes after that check, outside any turn, stays deleted through the next
   * restart and rewind. With the fallback boundary the operation was checked again at every boot,
   * and the deleted file written again from the store.
   */
  @ParameterizedTest
  @EnumSource(
      value = BoundaryKind.class,
      names = {"OPENAT", "SECURE_DIRECTORY_STREAM"})
  void aFileDeletedAfterACheckThatFoundEveryPathInPlaceStaysDeletedThroughTheNextRestart(
      BoundaryKind kind) throws Exception {
    try (RewindHarness harness = h.over(kind)) {
      String turn = rewrittenTurn(harness);
      String operation = harness.rewindTurn(turn).operation();
      long workspace = h.workspaceIdOf(turn);
      ranInAnotherBootUnsynced(operation); // the power went before its sync, and took nothing

      assertEquals(Map.of(), nextRewind(harness, "other.txt").told(), "every path in place");

      deletedThroughARestart(harness, "f0.txt", operation, workspace);
      for (int i = 1; i < FILES; i++) {
        assertEquals(before(i), h.workspace.readText("f" + i + ".txt"));
      }
    }
  }

  /**
   * The user deletes {@code path}, outside any turn, once {@code operation} was checked; the
   * machine restarts, and the next rewind in the workspace runs: the deletion stands, no earlier
   * operation is checked again, and {@code operation} is settled.
   */
  private void deletedThroughARestart(
      RewindHarness harness, String path, String operation, long workspace) throws Exception {
    Files.delete(file(path));
    restart(workspace);
    Map<String, String> told = nextRewind(harness, "after-the-restart.txt").told();
    assertFalse(Files.exists(file(path)), "the user's deletion stands: " + told);
    assertEquals(Map.of(), told, "nothing checked again");
    assertTrue(settled(operation, workspace), "checked, and known to be on the disk");
    assertEquals(List.of(), temporaries());
  }

  /**
   * The same after the check redid a path a power loss cut short: the redo's write is made durable
   * by the sync after the check, or, where the file system cannot be synced, the next boot's check
   * finds it in place on the disk; then the operation is settled, and the user's deletion of the
   * redone file after that stays deleted through the next restart and rewind.
   */
  @ParameterizedTest
  @EnumSource(
      value = BoundaryKind.class,
      names = {"OPENAT", "SECURE_DIRECTORY_STREAM"})
  void aFileDeletedOnceItsRedoIsKnownToBeOnTheDiskStaysDeletedThroughTheNextRestart(
      BoundaryKind kind) throws Exception {
    try (RewindHarness harness = h.over(kind)) {
      String turn = rewrittenTurn(harness);
      String operation = harness.rewindTurn(turn).operation();
      long workspace = h.workspaceIdOf(turn);
      byte[] f1 = Files.readAllBytes(file("f1.txt"));
      Files.write(file("f1.txt"), Arrays.copyOf(f1, 100)); // what a power loss left of it
      ranInAnotherBootUnsynced(operation);

      assertEquals(
          List.of("f1.txt"), List.copyOf(nextRewind(harness, "other.txt").told().keySet()));
      assertEquals(before(1), h.workspace.readText("f1.txt"), "redone");
      restart(workspace);
      assertEquals(Map.of(), nextRewind(harness, "third.txt").told(), "in place on the disk");

      deletedThroughARestart(harness, "f1.txt", operation, workspace);
    }
  }

  @Test
  void aFinishedRewindNotSyncedInThisBootIsOnlySynced() throws Exception {
    String turn = rewrittenTurn();
    String operation = h.rewindTurn(turn).operation();
    long workspace = h.workspaceIdOf(turn);
    // the process died between its finish and its sync, in this boot: the page cache holds what
    // it wrote, so an edit since is the user's, never redone
    h.store.writeDurably(
        tx -> {
          long id = tx.rewinds().byExternalId(operation).orElseThrow().id();
          tx.rewinds().runningInBoot(id, BootId.now());
          return null;
        });
    Files.writeString(file("f0.txt"), "edited since\n");
    h.workspace.file("other.txt", "other before\n");
    String other =
        h.turn(List.of("other.txt"), () -> Files.writeString(file("other.txt"), "other after\n"));
    h.rewindTurn(other);
    assertEquals("edited since\n", h.workspace.readText("f0.txt"));
    assertEquals(List.of(), h.store.read(tx -> tx.rewinds().doneUnsyncedIn(workspace)));
  }

  @Test
  void anUnfinishedRewindFromAnotherBootHasItsLostWritesRedoneWhenResumed() throws Exception {
    String turn = rewrittenTurn();
    RewindRequest request = new RewindRequest(turn, false, Optional.empty(), false, false);
    String operation = h.interruptedRewind(request, 4);
    StoredRewindOperation interrupted =
        h.store.read(tx -> tx.rewinds().byExternalId(operation)).orElseThrow();
    assertFalse(interrupted.done());
    // three renames landed before the failure; the power loss then took back what they wrote
    assertEquals(before(0), h.workspace.readText("f0.txt"));
    Files.write(file("f0.txt"), new byte[0]);
    byte[] f1 = Files.readAllBytes(file("f1.txt"));
    Files.write(file("f1.txt"), Arrays.copyOf(f1, 100));
    Files.delete(file("f2.txt"));
    ranInAnotherBootUnsynced(operation);

    RewindReport resumed = h.rewind.rewind(request);
    assertTrue(h.rewind.makeDurable(resumed), "synced after its answer");
    assertEquals(operation, resumed.operation());
    assertTrue(resumed.complete(), resumed.toString());
    for (int i = 0; i < FILES; i++) {
      assertEquals(before(i), h.workspace.readText("f" + i + ".txt"), "f" + i);
    }
    assertEquals(
        List.of("f0.txt", "f1.txt", "f2.txt"),
        resumed.notes().keySet().stream().map(WorkspacePath::display).sorted().toList(),
        resumed.toString());
    assertEquals(List.of(), temporaries());
    assertEquals(
        List.of(),
        h.store.read(tx -> tx.rewinds().doneUnsyncedIn(h.workspaceIdOf(turn))),
        "finished, synced");
    assertTrue(
        new String(Files.readAllBytes(file("f1.txt")), StandardCharsets.UTF_8).endsWith("1\n"));
  }
}
