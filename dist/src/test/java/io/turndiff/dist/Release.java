package io.turndiff.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.turndiff.fixtures.CommandRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** The packages this module built (named by Failsafe's system properties) and their unpacking. */
final class Release {

  private Release() {}

  private static String property(String name) {
    String value = System.getProperty(name);
    if (value == null) {
      throw new IllegalStateException("run by failsafe in the dist module, which sets -D" + name);
    }
    return value;
  }

  static Path tarball() {
    return Path.of(property("turndiff.release.tarball"));
  }

  /** The release's folder name, {@code turndiff-<version>-linux-x64}. */
  static String name() {
    return property("turndiff.release.name");
  }

  /** The project's version, which names the packages. */
  static String version() {
    return property("turndiff.release.version");
  }

  /** The version {@code turndiff --version} prints. */
  static String productVersion() {
    return version().replaceFirst("-SNAPSHOT$", "");
  }

  static List<String> modules() {
    return List.of(property("turndiff.release.modules").split(","));
  }

  static Path npmPackages() {
    return Path.of(property("turndiff.npm.packages"));
  }

  static Path debianPackage() throws IOException {
    try (Stream<Path> files = Files.list(Path.of(property("turndiff.deb.package")))) {
      List<Path> debs = files.filter(file -> file.toString().endsWith("_amd64.deb")).toList();
      assertEquals(1, debs.size(), debs.toString());
      return debs.getFirst();
    }
  }

  /** The JDK the build ran on (its jdeps). */
  static Path jdk() {
    return Path.of(property("turndiff.jdk"));
  }

  /** The tarball unpacked into {@code folder}, as a user would: its release folder. */
  static Path unpack(Path folder) throws Exception {
    Files.createDirectories(folder);
    CommandRun.ofProcess(
            new ProcessBuilder("tar", "-xzf", tarball().toString(), "-C", folder.toString()))
        .expect(0);
    return folder.resolve(name());
  }
}
