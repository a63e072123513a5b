package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.StoreRows;
import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.model.Sha256;
import io.turndiff.store.Store;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongPredicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code turndiff gc} as a real process: killed with SIGKILL between its steps, and running while
 * another process (this JVM, through the same commands) captures turns.
 */
class GcProcessIT {

  private static final int TURNS = 24;

  @TempDir Path temp;

  private TestWorkspace workspace;
  private Path database;

  /** {@code TURNS} finished turns of {@code session}, each writing its own content into a file. */
  private void turns(String session, int count) {
    for (int i = 0; i < count; i++) {
      turn(session, i, content(session, i));
    }
  }

  /**
   * Turn {@code i} of {@code session} ({@code SESSION-tI}), recorded by the commands in this JVM:
   * it writes {@code content} into f0.txt, f1.txt or f2.txt.
   */
  private void turn(String session, int i, String content) {
    String turn = session + "-t" + i;
    String file = "f" + (i % 3) + ".txt";
    StoreCommands.beginTurn(database, workspace, session, turn).expect(0);
    StoreCommands.run(database, "snapshot", "--turn", turn, file).expect(0);
    workspace.file(file, content);
    StoreCommands.run(database, "turn", "finish", "--turn", turn).expect(0);
  }

  /**
   * The text turn {@code i} of {@code session} writes: the same 20 KB but for its first line, so
   * that each after-state is stored as a delta of its before-state, in chains as deep as the store
   * allows.
   */
  private static String content(String session, int i) {
    StringBuilder text = new StringBuilder(session + " content " + i + "\n");
    Random random = new Random(42);
    while (text.length() < 20_000) {
      text.append("line ").append(random.nextInt(1_000_000)).append(" of the file\n");
    }
    return text.toString();
  }

  private long count(String sql) {
    return StoreRows.value(database, sql);
  }

  /** No dangling reference, a sound file, and every turn left still gives its diff. */
  private void assertWhole() {
    assertEquals(
        0, count("SELECT count(*) FROM pragma_foreign_key_check"), "no dangling reference");
    assertEquals(
        1, count("SELECT count(*) FROM pragma_integrity_check WHERE integrity_check = 'ok'"));
    List<String> turns = new ArrayList<>();
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database);
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("SELECT external_id FROM turn")) {
      while (rows.next()) {
        turns.add(rows.getString(1));
      }
    } catch (SQLException e) {
      throw new AssertionError(e);
    }
    for (String turn : turns) {
      assertTrue(
          StoreCommands.run(database, "diff", "--turn", turn).expect(0).out().contains("+++ b/f"),
          turn);
    }
    // every content left decodes, down its chain of deltas, to the bytes its key names
    try (Store store = Store.open(database)) {
      store.read(
          tx -> {
            tx.blobs()
                .forEach((sha, content) -> assertEquals(sha, Sha256.of(content), "blob " + sha));
            return null;
          });
    }
  }

  private Process startGc(long pauseMillis, String... policy) throws Exception {
    List<String> args = new ArrayList<>(List.of("gc", "--grace", "0s"));
    args.addAll(List.of(policy));
    return CliProcess.start(
        Map.of(
            "TURNDIFF_DB", database.toString(), EnvTestHook.GC_PAUSE, Long.toString(pauseMillis)),
        args.toArray(String[]::new));
  }

  /** Waits, while {@code gc} runs, until the store's turn count satisfies {@code when}. */
  private void await(Process gc, LongPredicate when) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!when.test(count("SELECT count(*) FROM turn"))) {
      assertTrue(System.nanoTime() < deadline && gc.isAlive(), "the collection got under way");
      Thread.sleep(10);
    }
  }

  /** Kills {@code gc} with SIGKILL once the store's turn count satisfies {@code when}. */
  private void killWhen(Process gc, LongPredicate when) throws Exception {
    await(gc, when);
    gc.destroyForcibly();
    assertTrue(gc.waitFor(30, TimeUnit.SECONDS));
    assertEquals(137, gc.exitValue(), "killed by SIGKILL mid-way");
  }

  @Test
  void aCollectionKilledBetweenItsStepsLeavesEveryKeptTurnWhole() throws Exception {
    workspace = TestWorkspace.in(temp);
    database = TestStore.fileIn(temp);
    workspace.file("f0.txt", "0\n").file("f1.txt", "1\n").file("f2.txt", "2\n");
    turns("s1", TURNS);
    assertTrue(
        count("SELECT count(*) FROM blob WHERE encoding = 'delta' AND depth > 1") > 0,
        "after-states are stored as chains of deltas");

    // killed while it removes turns
    killWhen(startGc(200, "--keep-turns", "4"), turns -> turns < TURNS - 2);
    long left = count("SELECT count(*) FROM turn");
    assertTrue(left > 4 && left < TURNS, "killed with some turns removed: " + left);
    assertWhole();

    // killed after the turns, while it removes blobs and gives pages back
    Process again = startGc(400, "--keep-turns", "4");
    killWhen(again, turns -> turns == 4);
    assertWhole();

    CommandRun last =
        StoreCommands.run(database, "gc", "--keep-turns", "4", "--grace", "0s").expect(0);
    assertEquals(4, count("SELECT count(*) FROM turn"), last.out());
    assertEquals(
        0,
        count(
            "WITH RECURSIVE needed(sha) AS (SELECT content_sha256 FROM snapshot UNION SELECT"
                + " diff_sha256 FROM file_change UNION SELECT blob.base_sha256 FROM blob JOIN"
                + " needed ON blob.sha256 = needed.sha) SELECT count(*) FROM blob WHERE sha256"
                + " NOT IN (SELECT sha FROM needed WHERE sha IS NOT NULL)"),
        "a later collection finishes the work: what is left is referred to, or a base of it");
    assertTrue(
        count(
                "SELECT count(*) FROM blob WHERE NOT EXISTS (SELECT 1 FROM snapshot WHERE"
                    + " content_sha256 = blob.sha256) AND EXISTS (SELECT 1 FROM blob delta WHERE"
                    + " delta.base_sha256 = blob.sha256)")
            > 0,
        "the kept turns' contents are deltas of contents only the removed turns referred to");
    assertWhole();
  }

  @Test
  void aCollectionAndACaptureInTwoProcessesBothSucceed() throws Exception {
    workspace = TestWorkspace.in(temp);
    database = TestStore.fileIn(temp);
    workspace.file("f0.txt", "0\n").file("f1.txt", "1\n").file("f2.txt", "2\n");
    turns("s1", TURNS);

    Process gc = startGc(300, "--keep-turns", "0");
    // the capture begins once the collection has made its plan and is removing turns
    await(gc, turns -> turns < TURNS);
    // the capture is this JVM's, a process of its own beside the collection's: the same commands a
    // process runs, without a JVM started for each (docs/build.md, "What CI costs")
    CompletableFuture<Void> capture =
        CompletableFuture.runAsync(
            () -> {
              // the same contents the collection is removing, so that their blobs are wanted again
              for (int i = 0; i < 4; i++) {
                turn("s2", i, content("s1", i + 1));
              }
            });
    capture.get(3, TimeUnit.MINUTES);
    assertTrue(gc.waitFor(3, TimeUnit.MINUTES));
    assertEquals(0, gc.exitValue(), new String(gc.getErrorStream().readAllBytes()));
    assertEquals(
        4,
        count(
            "SELECT count(*) FROM turn JOIN session ON session.id = session_id"
                + " WHERE session.external_id = 's2'"),
        "every captured turn is there");
    assertWhole();
  }
}
