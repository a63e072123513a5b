package io.turndiff.cli;

import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.store.Store;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * A test of commands run in this JVM over a fresh store and workspace in a temp dir; after each
 * test the canary is checked: the outside tree unchanged, the secret's bytes in no command's stdout
 * or stderr, no store file and no blob.
 */
abstract class InProcessCommandsTest {

  @TempDir Path temp;

  TestWorkspace workspace;
  Path database;
  private final List<CommandRun> runs = new ArrayList<>();

  @BeforeEach
  void openWorkspaceAndStore() {
    workspace = TestWorkspace.in(temp);
    database = TestStore.fileIn(temp);
  }

  @AfterEach
  void canary() {
    workspace.assertOutsideUnchanged();
    for (CommandRun run : runs) {
      workspace.canary().assertNotIn("stdout", run.out());
      workspace.canary().assertNotIn("stderr", run.err());
    }
    try (Store store = Store.open(database)) {
      workspace.canary().assertNotInStore(store);
    }
  }

  /** {@code turndiff --db DB args…}, in this JVM; its outputs are checked for the canary. */
  CommandRun turndiff(String... args) {
    List<String> withStore = new ArrayList<>(List.of("--db", database.toString()));
    withStore.addAll(List.of(args));
    CommandRun run = CliRun.inProcess(withStore.toArray(String[]::new));
    runs.add(run);
    return run;
  }
}
