package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.fixtures.TestWorkspace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The commands on damaged copies of a real store: reads answer what the damage left or are refused, writes are
 * always refused (exit 4) and write nothing, every refusal names the file and what to do, and no stack trace
 * is printed.
 */
class DamagedStoreCommandsTest {

  @TempDir
  Path temp;

  private TestWorkspace workspace;
  private Path good;

  /** A store with a finished turn t1 over 40 files and an open turn t2, made by the commands themselves. */
  @BeforeEach
  void realStore() throws Exception {
    workspace = TestWorkspace.in(temp);
    good = temp.resolve("good/turndiff.db");
    List<String> files = new ArrayList<>();
    Random random = new Random(1);
    for (int i = 0; i < 40; i++) {
      StringBuilder text = new StringBuilder();
      for (int line = 0; line < 600; line++) {
        text.append(Long.toHexString(random.nextLong())).append('\n');
      }
      workspace.file("f" + i + ".txt", text.toString());
      files.add("f" + i + ".txt");
    }
    run(good, "turn", "begin", "--workspace", workspace.root().toString(), "--session", "s1", "--turn", "t1")
        .expect(0);
    List<String> snapshot = new ArrayList<>(List.of("snapshot", "--turn", "t1"));
    snapshot.addAll(files);
    run(good, snapshot.toArray(String[]::new)).expect(0);
    for (String file : files) {
      Files.writeString(workspace.resolve(file), "changed\n", java.nio.file.StandardOpenOption.APPEND);
    }
    run(good, "turn", "finish", "--turn", "t1").expect(0);
    run(good, "turn", "begin", "--workspace", workspace.root().toString(), "--session", "s1", "--turn", "t2")
        .expect(0);
  }

  /** {@code turndiff <command words> --db DB <rest>} in this JVM. */
  private static CliRun run(Path database, String... args) {
    int words = args[0].equals("turn") ? 2 : 1;
    List<String> ordered = new ArrayList<>(List.of(args).subList(0, words));
    ordered.addAll(List.of("--db", database.toString()));
    ordered.addAll(List.of(args).subList(words, args.length));
    return CliRun.inProcess(ordered.toArray(String[]::new));
  }

  /** The reads and writes of the issue that found the problem. */
  private List<String[]> reads() {
    return List.of(new String[] {"show", "--turn", "t1"}, new String[] {"turns", "--session", "s1"});
  }

  private List<String[]> writes() {
    return List.of(new String[] {"turn", "begin", "--workspace", workspace.root().toString(), "--session", "s1"},
        new String[] {"snapshot", "--turn", "t2", "f1.txt"});
  }

  static void assertNoStackTrace(CliRun run) {
    for (String stream : new String[] {run.out(), run.err()}) {
      assertFalse(stream.lines().anyMatch(line -> line.matches("\\s+at \\S+\\(.*\\)") || line.contains("Exception")),
          "a stack trace or an exception's name was printed:\n" + stream);
    }
  }

  static void assertRefusedNamingTheFile(CliRun run, Path database) {
    run.expect(Main.EXIT_STORE);
    assertNoStackTrace(run);
    assertEquals("", run.out());
    // (a store opened as damaged warns first)
    assertTrue(run.err().lines().anyMatch(line -> line.startsWith("turndiff: the store " + database + " is damaged")),
        run.err());
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
      CliRun run = run(database, read);
      if (damage.refusedAtOpen()) {
        assertRefusedNamingTheFile(run, database);
      } else {
        // the damage is in content pages: the records are still answered, with a warning
        run.expect(0);
        assertNoStackTrace(run);
        assertTrue(run.err().startsWith("turndiff: warning: the store " + database + " is damaged"), run.err());
      }
    }
    assertArrayEquals(before, Files.readAllBytes(database), "the damaged store was written to");
    if (damage == StoreDamage.EMPTY) {
      assertEquals(0, Files.size(database), "an empty file became a store");
    }
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
