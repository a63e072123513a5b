package io.turndiff.service;

import io.turndiff.ownfiles.OwnDirectory;
import io.turndiff.ownfiles.OwnFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The file {@code turndiff serve} leaves its bearer token in, beside the store (or where {@code
 * --token-file} says): the service's own file, never a workspace's, so it is read and written
 * through {@code io.turndiff.ownfiles}.
 */
public final class TokenFile {

  /** More than any token: a longer file is not a token file. */
  static final int BOUND = 4096;

  private TokenFile() {}

  /**
   * The token a service left in {@code file}; empty when there is no such file (no service yet).
   */
  public static Optional<String> read(Path file) throws IOException {
    // no file: no service yet
    return OwnFile.of(file).readText(BOUND).map(String::strip);
  }

  /**
   * Writes the token to a new 0600 file and renames it over the name, so it is never readable by
   * others.
   */
  public static void writePrivately(Path file, String token) throws IOException {
    OwnDirectory.of(file.getParent()).make();
    ServiceFiles.writePrivately(file, token + "\n");
  }
}
