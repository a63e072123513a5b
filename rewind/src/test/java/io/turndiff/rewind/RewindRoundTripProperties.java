package io.turndiff.rewind;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.fixtures.PathState;
import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.fixtures.TreeContent;
import io.turndiff.store.Store;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * For generated before/after states of a few files (text with and without a final newline, CRLF,
 * binary, empty, absent, symlinks, modes), capturing a turn and rewinding it gives back the
 * before-state exactly: bytes, modes, link texts, absences.
 */
class RewindRoundTripProperties {

  private static Path base;
  private static Store store;
  private static int workspaces;

  @BeforeContainer
  static void openStore() throws IOException {
    base = Files.createTempDirectory("turndiff-roundtrip");
    store = TestStore.freshIn(base);
  }

  @AfterContainer
  static void closeStore() throws IOException {
    store.close();
    try (var walk = Files.walk(base)) {
      walk.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    }
  }

  record Change(PathState before, PathState after) {}

  @Provide
  Arbitrary<List<Change>> changes() {
    return Combinators.combine(state(), state()).as(Change::new).list().ofMinSize(1).ofMaxSize(4);
  }

  private static Arbitrary<PathState> state() {
    Arbitrary<String> mode = Arbitraries.of("rw-r--r--", "rwxr-xr-x", "rw-------", "rwx------");
    Arbitrary<String> line = Arbitraries.strings().withChars("abc xyz{}();é").ofMaxLength(12);
    Arbitrary<byte[]> text =
        Combinators.combine(
                line.list().ofMaxSize(12),
                Arbitraries.of("\n", "\r\n"),
                Arbitraries.of(true, false))
            .as(
                (lines, eol, finalNewline) -> {
                  String joined =
                      String.join(eol, lines) + (finalNewline && !lines.isEmpty() ? eol : "");
                  return joined.getBytes(StandardCharsets.UTF_8);
                });
    Arbitrary<byte[]> binary =
        Arbitraries.bytes()
            .array(byte[].class)
            .ofMinSize(1)
            .ofMaxSize(64)
            .map(
                bytes -> {
                  byte[] withNul = bytes.clone();
                  withNul[0] = 0;
                  return withNul;
                });
    Arbitrary<PathState> regular =
        Combinators.combine(Arbitraries.oneOf(text, binary), mode).as(PathState.Regular::new);
    Arbitrary<PathState> link =
        Arbitraries.of("missing-1", "missing-2", "sub/missing").map(PathState.Link::new);
    return Arbitraries.frequencyOf(
        Tuple.of(2, Arbitraries.just(new PathState.Absent())),
        Tuple.of(6, regular),
        Tuple.of(2, link));
  }

  @Property(tries = 60)
  void captureThenRewindGivesBackTheBeforeState(@ForAll("changes") List<Change> changes)
      throws Exception {
    Path temp = Files.createDirectory(base.resolve("w" + workspaces++));
    TestWorkspace workspace = TestWorkspace.in(temp);
    List<String> names = new ArrayList<>();
    for (int i = 0; i < changes.size(); i++) {
      names.add("file-" + i + (i % 2 == 0 ? ".txt" : ".bin"));
      changes.get(i).before().putAt(workspace.resolve(names.get(i)));
    }
    Map<String, String> before = TreeContent.of(workspace.root());
    try (RewindHarness harness = new RewindHarness(workspace, store, "s" + workspaces)) {
      String turn =
          harness.turn(
              names,
              () -> {
                for (int i = 0; i < changes.size(); i++) {
                  changes.get(i).after().putAt(workspace.resolve(names.get(i)));
                }
              });
      RewindReport report = harness.rewindTurn(turn);
      assertTrue(report.complete(), report.toString());
      assertEquals(before, TreeContent.of(workspace.root()), report.toString());
    }
    workspace.assertOutsideUnchanged();
  }
}
