package io.turndiff.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.TestStore;
import io.turndiff.store.Store;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code turndiff demo} in this JVM: a store named with {@code --db} keeps the demo's turn, and the
 * demo's temp dir (its workspace and the outside file its link points to) is removed either way.
 * Without {@code --db} (a temporary store, the default store untouched) is {@code
 * CliProcessIT#theDemoRunsOnATemporaryStoreAndLeavesNothingBehind}, which needs its own
 * environment.
 */
class DemoCommandTest {

  @TempDir Path temp;

  @Test
  void aStoreNamedWithDbKeepsTheTurnAndTheDemosFilesAreRemoved() throws Exception {
    Path database = TestStore.fileIn(temp);
    CommandRun demo = CliRun.inProcess("demo", "--db", database.toString()).expect(0);
    assertTrue(demo.out().contains("canary: the outside secret appears 0 times"), demo.out());
    assertEquals(database.toAbsolutePath(), printed(demo, "store:"));
    try (Store store = Store.open(database)) {
      assertEquals(1, store.read(tx -> tx.workspaces().byId(1)).stream().count());
    }
    Path workspace = printed(demo, "workspace:");
    assertFalse(Files.exists(workspace.getParent()), "the demo's temp dir is removed");
    assertTrue(demo.out().contains("removed: the demo's workspace ("), demo.out());
  }

  @Test
  void withoutDbTheTemporaryStoreGoesWithTheWorkspace() throws Exception {
    CommandRun demo = CliRun.inProcess("demo").expect(0);
    Path workspace = printed(demo, "workspace:");
    Path store = printed(demo, "store:");
    assertTrue(store.startsWith(workspace.getParent()), "the store is the demo's own: " + store);
    assertFalse(Files.exists(store), "the temporary store is removed");
    assertFalse(Files.exists(workspace.getParent()), "the demo's temp dir is removed");
    assertTrue(
        demo.out().contains("removed: the demo's workspace and its temporary store"), demo.out());
  }

  /** The path the demo printed after {@code label} on a line of its own (up to two spaces). */
  static Path printed(CommandRun demo, String label) {
    return demo.out()
        .lines()
        .filter(line -> line.startsWith(label))
        .map(line -> line.substring(label.length()).strip().split("  ")[0])
        .map(Path::of)
        .findFirst()
        .orElseThrow(() -> new AssertionError("no '" + label + "' line: " + demo.out()));
  }
}
