package io.turndiff.rewind;

import static io.turndiff.rewind.PatchAndRewindChecks.appliesBothWays;
import static io.turndiff.rewind.PatchAndRewindChecks.copy;
import static io.turndiff.rewind.PatchAndRewindChecks.outcome;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.turndiff.capture.track.TrackingOptions;
import io.turndiff.fixtures.TestStore;
import io.turndiff.fixtures.TestWorkspace;
import io.turndiff.fixtures.TreeContent;
import io.turndiff.store.Store;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * For generated histories of a small tree whose paths change type from turn to turn (a file, a
 * symlink to a directory or to a sibling, a directory holding files and directories, nothing), in a
 * workspace whose tools announce their paths or in a tracked one changed by the shell alone: each
 * turn's patch turns the tree before it into the tree after it with {@code git apply} and back with
 * {@code git apply -R}; rewinding every turn, newest first (one at a time, or all at once with
 * {@code --to}), gives the first tree byte for byte, each dry run saying what its run does; and
 * undoing those rewinds gives the last tree.
 */
// The file system's side of type changes: the store only keeps the states, through the same few
// queries RewindServiceTest and RewindPathsTest run on PostgreSQL, so the PostgreSQL run leaves
// this class out (it took a minute of CI there); the posix run keeps it
@Tag("store-independent")
class TypeChangeProperties {

  private static Path base;
  private static Store store;
  private static int runs;

  @BeforeContainer
  static void openStore() throws IOException {
    base = Files.createTempDirectory("turndiff-type-changes");
    store = TestStore.freshIn(base);
  }

  @AfterContainer
  static void closeStore() throws IOException {
    store.close();
    try (Stream<Path> walk = Files.walk(base)) {
      walk.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    }
  }

  /** What one path of the generated tree holds (nothing is its absence from its directory). */
  sealed interface Node {}

  record File(String text, String permissions) implements Node {}

  record Link(String target) implements Node {}

  record Directory(String permissions, Map<String, Node> entries) implements Node {}

  /** The names a directory at each depth may hold: {@code p/r/t} is the deepest path. */
  private static final List<List<String>> NAMES =
      List.of(List.of("p", "q"), List.of("r", "s"), List.of("t"));

  @Provide
  Arbitrary<List<Map<String, Node>>> histories() {
    return entries(0).list().ofMinSize(2).ofMaxSize(4);
  }

  private static Arbitrary<Map<String, Node>> entries(int depth) {
    List<String> names = NAMES.get(depth);
    return node(depth)
        .optional()
        .list()
        .ofSize(names.size())
        .map(
            nodes -> {
              Map<String, Node> entries = new TreeMap<>();
              for (int i = 0; i < names.size(); i++) {
                int at = i;
                nodes.get(i).ifPresent(node -> entries.put(names.get(at), node));
              }
              return entries;
            });
  }

  private static Arbitrary<Node> node(int depth) {
    Arbitrary<Node> file =
        Combinators.<String, String>combine(
                Arbitraries.of("", "one\n", "two\nlines\n", "no newline"),
                Arbitraries.of("rw-r--r--", "rwxr-xr-x"))
            .as(File::new);
    // a link to a directory inside that never changes, to a file in it, to a directory outside
    // (captured as the link; never followed), or to nothing
    Arbitrary<Node> link =
        Arbitraries.of("real", "real/x.txt", "../outside/dir", "missing").map(Link::new);
    List<Tuple.Tuple2<Integer, Arbitrary<Node>>> kinds = new ArrayList<>();
    kinds.add(Tuple.of(4, file));
    if (depth == 0) {
      kinds.add(Tuple.of(2, link));
    }
    if (depth + 1 < NAMES.size()) {
      kinds.add(
          Tuple.of(
              4,
              Combinators.combine(
                      Arbitraries.of("rwxr-xr-x", "rwx------", "rwxr-x---"),
                      Arbitraries.lazy(() -> entries(depth + 1)))
                  .as(Directory::new)));
    }
    return Arbitraries.frequencyOf(kinds);
  }

  @Property(tries = 30)
  void rewindingEveryTurnNewestFirstGivesTheFirstTreeAndItsUndoTheLast(
      @ForAll("histories") List<Map<String, Node>> trees,
      @ForAll boolean tracked,
      @ForAll boolean together,
      @ForAll boolean force)
      throws Exception {
    Path run = Files.createDirectory(base.resolve("r" + runs++));
    TestWorkspace workspace = TestWorkspace.in(run).file("real/x.txt", "x\n");
    put(workspace.root(), trees.getFirst(), 0);
    try (RewindHarness harness = new RewindHarness(workspace, store, "s" + runs)) {
      if (tracked) {
        harness.capture.tracker().track(workspace.root(), TrackingOptions.DEFAULTS);
      }
      Map<String, String> first = TreeContent.of(workspace.root());
      List<String> turns = new ArrayList<>();
      for (int i = 1; i < trees.size(); i++) {
        Path before = copy(workspace.root(), run.resolve("tree" + i));
        String turn =
            harness
                .capture
                .beginTurn(workspace.root(), Optional.of("s" + runs), Optional.empty())
                .turn();
        edit(harness, turn, trees.get(i - 1), trees.get(i), tracked);
        harness.capture.finishTurn(turn);
        appliesBothWays(
            run, harness.queries.patch(turn, List.of()), before, TreeContent.of(workspace.root()));
        turns.add(turn);
      }
      Map<String, String> last = TreeContent.of(workspace.root());

      List<String> rewindTurns = new ArrayList<>();
      for (String turn : together ? List.of(turns.getFirst()) : turns.reversed()) {
        RewindReport dry =
            harness.rewind.rewind(new RewindRequest(turn, together, Optional.empty(), true, force));
        RewindReport report =
            harness.rewind.rewind(
                new RewindRequest(turn, together, Optional.empty(), false, force));
        assertEquals(outcome(dry), outcome(report), "the dry run is the run");
        assertTrue(report.complete(), report.toString());
        // a rewind that puts nothing back (the trees it spans end where they began) adds no turn
        report.rewindTurn().ifPresent(rewindTurns::add);
      }
      assertEquals(first, TreeContent.of(workspace.root()), "the first tree, byte for byte");

      for (String rewindTurn : rewindTurns.reversed()) {
        RewindReport undo = harness.rewindTurn(rewindTurn);
        assertTrue(undo.complete(), undo.toString());
      }
      assertEquals(last, TreeContent.of(workspace.root()), "the undo gives the last tree");
    }
    // the canary: the outside tree unchanged, the secret's bytes in no store file and no blob
    workspace.assertOutsideUnchanged();
    workspace.canary().assertNotInStore(store);
  }

  /**
   * Turns the workspace's tree from {@code before} into {@code after} as an agent's tools would:
   * one depth at a time, the paths it is about to touch announced first (in a workspace that is not
   * tracked), never one under a symlink (that would name what the link reaches, which the tool does
   * not touch).
   */
  private static void edit(
      RewindHarness harness,
      String turn,
      Map<String, Node> before,
      Map<String, Node> after,
      boolean tracked)
      throws IOException {
    Path root = harness.workspace.root();
    List<String> touched = new ArrayList<>();
    paths("", before, touched);
    paths("", after, touched);
    for (int depth = 0; depth < NAMES.size(); depth++) {
      if (!tracked) {
        List<String> reachable =
            touched.stream().distinct().filter(path -> noLinkAbove(root, path)).toList();
        // two empty trees in a row leave nothing to announce (a snapshot call names at least one)
        if (!reachable.isEmpty()) {
          harness.capture.snapshot(turn, Optional.of("depth-" + depth), reachable);
        }
      }
      putDepth(root, after, 0, depth);
    }
  }

  private static void paths(String prefix, Map<String, Node> entries, List<String> into) {
    entries.forEach(
        (name, node) -> {
          into.add(prefix + name);
          if (node instanceof Directory directory) {
            paths(prefix + name + "/", directory.entries(), into);
          }
        });
    // a name the other tree holds is added from that tree
  }

  private static boolean noLinkAbove(Path root, String path) {
    Path at = root;
    String[] components = path.split("/");
    for (int i = 0; i < components.length - 1; i++) {
      at = at.resolve(components[i]);
      if (Files.isSymbolicLink(at)) {
        return false;
      }
    }
    return true;
  }

  /** Makes {@code directory} hold {@code entries}, whole: every depth at once. */
  private static void put(Path directory, Map<String, Node> entries, int depth) throws IOException {
    for (int at = depth; at < NAMES.size(); at++) {
      putDepth(directory, entries, depth, at);
    }
  }

  /**
   * Makes the names at depth {@code target} under {@code directory} (at depth {@code depth}) hold
   * what {@code entries} says: each replaced when it holds another kind, removed when it is absent.
   */
  private static void putDepth(Path directory, Map<String, Node> entries, int depth, int target)
      throws IOException {
    for (String name : NAMES.get(depth)) {
      Path path = directory.resolve(name);
      Node wanted = entries.get(name);
      if (depth < target) {
        if (wanted instanceof Directory inside) {
          putDepth(path, inside.entries(), depth + 1, target);
        }
        continue;
      }
      if (!holdsKindOf(path, wanted)) {
        removeTree(path);
      }
      switch (wanted) {
        case null -> {}
        case File file -> {
          Files.write(path, file.text().getBytes(StandardCharsets.UTF_8));
          Files.setPosixFilePermissions(path, PosixFilePermissions.fromString(file.permissions()));
        }
        case Link link -> {
          if (!Files.isSymbolicLink(path)) {
            Files.createSymbolicLink(path, Path.of(link.target()));
          }
        }
        case Directory inside -> {
          if (!Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
            Files.createDirectory(path);
          }
          Files.setPosixFilePermissions(
              path, PosixFilePermissions.fromString(inside.permissions()));
        }
      }
    }
  }

  /** Whether {@code path} holds a node of {@code wanted}'s kind (a link: with its text). */
  private static boolean holdsKindOf(Path path, Node wanted) throws IOException {
    return switch (wanted) {
      case null -> !Files.exists(path, LinkOption.NOFOLLOW_LINKS);
      case File file -> Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS);
      case Link link ->
          Files.isSymbolicLink(path)
              && Files.readSymbolicLink(path).toString().equals(link.target());
      case Directory directory -> Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS);
    };
  }

  private static void removeTree(Path path) throws IOException {
    if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(path)) {
      for (Path entry : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(entry);
      }
    }
  }
}
