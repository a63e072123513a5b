package io.turndiff.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

/** Flat sets of generated source files of one size, for the microbenchmarks. */
public final class SyntheticTreeFiles {

  private SyntheticTreeFiles() {}

  /** Writes {@code count} files {@code f0.java}… of about {@code size} bytes of Java-like text. */
  public static void write(Path directory, int count, int size) throws IOException {
    Random random = new Random(3);
    for (int i = 0; i < count; i++) {
      Files.write(directory.resolve("f" + i + ".java"), SyntheticTree.text(random, size));
    }
  }
}
