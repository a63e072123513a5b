package io.turndiff.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The demo's files, handled as the agent and its tools would handle them, straight on disk: a small
 * workspace in a temp dir beside an outside "credentials" file that a symlink in the workspace
 * points to, the edits of the demo's turn, and the look for the outside secret in the store's files
 * afterwards. The demo plays the agent here; turndiff itself reads and writes a workspace only
 * through the boundary.
 */
final class DemoWorkspace {

  private final Path root;
  private final Path outside;

  private DemoWorkspace(Path root, Path outside) {
    this.root = root;
    this.outside = outside;
  }

  /** Lays out the workspace and, outside it, {@code credentials.env} holding {@code secret}. */
  static DemoWorkspace create(String secret) throws IOException {
    Path base = Files.createTempDirectory("turndiff-demo-");
    Path workspace = base.resolve("workspace");
    Path outside = base.resolve("outside");
    Files.createDirectories(workspace.resolve("src"));
    Files.createDirectories(outside);
    Files.writeString(outside.resolve("credentials.env"), secret + "\n");
    Files.writeString(workspace.resolve("README.md"), "# demo\n\nA tiny project.\n");
    Files.writeString(
        workspace.resolve("src/app.py"),
        String.join(
            "\n",
            "def greet(name):",
            "    return 'hello ' + name",
            "",
            "",
            "if __name__ == '__main__':",
            "    print(greet('world'))",
            ""));
    Files.writeString(workspace.resolve("src/util.py"), "def unused():\n    pass\n");
    Files.createSymbolicLink(
        workspace.resolve("config.env"), Path.of("../outside/credentials.env"));
    return new DemoWorkspace(workspace, outside);
  }

  Path root() {
    return root;
  }

  Path outside() {
    return outside;
  }

  /** Writes a file of the workspace as a tool would (creating its folders). */
  void write(String relative, String content) {
    Path file = root.resolve(relative);
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, content);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Deletes a file of the workspace as a tool would. */
  void delete(String relative) throws IOException {
    Files.delete(root.resolve(relative));
  }

  /** How many times {@code secret} occurs in {@code file} (0 when there is no such file). */
  static int occurrences(String secret, Path file) throws IOException {
    if (!Files.exists(file)) {
      return 0;
    }
    String content = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
    int count = 0;
    for (int at = content.indexOf(secret); at >= 0; at = content.indexOf(secret, at + 1)) {
      count++;
    }
    return count;
  }
}
