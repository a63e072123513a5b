package io.turndiff.capture.track;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.capture.CaptureService;
import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.model.FileType;
import io.turndiff.model.IndexEntry;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.Store;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The index held as columns ({@link IndexColumns}) gives back what the store holds, over a real
 * tracked tree with every shape an entry takes: regular files (empty, executable, with a name of
 * bytes above ASCII), a symbolic link (kept whole beside the columns), a FIFO (metadata only), a
 * hardlinked pair, an ignored file kept by its hash alone, and names that sort around a directory's
 * run ({@code a-b}, {@code a0}, {@code a.txt} beside {@code a/}).
 */
class IndexColumnsTest {

  @TempDir Path temp;

  private TestWorkspace workspace;
  private Store store;
  private CaptureService capture;
  private Map<WorkspacePath, IndexEntry> stored;
  private List<IndexEntry> sorted;
  private IndexColumns columns;

  @BeforeEach
  void track() throws Exception {
    workspace = TestWorkspace.in(temp);
    store = TestStore.freshIn(temp);
    capture = new CaptureService(store, BoundaryOptions.defaults());
    workspace
        .file(".gitignore", "*.log\n")
        .file("a.txt", "a\n")
        .file("a-b/x.txt", "x\n")
        .file("a0", "zero\n")
        .file("a/b/c.txt", "c\n")
        .file("a/\u00e9t\u00e9.txt", "summer\n")
        .file("a/empty", "")
        .file("a/run.sh", "#!/bin/sh\n")
        .mode("a/run.sh", "rwxr-xr-x")
        .file("a/debug.log", "ignored: its hash is kept, not its content\n")
        .symlink("a/link", "b/c.txt")
        .fifo("a/pipe");
    workspace.hardlink("a/b/twin.txt", workspace.resolve("a.txt"));
    capture
        .tracker()
        .track(workspace.root(), TrackingOptions.DEFAULTS.withIgnoredFiles(IgnoredFiles.METADATA));
    String root = workspace.root().toRealPath().toString();
    stored =
        store.read(tx -> tx.indexes().entries(tx.workspaces().byRealRoot(root).orElseThrow().id()));
    sorted = stored.values().stream().sorted((x, y) -> x.path().compareTo(y.path())).toList();
    columns = IndexColumns.of(stored.values());
  }

  @AfterEach
  void canary() {
    capture.close();
    workspace.assertNothingLeakedThenClose(store);
  }

  @Test
  void theTreeHasEveryShapeOfEntry() {
    assertTrue(has(entry -> entry.linkTarget().isPresent()), "a symbolic link: " + stored);
    assertTrue(has(entry -> entry.type() == FileType.FIFO), "a FIFO: " + stored);
    assertTrue(
        has(
            entry ->
                entry.reason().isPresent()
                    && entry.sha256().isPresent()
                    && entry.storedContent().isEmpty()),
        "an ignored file kept by its hash: " + stored);
    assertTrue(
        has(entry -> entry.storedContent().isPresent() && entry.stat().nlink() == 1),
        "a stored file: " + stored);
    assertEquals(2, stored.values().stream().filter(entry -> entry.stat().nlink() > 1).count());
  }

  @Test
  void everyEntryComesBackEqualByItsNumberAndByItsPath() {
    assertEquals(sorted.size(), columns.size());
    for (int number = 0; number < sorted.size(); number++) {
      IndexEntry entry = sorted.get(number);
      assertEquals(entry, columns.entry(number), "entry " + number);
      assertEquals(entry, columns.entry(number, entry.path()), "entry " + number);
      assertEquals(entry.path(), columns.path(number));
      assertEquals(entry.stat(), columns.stat(number));
      assertEquals(number, columns.numberOf(entry.path()), entry.path().display());
      assertEquals(IndexCache.Index.regularBytes(entry), columns.regularBytes(number));
    }
    for (String absent : List.of("a", "a/b", "a/b/c.tx", "a/b/c.txt/d", "b", "zz", "a-b/x")) {
      assertEquals(-1, columns.numberOf(WorkspacePath.of(absent)), absent);
    }
    assertEquals(
        -1,
        columns.numberOf(WorkspacePath.outside("/a.txt".getBytes(StandardCharsets.UTF_8))),
        "outside");
  }

  @Test
  void theRunUnderADirectoryIsEveryEntryWithinIt() {
    for (String directory : List.of("a", "a/b", "a-b", "a.txt", "a0", "b", "a/b/c.txt")) {
      WorkspacePath at = WorkspacePath.of(directory);
      IndexColumns.Run run = columns.under(at);
      List<Integer> within =
          IntStream.range(0, sorted.size())
              .filter(i -> sorted.get(i).path().isWithin(at) && !sorted.get(i).path().equals(at))
              .boxed()
              .toList();
      assertEquals(within, IntStream.range(run.from(), run.to()).boxed().toList(), directory);
    }
  }

  @Test
  void theHardlinkedAndTheBytesAreTheEntries() {
    assertArrayEquals(
        IntStream.range(0, sorted.size()).filter(i -> sorted.get(i).stat().nlink() > 1).toArray(),
        columns.hardlinked());
    assertEquals(
        sorted.stream().mapToLong(IndexCache.Index::regularBytes).sum(), columns.regularBytes());
  }

  @Test
  void anIndexOverTheColumnsFindsWhatItsOverlayWroteAndNotWhatItRemoved() {
    IndexCache.Index index =
        IndexCache.Index.of(1, 0, false, stored.values(), Optional.of(DirectoryModes.of(Map.of())));
    WorkspacePath removed = WorkspacePath.of("a/b/c.txt");
    IndexEntry replaced = stored.get(WorkspacePath.of("a0"));
    IndexEntry added =
        new IndexEntry(
            WorkspacePath.of("a/b/new.txt"),
            replaced.stat(),
            replaced.linkTarget(),
            replaced.sha256(),
            replaced.storedContent(),
            replaced.reason());
    IndexCache.Index next =
        index.advanced(
            2,
            0,
            false,
            List.of(added, replaced),
            List.of(removed),
            Optional.of(DirectoryModes.of(Map.of())));
    assertNull(next.slot(removed));
    assertEquals(added, next.slot(added.path()).entry());
    assertEquals(sorted.size(), next.numbers() - 1, "the added path numbered after the base");
    assertEquals(sorted.size(), next.size(), "one added, one removed");
    List<WorkspacePath> underB = new ArrayList<>();
    next.within(WorkspacePath.of("a/b")).forEach(entry -> underB.add(entry.path()));
    assertEquals(
        List.of(WorkspacePath.of("a/b/twin.txt"), added.path()),
        underB,
        "the base's run less what was removed, then the overlay");
    assertTrue(next.holdsWithin(WorkspacePath.of("a/b")));
    assertEquals(index.regularBytes() - 2 + replaced.stat().size(), next.regularBytes());
    assertEquals(2, next.hardlinked().size());
  }

  private boolean has(Predicate<IndexEntry> shape) {
    return stored.values().stream().anyMatch(shape);
  }
}
