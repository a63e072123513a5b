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
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A rewind's run takes the stored contents its dry run loaded as they are, by hash, and loads only
 * the others from the store: the same contents loaded twice were a thirtieth of a rewind. Checked
 * on the journal's loading, and through the service (its dry run's contents handed to its run).
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

  /**
   * The service hands what its dry run loaded to the run: a stored content made unreadable as
   * itself between the two (its row's bytes replaced through a plain connection to the store's
   * file) is not loaded again, and the file gets the bytes the dry run decided on.
   */
  @Test
  void theRunWritesTheContentsItsDryRunLoaded() throws Exception {
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
                replaceStoredBytes(aBefore, "not what was stored\n");
              }
            });

    RewindReport report =
        rewind.rewind(new RewindRequest(turn, false, Optional.empty(), false, false));
    rewind.makeDurable(report);

    assertEquals(List.of("a.txt"), paths(report.restored()));
    assertEquals("a before\n", Files.readString(file("a.txt")));
  }

  /** Replaces the stored bytes of {@code content} by {@code other}, kept whole. */
  private void replaceStoredBytes(Sha256 content, String other) {
    byte[] bytes = other.getBytes(StandardCharsets.UTF_8);
    try (Connection connection =
            DriverManager.getConnection("jdbc:sqlite:" + TestStore.fileIn(temp));
        PreparedStatement update =
            connection.prepareStatement(
                "UPDATE blob SET encoding = 'raw', data = ?, size = ?, base_sha256 = NULL,"
                    + " depth = 0 WHERE sha256 = ?")) {
      update.setBytes(1, bytes);
      update.setLong(2, bytes.length);
      update.setString(3, content.hex());
      assertEquals(1, update.executeUpdate(), "the content's row");
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
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
