package io.turndiff.cli;

import io.turndiff.boundary.WorkspaceBoundary;
import io.turndiff.boundary.WriteOutcome;
import io.turndiff.model.LinkTarget;
import io.turndiff.model.Snapshot;
import io.turndiff.model.WorkspacePath;
import io.turndiff.ownfiles.OwnDirectory;
import io.turndiff.ownfiles.OwnFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The demo's files, handled as the agent and its tools would handle them: a small workspace in a
 * temp dir beside an outside "credentials" file that a symlink in the workspace points to, the
 * edits of the demo's turn, and the look for the outside secret in the store's files afterwards.
 * The demo plays the agent, yet writes like any workspace write of turndiff's: through the
 * boundary's write protocol, here over the demo's temp dir (the workspace and its outside beside
 * it), so nothing of the demo's reaches past that dir either.
 */
final class DemoWorkspace {

  /** A file the demo writes gets the mode a tool's usually has ({@code rw-r--r--}). */
  private static final int FILE_MODE = 0644;

  /** The whole store file is searched for the secret, however large (as much as an array holds). */
  private static final int WHOLE_FILE = Integer.MAX_VALUE - 16;

  /** The demo's temp dir: the workspace and, beside it, the outside. */
  private final Path folder;

  private DemoWorkspace(Path folder) {
    this.folder = folder;
  }

  /** Lays out the workspace and, outside it, {@code credentials.env} holding {@code secret}. */
  static DemoWorkspace create(String secret) throws IOException {
    DemoWorkspace demo = new DemoWorkspace(OwnDirectory.temporary("turndiff-demo-").path());
    demo.change("outside/credentials.env", writing(secret + "\n"));
    demo.write("README.md", "# demo\n\nA tiny project.\n");
    demo.write(
        "src/app.py",
        String.join(
            "\n",
            "def greet(name):",
            "    return 'hello ' + name",
            "",
            "",
            "if __name__ == '__main__':",
            "    print(greet('world'))",
            ""));
    demo.write("src/util.py", "def unused():\n    pass\n");
    demo.change(
        "workspace/config.env",
        (base, path) ->
            staged(
                base,
                path,
                base.stageSymlink(
                    path, LinkTarget.of("../outside/credentials.env"), Optional.empty())));
    return demo;
  }

  Path root() {
    return folder.resolve("workspace");
  }

  Path outside() {
    return folder.resolve("outside");
  }

  /**
   * Where the demo keeps its store when the user named none: beside the workspace in the demo's
   * temp dir, so that {@link #remove} takes it too.
   */
  Path temporaryStore() {
    return folder.resolve("store/turndiff.db");
  }

  /**
   * Removes the demo's temp dir and everything in it: the workspace, the outside file and a
   * temporary store. The workspace's link out is removed as a link, never followed.
   */
  void remove() throws IOException {
    OwnDirectory.of(folder).removeTree();
  }

  /** Writes a file of the workspace as a tool would (creating its folders). */
  void write(String relative, String content) {
    change("workspace/" + relative, writing(content));
  }

  /** Deletes a file of the workspace as a tool would. */
  void delete(String relative) {
    change("workspace/" + relative, (base, path) -> base.deleteIfUnchanged(path, now(base, path)));
  }

  /** One change of the demo's, the agent's: whatever the path holds now is replaced. */
  @FunctionalInterface
  private interface Change {
    WriteOutcome apply(WorkspaceBoundary base, WorkspacePath path);
  }

  private static Change writing(String content) {
    return (base, path) ->
        staged(
            base,
            path,
            base.stageFile(
                path, content.getBytes(StandardCharsets.UTF_8), FILE_MODE, Optional.empty()));
  }

  /** Renames a staged file over its name, whatever the name holds now (the demo is the agent). */
  private static WriteOutcome staged(
      WorkspaceBoundary base, WorkspacePath path, WriteOutcome staged) {
    return staged instanceof WriteOutcome.Staged ready
        ? base.commitIfUnchanged(ready, now(base, path))
        : staged;
  }

  private static Snapshot now(WorkspaceBoundary base, WorkspacePath path) {
    return base.observeExact(path).snapshot();
  }

  /** Makes {@code change} at {@code relative} through the boundary over the demo's temp dir. */
  private void change(String relative, Change change) {
    WorkspacePath path = WorkspacePath.of(relative);
    try (WorkspaceBoundary base = WorkspaceBoundary.open(folder)) {
      WriteOutcome outcome = change.apply(base, path);
      if (!outcome.done()) {
        throw new UncheckedIOException(
            new IOException("the demo cannot change " + relative + ": " + outcome));
      }
      base.syncDirectory(path.parent());
    }
  }

  /** How many times {@code secret} occurs in {@code file} (0 when there is no such file). */
  static int occurrences(String secret, Path file) throws IOException {
    Optional<byte[]> bytes = OwnFile.of(file).read(WHOLE_FILE);
    if (bytes.isEmpty()) {
      return 0;
    }
    String content = new String(bytes.get(), StandardCharsets.ISO_8859_1);
    int count = 0;
    for (int at = content.indexOf(secret); at >= 0; at = content.indexOf(secret, at + 1)) {
      count++;
    }
    return count;
  }
}
