package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.StoreRows;
import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TestWorkspace;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongPredicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code turndiff gc} as a real process: killed with SIGKILL between its steps, and running while
 * another process captures turns.
 */
class GcProcessIT {

  private static final int TURNS = 24;

  @TempDir Path temp;

  private TestWorkspace workspace;
  private Path database;

  private CommandRun inProcess(String... args) {
    List<String> withStore = new ArrayList<>(List.of("--db", database.toString()));
    withStore.addAll(List.of(args));
    return CliRun.inProcess(withStore.toArray(String[]::new));
  }

  /** {@code TURNS} finished turns of {@code session}, each writing its own content into a file. */
  private void turns(String session, int count) {
    for (int i = 0; i < count; i++) {
      String turn = session + "-t" + i;
      String file = "f" + (i % 3) + ".txt";
      inProcess(
              "turn",
              "begin",
              "--workspace",
              workspace.root().toString(),
              "--session",
              session,
              "--turn",
              turn)
          .expect(0);
      inProcess("snapshot", "--turn", turn, file).expect(0);
      workspace.file(file, (session + " content " + i + "\n").repeat(2000));
      inProcess("turn", "finish", "--turn", turn).expect(0);
    }
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
      assertTrue(inProcess("diff", "--turn", turn).expect(0).out().contains("+++ b/f"), turn);
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

    // killed while it removes turns
    killWhen(startGc(200, "--keep-turns", "4"), turns -> turns < TURNS - 2);
    long left = count("SELECT count(*) FROM turn");
    assertTrue(left > 4 && left < TURNS, "killed with some turns removed: " + left);
    assertWhole();

    // killed after the turns, while it removes blobs and gives pages back
    Process again = startGc(400, "--keep-turns", "4");
    killWhen(again, turns -> turns == 4);
    assertWhole();

    CommandRun last = inProcess("gc", "--keep-turns", "4", "--grace", "0s").expect(0);
    assertEquals(4, count("SELECT count(*) FROM turn"), last.out());
    assertEquals(
        0,
        count(
            "SELECT count(*) FROM blob WHERE NOT EXISTS (SELECT 1 FROM snapshot WHERE"
                + " content_sha256 = blob.sha256) AND NOT EXISTS (SELECT 1 FROM file_change WHERE"
                + " diff_sha256 = blob.sha256)"),
        "a later collection finishes the work");
    assertWhole();
  }

  @Test
  void aCollectionAndACaptureInTwoProcessesBothSucceed() throws Exception {
    workspace = TestWorkspace.in(temp);
    database = TestStore.fileIn(temp);
    workspace.file("f0.txt", "0\n").file("f1.txt", "1\n").file("f2.txt", "2\n");
    turns("s1", TURNS);
    Map<String, String> env = Map.of("TURNDIFF_DB", database.toString());

    Process gc = startGc(300, "--keep-turns", "0");
    // the capture begins once the collection has made its plan and is removing turns
    await(gc, turns -> turns < TURNS);
    CompletableFuture<Void> capture =
        CompletableFuture.runAsync(
            () -> {
              try {
                // the same contents the collection is removing, so that their blobs are wanted
                // again
                for (int i = 0; i < 4; i++) {
                  String turn = "s2-t" + i;
                  String file = "f" + (i % 3) + ".txt";
                  CliProcess.run(
                          env,
                          "turn",
                          "begin",
                          "--workspace",
                          workspace.root().toString(),
                          "--session",
                          "s2",
                          "--turn",
                          turn)
                      .expect(0);
                  CliProcess.run(env, "snapshot", "--turn", turn, file).expect(0);
                  workspace.file(file, ("s1 content " + (i + 1) + "\n").repeat(2000));
                  CliProcess.run(env, "turn", "finish", "--turn", turn).expect(0);
                }
              } catch (Exception e) {
                throw new AssertionError(e);
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
