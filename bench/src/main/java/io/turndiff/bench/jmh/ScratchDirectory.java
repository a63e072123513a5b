package io.turndiff.bench.jmh;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;

/** The temporary folder a benchmark's trial made its store and files in, removed at its end. */
final class ScratchDirectory {

  private ScratchDirectory() {}

  /** Removes {@code base} and everything below it, deepest first. */
  static void remove(Path base) throws IOException {
    try (var walk = Files.walk(base)) {
      walk.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    }
  }
}
