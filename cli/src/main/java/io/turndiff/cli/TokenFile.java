package io.turndiff.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The file {@code turndiff serve} leaves its bearer token in, beside the store (or where {@code
 * --token-file} says): the service's own file, never a workspace's, so it is written with the JDK's
 * file API.
 */
final class TokenFile {

  private TokenFile() {}

  /**
   * Writes the token to a new 0600 file and renames it over the name, so it is never readable by
   * others.
   */
  static void writePrivately(Path file, String token) throws IOException {
    Files.createDirectories(file.getParent());
    ServiceFiles.writePrivately(file, token + "\n");
  }
}
