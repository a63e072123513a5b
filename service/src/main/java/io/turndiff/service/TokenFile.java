package io.turndiff.service;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The file {@code turndiff serve} leaves its bearer token in, beside the store (or where {@code
 * --token-file} says): the service's own file, never a workspace's, so it is written with the JDK's
 * file API.
 */
public final class TokenFile {

  private TokenFile() {}

  /**
   * The token a service left in {@code file}; empty when there is no such file (no service yet).
   */
  public static Optional<String> read(Path file) throws IOException {
    try {
      return Optional.of(Files.readString(file, StandardCharsets.UTF_8).strip());
    } catch (NoSuchFileException noServiceYet) {
      return Optional.empty();
    }
  }

  /**
   * Writes the token to a new 0600 file and renames it over the name, so it is never readable by
   * others.
   */
  public static void writePrivately(Path file, String token) throws IOException {
    Files.createDirectories(file.getParent());
    ServiceFiles.writePrivately(file, token + "\n");
  }
}
