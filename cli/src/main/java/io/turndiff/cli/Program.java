package io.turndiff.cli;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Which turndiff a process runs: its version and the jar it was started from, by its real path (the
 * JVM names a class's code source by the real path of its class-path entry, so a release run
 * through a link that an upgrade moves, {@code <prefix>/lib/turndiff/current}, is named by the
 * versioned folder behind it). The per-user service publishes its own in its discovery file; {@code
 * service start} replaces a service whose program is not its own (docs/install.md, "Upgrades").
 *
 * @param version {@link Main#VERSION}
 * @param jar the jar's real path (the classes folder when the code is not run from a jar); null
 *     when a service from before this member was published does not say
 */
record Program(String version, String jar) {

  /** This process's program. */
  static Program current() {
    String jar;
    try {
      jar =
          Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI())
              .toAbsolutePath()
              .normalize()
              .toString();
    } catch (URISyntaxException | RuntimeException unknown) {
      jar = null;
    }
    return new Program(Main.VERSION, jar);
  }

  /** The program a discovery file names. */
  static Program of(Discovery discovery) {
    return new Program(discovery.version(), discovery.program());
  }

  /**
   * Whether a process running {@code other} runs this very program: the same version from the same
   * jar. A program that does not name its jar is another.
   */
  boolean isSame(Program other) {
    return Objects.equals(version, other.version) && jar != null && jar.equals(other.jar);
  }

  @Override
  public String toString() {
    return "turndiff " + version + (jar == null ? "" : " (" + jar + ")");
  }
}
