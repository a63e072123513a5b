package io.turndiff.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.model.BoundaryKind;
import io.turndiff.model.ChangeKind;
import io.turndiff.model.DetectedBy;
import io.turndiff.model.FileMetadata;
import io.turndiff.model.FileType;
import io.turndiff.model.NotCaptured;
import io.turndiff.model.Reason;
import io.turndiff.model.Snapshot;
import io.turndiff.model.TurnKind;
import io.turndiff.model.WorkspacePath;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The questions a hook asks of the turns before the one it began, each answered by the store from
 * an index rather than by reading the session's every turn or the previous turn's every change
 * ({@link Turns#inSession}, {@link Turns#lastOfKindBefore}, {@link Turns#countOfSession}, {@link
 * FileChanges#uncapturedOfTurn}): the answers the hooks drew from those whole reads, on both
 * dialects, with another session's turns interleaved and other kinds of turns to skip, after the
 * store is reopened.
 */
class SessionLookupsTest {

  @TempDir Path temp;

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgres"})
  void aTurnIsFoundByItsNumberAndTheLastAgentTurnBeforeItSkipsOtherKindsAndSessions(String dialect)
      throws Exception {
    StoreAddress address = DialectStores.fresh(dialect, temp);
    try (Store store = Store.open(address)) {
      store.write(SessionLookupsTest::twoSessionsInterleaved);
    }
    try (Store store = Store.open(address)) {
      store.read(
          tx -> {
            long a = tx.sessions().byExternalId("a").orElseThrow().id();
            long b = tx.sessions().byExternalId("b").orElseThrow().id();
            assertEquals(Optional.of("a-3"), id(tx.turns().inSession(a, 3)));
            assertEquals(Optional.of("b-3"), id(tx.turns().inSession(b, 3)));
            assertEquals(Optional.empty(), id(tx.turns().inSession(a, 6)), "past the last");
            assertEquals(Optional.empty(), id(tx.turns().inSession(a, 0)));
            // session a: agent 1, agent 2, outside 3, outside 4, agent 5
            assertEquals(
                Optional.of("a-2"),
                id(tx.turns().lastOfKindBefore(a, 5, TurnKind.AGENT)),
                "two outside turns skipped, not session b's agent turns between them");
            assertEquals(
                Optional.of("a-4"), id(tx.turns().lastOfKindBefore(a, 5, TurnKind.OUTSIDE)));
            assertEquals(Optional.of("a-1"), id(tx.turns().lastOfKindBefore(a, 2, TurnKind.AGENT)));
            assertEquals(
                Optional.empty(),
                id(tx.turns().lastOfKindBefore(a, 1, TurnKind.AGENT)),
                "the first turn has none before it");
            assertEquals(Optional.empty(), id(tx.turns().lastOfKindBefore(a, 3, TurnKind.OUTSIDE)));
            assertEquals(5, tx.turns().countOfSession(a));
            assertEquals(3, tx.turns().countOfSession(b));
            assertEquals(0, tx.turns().countOfSession(b + a + 1000), "no such session");
            return null;
          });
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgres"})
  void theChangesNotCapturedAreTheMetadataOnlyOnesBeforeFirstInPathOrder(String dialect)
      throws Exception {
    StoreAddress address = DialectStores.fresh(dialect, temp);
    long turn;
    try (Store store = Store.open(address)) {
      turn = store.write(SessionLookupsTest::aTurnOfEveryKindOfState);
    }
    try (Store store = Store.open(address)) {
      List<FileChanges.Uncaptured> uncaptured =
          store.read(tx -> tx.fileChanges().uncapturedOfTurn(turn));
      assertEquals(
          List.of(
              new FileChanges.Uncaptured(WorkspacePath.of("a/both"), Reason.TOO_LARGE),
              new FileChanges.Uncaptured(WorkspacePath.of("b/after"), Reason.UNREADABLE),
              new FileChanges.Uncaptured(WorkspacePath.of("c/before"), Reason.HARDLINKED),
              new FileChanges.Uncaptured(WorkspacePath.of("f/dir"), Reason.TOO_LARGE)),
          uncaptured,
          "the captured file, the directory and the change still open are not named");
      int changes = store.read(tx -> tx.fileChanges().countOfTurn(turn));
      assertEquals(7, changes);
      assertTrue(
          store.read(tx -> tx.fileChanges().uncapturedOfTurn(turn + 1)).isEmpty(), "no such turn");
    }
  }

  /**
   * Session a: agent, agent, outside, outside, agent; session b's three agent turns begun between
   * them.
   */
  private static Void twoSessionsInterleaved(StoreTransaction tx) {
    StoredWorkspace workspace = tx.workspaces().register("/w", "/w", 1, 2);
    StoredSession a = tx.sessions().create("a", workspace.id());
    StoredSession b = tx.sessions().create("b", workspace.id());
    tx.turns().begin("a-1", a, TurnKind.AGENT);
    tx.turns().begin("a-2", a, TurnKind.AGENT);
    tx.turns().begin("b-1", b, TurnKind.AGENT);
    tx.turns().begin("a-3", a, TurnKind.OUTSIDE);
    tx.turns().begin("b-2", b, TurnKind.AGENT);
    tx.turns().begin("b-3", b, TurnKind.AGENT);
    tx.turns().begin("a-4", a, TurnKind.OUTSIDE);
    tx.turns().begin("a-5", a, TurnKind.AGENT);
    return null;
  }

  /**
   * One turn's seven changes, written out of path order: a captured file; a directory (a reason,
   * but captured as what it is); a file too large before and unreadable after (the before's reason
   * wins); a file captured before and unreadable after; a hardlinked file before whose change is
   * still open (no after-state); a captured file whose change is still open; a directory that
   * became a file too large (the after's reason, the before's being a directory's). Its row id.
   */
  private static long aTurnOfEveryKindOfState(StoreTransaction tx) {
    StoredWorkspace workspace = tx.workspaces().register("/w", "/w", 1, 2);
    StoredSession session = tx.sessions().create("s", workspace.id());
    long turn = tx.turns().begin("t", session, TurnKind.AGENT).id();
    change(tx, turn, file(tx, "z/captured"), Optional.of(file(tx, "z/captured")));
    change(tx, turn, directory("d/dir"), Optional.of(directory("d/dir")));
    change(tx, turn, file(tx, "b/after"), Optional.of(notCaptured("b/after", Reason.UNREADABLE)));
    change(
        tx,
        turn,
        notCaptured("a/both", Reason.TOO_LARGE),
        Optional.of(notCaptured("a/both", Reason.UNREADABLE)));
    change(tx, turn, notCaptured("c/before", Reason.HARDLINKED), Optional.empty());
    change(tx, turn, file(tx, "e/open"), Optional.empty());
    change(tx, turn, directory("f/dir"), Optional.of(notCaptured("f/dir", Reason.TOO_LARGE)));
    return turn;
  }

  private static void change(
      StoreTransaction tx, long turn, Snapshot before, Optional<Snapshot> after) {
    long id =
        tx.fileChanges()
            .begin(
                turn,
                before.path(),
                Optional.empty(),
                DetectedBy.SNAPSHOT,
                tx.snapshots().insert(before));
    after.ifPresent(
        state ->
            tx.fileChanges()
                .completeWithDiffPending(id, tx.snapshots().insert(state), ChangeKind.MODIFIED));
  }

  /** A captured file whose content, its path's bytes, is stored. */
  private static Snapshot file(StoreTransaction tx, String path) {
    byte[] content = path.getBytes(StandardCharsets.UTF_8);
    tx.blobs().put(content);
    return CapturedFiles.file(path, content);
  }

  private static Snapshot directory(String path) {
    return new Snapshot.Directory(
        WorkspacePath.of(path),
        BoundaryKind.OPENAT2,
        new FileMetadata(FileType.DIRECTORY, 0, 1L, 0755, 1, 1),
        "",
        CapturedFiles.TAKEN_AT);
  }

  private static Snapshot notCaptured(String path, Reason why) {
    return Snapshot.MetadataOnly.of(
        WorkspacePath.of(path),
        BoundaryKind.OPENAT2,
        new FileMetadata(FileType.REGULAR, 10, 1L, 0644, 1, 1),
        new NotCaptured(why, ""),
        CapturedFiles.TAKEN_AT);
  }

  private static Optional<String> id(Optional<StoredTurn> turn) {
    return turn.map(StoredTurn::externalId);
  }
}
