package io.turndiff.rewind;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.fixtures.TreeContent;
import io.turndiff.model.RewindStatus;
import io.turndiff.model.Sha256;
import io.turndiff.store.StoredRewindEntry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The journal of a rewind of more paths than one multi-row statement takes (64): its entries are
 * added, given their temporary names and marked many at a time, in statements of up to 64 entries,
 * one per kind of mark ({@code RewindOperations}); each entry still ends with its own path, in the
 * plan's order, with its own status, reason, merged content and temporary name.
 */
class JournalOfManyPathsTest extends HarnessTest {

  private static final int FILES = 140;

  private static String lines(String second, String ninth) {
    StringBuilder text = new StringBuilder();
    for (int i = 1; i <= 10; i++) {
      text.append(i == 2 ? second : i == 9 ? ninth : "line " + i).append('\n');
    }
    return text.toString();
  }

  private static String name(int i) {
    return String.format("f%03d.txt", i);
  }

  @Test
  void everyEntryOfAManyPathRewindIsJournaledAsItsOwn() throws Exception {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < FILES; i++) {
      names.add(name(i));
      h.workspace.file(name(i), lines("line 2", "line 9"));
    }
    String turn =
        h.turn(
            names,
            () -> {
              for (String name : names) {
                Files.writeString(h.workspace.resolve(name), lines("TURN 2", "line 9"));
              }
            });
    // after the turn: one path changed where the turn did (a conflict), one elsewhere (merged),
    // one put back by hand (already there)
    Files.writeString(h.workspace.resolve(name(7)), lines("USER 2", "line 9"));
    Files.writeString(h.workspace.resolve(name(70)), lines("TURN 2", "USER 9"));
    Files.writeString(h.workspace.resolve(name(130)), lines("line 2", "line 9"));
    Map<String, String> conflictKept = Map.of(name(7), lines("USER 2", "line 9"));
    RewindReport report = h.rewindTurn(turn);

    assertEquals(List.of(name(7)), report.skipped().stream().map(s -> s.path().display()).toList());
    assertEquals(List.of(name(70)), paths(report.merged()));
    assertEquals(FILES - 2, report.restored().size());
    List<StoredRewindEntry> entries =
        h.store.read(
            tx ->
                tx.rewinds()
                    .entries(tx.rewinds().byExternalId(report.operation()).orElseThrow().id()));
    assertEquals(names, entries.stream().map(e -> e.path().display()).toList(), "in plan order");
    Set<String> temporaryNames = new HashSet<>();
    for (StoredRewindEntry entry : entries) {
      String path = entry.path().display();
      if (path.equals(name(7))) {
        assertEquals(RewindStatus.SKIPPED, entry.status(), path);
        assertEquals(Optional.of(SkipReason.CONFLICT), entry.reason(), path);
        assertEquals(Optional.empty(), entry.merged());
      } else if (path.equals(name(70))) {
        assertEquals(RewindStatus.MERGED, entry.status(), path);
        assertEquals(
            Optional.of(Sha256.of(lines("line 2", "USER 9").getBytes(StandardCharsets.UTF_8))),
            entry.merged());
      } else if (path.equals(name(130))) {
        assertEquals(RewindStatus.RESTORED, entry.status(), path);
        assertEquals(Optional.of("it already held its before-state"), entry.detail());
      } else {
        assertEquals(RewindStatus.RESTORED, entry.status(), path);
        assertEquals(Optional.empty(), entry.reason(), path);
        assertEquals(Optional.empty(), entry.detail(), path);
        assertEquals(Optional.empty(), entry.merged(), path);
      }
      assertTrue(entry.temporaryName().isPresent(), "each planned path got a name: " + path);
      assertTrue(temporaryNames.add(entry.temporaryName().get()), "its own: " + path);
    }
    Map<String, String> tree = TreeContent.of(h.workspace.root());
    for (int i = 0; i < FILES; i++) {
      String expected =
          i == 7
              ? conflictKept.get(name(i))
              : i == 70 ? lines("line 2", "USER 9") : lines("line 2", "line 9");
      assertEquals(
          expected, Files.readString(h.workspace.resolve(name(i))), "content of " + name(i));
    }
    assertEquals(FILES, tree.size() - extra(tree));
  }

  /** Entries of the tree that are not the test's files (none are expected). */
  private static int extra(Map<String, String> tree) {
    return (int) tree.keySet().stream().filter(path -> !path.matches("f\\d{3}\\.txt")).count();
  }
}
