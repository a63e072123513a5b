package io.turndiff.rewind;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.fixtures.TreeContent;
import io.turndiff.model.WorkspacePath;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * A test over a fresh {@link RewindHarness} in a temp dir, closed with the canary checked: the
 * set-up of every rewind test class whose tests each work in a workspace and store of their own, so
 * that the canary (the outside tree unchanged, the secret nowhere in the store, its files and -wal)
 * is checked after every one of them and no class can leave it out.
 */
abstract class HarnessTest {

  @TempDir Path temp;

  RewindHarness h;

  private final BoundaryOptions options;

  HarnessTest() {
    this(BoundaryOptions.defaults());
  }

  /** Over a boundary of {@code options} (another size limit). */
  HarnessTest(BoundaryOptions options) {
    this.options = options;
  }

  @BeforeEach
  void openHarness() {
    h = new RewindHarness(temp, options);
  }

  @AfterEach
  void closeCheckingCanary() {
    h.closeCheckingCanary();
  }

  Path file(String relative) {
    return h.workspace.resolve(relative);
  }

  /** The whole workspace tree: every entry with its type, mode and bytes. */
  Map<String, String> tree() {
    return TreeContent.of(h.workspace.root());
  }

  static List<String> paths(List<WorkspacePath> paths) {
    return paths.stream().map(WorkspacePath::display).toList();
  }

  /** Runs {@code script} with sh in the workspace, as an agent's shell command would. */
  void sh(String script) throws Exception {
    Process process =
        new ProcessBuilder("sh", "-c", script)
            .directory(h.workspace.root().toFile())
            .redirectErrorStream(true)
            .start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, process.waitFor(), script + ": " + output);
  }
}
