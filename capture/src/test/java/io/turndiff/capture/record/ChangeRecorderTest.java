package io.turndiff.capture.record;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.boundary.Observation;
import io.turndiff.boundary.WorkspaceBoundary;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.model.ChangeKind;
import io.turndiff.model.DetectedBy;
import io.turndiff.model.MadeDuring;
import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import io.turndiff.model.TurnKind;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.EncodedBlob;
import io.turndiff.store.Store;
import io.turndiff.store.StoreAddress;
import io.turndiff.store.StoredFileChange;
import io.turndiff.store.StoredSession;
import io.turndiff.store.StoredWorkspace;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a recorder compresses for a change a scan found, over a real file read through the boundary:
 * its new content, unless that is among the contents stored first (a tracked workspace's scan
 * compressed it, and the transaction stores it before the change's rows); and the rows it stores
 * for such changes, in a real store.
 */
class ChangeRecorderTest {

  private static final WorkspacePath PATH = WorkspacePath.of("made.txt");

  @TempDir Path temp;

  private TestWorkspace workspace;
  private WorkspaceBoundary boundary;
  private Snapshot before;
  private Observation after;

  @BeforeEach
  void open() {
    workspace = TestWorkspace.in(temp);
    boundary = WorkspaceBoundary.open(workspace.root());
    before = Snapshot.absent(PATH, boundary.kind(), Instant.now());
    workspace.file(PATH.toString(), "made by a shell command\n");
    after = boundary.observeExact(PATH);
  }

  @AfterEach
  void canary() {
    boundary.close();
    workspace.assertOutsideUnchanged();
  }

  @Test
  void aNewContentIsCompressed() {
    ChangeRecorder.Detected detected =
        new ChangeRecorder().detectWithDiffPending(PATH, before, after, Map.of(), Set.of(), false);

    assertEquals(ChangeKind.ADDED, detected.kind());
    assertEquals(
        Set.of(content()),
        Set.copyOf(detected.blobs().stream().map(EncodedBlob::sha256).toList()),
        "the after-state's content, compressed");
  }

  @Test
  void aContentStoredFirstIsNotCompressedAgain() {
    ChangeRecorder.Detected detected =
        new ChangeRecorder()
            .detectWithDiffPending(PATH, before, after, Map.of(), Set.of(content()), false);

    assertEquals(ChangeKind.ADDED, detected.kind());
    assertEquals(0, detected.blobs().size(), "compressed again: " + detected.blobs());
  }

  /**
   * Found changes stored at once land each on its own rows: its record, its before- and
   * after-snapshot (the first half and the second of one multi-row insert), its kind and what git
   * ignores, in a store opened again; a content the transaction stored first is referred to by its
   * hash, and nothing but the contents is stored (the diffs are pending).
   */
  @Test
  void foundChangesStoredAtOnceLandEachOnItsOwnRows() throws SQLException {
    workspace.file("kept.txt", "kept before the turn\n").file("gone.txt", "deleted by a shell\n");
    Snapshot keptBefore = boundary.observeExact(WorkspacePath.of("kept.txt")).snapshot();
    Observation gone = boundary.observeExact(WorkspacePath.of("gone.txt"));
    workspace.file("kept.txt", "edited by a shell\n");
    Observation kept = boundary.observeExact(WorkspacePath.of("kept.txt"));
    workspace.file("ignored.log", "a log line\n");
    WorkspacePath log = WorkspacePath.of("ignored.log");
    Observation logged = boundary.observeExact(log);
    Snapshot goneBefore = gone.snapshot();
    deleteGone();
    Observation goneAfter = boundary.observeExact(WorkspacePath.of("gone.txt"));
    ChangeRecorder recorder = new ChangeRecorder();
    Sha256 storedFirst = logged.snapshot().storedContent().orElseThrow();
    List<ChangeRecorder.Detected> found =
        List.of(
            recorder.detectWithDiffPending(PATH, before, after, Map.of(), Set.of(), false),
            recorder.detectWithDiffPending(
                WorkspacePath.of("kept.txt"), keptBefore, kept, Map.of(), Set.of(), false),
            recorder.detectWithDiffPending(
                WorkspacePath.of("gone.txt"), goneBefore, goneAfter, Map.of(), Set.of(), false),
            recorder.detectWithDiffPending(
                log,
                Snapshot.absent(log, boundary.kind(), Instant.now()),
                logged,
                Map.of(),
                Set.of(storedFirst),
                true));
    Path database = temp.resolve("store.db");
    long turn;
    long[] rows;
    try (Store store = Store.open(new StoreAddress.SqliteFile(database))) {
      turn =
          store.write(
              tx -> {
                StoredWorkspace at = tx.workspaces().register("/w", "/w", 1, 2);
                StoredSession session = tx.sessions().create("s", at.id());
                tx.blobs().put(gone.content().orElseThrow());
                tx.blobs().put(keptBefore.storedContent().orElseThrow(), readKeptBefore());
                return tx.turns().begin("t", session, TurnKind.AGENT).id();
              });
      rows =
          store.write(
              tx -> {
                tx.blobs().put(storedFirst, logged.content().orElseThrow());
                return recorder.recordFound(tx, turn, found, MadeDuring.UNKNOWN);
              });
    }

    try (Store store = Store.open(new StoreAddress.SqliteFile(database))) {
      Map<Long, StoredFileChange> byRow =
          store.read(tx -> tx.fileChanges().ofTurn(turn)).stream()
              .collect(Collectors.toMap(StoredFileChange::id, change -> change));
      assertEquals(found.size(), byRow.size());
      for (int i = 0; i < found.size(); i++) {
        ChangeRecorder.Detected expected = found.get(i);
        StoredFileChange change = byRow.get(rows[i]);
        assertEquals(expected.path(), change.path(), "row " + i);
        assertEquals(DetectedBy.SCAN, change.detectedBy());
        assertSameState(expected.before(), change.before(), expected.path() + " before");
        assertSameState(
            expected.after().snapshot(), change.after().orElseThrow(), expected.path() + " after");
        assertEquals(Optional.of(expected.kind()), change.change(), expected.path() + " kind");
        assertEquals(expected.ignoredByGit(), change.ignoredByGit(), expected.path() + " ignored");
        assertTrue(change.diffPending(), expected.path() + " diff pending");
      }
      assertEquals(
          List.of(ChangeKind.ADDED, ChangeKind.MODIFIED, ChangeKind.DELETED, ChangeKind.ADDED),
          found.stream().map(ChangeRecorder.Detected::kind).toList());
      assertArrayEquals(
          "edited by a shell\n".getBytes(StandardCharsets.UTF_8),
          store.read(tx -> tx.blobs().require(kept.snapshot().storedContent().orElseThrow())));
      assertArrayEquals(
          logged.content().orElseThrow(), store.read(tx -> tx.blobs().require(storedFirst)));
    }
    // the before-states of the kept and the gone file and three after-states; no diff
    assertEquals(5L, blobRows(database), "the contents, and nothing else");
  }

  private static long blobRows(Path database) throws SQLException {
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database);
        Statement statement = connection.createStatement();
        ResultSet count = statement.executeQuery("SELECT count(*) FROM blob")) {
      count.next();
      return count.getLong(1);
    }
  }

  /** The same state, read back: the store keeps the time it was taken to the millisecond. */
  private static void assertSameState(Snapshot expected, Snapshot stored, String what) {
    assertTrue(expected.sameStateAs(stored), what + ": " + stored + ", not " + expected);
    assertEquals(expected.fingerprint(), stored.fingerprint(), what);
  }

  private byte[] readKeptBefore() {
    return "kept before the turn\n".getBytes(StandardCharsets.UTF_8);
  }

  private void deleteGone() {
    try {
      Files.delete(workspace.resolve("gone.txt"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private Sha256 content() {
    return after.snapshot().storedContent().orElseThrow();
  }
}
