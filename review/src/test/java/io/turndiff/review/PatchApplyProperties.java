package io.turndiff.review;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.capture.CaptureService;
import io.turndiff.fixtures.PathState;
import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.fixtures.TreeContent;
import io.turndiff.store.Store;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
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
 * For generated turns (text with and without a final newline, CRLF, binary, added, deleted, mode
 * changes, symlinks), the turn patch and the range patch apply with the real {@code git apply} to
 * the before-tree and give the after-tree byte for byte, and {@code git apply -R} gives the
 * before-tree back.
 */
class PatchApplyProperties {

  private static Path base;
  private static Store store;
  private static int runs;

  @BeforeContainer
  static void openStore() throws IOException {
    base = Files.createTempDirectory("turndiff-patches");
    store = TestStore.freshIn(base);
  }

  @AfterContainer
  static void closeStore() throws IOException {
    store.close();
    delete(base);
  }

  @Provide
  Arbitrary<List<List<PathState>>> turns() {
    // three states per file (before, after turn 1, after turn 2), for 1..5 files
    return state().list().ofSize(3).list().ofMinSize(1).ofMaxSize(5);
  }

  private static Arbitrary<PathState> state() {
    Arbitrary<String> line = Arbitraries.strings().withChars("ab é\t{}").ofMaxLength(10);
    Arbitrary<byte[]> text =
        Combinators.combine(
                line.list().ofMaxSize(10),
                Arbitraries.of("\n", "\r\n"),
                Arbitraries.of(true, false))
            .as(
                (lines, eol, finalNewline) ->
                    (String.join(eol, lines) + (finalNewline && !lines.isEmpty() ? eol : ""))
                        .getBytes(StandardCharsets.UTF_8));
    Arbitrary<byte[]> binary =
        Arbitraries.bytes()
            .array(byte[].class)
            .ofMinSize(1)
            .ofMaxSize(300)
            .map(
                bytes -> {
                  byte[] copy = bytes.clone();
                  copy[0] = 0;
                  return copy;
                });
    Arbitrary<PathState> regular =
        Combinators.combine(
                Arbitraries.oneOf(text, binary), Arbitraries.of("rwxr-xr-x", "rw-r--r--"))
            .as(PathState.Regular::new);
    Arbitrary<PathState> link = Arbitraries.of("target-a", "dir/target-b").map(PathState.Link::new);
    return Arbitraries.frequencyOf(
        Tuple.of(2, Arbitraries.just(new PathState.Absent())),
        Tuple.of(6, regular),
        Tuple.of(1, link));
  }

  private static Map<String, String> files(Path root) {
    Map<String, String> files = new TreeMap<>(TreeContent.of(root));
    files.values().removeIf(entry -> entry.startsWith("dir "));
    return files;
  }

  @Property(tries = 25)
  void turnAndRangePatchesRoundTripWithGitApply(@ForAll("turns") List<List<PathState>> files)
      throws Exception {
    Path run = Files.createDirectory(base.resolve("r" + runs++));
    TestWorkspace workspace = TestWorkspace.in(run);
    List<String> names = new ArrayList<>();
    for (int i = 0; i < files.size(); i++) {
      names.add((i % 2 == 0 ? "src/" : "") + "f" + i + (i % 3 == 0 ? ".bin" : ".txt"));
      files.get(i).get(0).putAt(workspace.resolve(names.get(i)));
    }
    List<Path> trees = new ArrayList<>();
    trees.add(copy(workspace.root(), run.resolve("tree0")));
    List<String> turns = new ArrayList<>();
    try (CaptureService capture = new CaptureService(store, BoundaryOptions.defaults())) {
      for (int step = 1; step <= 2; step++) {
        String turn =
            capture.beginTurn(workspace.root(), Optional.of("s" + runs), Optional.empty()).turn();
        capture.snapshot(turn, Optional.empty(), names);
        for (int i = 0; i < files.size(); i++) {
          files.get(i).get(step).putAt(workspace.resolve(names.get(i)));
        }
        capture.finishTurn(turn);
        turns.add(turn);
        trees.add(copy(workspace.root(), run.resolve("tree" + step)));
      }
    }
    ReviewQueries queries = new ReviewQueries(store);
    roundTrip(run, queries.patch(turns.get(0), List.of()), trees.get(0), trees.get(1));
    roundTrip(run, queries.patch(turns.get(1), List.of()), trees.get(1), trees.get(2));
    roundTrip(run, queries.range(turns.get(0), turns.get(1)).patch(), trees.get(0), trees.get(2));
  }

  /** git apply turns a copy of {@code before} into {@code after}; git apply -R turns it back. */
  private static void roundTrip(Path run, String patch, Path before, Path after) throws Exception {
    Path work = copy(before, Files.createTempDirectory(run, "apply"));
    Path patchFile = Files.createTempFile(run, "patch", ".diff");
    Files.writeString(patchFile, patch);
    if (!patch.isBlank() && patch.contains("diff --git")) {
      git(work, patch, "apply", "--whitespace=nowarn", patchFile.toString());
    }
    assertEquals(files(after), files(work), patch);
    if (!patch.isBlank() && patch.contains("diff --git")) {
      git(work, patch, "apply", "-R", "--whitespace=nowarn", patchFile.toString());
    }
    assertEquals(files(before), files(work), patch);
  }

  /** Runs git in {@code dir}, which must succeed (naming {@code patch} if not); its output. */
  static String git(Path dir, String patch, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("git"));
    command.addAll(List.of(args));
    Process process =
        new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(60, TimeUnit.SECONDS));
    assertEquals(
        0, process.exitValue(), () -> String.join(" ", command) + ": " + output + "\n" + patch);
    return output;
  }

  private static Path copy(Path from, Path to) throws IOException {
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path source : (Iterable<Path>) walk::iterator) {
        Path target = to.resolve(from.relativize(source).toString());
        if (Files.isSymbolicLink(source)) {
          Files.createSymbolicLink(target, Files.readSymbolicLink(source));
        } else if (Files.isDirectory(source)) {
          Files.createDirectories(target);
        } else {
          Files.copy(source, target, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
    return to;
  }

  private static void delete(Path root) throws IOException {
    try (Stream<Path> walk = Files.walk(root)) {
      walk.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    }
  }
}
