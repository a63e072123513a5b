package io.turndiff.capture.track;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.boundary.Observation;
import io.turndiff.boundary.ScannedEntry;
import io.turndiff.boundary.WorkspaceBoundary;
import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.model.FileType;
import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.Store;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The content reader, over a real store and real files, on either side of one thread's share of
 * paths: a turn's few files read on the caller's thread, more on a pool.
 */
class ContentReaderTest {

  /**
   * The workspace the reads are of: no row names it, and none needs to, since fewer files than a
   * dictionary is trained on are read (BaselineDictionaryTest tracks a tree that trains one).
   */
  private static final long WORKSPACE = 1;

  @TempDir Path temp;

  private TestWorkspace workspace;
  private Store store;
  private WorkspaceBoundary boundary;

  @BeforeEach
  void open() {
    workspace = TestWorkspace.in(temp);
    store = TestStore.freshIn(temp);
    boundary = WorkspaceBoundary.open(workspace.root());
  }

  @AfterEach
  void canary() {
    boundary.close();
    workspace.assertOutsideUnchanged();
    workspace.canary().assertNotInStore(store);
    store.close();
  }

  /** Few paths and many: every one read, each with what its file holds. */
  @ParameterizedTest
  @ValueSource(ints = {3, 200})
  void everyPathIsReadWithItsContent(int files) {
    List<ScannedEntry> entries = files(files);

    Map<WorkspacePath, Observation> read =
        new ContentReader(store)
            .read(WORKSPACE, boundary, entries, Map.of(), true, true, Tracker.Progress.NONE)
            .observations();

    assertEquals(files, read.size());
    for (int i = 0; i < files; i++) {
      Observation observation = read.get(WorkspacePath.of("f" + i + ".txt"));
      assertTrue(
          observation.snapshot() instanceof Snapshot.RegularFile,
          observation.snapshot().toString());
      assertEquals(
          "file " + i + "\n",
          new String(observation.content().orElseThrow(), StandardCharsets.UTF_8),
          "f" + i);
    }
  }

  /**
   * Every full batch of contents (256) is stored as it is read and named among the stored; the last
   * batch's are returned unstored, for the transaction that writes the index to store (a hook's few
   * files are all in it): each content is in exactly one of the two places. 256 files leave no last
   * batch.
   */
  @ParameterizedTest
  @ValueSource(ints = {3, 256, 300})
  void fullBatchesAreStoredAndTheLastIsReturned(int files) {
    List<ScannedEntry> entries = files(files);

    ContentReader.Reading reading =
        new ContentReader(store)
            .read(WORKSPACE, boundary, entries, Map.of(), true, true, Tracker.Progress.NONE);

    int storedInBatches = files / 256 * 256;
    assertEquals(files - storedInBatches, reading.unstored().size());
    Set<Sha256> returned = new HashSet<>();
    reading.unstored().forEach(blob -> returned.add(blob.sha256()));
    int inStore = 0;
    for (Observation observation : reading.observations().values()) {
      Sha256 content = observation.snapshot().storedContent().orElseThrow();
      boolean stored = store.read(tx -> tx.blobs().contains(content));
      String path = observation.snapshot().path().toString();
      assertNotEquals(stored, returned.contains(content), path);
      assertEquals(stored, reading.stored().contains(content), path);
      inStore += stored ? 1 : 0;
    }
    assertEquals(storedInBatches, inStore);
  }

  /**
   * A caller interrupted (a service stopping) gets no observations, on either side: read on its own
   * thread, a read could fail for the interrupt alone and be recorded as a file that could not be
   * read; the pool's wait ended on it. The interrupt is kept for the caller.
   */
  @ParameterizedTest
  @ValueSource(ints = {3, 200})
  void anInterruptedCallerGetsNoObservations(int files) {
    List<ScannedEntry> entries = files(files);
    ContentReader reader = new ContentReader(store);

    Thread.currentThread().interrupt();
    try {
      IllegalStateException refused =
          assertThrows(
              IllegalStateException.class,
              () ->
                  reader.read(
                      WORKSPACE, boundary, entries, Map.of(), true, true, Tracker.Progress.NONE));
      assertTrue(refused.getMessage().contains("interrupted"), refused.getMessage());
      assertTrue(Thread.currentThread().isInterrupted(), "the interrupt was swallowed");
    } finally {
      Thread.interrupted();
    }
  }

  /** {@code count} files, f0.txt …, as a scan lists them (the reader goes by their paths). */
  private List<ScannedEntry> files(int count) {
    List<ScannedEntry> entries = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      workspace.file("f" + i + ".txt", "file " + i + "\n");
      entries.add(
          new ScannedEntry(
              WorkspacePath.of("f" + i + ".txt"),
              FileType.REGULAR,
              0,
              0,
              0,
              0,
              0644,
              1,
              Optional.empty(),
              false));
    }
    return entries;
  }
}
