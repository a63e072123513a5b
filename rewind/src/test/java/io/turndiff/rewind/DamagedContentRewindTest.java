package io.turndiff.rewind;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.turndiff.fixtures.StoreRows;
import io.turndiff.fixtures.TestStore;
import io.turndiff.model.PathInput;
import io.turndiff.model.RewindStatus;
import io.turndiff.model.Sha256;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.StoreException;
import io.turndiff.store.StoredRewindEntry;
import io.turndiff.store.StoredRewindOperation;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A rewind writes a stored content into the workspace only as the bytes that were captured: a path
 * whose stored content reads back as other bytes (its row changed on disk, here through a plain
 * connection to the store's file) is left as it is and named {@code damaged} in the dry run and in
 * the report, while the turn's other paths are put back. Before the check the changed bytes were
 * written into the file and the path reported restored.
 */
class DamagedContentRewindTest extends HarnessTest {

  private String turn;

  @BeforeEach
  void aTurnThatEditsTwoFiles() throws Exception {
    assumeFalse(TestStore.onPostgres(), "the row is replaced in the SQLite file");
    h.workspace.file("a.txt", "a before\n").file("b.txt", "b before\n");
    turn =
        h.turn(
            List.of("a.txt", "b.txt"),
            () -> {
              Files.writeString(file("a.txt"), "a after\n");
              Files.writeString(file("b.txt"), "b after\n");
            });
  }

  @Test
  void aPathWhoseBeforeStateReadsBackWrongIsLeftAndTheOthersArePutBack() throws Exception {
    Sha256 aBefore = sha("a before\n");
    replaceStoredBytes(aBefore, "not what was captured\n");
    String detail =
        "its before-state's stored content "
            + aBefore
            + " reads back as "
            + sha("not what was captured\n")
            + ": the store is damaged; the file is left as it is";

    RewindReport dryRun =
        h.rewind.rewind(new RewindRequest(turn, false, Optional.empty(), true, false));
    assertEquals(List.of("b.txt"), paths(dryRun.restored()));
    assertEquals(List.of(skipped("a.txt", detail)), dryRun.skipped());

    RewindReport report =
        h.rewind.rewind(new RewindRequest(turn, false, Optional.empty(), false, false));
    h.rewind.makeDurable(report);

    assertEquals(List.of("b.txt"), paths(report.restored()));
    assertEquals(List.of(skipped("a.txt", detail)), report.skipped());
    assertEquals("a after\n", Files.readString(file("a.txt")), "what the turn left");
    assertEquals("b before\n", Files.readString(file("b.txt")));
    assertEquals(
        List.of("a.txt", "b.txt"),
        List.copyOf(new TreeMap<>(tree()).keySet()),
        "no temporary file");
    assertEquals(
        Map.of("a.txt", RewindStatus.SKIPPED, "b.txt", RewindStatus.RESTORED),
        journaled(report.operation()),
        "the journal leaves a.txt as the report does");
  }

  @Test
  void aPathWhoseAfterStateReadsBackWrongIsLeftToo() throws Exception {
    Sha256 aAfter = sha("a after\n");
    replaceStoredBytes(aAfter, "changed on disk\n");

    RewindReport report =
        h.rewind.rewind(new RewindRequest(turn, false, Optional.empty(), false, false));
    h.rewind.makeDurable(report);

    assertEquals(List.of("b.txt"), paths(report.restored()));
    assertEquals(
        List.of(
            skipped(
                "a.txt",
                "the stored content of the state the turns left "
                    + aAfter
                    + " reads back as "
                    + sha("changed on disk\n")
                    + ": the store is damaged; the file is left as it is")),
        report.skipped());
    assertEquals("a after\n", Files.readString(file("a.txt")));
  }

  /**
   * A run stopped after its plan was stored and before its first write (its caller gone when told
   * the operation's id) is resumed with no contents at hand: the resumed run loads them, checks
   * them, and leaves the planned path whose content reads back wrong, journaled as the plan would
   * have left it; the other goes back.
   */
  @Test
  void aResumedRunLeavesAPlannedPathWhoseContentReadsBackWrong() throws Exception {
    RewindRequest request = new RewindRequest(turn, false, Optional.empty(), false, false);
    assertThrows(
        IllegalStateException.class,
        () ->
            h.rewind.rewind(
                request,
                (operation, resumed) -> {
                  throw new IllegalStateException("the caller is gone");
                }));
    assertEquals("b after\n", Files.readString(file("b.txt")), "nothing written yet");

    RewindReport resumed = resumedWithBsRowChanged(request);

    assertEquals(
        Map.of("a.txt", RewindStatus.RESTORED, "b.txt", RewindStatus.SKIPPED),
        journaled(resumed.operation()));
  }

  /**
   * A run that failed between its renames left a path staged and journaled as started: resumed, a
   * path whose content now reads back wrong is left (it had not landed), its staged file removed.
   */
  @Test
  void aResumedRunLeavesAStartedPathWhoseContentReadsBackWrong() throws Exception {
    RewindRequest request = new RewindRequest(turn, false, Optional.empty(), false, false);
    String operation = h.interruptedRewind(request, 2);
    assertEquals("a before\n", Files.readString(file("a.txt")), "the first rename landed");

    RewindReport resumed = resumedWithBsRowChanged(request);

    assertEquals(operation, resumed.operation());
    assertEquals(
        List.of("a.txt", "b.txt"),
        List.copyOf(new TreeMap<>(tree()).keySet()),
        "no temporary file");
  }

  /**
   * Changes b.txt's stored before-state, resumes the interrupted {@code request}: a.txt goes back,
   * b.txt is left as {@code damaged} and keeps what the turn left.
   */
  private RewindReport resumedWithBsRowChanged(RewindRequest request) throws Exception {
    replaceStoredBytes(sha("b before\n"), "changed on disk\n");
    RewindReport resumed = h.rewind.rewind(request);
    h.rewind.makeDurable(resumed);
    assertEquals(List.of("a.txt"), paths(resumed.restored()));
    assertEquals(
        List.of(skipped("b.txt", beforeReadsBackAs("b before\n", "changed on disk\n"))),
        resumed.skipped());
    assertEquals("b after\n", Files.readString(file("b.txt")));
    return resumed;
  }

  private static String beforeReadsBackAs(String captured, String onDisk) {
    return "its before-state's stored content "
        + sha(captured)
        + " reads back as "
        + sha(onDisk)
        + ": the store is damaged; the file is left as it is";
  }

  /**
   * A hunk's target is made from the file's two stored states: when the before-state reads back
   * wrong, the hunk rewind fails as a whole, naming it, and writes nothing (a target made from
   * other bytes would put them into the file).
   */
  @Test
  void aHunkOfAFileWhoseBeforeStateReadsBackWrongIsRefusedAndNothingIsWritten() throws Exception {
    Sha256 aBefore = sha("a before\n");
    replaceStoredBytes(aBefore, "other lines\nof other bytes\n");
    Map<String, Long> rows = StoreRows.count(h.store);

    StoreException refused =
        assertThrows(
            StoreException.class,
            () ->
                h.rewind.rewind(
                    RewindRequest.ofHunk(
                        turn, Optional.empty(), false, PathInput.text("a.txt"), 1)));

    assertTrue(refused.getMessage().contains(aBefore + " reads back as "), refused.getMessage());
    assertEquals("a after\n", Files.readString(file("a.txt")));
    assertEquals(rows, StoreRows.count(h.store), "nothing stored");
  }

  /**
   * A content stored in chunks (over 2 MiB) is never loaded whole to be checked at the plan: its
   * stream checks it as the file is written. A chunk changed on disk fails that write; the staged
   * file is removed and the path is left, refused with both hashes, while the other path goes back.
   * (The stream's check is older than the plan's: this pins the other half of the rule, it does not
   * fail without the plan's check.)
   */
  @Test
  void aChunkThatReadsBackWrongFailsItsWriteAndLeavesThePath() throws Exception {
    byte[] big = "a line of the big file before the turn\n".repeat(80_000).getBytes(UTF_8);
    h.workspace.file("big.txt", new String(big, UTF_8)).file("c.txt", "c before\n");
    String bigTurn =
        h.turn(
            List.of("big.txt", "c.txt"),
            () -> {
              Files.writeString(file("big.txt"), "the turn replaced it\n");
              Files.writeString(file("c.txt"), "c after\n");
            });
    Sha256 bigBefore = Sha256.of(big);
    StoredRow.replaceFirstChunk(temp, bigBefore);

    RewindReport report =
        h.rewind.rewind(new RewindRequest(bigTurn, false, Optional.empty(), false, false));
    h.rewind.makeDurable(report);

    assertEquals(List.of("c.txt"), paths(report.restored()));
    RewindReport.Skipped left = report.skipped().getFirst();
    assertEquals("big.txt", left.path().display(), report.skipped().toString());
    assertEquals(SkipReason.REFUSED, left.reason());
    assertTrue(
        left.detail().contains("stored content " + bigBefore + " reads back as "), left.detail());
    assertEquals("the turn replaced it\n", Files.readString(file("big.txt")));
    assertEquals("c before\n", Files.readString(file("c.txt")));
    assertEquals(
        List.of("a.txt", "b.txt", "big.txt", "c.txt"),
        List.copyOf(new TreeMap<>(tree()).keySet()),
        "the staged file is removed");
  }

  private static RewindReport.Skipped skipped(String path, String detail) {
    return new RewindReport.Skipped(WorkspacePath.of(path), SkipReason.DAMAGED, detail);
  }

  private Map<String, RewindStatus> journaled(String operationId) {
    StoredRewindOperation operation =
        h.store.read(tx -> tx.rewinds().byExternalId(operationId)).orElseThrow();
    Map<String, RewindStatus> statuses = new TreeMap<>();
    h.store
        .read(tx -> tx.rewinds().entries(operation.id()))
        .forEach((StoredRewindEntry entry) -> statuses.put(entry.path().display(), entry.status()));
    return statuses;
  }

  private static Sha256 sha(String content) {
    return Sha256.of(content.getBytes(StandardCharsets.UTF_8));
  }

  private void replaceStoredBytes(Sha256 content, String other) {
    StoredRow.replaceBytes(temp, content, other);
  }
}
