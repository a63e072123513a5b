package io.turndiff.rewind;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.fixtures.StoreRows;
import io.turndiff.fixtures.TreeContent;
import io.turndiff.model.ChangeKind;
import io.turndiff.model.RequestException;
import io.turndiff.model.TestHook;
import io.turndiff.model.TurnKind;
import io.turndiff.model.TurnState;
import io.turndiff.model.WorkspacePath;
import io.turndiff.review.PendingDiffs;
import io.turndiff.review.RewoundBy;
import io.turndiff.store.StoredFileChange;
import io.turndiff.store.StoredTurn;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Rewinds over a real store and real files; every test checks the canary. */
class RewindServiceTest extends HarnessTest {

  /**
   * The size limit of these tests, 2 MiB (the default before big files were stored), so that a file
   * over it costs a few MB to write.
   */
  private static final long SIZE_LIMIT = 2L << 20;

  RewindServiceTest() {
    super(BoundaryOptions.builder().sizeLimit(SIZE_LIMIT).build());
  }

  private StoredTurn turn(String id) {
    return h.store.read(tx -> tx.turns().byExternalId(id)).orElseThrow();
  }

  @Test
  void modifiedCreatedAndDeletedFilesGoBackAndNothingElseIsTouched() throws Exception {
    h.workspace
        .file("edit.txt", "one\ntwo\n")
        .file("gone.txt", "bye\n")
        .file("untouched.txt", "same\n")
        .file("run.sh", "echo\n")
        .mode("run.sh", "rw-r--r--");
    Map<String, String> before = TreeContent.of(h.workspace.root());
    Object untouchedInode = Files.getAttribute(file("untouched.txt"), "unix:ino");
    String turn =
        h.turn(
            List.of("edit.txt", "gone.txt", "made/new.txt", "run.sh"),
            () -> {
              Files.writeString(file("edit.txt"), "one\nTWO\n");
              Files.delete(file("gone.txt"));
              h.workspace.file("made/new.txt", "hello\n");
              h.workspace.mode("run.sh", "rwxr-xr-x");
            });
    h.workspace.file("later-untracked.txt", "not the turn's\n");
    RewindReport report = h.rewindTurn(turn);
    assertEquals(
        List.of("edit.txt", "gone.txt", "made/new.txt", "run.sh"), paths(report.restored()));
    assertTrue(report.complete());
    Map<String, String> after = TreeContent.of(h.workspace.root());
    assertEquals(
        "file rw-r--r-- " + HexFormat.of().formatHex("not the turn's\n".getBytes()),
        after.remove("later-untracked.txt"),
        "a file no turn recorded is never touched");
    assertEquals(before, after);
    assertEquals(untouchedInode, Files.getAttribute(file("untouched.txt"), "unix:ino"));
    assertEquals(TurnState.REWOUND, turn(turn).state());
    StoredTurn rewindTurn = turn(report.rewindTurn().orElseThrow());
    assertEquals(TurnKind.REWIND, rewindTurn.kind());
    assertEquals(TurnState.FINISHED, rewindTurn.state());
  }

  @Test
  void theRewindTurnsLineDiffsArePendingWhenItAnswersAndDrawnFromItsStoredStates()
      throws Exception {
    h.workspace.file("a.txt", "one\ntwo\n").file("b.txt", "b\n");
    String turn =
        h.turn(
            List.of("a.txt", "b.txt"),
            () -> {
              Files.writeString(file("a.txt"), "one\nTWO\n");
              Files.delete(file("b.txt"));
            });
    RewindReport report = h.rewindTurn(turn);
    StoredTurn rewindTurn = turn(report.rewindTurn().orElseThrow());
    // the caller waits for the files and the journal, not for the rewind turn's diffs: they are
    // left pending as a finish leaves a turn's (computed by the service's background, or by the
    // first query that needs one)
    List<StoredFileChange> pending =
        h.store.read(tx -> tx.fileChanges().diffPendingOfTurn(rewindTurn.id()));
    assertEquals(List.of("a.txt", "b.txt"), pending.stream().map(c -> c.path().display()).toList());
    Map<String, String> patches = new TreeMap<>();
    h.store.read(
        tx -> {
          pending.forEach(
              change ->
                  patches.put(
                      change.path().display(), new PendingDiffs().patchOf(tx, change).text()));
          return null;
        });
    assertTrue(patches.get("a.txt").contains("-TWO\n+two\n"), patches.get("a.txt"));
    assertTrue(patches.get("b.txt").contains("+b\n"), patches.get("b.txt"));
  }

  @Test
  void rewindingTheRewindTurnUndoesTheRewindByteForByte() throws Exception {
    h.workspace.file("a.txt", "a1\n").file("b.bin", new byte[] {0, 1, 2}).file("c.txt", "c\n");
    String turn =
        h.turn(
            List.of("a.txt", "b.bin", "c.txt", "d.txt"),
            () -> {
              Files.writeString(file("a.txt"), "a2\n");
              Files.write(file("b.bin"), new byte[] {0, 9, 9, 9});
              Files.delete(file("c.txt"));
              Files.writeString(file("d.txt"), "d\n");
              h.workspace.mode("a.txt", "rwx------");
            });
    Map<String, String> afterTurn = TreeContent.of(h.workspace.root());
    RewindReport rewound = h.rewindTurn(turn);
    assertTrue(rewound.complete());
    RewindReport undone = h.rewindTurn(rewound.rewindTurn().orElseThrow());
    assertTrue(undone.complete(), undone.toString());
    assertEquals(afterTurn, TreeContent.of(h.workspace.root()));
  }

  @Test
  void aTurnWhoseRewindWasUndoneReadsFinishedAgainAndItsHistoryNamesTheUndo() throws Exception {
    h.workspace.file("a.txt", "one\n");
    String turn = h.turn(List.of("a.txt"), () -> Files.writeString(file("a.txt"), "two\n"));
    String rewindTurn = h.rewindTurn(turn).rewindTurn().orElseThrow();
    assertEquals(TurnState.REWOUND, turn(turn).state());

    String undo = h.rewindTurn(rewindTurn).rewindTurn().orElseThrow();
    assertEquals("two\n", Files.readString(file("a.txt")));
    assertEquals(TurnState.FINISHED, turn(turn).state(), "its changes are all there again");
    assertEquals(TurnState.REWOUND, turn(rewindTurn).state(), "the rewind was undone");
    assertEquals(
        List.of(Optional.of(undo)),
        h.queries.records(turn).rewinds().rewoundBy().stream().map(RewoundBy::undoneBy).toList(),
        "its history: rewound by the rewind turn, undone by the undo");

    // undoing the undo makes the turn rewound again
    h.rewindTurn(undo);
    assertEquals("one\n", Files.readString(file("a.txt")));
    assertEquals(TurnState.REWOUND, turn(turn).state());
    assertEquals(TurnState.FINISHED, turn(rewindTurn).state());
    assertEquals(
        List.of(Optional.empty()),
        h.queries.records(turn).rewinds().rewoundBy().stream().map(RewoundBy::undoneBy).toList());
  }

  @Test
  void aTurnWhoseRewindWasUndoneMayBeRewoundAgain() throws Exception {
    h.workspace.file("a.txt", "one\n");
    String turn = h.turn(List.of("a.txt"), () -> Files.writeString(file("a.txt"), "two\n"));
    h.rewindTurn(h.rewindTurn(turn).rewindTurn().orElseThrow());
    RewindReport again = h.rewindTurn(turn);
    assertTrue(again.complete(), again.toString());
    assertEquals("one\n", Files.readString(file("a.txt")));
    assertEquals(TurnState.REWOUND, turn(turn).state());
  }

  @Test
  void aRewindThatPutsNothingBackAddsNoRewindTurnAndMarksNothing() throws Exception {
    String turn = h.turn(List.of("new.txt"), () -> h.workspace.file("new.txt", "the turn's\n"));
    Files.writeString(file("new.txt"), "the user's since\n");
    long turnsBefore = turnsOfTheSession(turn);

    RewindReport report = h.rewindTurn(turn);
    assertFalse(report.dryRun());
    assertEquals(
        List.of("new.txt conflict"),
        report.skipped().stream().map(s -> s.path().display() + " " + s.reason()).toList(),
        "every path it left is reported with its reason");
    assertEquals(Optional.empty(), report.rewindTurn(), "no rewind turn of no files");
    assertEquals(turnsBefore, turnsOfTheSession(turn));
    assertEquals(TurnState.FINISHED, turn(turn).state(), "its change is still there");
    assertEquals("the user's since\n", Files.readString(file("new.txt")));
    assertTrue(h.queries.records(turn).rewinds().rewoundBy().isEmpty());
    assertEquals(Map.of(), report.changedBy(), "the user's edit: made outside any turn");
  }

  @Test
  void aConflictSaysInWordsWhatChangedAndNamesTheLaterTurnThatChangedIt() throws Exception {
    h.workspace.file("a.txt", "one\n");
    String first = h.turn(List.of("a.txt"), () -> Files.writeString(file("a.txt"), "two\n"));
    String later =
        h.turn(List.of("a.txt"), () -> Files.writeString(file("a.txt"), "three, longer\n"));
    RewindReport plan = h.dryRun(first);
    RewindReport.Skipped conflict = plan.skipped().getFirst();
    assertEquals("conflict", conflict.reason());
    assertTrue(
        conflict.detail().endsWith("its content: 14 bytes now, 4 bytes then"), conflict.detail());
    RewindReport.ChangedBy by = plan.changedBy().get(conflict.path());
    assertEquals(later, by.turn());
    assertEquals(turn(later).seq(), by.seq());
    assertEquals(turn(later).beganAt(), by.at());
  }

  private long turnsOfTheSession(String turn) {
    return h.store.read(tx -> tx.turns().ofSession(turn(turn).sessionId())).size();
  }

  @Test
  void filesStoredAsChainsOfDeltasAreRewoundAndTheUndoBringsTheLastStateBackByteForByte()
      throws Exception {
    Random random = new Random(13);
    StringBuilder text = new StringBuilder();
    for (int line = 0; text.length() < 30_000; line++) {
      text.append("  long field").append(line).append(" = ").append(random.nextInt()).append(";\n");
    }
    byte[] binary = new byte[20_000];
    random.nextBytes(binary);
    h.workspace.file("src/A.java", text.toString()).file("data.bin", binary);
    List<Map<String, String>> beforeEachTurn = new ArrayList<>();
    String last = null;
    for (int turn = 0; turn < 3; turn++) {
      beforeEachTurn.add(TreeContent.of(h.workspace.root()));
      int n = turn;
      last =
          h.turn(
              List.of("src/A.java", "data.bin"),
              () -> {
                Files.writeString(
                    file("src/A.java"),
                    Files.readString(file("src/A.java"))
                        .replace("field" + (n * 50 + 7) + " ", "edited" + n + " "));
                byte[] bytes = Files.readAllBytes(file("data.bin"));
                bytes[n * 1_000] ^= 0x5a;
                Files.write(file("data.bin"), bytes);
              });
    }
    Map<String, String> afterTurns = TreeContent.of(h.workspace.root());
    assertTrue(
        Long.parseLong(
                StoreRows.text(
                    h.store, "SELECT count(*) FROM blob WHERE encoding = 'delta' AND depth = 3"))
            >= 2,
        "both files' last after-states are the third delta of their chains");
    RewindReport rewound = h.rewindTurn(last);
    assertTrue(rewound.complete(), rewound.toString());
    assertEquals(beforeEachTurn.get(2), TreeContent.of(h.workspace.root()));
    RewindReport undone = h.rewindTurn(rewound.rewindTurn().orElseThrow());
    assertTrue(undone.complete(), undone.toString());
    assertEquals(afterTurns, TreeContent.of(h.workspace.root()));
  }

  @Test
  void rewindToUndoesEveryLaterTurnWithOneWritePerFile() throws Exception {
    h.workspace.file("a.txt", "v1\n").file("b.txt", "b1\n");
    Map<String, String> start = TreeContent.of(h.workspace.root());
    String first = h.turn(List.of("a.txt"), () -> Files.writeString(file("a.txt"), "v2\n"));
    String second =
        h.turn(
            List.of("a.txt", "b.txt"),
            () -> {
              Files.writeString(file("a.txt"), "v3\n");
              Files.writeString(file("b.txt"), "b2\n");
            });
    String third = h.turn(List.of("c.txt"), () -> Files.writeString(file("c.txt"), "c\n"));
    RewindReport report = h.rewindTo(first);
    assertEquals(List.of(third, second, first), report.turns(), "newest first");
    assertEquals(List.of("a.txt", "b.txt", "c.txt"), paths(report.restored()));
    assertEquals(start, TreeContent.of(h.workspace.root()));
    List<ChangeKind> rewindChanges =
        h.queries.records(report.rewindTurn().orElseThrow()).changes().stream()
            .map(change -> change.change().orElseThrow())
            .toList();
    assertEquals(
        3, rewindChanges.size(), "one recorded write per file, from v3 straight back to v1");
  }

  @Test
  void aBrokenChainSkipsThatFileAndRewindsTheRest() throws Exception {
    h.workspace.file("a.txt", "v1\n").file("b.txt", "b1\n");
    String first = h.turn(List.of("a.txt"), () -> Files.writeString(file("a.txt"), "v2\n"));
    Files.writeString(file("a.txt"), "edited by the user between turns\n");
    h.turn(
        List.of("a.txt", "b.txt"),
        () -> {
          Files.writeString(file("a.txt"), "v3\n");
          Files.writeString(file("b.txt"), "b2\n");
        });
    RewindReport report = h.rewindTo(first);
    assertEquals(1, report.skipped().size());
    assertEquals("a.txt", report.skipped().getFirst().path().display());
    assertEquals("chain_broken", report.skipped().getFirst().reason());
    assertEquals("v3\n", h.workspace.readText("a.txt"), "left as it is");
    assertEquals("b1\n", h.workspace.readText("b.txt"));
  }

  @Test
  void anEscapedEntryIsSkippedAndTheRestOfTheTurnIsRewound() throws Exception {
    h.workspace.file("a.txt", "mine\n");
    h.workspace.symlink("leak.txt", h.workspace.secret().toString());
    String turn =
        h.turn(List.of("a.txt", "leak.txt"), () -> Files.writeString(file("a.txt"), "agent's\n"));
    RewindReport report = h.rewindTurn(turn);
    assertEquals(List.of("a.txt"), paths(report.restored()), report.toString());
    assertEquals("mine\n", h.workspace.readText("a.txt"));
    assertEquals(
        List.of("leak.txt"),
        report.skipped().stream().map(skip -> skip.path().display()).toList(),
        "what the turn did through a link out was never read: it is not called unchanged");
    assertEquals("escapes_workspace", report.skipped().getFirst().reason());
    assertTrue(report.unchanged().isEmpty());
    assertFalse(report.complete());
  }

  @Test
  void anEscapedEntryThatChangedIsSkippedWithItsReason() throws Exception {
    h.workspace.file("a.txt", "mine\n");
    h.workspace.symlink("leak.txt", h.workspace.secret().toString());
    String turn =
        h.turn(
            List.of("a.txt", "leak.txt"),
            () -> {
              Files.writeString(file("a.txt"), "agent's\n");
              Files.delete(file("leak.txt"));
              Files.writeString(file("leak.txt"), "replaced the link\n");
            });
    RewindReport report = h.rewindTurn(turn);
    assertEquals(List.of("a.txt"), paths(report.restored()));
    assertEquals(1, report.skipped().size());
    assertEquals("escapes_workspace", report.skipped().getFirst().reason());
    assertEquals("replaced the link\n", h.workspace.readText("leak.txt"), "never restored");
  }

  @Test
  void aFileTheUserEditedAfterTheTurnIsNotOverwritten() throws Exception {
    h.workspace.file("a.txt", "1\n2\n3\n");
    String turn = h.turn(List.of("a.txt"), () -> Files.writeString(file("a.txt"), "1\nTWO\n3\n"));
    Files.writeString(file("a.txt"), "1\nthe user's two\n3\n");
    RewindReport report = h.rewindTurn(turn);
    assertEquals("conflict", report.skipped().getFirst().reason());
    assertFalse(report.complete());
    assertEquals("1\nthe user's two\n3\n", h.workspace.readText("a.txt"));
  }

  @Test
  void aLaterEditElsewhereInTheFileMergesWithTheTurnsHunksReversed() throws Exception {
    String lines = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n";
    h.workspace.file("a.txt", lines);
    String turn =
        h.turn(
            List.of("a.txt"),
            () -> Files.writeString(file("a.txt"), lines.replace("\n2\n", "\ntwo\n")));
    Files.writeString(
        file("a.txt"), lines.replace("\n2\n", "\ntwo\n").replace("\n11\n", "\neleven (user)\n"));
    RewindReport report = h.rewindTurn(turn);
    assertEquals(List.of("a.txt"), paths(report.merged()));
    assertEquals(lines.replace("\n11\n", "\neleven (user)\n"), h.workspace.readText("a.txt"));
  }

  @Test
  void forceOverwritesAConflictAndTheRewindTurnKeepsTheUsersVersion() throws Exception {
    h.workspace.file("a.txt", "original\n");
    String turn = h.turn(List.of("a.txt"), () -> Files.writeString(file("a.txt"), "agent\n"));
    Files.writeString(file("a.txt"), "user\n");
    RewindReport forced = h.force(turn);
    assertEquals(List.of("a.txt"), paths(forced.restored()));
    assertEquals("original\n", h.workspace.readText("a.txt"));
    RewindReport undo = h.rewindTurn(forced.rewindTurn().orElseThrow());
    assertTrue(undo.complete());
    assertEquals(
        "user\n", h.workspace.readText("a.txt"), "the user's work was captured, not destroyed");
  }

  @Test
  void aCreatedFileIsDeletedOnlyIfItStillHoldsWhatTheTurnLeftEvenWithForce() throws Exception {
    String turn = h.turn(List.of("new.txt"), () -> h.workspace.file("new.txt", "agent\n"));
    Files.writeString(file("new.txt"), "agent, then user\n");
    assertEquals("conflict", h.rewindTurn(turn).skipped().getFirst().reason());
    String again = h.turn(List.of("other.txt"), () -> h.workspace.file("other.txt", "agent\n"));
    Files.writeString(file("other.txt"), "user\n");
    assertEquals("conflict", h.force(again).skipped().getFirst().reason());
    assertEquals("agent, then user\n", h.workspace.readText("new.txt"));
    assertEquals("user\n", h.workspace.readText("other.txt"));
  }

  @Test
  void theSameOperationIdReturnsItsReceiptAndWritesNothing() throws Exception {
    h.workspace.file("a.txt", "before\n");
    String turn = h.turn(List.of("a.txt"), () -> Files.writeString(file("a.txt"), "after\n"));
    RewindRequest request = new RewindRequest(turn, false, Optional.of("op-1"), false, false);
    RewindReport first = h.rewind.rewind(request);
    Files.writeString(file("a.txt"), "edited after the rewind\n");
    Map<String, Long> rows = StoreRows.count(h.store);
    Object inode = Files.getAttribute(file("a.txt"), "unix:ino");
    RewindReport again = h.rewind.rewind(request);
    assertTrue(again.replayed());
    assertEquals(first.restored(), again.restored());
    assertEquals(first.rewindTurn(), again.rewindTurn());
    assertEquals("edited after the rewind\n", h.workspace.readText("a.txt"));
    assertEquals(inode, Files.getAttribute(file("a.txt"), "unix:ino"));
    assertEquals(rows, StoreRows.count(h.store));
  }

  @Test
  void anOperationIdOfAnotherRequestIsRefused() throws Exception {
    h.workspace.file("a.txt", "x\n");
    String turn = h.turn(List.of("a.txt"), () -> Files.writeString(file("a.txt"), "y\n"));
    String other = h.turn(List.of("b.txt"), () -> Files.writeString(file("b.txt"), "b\n"));
    h.rewind.rewind(new RewindRequest(turn, false, Optional.of("op-1"), false, false));
    RequestException e =
        assertThrows(
            RequestException.class,
            () ->
                h.rewind.rewind(
                    new RewindRequest(other, false, Optional.of("op-1"), false, false)));
    assertTrue(e.getMessage().contains("op-1"), e.getMessage());
  }

  @Test
  void aDryRunReportsThePlanAndWritesNothing() throws Exception {
    h.workspace.file("a.txt", "1\n").file("b.txt", "b\n");
    String turn =
        h.turn(
            List.of("a.txt", "b.txt", "c.txt"),
            () -> {
              Files.writeString(file("a.txt"), "2\n");
              Files.writeString(file("b.txt"), "agent b\n");
              h.workspace.file("c.txt", "c\n");
            });
    Files.writeString(file("b.txt"), "user b\n");
    Map<String, String> tree = TreeContent.of(h.workspace.root());
    Map<String, Long> rows = StoreRows.count(h.store);
    RewindReport plan = h.dryRun(turn);
    assertTrue(plan.dryRun());
    assertEquals(List.of("a.txt", "c.txt"), paths(plan.restored()));
    assertEquals("conflict", plan.skipped().getFirst().reason());
    assertEquals(Optional.empty(), plan.rewindTurn());
    assertEquals(tree, TreeContent.of(h.workspace.root()));
    assertEquals(rows, StoreRows.count(h.store));
    RewindReport real = h.rewindTurn(turn);
    assertEquals(plan.restored(), real.restored());
    assertEquals(plan.skipped(), real.skipped());
  }

  @Test
  void aRewoundTurnCannotBeRewoundAgainButItsRewindTurnCan() throws Exception {
    h.workspace.file("a.txt", "x\n");
    String turn = h.turn(List.of("a.txt"), () -> Files.writeString(file("a.txt"), "y\n"));
    RewindReport report = h.rewindTurn(turn);
    RequestException e = assertThrows(RequestException.class, () -> h.rewindTurn(turn));
    assertEquals(RequestException.Problem.WRONG_STATE, e.problem());
    assertTrue(e.getMessage().contains(report.rewindTurn().orElseThrow()), e.getMessage());
  }

  @Test
  void anOpenTurnOrAnUnknownTurnIsRefusedBeforeAnyWrite() {
    String open =
        h.capture.beginTurn(h.workspace.root(), Optional.of("session-1"), Optional.empty()).turn();
    Map<String, Long> rows = StoreRows.count(h.store);
    assertEquals(
        RequestException.Problem.WRONG_STATE,
        assertThrows(RequestException.class, () -> h.rewindTurn(open)).problem());
    assertEquals(
        RequestException.Problem.UNKNOWN_TURN,
        assertThrows(RequestException.class, () -> h.rewindTurn("nope")).problem());
    assertEquals(rows, StoreRows.count(h.store));
  }

  @Test
  void aSymlinkTheTurnReplacedComesBackAsTheSameLinkText() throws Exception {
    h.workspace.file("real.txt", "real\n").symlink("link", "real.txt");
    String turn =
        h.turn(
            List.of("link"),
            () -> {
              Files.delete(file("link"));
              Files.writeString(file("link"), "now a file\n");
            });
    RewindReport report = h.rewindTurn(turn);
    assertTrue(report.restored().contains(WorkspacePath.of("link")), report.toString());
    assertEquals(Path.of("real.txt"), Files.readSymbolicLink(file("link")));
    assertEquals("real\n", h.workspace.readText("real.txt"));
  }

  /** Over the size limit of these tests. */
  private static byte[] large(int seed) {
    byte[] content = new byte[2_500_000];
    new Random(seed).nextBytes(content);
    return content;
  }

  @Test
  void aFileTheTurnAddedOverTheSizeLimitIsDeletedOnlyWithForceAndTheUndoBringsItBackByteForByte()
      throws Exception {
    byte[] content = large(1);
    String turn = h.turn(List.of("big.bin"), () -> Files.write(file("big.bin"), content));
    RewindReport plain = h.rewindTurn(turn);
    assertEquals(
        List.of("big.bin"),
        plain.skipped().stream().map(skip -> skip.path().display()).toList(),
        "the turn's after-state was not captured: nothing proves the file still holds what the turn left");
    assertEquals("unverified", plain.skipped().getFirst().reason(), plain.toString());
    assertArrayEquals(content, h.workspace.read("big.bin"), "left as it is");

    RewindReport forced = h.force(turn);
    assertEquals(List.of("big.bin"), paths(forced.restored()), forced.toString());
    assertFalse(Files.exists(file("big.bin")));
    Map<String, Long> rows = StoreRows.count(h.store);
    assertTrue(
        rows.get("content_chunk") >= 3,
        "2.5 MB streamed into the store in chunks before the delete: " + rows);

    RewindReport undone = h.rewindTurn(forced.rewindTurn().orElseThrow());
    assertTrue(undone.complete(), undone.toString());
    assertArrayEquals(
        content, h.workspace.read("big.bin"), "the undo streams it back byte for byte");
  }

  @Test
  void forceOverAUsersFileOverTheSizeLimitStoresItFirstAndTheUndoBringsItBack() throws Exception {
    h.workspace.file("a.txt", "original\n");
    String turn = h.turn(List.of("a.txt"), () -> Files.writeString(file("a.txt"), "agent\n"));
    byte[] users = large(2);
    Files.write(file("a.txt"), users);
    assertEquals("conflict", h.rewindTurn(turn).skipped().getFirst().reason());
    assertArrayEquals(users, h.workspace.read("a.txt"));
    RewindReport forced = h.force(turn);
    assertEquals(List.of("a.txt"), paths(forced.restored()), forced.toString());
    assertEquals("original\n", h.workspace.readText("a.txt"));
    RewindReport undone = h.rewindTurn(forced.rewindTurn().orElseThrow());
    assertTrue(undone.complete(), undone.toString());
    assertArrayEquals(
        users,
        h.workspace.read("a.txt"),
        "the user's 2.5 MB were stored before they were replaced");
  }

  @Test
  void aDryRunPlansWhatTheForcedRunDoesAndStoresNothing() throws Exception {
    String turn = h.turn(List.of("big.bin"), () -> Files.write(file("big.bin"), large(3)));
    Map<String, Long> rows = StoreRows.count(h.store);
    RewindReport plan =
        h.rewind.rewind(new RewindRequest(turn, false, Optional.empty(), true, true));
    assertEquals(List.of("big.bin"), paths(plan.restored()), plan.toString());
    assertEquals(
        rows, StoreRows.count(h.store), "a dry run stores nothing, not even what it would");
    assertTrue(Files.exists(file("big.bin")));
  }

  @Test
  void aBigFileTheRewindLeavesAsItIsIsNotCopiedIntoTheStore() throws Exception {
    String added = h.turn(List.of("big.bin"), () -> Files.write(file("big.bin"), large(4)));
    h.workspace.file("a.txt", "original\n");
    String edited = h.turn(List.of("a.txt"), () -> Files.writeString(file("a.txt"), "agent\n"));
    byte[] users = large(5);
    Files.write(file("a.txt"), users);
    Map<String, Long> rows = StoreRows.count(h.store);
    RewindReport unverified = h.rewindTurn(added);
    assertEquals("unverified", unverified.skipped().getFirst().reason(), unverified.toString());
    RewindReport conflict = h.rewindTurn(edited);
    assertEquals("conflict", conflict.skipped().getFirst().reason(), conflict.toString());
    Map<String, Long> after = StoreRows.count(h.store);
    for (String table : List.of("blob", "chunked_content", "content_chunk")) {
      assertEquals(
          rows.get(table),
          after.get(table),
          table
              + ": the 2.5 MB the rewinds left alone were streamed "
              + "into the store anyway, referenced by nothing: "
              + rows
              + " -> "
              + after);
    }
    assertArrayEquals(users, h.workspace.read("a.txt"));

    RewindReport forced = h.force(edited);
    assertEquals(List.of("a.txt"), paths(forced.restored()), forced.toString());
    assertTrue(
        StoreRows.count(h.store).get("content_chunk") >= 3,
        "what --force replaces is stored first");
    assertTrue(h.rewindTurn(forced.rewindTurn().orElseThrow()).complete());
    assertArrayEquals(users, h.workspace.read("a.txt"), "and its undo brings it back");
  }

  @Test
  void aDeletedFileComesBackWithItsParentsAndMode() throws Exception {
    h.workspace.file("deep/er/tool.sh", "#!/bin/sh\n").mode("deep/er/tool.sh", "rwxr-x---");
    String turn =
        h.turn(
            List.of("deep/er/tool.sh"),
            () -> {
              Files.delete(file("deep/er/tool.sh"));
              Files.delete(file("deep/er"));
              Files.delete(file("deep"));
            });
    h.rewindTurn(turn);
    assertEquals("#!/bin/sh\n", h.workspace.readText("deep/er/tool.sh"));
    assertEquals(
        "rwxr-x---",
        PosixFilePermissions.toString(Files.getPosixFilePermissions(file("deep/er/tool.sh"))));
  }

  @Test
  void aFileEditedWhileTheRewindIsHeldBeforeItsRenameKeepsTheEditAndIsReportedAsAConflict()
      throws Exception {
    h.workspace.file("a.txt", "before a\n").file("b.txt", "before b\n");
    String turn =
        h.turn(
            List.of("a.txt", "b.txt"),
            () -> {
              Files.writeString(file("a.txt"), "after a\n");
              Files.writeString(file("b.txt"), "after b\n");
            });
    CountDownLatch atFirstRename = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    RewindService held =
        new RewindService(
            h.store,
            h.handles,
            point -> {
              if (point == TestHook.Point.BEFORE_REWIND_RENAME && atFirstRename.getCount() == 1) {
                atFirstRename.countDown();
                try {
                  assertTrue(release.await(60, TimeUnit.SECONDS), "released");
                } catch (InterruptedException e) {
                  throw new IllegalStateException(e);
                }
              }
            });
    AtomicReference<Object> outcome = new AtomicReference<>();
    Thread rewinding =
        Thread.ofPlatform()
            .start(
                () -> {
                  try {
                    outcome.set(
                        held.rewind(
                            new RewindRequest(turn, false, Optional.empty(), false, false)));
                  } catch (RuntimeException | Error e) {
                    outcome.set(e);
                  }
                });
    assertTrue(
        atFirstRename.await(60, TimeUnit.SECONDS),
        "the rewind staged both files and stopped at a.txt");
    Files.writeString(file("a.txt"), "after a, then the user's edit\n");
    release.countDown();
    rewinding.join(TimeUnit.SECONDS.toMillis(60));
    assertFalse(rewinding.isAlive());
    RewindReport report = assertInstanceOf(RewindReport.class, outcome.get());
    assertEquals(List.of("b.txt"), paths(report.restored()), report.toString());
    assertEquals(
        List.of(
            new RewindReport.Skipped(
                WorkspacePath.of("a.txt"), "conflict", "it changed while the rewind ran")),
        report.skipped());
    assertEquals(
        "after a, then the user's edit\n",
        h.workspace.readText("a.txt"),
        "the edit is never overwritten");
    assertEquals("before b\n", h.workspace.readText("b.txt"));
    try (Stream<Path> files = Files.list(h.workspace.root())) {
      assertEquals(
          List.of(),
          files.filter(p -> p.getFileName().toString().startsWith(".turndiff-")).toList(),
          "the staged file of the path left is removed");
    }
  }
}
