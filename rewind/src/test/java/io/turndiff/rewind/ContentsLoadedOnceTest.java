package io.turndiff.rewind;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

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
 * others from the store: the same contents loaded twice were a thirtieth of a rewind. The service
 * hands the stored plan's contents to its run; a row changed between its dry run and its run makes
 * it plan again, which checks them again ({@link DamagedContentRewindTest}).
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
            .contents(entries, Map.of(aBefore, loadedByTheDryRun));

    assertSame(loadedByTheDryRun, contents.get(aBefore));
    assertEquals("b before\n", new String(contents.get(bBefore), StandardCharsets.UTF_8));
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
