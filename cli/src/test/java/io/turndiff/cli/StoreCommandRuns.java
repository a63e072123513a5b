package io.turndiff.cli;

import io.turndiff.fixtures.CommandRun;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.store.Store;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code turndiff} command run in-process against one test's store file ({@code --db}), each
 * run kept so that the test can end with the canary: the outside tree unchanged, the secret's bytes
 * in no run's stdout or stderr and nowhere in the store.
 */
final class StoreCommandRuns {

  private final Path database;
  private final List<CommandRun> runs = new ArrayList<>();

  StoreCommandRuns(Path database) {
    this.database = database;
  }

  CommandRun run(String... args) {
    List<String> withStore = new ArrayList<>(List.of("--db", database.toString()));
    withStore.addAll(List.of(args));
    CommandRun run = CliRun.inProcess(withStore.toArray(String[]::new));
    runs.add(run);
    return run;
  }

  /** Begins a turn of {@code session} in {@code workspace}: its id. */
  String beginTurn(TestWorkspace workspace, String session) {
    return run("turn", "begin", "--workspace", workspace.root().toString(), "--session", session)
        .expect(0)
        .json()
        .get("turn")
        .asText();
  }

  /** The canary over every run and the store (when a run made one). */
  void assertNothingLeaked(TestWorkspace workspace) {
    workspace.assertOutsideUnchanged();
    for (CommandRun run : runs) {
      workspace.canary().assertNotIn("stdout", run.out());
      workspace.canary().assertNotIn("stderr", run.err());
    }
    if (Files.exists(database)) {
      try (Store store = Store.open(database)) {
        workspace.canary().assertNotInStore(store);
      }
    }
  }
}
