package io.turndiff.rewind;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.turndiff.fixtures.TestStore;
import io.turndiff.model.Sha256;
import io.turndiff.model.TestHook;
import io.turndiff.store.StoredRewindEntry;
import io.turndiff.store.StoredRewindOperation;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A rewind's run takes the stored contents its plan loaded as they are, by hash, and loads only the
 * others from the store: the same contents loaded twice were a thirtieth of a rewind. Checked on
 * the journal's loading, and through the service (its plan's checked contents handed to a plan made
 * again and to its run).
 */
class ContentsLoadedOnceTest extends HarnessTest {

  @Test
  void theRunLoadsOnlyTheContentsItsDryRunDidNotLoad() throws Exception {
    h.workspace.file("a.txt", "a before\n").file("b.txt", "b before\n");
    String turn =
        h.turn(
            List.of("a.txt", "b.txt"),
            () -> {
              Files.writeString(file("a.txt"), "a after\n");
              Files.writeString(file("b.txt"), "b after\n");
            });
    RewindReport report =
        h.rewind.rewind(new RewindRequest(turn, false, Optional.empty(), false, false));
    h.rewind.makeDurable(report);
    StoredRewindOperation operation =
        h.store.read(tx -> tx.rewinds().byExternalId(report.operation())).orElseThrow();
    List<StoredRewindEntry> entries = h.store.read(tx -> tx.rewinds().entries(operation.id()));
    Sha256 aBefore = target(entries, "a.txt");
    Sha256 bBefore = target(entries, "b.txt");
    // not a.txt's stored bytes: the ones handed over are the ones the run gets (the dry run's are
    // the store's, by the same hash)
    byte[] loadedByTheDryRun = "as the dry run loaded it".getBytes(StandardCharsets.UTF_8);

    Map<Sha256, byte[]> contents =
        new RewindJournal(h.store, TestHook.NONE, turnRow -> {})
            .contents(entries, Map.of(aBefore, loadedByTheDryRun))
            .sound();

    assertSame(loadedByTheDryRun, contents.get(aBefore));
    assertEquals("b before\n", new String(contents.get(bBefore), StandardCharsets.UTF_8));
  }

  /**
   * The service hands the contents its plan loaded and checked to its run, and a plan made again
   * (the store was written since the dry run) takes them as they are: a target's row changed after
   * the dry run (through a plain connection, which the store sees as a write) is not loaded again,
   * and the file gets the bytes the plan checked. Without either hand-over the changed row is
   * loaded and checked, and the path is left as {@code damaged}.
   */
  @Test
  void theRunWritesTheContentsItsPlanChecked() throws Exception {
    assumeFalse(TestStore.onPostgres(), "the row is replaced in the SQLite file");
    h.workspace.file("a.txt", "a before\n");
    String turn = h.turn(List.of("a.txt"), () -> Files.writeString(file("a.txt"), "a after\n"));
    Sha256 aBefore = Sha256.of("a before\n".getBytes(StandardCharsets.UTF_8));
    RewindService rewind =
        new RewindService(
            h.store,
            h.handles,
            point -> {
              if (point == TestHook.Point.REWIND_DRY_RUN_DONE) {
                StoredRow.replaceBytes(temp, aBefore, "not what was stored\n");
              }
            });

    RewindReport report =
        rewind.rewind(new RewindRequest(turn, false, Optional.empty(), false, false));
    rewind.makeDurable(report);

    assertEquals(List.of("a.txt"), paths(report.restored()), report.toString());
    assertEquals("a before\n", Files.readString(file("a.txt")));
  }

  private static Sha256 target(List<StoredRewindEntry> entries, String path) {
    return entries.stream()
        .filter(entry -> entry.path().display().equals(path))
        .findFirst()
        .orElseThrow()
        .target()
        .storedContent()
        .orElseThrow();
  }
}
