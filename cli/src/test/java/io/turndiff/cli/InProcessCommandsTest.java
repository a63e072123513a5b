package io.turndiff.cli;

import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TestWorkspace;
import java.nio.file.Path;
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
  private StoreCommandRuns commands;

  @BeforeEach
  void openWorkspaceAndStore() {
    workspace = TestWorkspace.in(temp);
    database = TestStore.fileIn(temp);
    commands = new StoreCommandRuns(database);
  }

  @AfterEach
  void canary() {
    commands.assertNothingLeaked(workspace);
  }

  /** {@code turndiff --db DB args…}, in this JVM; its outputs are checked for the canary. */
  CommandRun turndiff(String... args) {
    return commands.run(args);
  }

  /**
   * A finished turn {@code id} of {@code session} in which {@code file} was given {@code content}.
   */
  void finishedTurn(String session, String id, String file, String content) {
    turndiff(
            "turn",
            "begin",
            "--workspace",
            workspace.root().toString(),
            "--session",
            session,
            "--turn",
            id)
        .expect(0);
    turndiff("snapshot", "--turn", id, file).expect(0);
    workspace.file(file, content);
    turndiff("turn", "finish", "--turn", id).expect(0);
  }
}
