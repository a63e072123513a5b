package io.turndiff.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.turndiff.hooks.HookOutcome;
import io.turndiff.model.ChangeKind;
import io.turndiff.store.StoredFileChange;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The hook turn's benchmark times the same work at every prompt, as its figures are read: each
 * prompt's Stop records the {@value HookTurnBenchmark#CALLS} files its calls wrote, and a file
 * written again, a round of the {@value HookTurnBenchmark#FILES} files later, is changed again and
 * keeps its size, so a run of a few thousand prompts does not end on files that grew a line at each
 * write.
 */
class HookTurnBenchmarkTest {

  /** Prompts enough that the first prompt's files are written again, by the last. */
  private static final int PROMPTS = HookTurnBenchmark.FILES / HookTurnBenchmark.CALLS + 1;

  @Test
  void eachPromptChangesTheFilesItWritesAndLeavesEveryFileItsSize() throws IOException {
    HookTurnBenchmark benchmark = new HookTurnBenchmark();
    benchmark.createWorkspace();
    try {
      long sizes = totalSize(benchmark.workspace);
      Path writtenTwice = benchmark.workspace.resolve("f0.java");
      String original = Files.readString(writtenTwice);
      String afterFirstPrompt = null;
      for (int prompt = 1; prompt <= PROMPTS; prompt++) {
        HookOutcome stop = benchmark.promptOf50Writes();
        List<ChangeKind> recorded =
            benchmark.turndiff.queries().records(stop.turn().orElseThrow()).changes().stream()
                .map(StoredFileChange::change)
                .map(Optional::orElseThrow)
                .toList();
        assertEquals(
            Collections.nCopies(HookTurnBenchmark.CALLS, ChangeKind.MODIFIED),
            recorded,
            "what the Stop of prompt " + prompt + " recorded");
        if (prompt == 1) {
          afterFirstPrompt = Files.readString(writtenTwice);
          assertNotEquals(original, afterFirstPrompt, "f0.java after the first prompt");
        }
      }
      assertNotEquals(
          afterFirstPrompt, Files.readString(writtenTwice), "f0.java, written again by the last");
      assertEquals(sizes, totalSize(benchmark.workspace), "the files' sizes, all together");
    } finally {
      benchmark.close();
    }
  }

  private static long totalSize(Path workspace) throws IOException {
    long total = 0;
    try (Stream<Path> files = Files.list(workspace)) {
      for (Path file : files.toList()) {
        total += Files.size(file);
      }
    }
    return total;
  }
}
