package io.turndiff.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The process's standard output and error as UTF-8 print streams, written to file descriptors 1 and
 * 2 directly (not through {@code System.out}, whose encoding follows the locale). Opens no file by
 * name.
 */
final class StandardStreams {

  private StandardStreams() {}

  static PrintStream out() {
    return new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
  }

  static PrintStream err() {
    return new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
  }
}
