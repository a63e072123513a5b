package io.turndiff.capture.track;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * {@link GitIndexFile#names} in a JVM of its own, so that a test can give it a {@code
 * java.io.tmpdir} of its choosing (the JDK reads that property once per JVM): prints how many names
 * the index at {@code args[0]} holds, or {@code refused}.
 */
final class GitIndexNamesProcess {

  private GitIndexNamesProcess() {}

  public static void main(String[] args) throws Exception {
    Optional<List<byte[]>> names = GitIndexFile.names(Files.readAllBytes(Path.of(args[0])));
    System.out.println(names.map(read -> "names " + read.size()).orElse("refused"));
  }
}
