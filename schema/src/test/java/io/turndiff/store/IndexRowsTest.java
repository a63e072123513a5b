package io.turndiff.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.model.FileType;
import io.turndiff.model.IndexEntry;
import io.turndiff.model.LinkTarget;
import io.turndiff.model.Reason;
import io.turndiff.model.Sha256;
import io.turndiff.model.StatProof;
import io.turndiff.model.WorkspacePath;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The index a scan writes, as multi-row upserts of 64 rows, in both dialects and around the
 * statement's bound (1, 63, 64, 65 and 129 entries): every kind of entry (a stored content, a hash
 * whose content is not stored, a link, one kept with metadata only), written again with each field
 * changed, beside new entries, removals and the subtrees left out; each write read back from a
 * store opened again, as the next scan reads it.
 */
class IndexRowsTest {

  @TempDir Path temp;

  @ParameterizedTest
  @CsvSource({
    "sqlite, 1", "sqlite, 63", "sqlite, 64", "sqlite, 65", "sqlite, 129",
    "postgres, 1", "postgres, 63", "postgres, 64", "postgres, 65", "postgres, 129"
  })
  void anIndexWrittenAgainHoldsEachEntryAsTheLastWriteGaveIt(String dialect, int entries) {
    StoreAddress address = DialectStores.fresh(dialect, temp);
    Map<WorkspacePath, IndexEntry> expected = new HashMap<>();
    List<IndexEntry> first = new ArrayList<>();
    for (int i = 0; i < entries; i++) {
      first.add(entry(i, 0));
    }
    long workspace;
    try (Store store = Store.open(address)) {
      workspace =
          store.write(
              tx -> {
                long id = tx.workspaces().register("/w", "/w", 1, 2).id();
                first.forEach(entry -> storeContent(tx, entry));
                tx.indexes()
                    .write(id, 10, false, 1000, 1 << 20, first, List.of(), Optional.of(List.of()));
                tx.indexDirectories().write(id, Map.of(), List.of());
                return id;
              });
    }
    first.forEach(entry -> expected.put(entry.path(), entry));
    assertEquals(expected, entriesIn(address, workspace), "the first write");

    // the second write: every other entry written again with each field changed (and its kind:
    // a content becomes a link, a link a hash not stored...), as many new ones, one entry gone,
    // the same path given twice (the last wins), a subtree left out
    List<IndexEntry> second = new ArrayList<>();
    for (int i = 0; i < entries; i += 2) {
      second.add(entry(i + 1, 1));
    }
    for (int i = entries; i < 2 * entries; i++) {
      second.add(entry(i, 0));
    }
    second.add(entry(entries, 2));
    List<WorkspacePath> removed = List.of(pathOf(0));
    List<WorkspacePath> leftOut = List.of(WorkspacePath.of("vendor"), WorkspacePath.of("big"));
    try (Store store = Store.open(address)) {
      store.write(
          tx -> {
            second.forEach(entry -> storeContent(tx, entry));
            tx.indexes()
                .write(workspace, 20, true, 1000, 1 << 20, second, removed, Optional.of(leftOut));
            return null;
          });
    }
    second.forEach(entry -> expected.put(entry.path(), entry));
    removed.forEach(expected::remove);
    try (Store store = Store.open(address)) {
      assertEquals(expected, store.read(tx -> tx.indexes().entries(workspace)), "the second");
      assertEquals(
          List.copyOf(leftOut).stream().sorted().toList(),
          store.read(tx -> tx.indexes().leftOut(workspace)).stream().sorted().toList());
      TrackedWorkspace header = store.read(tx -> tx.indexes().tracked(workspace)).orElseThrow();
      assertEquals(2, header.version());
      assertTrue(header.partial());
      boolean directoriesKnown = store.read(tx -> tx.indexDirectories().known(workspace));
      assertTrue(directoriesKnown, "the directories marked indexed");
    }
  }

  private static Map<WorkspacePath, IndexEntry> entriesIn(StoreAddress address, long workspace) {
    try (Store store = Store.open(address)) {
      return store.read(tx -> tx.indexes().entries(workspace));
    }
  }

  private static WorkspacePath pathOf(int i) {
    return WorkspacePath.of("src/f" + i + ".txt");
  }

  /** The entry of the path {@code i} in the write {@code write}: its kind turns with both. */
  private static IndexEntry entry(int i, int write) {
    WorkspacePath path = pathOf(i);
    StatProof stat =
        new StatProof(
            (i + write) % 4 == 2 ? FileType.SYMLINK : FileType.REGULAR,
            100 + i + write,
            1_000_000L * i + write,
            2_000_000L * i + write,
            5000 + i,
            (i + write) % 3 == 0 ? 0755 : 0644,
            1 + write);
    Sha256 hash = Sha256.of(content(i, write));
    return switch ((i + write) % 4) {
      case 0 ->
          new IndexEntry(
              path, stat, Optional.empty(), Optional.of(hash), Optional.of(hash), Optional.empty());
      case 1 ->
          new IndexEntry(
              path, stat, Optional.empty(), Optional.of(hash), Optional.empty(), Optional.empty());
      case 2 ->
          new IndexEntry(
              path,
              stat,
              Optional.of(
                  LinkTarget.of(("../t" + i + "-" + write).getBytes(StandardCharsets.UTF_8))),
              Optional.empty(),
              Optional.empty(),
              Optional.empty());
      default ->
          new IndexEntry(
              path,
              stat,
              Optional.empty(),
              Optional.empty(),
              Optional.empty(),
              Optional.of(Reason.TOO_LARGE));
    };
  }

  private static byte[] content(int i, int write) {
    return ("file " + i + " as write " + write + " found it\n").getBytes(StandardCharsets.UTF_8);
  }

  /** An entry's stored content is stored before the index refers to it. */
  private static void storeContent(StoreTransaction tx, IndexEntry entry) {
    entry.storedContent().ifPresent(sha -> tx.blobs().put(sha, contentOf(entry.path(), sha)));
  }

  private static byte[] contentOf(WorkspacePath path, Sha256 sha) {
    int i = Integer.parseInt(path.toString().replaceAll("\\D", ""));
    for (int write = 0; write < 3; write++) {
      if (Sha256.of(content(i, write)).equals(sha)) {
        return content(i, write);
      }
    }
    throw new IllegalArgumentException(path + ": no content " + sha);
  }
}
