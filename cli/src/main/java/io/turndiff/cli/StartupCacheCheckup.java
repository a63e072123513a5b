package io.turndiff.cli;

import io.turndiff.api.wire.WireDoctorReport.Check;
import io.turndiff.ownfiles.OwnFile;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code turndiff doctor}'s look at the ahead-of-time caches beside the jar this command runs from:
 * the commands' ({@code turndiff.aot}) and the service's own ({@code turndiff-service.aot}). The
 * checkout's launcher trains each once per jar in the background; a training that failed leaves its
 * output in {@code <cache>.failed} and is not tried again while that file is there, so that a
 * failure costs one training's CPU, not one per command. Without its cache a command starts from
 * the class-data archive, slower, and the service compiles its hook path while it serves
 * (docs/performance.md); nothing is lost, but the user is told here, with the file that says why. A
 * release ships the commands' cache and trains nothing.
 */
final class StartupCacheCheckup {

  static final String NAME = "start-up caches";

  /** What the failure's file shows of the training's output: its first line, at most this long. */
  private static final int SHOWN = 200;

  /** What is read of the failure's file: its heading and the output's first lines. */
  private static final int READ_LIMIT = 8 * 1024;

  private StartupCacheCheckup() {}

  /** The caches beside the jar {@link Main} was loaded from; skipped when it ran from classes. */
  static Check ofThisJar() {
    try {
      Path location =
          Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      return location.getFileName().toString().endsWith(".jar")
          ? beside(location)
          : Check.skip(NAME, "this turndiff runs from " + location + ", not from a jar");
    } catch (URISyntaxException
        | IllegalArgumentException
        | FileSystemNotFoundException
        | SecurityException
        | NullPointerException unknown) {
      return Check.skip(NAME, "cannot tell which jar this turndiff runs from");
    }
  }

  /** The caches beside {@code jar}. */
  static Check beside(Path jar) {
    String base = jar.getFileName().toString().replaceFirst("\\.jar$", "");
    List<String> states = new ArrayList<>();
    List<Path> failed = new ArrayList<>();
    for (Cache cache :
        List.of(
            new Cache("the commands'", jar.resolveSibling(base + ".aot")),
            new Cache("the service's", jar.resolveSibling(base + "-service.aot")))) {
      try {
        Path failure = cache.failure();
        // a cache in place is used, whatever an earlier training left
        if (!cache.inPlace() && OwnFile.of(failure).exists(LinkOption.NOFOLLOW_LINKS)) {
          failed.add(failure);
          states.add(
              cache.name()
                  + " failed to train"
                  + reason(failure).map(reason -> ": " + reason).orElse(""));
        } else {
          states.add(cache.name() + " " + cache.state());
        }
      } catch (IOException unreadable) {
        states.add(cache.name() + " unreadable (" + unreadable.getMessage() + ")");
      }
    }
    String found = String.join("; ", states);
    if (failed.isEmpty()) {
      return Check.ok(NAME, found);
    }
    return Check.warn(
        NAME,
        found,
        "the training's output is in "
            + String.join(" and ", failed.stream().map(Path::toString).toList())
            + "; remove that file to train again at the next command (commands and the service"
            + " work without a cache, only start slower)");
  }

  /**
   * The first line of the training's output, after the launcher's own heading line; empty when the
   * file is not a regular one. Read from its start only, as whatever bytes it holds: a JVM's output
   * may be long, and need not be UTF-8.
   */
  private static Optional<String> reason(Path failure) throws IOException {
    if (!OwnFile.of(failure).isRegularFile(LinkOption.NOFOLLOW_LINKS)) {
      return Optional.empty();
    }
    String start = new String(OwnFile.of(failure).first(READ_LIMIT), StandardCharsets.UTF_8);
    return start
        .lines()
        .skip(1)
        .filter(line -> !line.isBlank())
        .findFirst()
        .map(line -> line.length() > SHOWN ? line.substring(0, SHOWN) + "..." : line);
  }

  /** One cache: its name for the user and its file. */
  private record Cache(String name, Path file) {

    Path failure() {
      return file.resolveSibling(file.getFileName() + ".failed");
    }

    boolean inPlace() {
      return OwnFile.of(file).isRegularFile();
    }

    /**
     * In place, training (the launcher's training folder is there: a training runs, or a killed one
     * left it until the next), or none (not trained yet; a release ships the commands' alone).
     */
    String state() {
      if (inPlace()) {
        return "in place";
      }
      return OwnFile.of(file.resolveSibling(file.getFileName() + ".training")).isDirectory()
          ? "training"
          : "none";
    }
  }
}
