package io.turndiff.rewind;

import java.io.FileInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A process that records a turn rewriting {@code N} files in ten directories, then rewinds it,
 * marking where the rewind begins, where it answers and where the sync after the answer ends by
 * opening three files that do not exist (an {@code openat} a tracer sees by name): {@link
 * TracedRewind} runs it under {@code strace} and cuts the trace at the marks, for the counts of
 * {@link RewindSyncCountTest} and {@link RewindFileCallsTest}.
 */
final class MarkedRewind {

  static final String BEGINS = "rewind-begins.mark";
  static final String ENDS = "rewind-ends.mark";
  static final String SYNCED = "rewind-synced.mark";

  private MarkedRewind() {}

  /** {@code args}: a fresh directory, the number of files. Prints the report. */
  public static void main(String[] args) throws Exception {
    Path temp = Path.of(args[0]);
    int files = Integer.parseInt(args[1]);
    try (RewindHarness h = new RewindHarness(temp)) {
      List<String> paths = new ArrayList<>();
      for (int i = 0; i < files; i++) {
        String path = "d" + (i % 10) + "/f" + i + ".txt";
        h.workspace.file(path, "before " + i + "\n");
        paths.add(path);
      }
      String turn =
          h.turn(
              paths,
              () -> {
                for (String path : paths) {
                  Files.writeString(h.workspace.resolve(path), "after " + path + "\n");
                }
              });
      mark(temp.resolve(BEGINS));
      RewindReport report =
          h.rewind.rewind(new RewindRequest(turn, false, Optional.empty(), false, false));
      mark(temp.resolve(ENDS));
      // after the answer: what the command line does once it has printed the report
      boolean synced = h.rewind.makeDurable(report);
      mark(temp.resolve(SYNCED));
      System.out.println(
          report.complete()
              + " "
              + report.restored().size()
              + " "
              + report.durability()
              + " "
              + synced);
    }
  }

  /** Opens a file that is not there: one {@code openat} naming it, nothing else. */
  private static void mark(Path absent) {
    try (FileInputStream never = new FileInputStream(absent.toFile())) {
      throw new IllegalStateException(absent + " exists");
    } catch (IOException expected) {
      // the openat the tracer looks for has happened
    }
  }
}
