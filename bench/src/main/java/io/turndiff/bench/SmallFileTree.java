package io.turndiff.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A wide tree of small files, the shape of issue 23's 250,000-file measurement (60 MB of content in
 * 500 directories): {@value #FILES_PER_DIRECTORY} Java-like text files of about 200 bytes per
 * directory, {@code d0/}, {@code d1/}, … (51.8 MB at 250,000 files). Where {@link SyntheticTree}
 * makes a tree whose bytes cost (6 KB a file, 2.1 GB at 250,000), this one makes the file count
 * cost: a whole-tree operation is then paid per entry, as it is in a monorepo or a {@code
 * node_modules}-like checkout. Deterministic for a seed.
 */
public final class SmallFileTree {

  static final int FILES_PER_DIRECTORY = 500;

  private SmallFileTree() {}

  public static SyntheticTree.Summary generate(Path root, int files, long seed) throws IOException {
    Random random = new Random(seed);
    long bytes = 0;
    for (int i = 0; i < files; i++) {
      Path directory = root.resolve("d" + i / FILES_PER_DIRECTORY);
      if (i % FILES_PER_DIRECTORY == 0) {
        Files.createDirectories(directory);
      }
      // text() writes a header of about 150 bytes, then lines up to the size asked for
      byte[] content = SyntheticTree.text(random, 120 + random.nextInt(120));
      Files.write(directory.resolve("F" + i + ".java"), content);
      bytes += content.length;
    }
    return new SyntheticTree.Summary(files, bytes);
  }

  /**
   * Up to {@code count} of the files {@link #generate} made in {@code root}, evenly apart over the
   * tree (their names are known).
   */
  static List<Path> spread(Path root, int files, int count) {
    int chosen = Math.min(count, files);
    List<Path> paths = new ArrayList<>();
    for (int i = 0; i < chosen; i++) {
      int index = i * files / chosen;
      paths.add(root.resolve("d" + index / FILES_PER_DIRECTORY).resolve("F" + index + ".java"));
    }
    return paths;
  }
}
