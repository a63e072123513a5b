package io.turndiff.rewind;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.fixtures.TreeContent;
import io.turndiff.model.WorkspacePath;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * What the type-change tests check over a turn: its patch applies with the real {@code git apply}
 * and {@code git apply -R}, and a rewind's dry run names what the run then does.
 */
final class PatchAndRewindChecks {

  private PatchAndRewindChecks() {}

  /** A tree as git sees it: its files and links (git records no directory). */
  static Map<String, String> asGitSeesIt(Map<String, String> tree) {
    Map<String, String> files = new TreeMap<>(tree);
    files.values().removeIf(entry -> entry.startsWith("dir "));
    return files;
  }

  /**
   * Copies the tree at {@code from} (files with their bytes and modes, links as links, directories
   * with their modes) to {@code to}, which must not exist.
   */
  static Path copy(Path from, Path to) throws IOException {
    try (Stream<Path> walk = Files.walk(from)) {
      List<Path> paths = walk.toList();
      for (Path path : paths) {
        Path target = to.resolve(from.relativize(path).toString());
        if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
          Files.createDirectories(target);
        } else {
          Files.copy(path, target, LinkOption.NOFOLLOW_LINKS, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
      // modes last, deepest first: a read-only directory is filled before it is closed
      for (Path path : paths.reversed()) {
        if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
          Files.setPosixFilePermissions(
              to.resolve(from.relativize(path).toString()), Files.getPosixFilePermissions(path));
        }
      }
    }
    return to;
  }

  /** Removes the tree at {@code root}. */
  static void delete(Path root) throws IOException {
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }

  /**
   * Copies the files and links of the tree at {@code from} to {@code to}, with the directories that
   * hold them: the tree as git sees it, with no empty directory (git records none).
   */
  static Path copyAsGitSeesIt(Path from, Path to) throws IOException {
    Files.createDirectories(to);
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path path : walk.toList()) {
        if (!Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
          Path target = to.resolve(from.relativize(path).toString());
          Files.createDirectories(target.getParent());
          Files.copy(path, target, LinkOption.NOFOLLOW_LINKS, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
    return to;
  }

  /**
   * {@code git apply} of {@code patch} turns the tree {@code before} into {@code after}, and {@code
   * git apply -R} turns it back, both as git sees them (files and links: git records no directory,
   * so an empty one is no part of either). A patch without a git entry (only comments, such as a
   * directory created) changes no file.
   */
  static void appliesBothWays(Path scratch, String patch, Path before, Map<String, String> after)
      throws Exception {
    Path work =
        copyAsGitSeesIt(before, Files.createTempDirectory(scratch, "apply").resolve("tree"));
    Map<String, String> beforeTree = asGitSeesIt(TreeContent.of(work));
    if (patch.contains("diff --git")) {
      Path patchFile = Files.createTempFile(scratch, "turn", ".patch");
      Files.writeString(patchFile, patch);
      git(work, patch, "apply", "--whitespace=nowarn", patchFile.toString());
      assertEquals(asGitSeesIt(after), asGitSeesIt(TreeContent.of(work)), patch);
      git(work, patch, "apply", "-R", "--whitespace=nowarn", patchFile.toString());
    }
    assertEquals(beforeTree, asGitSeesIt(TreeContent.of(work)), patch);
    delete(work.getParent());
  }

  private static void git(Path dir, String patch, String... args) {
    List<String> command =
        new ArrayList<>(List.of("git", "-C", dir.toString(), "-c", "core.quotePath=true"));
    command.addAll(List.of(args));
    try {
      TestWorkspace.run(command.toArray(String[]::new));
    } catch (IllegalStateException failed) {
      throw new AssertionError(failed.getMessage() + "\n" + patch, failed);
    }
  }

  /**
   * What a report says was done to each path and directory, one line each, sorted: a dry run's and
   * the run's are compared with it (the details of a skip included).
   */
  static List<String> outcome(RewindReport report) {
    List<String> lines = new ArrayList<>();
    report.restored().forEach(path -> lines.add("restored " + path.display()));
    report.merged().forEach(path -> lines.add("merged " + path.display()));
    report.unchanged().forEach(path -> lines.add("unchanged " + path.display()));
    report
        .skipped()
        .forEach(
            skip ->
                lines.add(
                    "skipped "
                        + skip.path().display()
                        + " "
                        + skip.reason()
                        + ": "
                        + skip.detail()));
    report.createdDirectories().forEach(path -> lines.add("made " + path.display() + "/"));
    report.removedDirectories().forEach(path -> lines.add("removed " + path.display() + "/"));
    report.directoryModes().forEach(path -> lines.add("mode of " + path.display() + "/"));
    lines.sort(Comparator.naturalOrder());
    return lines;
  }

  static List<String> displayed(List<WorkspacePath> paths) {
    return paths.stream().map(WorkspacePath::display).toList();
  }
}
