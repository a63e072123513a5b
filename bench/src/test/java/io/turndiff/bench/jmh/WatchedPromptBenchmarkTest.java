package io.turndiff.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.turndiff.hooks.HookOutcome;
import io.turndiff.model.ChangeKind;
import io.turndiff.store.StoredFileChange;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The watched prompt's benchmark times the same work at every prompt, as its figures are read: its
 * ten files change at each prompt, each Stop records the ten, and they stay the size they were, so
 * a run of 3,000 prompts does not end on files of some 45 KB that began at about 200 bytes.
 */
class WatchedPromptBenchmarkTest {

  @Test
  void eachPromptChangesItsTenFilesAndLeavesThemTheirSize() throws IOException {
    WatchedPromptBenchmark benchmark = new WatchedPromptBenchmark();
    benchmark.files = 200;
    benchmark.trackWorkspace();
    try {
      benchmark.promptOf10UnnamedWrites();
      List<String> first = contents(benchmark.changing);
      List<Long> sizes = sizes(benchmark.changing);
      List<String> previous = first;
      for (int prompt = 2; prompt <= 9; prompt++) {
        HookOutcome stop = benchmark.promptOf10UnnamedWrites();
        List<StoredFileChange> recorded =
            benchmark.turndiff.queries().records(stop.turn().orElseThrow()).changes();
        assertEquals(
            Collections.nCopies(WatchedPromptBenchmark.CHANGED, ChangeKind.MODIFIED),
            recorded.stream().map(change -> change.change().orElseThrow()).toList(),
            "what the Stop of prompt " + prompt + " recorded: " + recorded);
        List<String> now = contents(benchmark.changing);
        for (int i = 0; i < now.size(); i++) {
          assertNotEquals(previous.get(i), now.get(i), "file " + i + " at prompt " + prompt);
        }
        previous = now;
      }
      // prompts 1 to 9 write numbers of one digit: the same length each time
      assertEquals(sizes, sizes(benchmark.changing), "the files' sizes after nine prompts");
    } finally {
      benchmark.close();
    }
  }

  private static List<String> contents(List<Path> files) throws IOException {
    List<String> contents = new ArrayList<>();
    for (Path file : files) {
      contents.add(Files.readString(file));
    }
    return contents;
  }

  private static List<Long> sizes(List<Path> files) throws IOException {
    List<Long> sizes = new ArrayList<>();
    for (Path file : files) {
      sizes.add(Files.size(file));
    }
    return sizes;
  }
}
