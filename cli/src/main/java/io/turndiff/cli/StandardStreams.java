package io.turndiff.cli;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The process's standard output and error as UTF-8 print streams. {@code System.out} encodes text
 * in the locale's charset; these encode it in UTF-8 themselves and hand {@code System.out} (and
 * {@code System.err}) only bytes, which it passes to file descriptor 1 (2) as they are, flushed at
 * each write. Opens no file.
 */
final class StandardStreams {

  private StandardStreams() {}

  static PrintStream out() {
    return new PrintStream(System.out, true, StandardCharsets.UTF_8);
  }

  static PrintStream err() {
    return new PrintStream(System.err, true, StandardCharsets.UTF_8);
  }
}
