package io.turndiff.boundary;

import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.model.WorkspacePath;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A workspace tree that is one chain of directories named {@code d}, {@code depth} deep, with a
 * file {@code f<level>.txt} at every {@code every}th level and at the bottom. Deeper than {@code
 * PATH_MAX} (4,096 bytes) no path can name its bottom, so it is built as an agent's tools would
 * have to: in chunks short enough to name, from the bottom up, each moved under the next by one
 * rename.
 */
final class DeepChain {

  private static final int CHUNK = 1_000;

  /** The directory the bottom holds besides its file, and the one file in it. */
  static final String BOTTOM_DIRECTORY = "new";

  static final String BOTTOM_DIRECTORY_FILE = "g.txt";

  private final int depth;
  private final int every;
  private final boolean directoryAtBottom;

  DeepChain(int depth, int every) {
    this(depth, every, false);
  }

  /**
   * A chain whose bottom directory also holds {@code new/g.txt} when {@code directoryAtBottom}: a
   * directory an agent's tool made there, which a re-scan walks whole.
   */
  DeepChain(int depth, int every, boolean directoryAtBottom) {
    this.depth = depth;
    this.every = every;
    this.directoryAtBottom = directoryAtBottom;
  }

  /**
   * Builds the chain under {@code root}, staging its chunks in {@code staging} (same file system).
   */
  void build(Path root, Path staging) {
    try {
      Files.createDirectories(staging);
      Path below = null;
      for (int top = ((depth - 1) / CHUNK) * CHUNK + 1; top >= 1; top -= CHUNK) {
        Path chunk = Files.createDirectory(staging.resolve("chunk-" + top));
        Path at = chunk;
        for (int level = top; level < top + CHUNK && level <= depth; level++) {
          at = Files.createDirectory(at.resolve("d"));
          if (hasFile(level)) {
            Files.writeString(at.resolve(fileName(level)), content(level));
          }
          if (level == depth && directoryAtBottom) {
            Files.writeString(
                Files.createDirectory(at.resolve(BOTTOM_DIRECTORY)).resolve(BOTTOM_DIRECTORY_FILE),
                content(level));
          }
        }
        if (below != null) {
          Files.move(below, at.resolve("d"));
        }
        below = chunk.resolve("d");
      }
      Files.move(below, root.resolve("d"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Removes the chain under {@code root}: {@code rm -rf} walks it relative to each directory,
   * linear in its depth, where a delete by paths (the test's temporary directory, realpath of each)
   * cannot name its bottom and costs the depth's square.
   */
  static void remove(Path root) {
    TestWorkspace.run("rm", "-rf", root.resolve("d").toString());
  }

  /** Every file's workspace path ({@code d/d/.../f<level>.txt}), from the top down. */
  List<String> files() {
    List<String> files = new ArrayList<>();
    for (int level = 1; level <= depth; level++) {
      if (hasFile(level)) {
        files.add("d/".repeat(level) + fileName(level));
      }
    }
    if (directoryAtBottom) {
      files.add("d/".repeat(depth) + BOTTOM_DIRECTORY + "/" + BOTTOM_DIRECTORY_FILE);
    }
    return files;
  }

  /**
   * What a watch sees change after an edit at the bottom: the bottom file, and the bottom's new
   * directory when the chain has one.
   */
  List<WorkspacePath> bottomStarts() {
    String bottom = "d/".repeat(depth);
    List<WorkspacePath> starts = new ArrayList<>();
    starts.add(WorkspacePath.of(bottom + fileName(depth)));
    if (directoryAtBottom) {
      starts.add(WorkspacePath.of(bottom + BOTTOM_DIRECTORY));
    }
    return starts;
  }

  static String content(int level) {
    return "level " + level + "\n";
  }

  static byte[] contentBytes(int level) {
    return content(level).getBytes(StandardCharsets.UTF_8);
  }

  private boolean hasFile(int level) {
    return level % every == 0 || level == depth;
  }

  private static String fileName(int level) {
    return "f" + level + ".txt";
  }
}
