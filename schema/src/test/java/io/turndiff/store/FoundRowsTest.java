package io.turndiff.store;

import static io.turndiff.store.CapturedFiles.file;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.turndiff.model.ChangeKind;
import io.turndiff.model.DetectedBy;
import io.turndiff.model.MadeDuring;
import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import io.turndiff.model.WorkspacePath;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The changes a scan found, each recorded whole in one row ({@link FileChanges#recordFound}), in
 * both dialects and around the multi-row statement's bound (1, 64 and 65 changes): each row its own
 * key, before- and after-state, kind, diff or pending diff, what it was made during and git's
 * verdict, read back from a store opened again as a change recorded and then completed reads.
 */
class FoundRowsTest {

  /** What a change a scan found can be made during (a named change is a tool call's). */
  private static final List<MadeDuring> SCAN_DURING =
      List.of(MadeDuring.CALLS, MadeDuring.OUTSIDE, MadeDuring.UNKNOWN);

  @TempDir Path temp;

  @ParameterizedTest
  @CsvSource({
    "sqlite, 1",
    "sqlite, 64",
    "sqlite, 65",
    "postgres, 1",
    "postgres, 64",
    "postgres, 65"
  })
  void eachFoundChangeLandsWholeOnItsOwnRow(String dialect, int changes) {
    StoreAddress address = DialectStores.fresh(dialect, temp);
    byte[] diff = "--- a\n+++ b\n".getBytes(StandardCharsets.UTF_8);
    List<FileChanges.Found> found = new ArrayList<>();
    long turn;
    long[] rows;
    try (Store store = Store.open(address)) {
      turn = DialectStores.agentTurn(store);
      rows =
          store.write(
              tx -> {
                Sha256 diffSha = tx.blobs().put(diff);
                for (int i = 0; i < changes; i++) {
                  Snapshot before = file("p" + i, content(i, "before"));
                  Snapshot after = file("p" + i, content(i, "after"));
                  tx.blobs().put(content(i, "before"));
                  tx.blobs().put(content(i, "after"));
                  long[] snapshots = tx.snapshots().insertAll(List.of(before, after));
                  boolean pending = i % 2 == 0;
                  found.add(
                      new FileChanges.Found(
                          turn,
                          WorkspacePath.of("p" + i),
                          snapshots[0],
                          snapshots[1],
                          ChangeKind.MODIFIED,
                          i,
                          1,
                          pending ? Optional.empty() : Optional.of(diffSha),
                          pending,
                          SCAN_DURING.get((i + 1) % SCAN_DURING.size()),
                          i % 3 == 0));
                }
                return tx.fileChanges().recordFound(found);
              });
    }

    try (Store store = Store.open(address)) {
      Map<Long, StoredFileChange> byRow =
          store.read(tx -> tx.fileChanges().ofTurn(turn)).stream()
              .collect(Collectors.toMap(StoredFileChange::id, Function.identity()));
      assertEquals(changes, byRow.size());
      for (int i = 0; i < changes; i++) {
        FileChanges.Found expected = found.get(i);
        StoredFileChange row = byRow.get(rows[i]);
        String what = "p" + i;
        assertEquals(expected.path(), row.path(), what);
        assertEquals(DetectedBy.SCAN, row.detectedBy(), what);
        assertEquals(expected.madeDuring(), row.madeDuring(), what);
        assertEquals(Optional.empty(), row.via(), what);
        assertEquals(expected.beforeSnapshotId(), row.beforeRow(), what);
        assertEquals(Optional.of(expected.afterSnapshotId()), row.afterRow(), what);
        assertEquals(
            Optional.of(Sha256.of(content(i, "after"))),
            row.after().orElseThrow().storedContent(),
            what);
        assertEquals(Optional.of(ChangeKind.MODIFIED), row.change(), what);
        assertEquals(expected.diffPending(), row.diffPending(), what);
        assertEquals(expected.diffPending() ? Optional.empty() : expected.diff(), row.diff(), what);
        assertEquals(expected.diffPending() ? 0 : i, row.linesAdded(), what);
        assertEquals(expected.diffPending() ? 0 : 1, row.linesRemoved(), what);
        assertEquals(expected.ignoredByGit(), row.ignoredByGit(), what);
      }
      int pending = (changes + 1) / 2;
      assertEquals(
          pending,
          store.read(tx -> tx.fileChanges().diffPendingOfTurn(turn)).size(),
          "the pending diffs, found by their index");
    }
  }

  private static byte[] content(int i, String state) {
    return ("file " + i + " " + state + " the scan\n").getBytes(StandardCharsets.UTF_8);
  }
}
