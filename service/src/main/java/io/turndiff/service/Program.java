package io.turndiff.service;

import io.turndiff.ownfiles.OwnFile;
import java.io.File;
import java.io.IOException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Which turndiff a process runs: its version and the jar it was started from, by its real path (a
 * release run through a link that an upgrade moves, {@code <prefix>/lib/turndiff/current}, is named
 * by the versioned folder behind it). The per-user service publishes its own in its discovery file;
 * {@code service start} replaces a service whose program is not its own (docs/install.md, "The hook
 * command and upgrades").
 *
 * <p>The jar is the class path's first entry, as the launcher gave it, and not the code source of a
 * class: a class taken from an AOT cache names the jar the cache was trained with, which for a
 * release is the build's folder.
 *
 * @param version the program's version ({@code turndiff --version})
 * @param jar the jar's real path; null when a service from before this member does not say
 */
public record Program(String version, String jar) {

  /** This process's program, of {@code version}. */
  public static Program current(String version) {
    return new Program(version, jar(System.getProperty("java.class.path", "")));
  }

  private static String jar(String classPath) {
    String first = classPath.split(File.pathSeparator, 2)[0];
    if (first.isEmpty()) {
      return null;
    }
    try {
      return OwnFile.of(Path.of(first)).realPath().toString();
    } catch (IOException | InvalidPathException gone) {
      return Path.of(first).toAbsolutePath().normalize().toString();
    }
  }

  /** The program a discovery file names. */
  public static Program of(Discovery discovery) {
    return new Program(discovery.version(), discovery.program());
  }

  /**
   * Whether a process running {@code other} runs this very program: the same version from the same
   * jar. A program that does not name its jar is another.
   */
  public boolean isSame(Program other) {
    return Objects.equals(version, other.version) && jar != null && jar.equals(other.jar);
  }

  @Override
  public String toString() {
    return "turndiff " + version + (jar == null ? "" : " (" + jar + ")");
  }
}
