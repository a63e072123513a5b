package io.turndiff.boundary;

import static org.junit.jupiter.api.Assertions.assertFalse;

import io.turndiff.fixtures.TestWorkspace;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * The write tests' canary: the outside tree is unchanged, and no file outside holds what a test
 * wrote.
 */
final class WriteCanary {

  private WriteCanary() {}

  /**
   * @param written a marker every test writes into the workspace (never outside)
   */
  static void assertNothingLandedOutside(TestWorkspace workspace, String written) {
    workspace.assertOutsideUnchanged();
    try (Stream<Path> outside = Files.walk(workspace.outside())) {
      outside
          .filter(Files::isRegularFile)
          .forEach(
              file -> assertFalse(read(file).contains(written), "a write landed outside: " + file));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String read(Path file) {
    try {
      return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
