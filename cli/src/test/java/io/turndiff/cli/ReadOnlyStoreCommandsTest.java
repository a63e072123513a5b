package io.turndiff.cli;

import static io.turndiff.cli.StoreCommands.beginTurn;
import static io.turndiff.cli.StoreCommands.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.api.ExitCode;
import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.ReadOnlyBindMount;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.store.Store;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteDataSource;

/**
 * A store seen through a real read-only bind mount (root only; skipped with the reason otherwise):
 * the queries ({@code show}, {@code turns}, {@code diff}, {@code log}, {@code status}) answer as
 * from the writable path, a write is refused with exit 4 naming the file, and nothing is created
 * beside the store. A store in use behind the mount is read through its WAL; one that would need a
 * migration, or whose WAL cannot be read there, is refused clearly.
 */
class ReadOnlyStoreCommandsTest {

  @TempDir Path temp;

  private TestWorkspace workspace;
  private Path folder;
  private Path database;

  /**
   * A store in its own folder for a tracked workspace, with a finished turn t1 (a file modified,
   * one added, one deleted) and an open t2.
   */
  @BeforeEach
  void realStore() throws Exception {
    workspace = TestWorkspace.in(temp).file("a.txt", "one\ntwo\n").file("c.txt", "gone\n");
    folder = Files.createDirectories(temp.resolve("store"));
    database = folder.resolve("turndiff.db");
    run(database, "track", "--workspace", workspace.root().toString()).expect(0);
    beginTurn(database, workspace, "s1", "t1").expect(0);
    run(database, "snapshot", "--turn", "t1", "a.txt", "b.txt", "c.txt").expect(0);
    workspace.file("a.txt", "one\n2\n").file("b.txt", "new\n");
    Files.delete(workspace.resolve("c.txt"));
    run(database, "turn", "finish", "--turn", "t1").expect(0);
    run(
            database,
            "turn",
            "begin",
            "--workspace",
            workspace.root().toString(),
            "--session",
            "s1",
            "--turn",
            "t2")
        .expect(0);
  }

  private List<String[]> queries() {
    return List.of(
        new String[] {"show", "--turn", "t1"},
        new String[] {"turns", "--session", "s1"},
        new String[] {"diff", "--turn", "t1"},
        new String[] {"log", "a.txt", "--workspace", workspace.root().toString()},
        new String[] {"status", "--workspace", workspace.root().toString()});
  }

  private static List<String> names(Path folder) throws Exception {
    try (Stream<Path> names = Files.list(folder)) {
      return names.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  private static void assertRefusedAsReadOnly(CommandRun run, Path database) {
    StoreCommands.assertStoreRefused(run, "turndiff: the store " + database + " cannot be written");
  }

  @Test
  void aStoreOnAReadOnlyMountAnswersEveryQueryAndRefusesWrites() throws Exception {
    List<String> expected =
        queries().stream().map(query -> run(database, query).expect(0).out()).toList();
    List<String> before = names(folder);
    try (ReadOnlyBindMount mount = ReadOnlyBindMount.of(folder, temp.resolve("ro"))) {
      Path readOnly = mount.view().resolve("turndiff.db");
      for (int i = 0; i < queries().size(); i++) {
        CommandRun run = run(readOnly, queries().get(i)).expect(0);
        assertEquals(expected.get(i), run.out(), String.join(" ", queries().get(i)));
        assertEquals("", run.err());
      }
      assertRefusedAsReadOnly(
          run(
              readOnly,
              "turn",
              "begin",
              "--workspace",
              workspace.root().toString(),
              "--session",
              "s1"),
          readOnly);
      assertRefusedAsReadOnly(run(readOnly, "snapshot", "--turn", "t2", "a.txt"), readOnly);
    }
    assertEquals(before, names(folder), "files appeared beside the store");
    assertEquals(
        2,
        run(database, "turns", "--session", "s1").expect(0).json().get("turns").size(),
        "nothing was recorded: still t1 and t2");
  }

  @Test
  void aStoreInUseBehindTheMountIsReadThroughItsWal() throws Exception {
    try (Store inUse = Store.open(database)) {
      // another process records a turn while the store is open: it lands in the WAL
      run(
              database,
              "turn",
              "begin",
              "--workspace",
              workspace.root().toString(),
              "--session",
              "s1",
              "--turn",
              "t3")
          .expect(0);
      assertTrue(Files.size(folder.resolve("turndiff.db-wal")) > 0, "the turn is in the WAL");
      try (ReadOnlyBindMount mount = ReadOnlyBindMount.of(folder, temp.resolve("ro"))) {
        Path readOnly = mount.view().resolve("turndiff.db");
        List<String> turns = new ArrayList<>();
        run(readOnly, "turns", "--session", "s1")
            .expect(0)
            .json()
            .get("turns")
            .forEach(turn -> turns.add(turn.get("turn").asText()));
        assertEquals(List.of("t1", "t2", "t3"), turns);
      }
      assertTrue(inUse.read(tx -> tx.turns().byExternalId("t3")).isPresent());
    }
  }

  @Test
  void aStoreThatNeedsAMigrationIsRefusedOnAReadOnlyMount() throws Exception {
    Path old = Files.createDirectories(temp.resolve("old")).resolve("turndiff.db");
    SQLiteDataSource dataSource = new SQLiteDataSource();
    dataSource.setUrl("jdbc:sqlite:" + old);
    Flyway.configure()
        .dataSource(dataSource)
        .locations("classpath:db/migration")
        .target("1")
        .load()
        .migrate();
    try (ReadOnlyBindMount mount = ReadOnlyBindMount.of(old.getParent(), temp.resolve("ro"))) {
      Path readOnly = mount.view().resolve("turndiff.db");
      CommandRun run = run(readOnly, "turns", "--session", "s1");
      assertRefusedAsReadOnly(run, readOnly);
      assertTrue(
          run.err().contains("schema version 1") && run.err().contains("needs version"), run.err());
    }
  }

  @Test
  void aWalWithoutItsShmOnAReadOnlyMountIsRefusedNotReadAsIfItWereNotThere() throws Exception {
    Path copy = Files.createDirectories(temp.resolve("copy")).resolve("turndiff.db");
    try (Store inUse = Store.open(database)) {
      run(
              database,
              "turn",
              "begin",
              "--workspace",
              workspace.root().toString(),
              "--session",
              "s1",
              "--turn",
              "t3")
          .expect(0);
      // a copy taken while the store was in use, without its -shm
      Files.copy(database, copy);
      Files.copy(folder.resolve("turndiff.db-wal"), copy.resolveSibling("turndiff.db-wal"));
    }
    try (ReadOnlyBindMount mount = ReadOnlyBindMount.of(copy.getParent(), temp.resolve("ro"))) {
      Path readOnly = mount.view().resolve("turndiff.db");
      CommandRun run = run(readOnly, "turns", "--session", "s1");
      run.expect(ExitCode.STORE.code());
      StoreCommands.assertNoStackTrace(run);
      assertTrue(
          run.err().startsWith("turndiff: the store " + readOnly + " cannot be read here")
              && run.err().contains("turndiff.db-shm"),
          run.err());
    }
  }
}
