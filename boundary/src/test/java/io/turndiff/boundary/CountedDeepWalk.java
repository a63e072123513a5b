package io.turndiff.boundary;

import java.io.FileInputStream;
import java.io.IOException;
import java.nio.file.Path;

/**
 * A process that walks a workspace whole through the boundary, marking where the walk begins and
 * ends by opening two files that do not exist (an {@code openat} a tracer sees by name): {@link
 * DeepWalkCountTest} runs it under {@code strace} and counts the opens between the marks. A first
 * walk of an empty directory loads the classes, so that none is opened inside the marks.
 */
final class CountedDeepWalk {

  static final String BEGINS = "walk-begins.mark";
  static final String ENDS = "walk-ends.mark";

  private CountedDeepWalk() {}

  /** {@code args}: the workspace, an empty directory, the directory for the marks. */
  public static void main(String[] args) throws Exception {
    walk(Path.of(args[1]));
    Path marks = Path.of(args[2]);
    mark(marks.resolve(BEGINS));
    int files = walk(Path.of(args[0]));
    mark(marks.resolve(ENDS));
    System.out.println("files " + files);
  }

  private static int walk(Path root) {
    FoundInWalk found = new FoundInWalk();
    try (WorkspaceBoundary boundary = WorkspaceBoundary.open(root)) {
      boundary.scan(found);
    }
    if (!found.unlisted.isEmpty()) {
      throw new IllegalStateException("unlisted: " + found.unlisted);
    }
    return found.files.size();
  }

  /** Opens a file that is not there: one {@code openat} naming it, nothing else. */
  static void mark(Path absent) {
    try (FileInputStream never = new FileInputStream(absent.toFile())) {
      throw new IllegalStateException(absent + " exists");
    } catch (IOException expected) {
      // the openat the tracer looks for has happened
    }
  }
}
