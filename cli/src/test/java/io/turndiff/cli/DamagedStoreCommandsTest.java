package io.turndiff.cli;

import static io.turndiff.cli.StoreCommands.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.TestWorkspace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The commands on damaged copies of a real store: reads answer what the damage left or are refused,
 * writes are always refused (exit 4) and write nothing, every refusal names the file and what to
 * do, and no stack trace is printed.
 */
class DamagedStoreCommandsTest {

  @TempDir Path temp;

  private TestWorkspace workspace;
  private Path good;

  /**
   * A store with a finished turn t1 over 40 files and an open turn t2, made by the commands
   * themselves.
   */
  @BeforeEach
  void realStore() throws Exception {
    workspace = TestWorkspace.in(temp);
    good = temp.resolve("good/turndiff.db");
    StoreCommands.recordTurns(good, workspace, 40);
  }

  /** The reads and writes of the issue that found the problem. */
  private List<String[]> reads() {
    return List.of(
        new String[] {"show", "--turn", "t1"}, new String[] {"turns", "--session", "s1"});
  }

  private List<String[]> writes() {
    return List.of(
        new String[] {
          "turn", "begin", "--workspace", workspace.root().toString(), "--session", "s1"
        },
        new String[] {"snapshot", "--turn", "t2", "f1.txt"});
  }

  static void assertRefusedNamingTheFile(CommandRun run, Path database) {
    // (a store opened as damaged warns first)
    StoreCommands.assertStoreRefused(run, "turndiff: the store " + database + " is damaged");
    assertTrue(run.err().contains("backup") && run.err().contains(".recover"), run.err());
  }

  @ParameterizedTest
  @EnumSource(StoreDamage.class)
  void aDamagedStoreIsNeverWrittenAndEveryRefusalSaysWhatToDo(StoreDamage damage) throws Exception {
    Path database = damage.copy(good, temp.resolve(damage.name()));
    byte[] before = Files.readAllBytes(database);
    for (String[] write : writes()) {
      assertRefusedNamingTheFile(run(database, write), database);
    }
    for (String[] read : reads()) {
      CommandRun run = run(database, read);
      if (damage.refusedAtOpen()) {
        assertRefusedNamingTheFile(run, database);
      } else {
        // the damage is in content pages: the records are still answered, with a warning
        run.expect(0);
        StoreCommands.assertNoStackTrace(run);
        assertTrue(
            run.err().startsWith("turndiff: warning: the store " + database + " is damaged"),
            run.err());
      }
    }
    assertArrayEquals(before, Files.readAllBytes(database), "the damaged store was written to");
    if (damage == StoreDamage.EMPTY) {
      assertEquals(0, Files.size(database), "an empty file became a store");
    }
  }

  /**
   * A store checked clean is not checked again while its files stay as they were; damage written
   * into the same file afterwards (same size, same inode) is still found at the next open.
   */
  @Test
  void damageWrittenIntoAStoreAfterACleanCheckIsStillReported() throws Exception {
    Path database = Files.createDirectories(temp.resolve("in-place")).resolve("turndiff.db");
    Files.copy(good, database);
    long page = StoreDamage.contentPage(database);
    Thread.sleep(200); // at rest for longer than the racy window: the check gets recorded
    run(database, reads().getFirst()).expect(0);
    assertTrue(
        Files.exists(database.resolveSibling("turndiff.db.checked")), "no clean check recorded");
    assertEquals(40, run(database, "show", "--turn", "t1").expect(0).json().size());

    StoreDamage.garbageOver(database, page);
    byte[] before = Files.readAllBytes(database);
    CommandRun read = run(database, reads().getFirst()).expect(0);
    assertTrue(
        read.err().startsWith("turndiff: warning: the store " + database + " is damaged"),
        read.err());
    assertRefusedNamingTheFile(run(database, writes().getFirst()), database);
    assertArrayEquals(before, Files.readAllBytes(database), "the damaged store was written to");
  }

  @Test
  void aTornWalIsDroppedAsSqliteDropsItAndTheStoreWorks() throws Exception {
    Path database = Files.createDirectories(temp.resolve("torn-wal")).resolve("turndiff.db");
    Files.copy(good, database);
    byte[] garbage = new byte[100_000];
    new Random(3).nextBytes(garbage);
    Files.write(database.resolveSibling("turndiff.db-wal"), garbage);
    assertEquals(40, run(database, "show", "--turn", "t1").expect(0).json().size());
    run(database, "snapshot", "--turn", "t2", "f1.txt").expect(0);
    assertEquals(1, run(database, "show", "--turn", "t2").expect(0).json().size());
  }
}
