package io.turndiff.bench;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.turndiff.api.Turndiff;
import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.capture.track.Tracker;
import io.turndiff.capture.track.WatchOptions;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The per-call attribution of shell changes alone (issue 24 item 1), on a tree of small files of
 * any size ({@link SmallFileTree}): the rows {@code turndiff bench} prints for its generated tree,
 * without the turns, rewinds and status rounds around them, so that a 250,000-file tree takes
 * minutes rather than an hour. The tree is committed to a shadow git and tracked whole by a store
 * opened as the service opens it (with the watcher); then a turn of shell calls that each change
 * one file, and one of calls that each change ten, each call beside {@code git add -A && git
 * commit} in the same round.
 */
public final class ShellCallBench {

  /** Files a call of the second kind changes, spread over the tree. */
  private static final int CHANGED = 10;

  /** What to run: the tree's size and seed, and the rounds per kind of call. */
  public record Options(int files, long seed, int warmup, int rounds) {}

  private final Options options;
  private final PrintStream progress;

  public ShellCallBench(Options options, PrintStream progress) {
    this.options = options;
    this.progress = progress;
  }

  /**
   * The figures: the tree, what setting it up cost (git's first commit, turndiff's first index),
   * and per kind of call turndiff's Pre + Post against git's whole-tree commit, same rounds.
   */
  public record Result(
      SyntheticTree.Summary tree,
      int rounds,
      long gitInitialNanos,
      long trackNanos,
      ShellCallRounds.Figures oneFile,
      ShellCallRounds.Figures tenFiles) {

    public void print(PrintWriter out) {
      out.printf(
          "shell calls on %d files (%.1f MB), %d rounds; git initial commit %.1f s, turndiff"
              + " track %.1f s%n",
          tree.files(), tree.bytes() / 1e6, rounds, gitInitialNanos / 1e9, trackNanos / 1e9);
      out.printf("%-48s %9s %9s %9s%n", "ms per shell call", "p50", "p90", "p99");
      out.println(oneFile.calls().row("shell call attributed (Pre + Post, 1 file)", 1e6));
      out.println(oneFile.commits().row("  git add -A && git commit (same rounds)", 1e6));
      out.printf("  ratio git/turndiff (p50) %.1fx%n", ratio(oneFile));
      out.println(
          tenFiles.calls().row("shell call attributed (Pre + Post, " + CHANGED + " files)", 1e6));
      out.println(tenFiles.commits().row("  git add -A && git commit (same rounds)", 1e6));
      out.printf("  ratio git/turndiff (p50) %.1fx%n", ratio(tenFiles));
    }

    public ObjectNode json() {
      ObjectNode node = JsonNodeFactory.instance.objectNode();
      node.putObject("tree").put("files", tree.files()).put("bytes", tree.bytes());
      node.put("rounds", rounds);
      node.put("git_initial_commit_ms", gitInitialNanos / 1e6);
      node.put("turndiff_track_ms", trackNanos / 1e6);
      ObjectNode ops = node.putObject("operations_ms");
      oneFile.calls().putInto(ops, "turndiff_shell_call_attributed", 1e6);
      oneFile.commits().putInto(ops, "git_commit_all_per_shell_call", 1e6);
      tenFiles.calls().putInto(ops, "turndiff_shell_call_attributed_10_files", 1e6);
      tenFiles.commits().putInto(ops, "git_commit_all_per_shell_call_10_files", 1e6);
      node.putObject("ratios")
          .put("git_commit_all_over_shell_call", ratio(oneFile))
          .put("git_commit_all_over_shell_call_10_files", ratio(tenFiles));
      return node;
    }

    private static double ratio(ShellCallRounds.Figures figures) {
      long calls = figures.calls().median();
      return calls > 0 ? (double) figures.commits().median() / calls : 0;
    }
  }

  public Result run() throws Exception {
    Path base = Files.createTempDirectory("turndiff-bench-shell-");
    try {
      return run(base);
    } finally {
      TurnBench.deleteTree(base);
    }
  }

  private Result run(Path base) throws Exception {
    Path workspace = Files.createDirectories(base.resolve("workspace"));
    SyntheticTree.Summary tree = SmallFileTree.generate(workspace, options.files(), options.seed());
    progress.printf("generated %d files, %.1f MB%n", tree.files(), tree.bytes() / 1e6);
    ShadowGit git = new ShadowGit(base.resolve("shadow.git"), workspace);
    long gitInitial = git.init();
    progress.printf("shadow git initial commit: %.1f s%n", gitInitial / 1e9);
    try (Turndiff service =
        Turndiff.builder(base.resolve("store/turndiff.db"))
            .boundary(BoundaryOptions.defaults())
            .watch(WatchOptions.SERVICE)
            .open()) {
      Tracker tracker = service.capture().tracker();
      long start = System.nanoTime();
      tracker.track(workspace, TurnBench.WHOLE_TREE);
      long track = System.nanoTime() - start;
      progress.printf("turndiff track: %.1f s%n", track / 1e9);
      ShellCallRounds rounds = new ShellCallRounds(options.warmup(), options.rounds());
      List<Path> changing = SmallFileTree.spread(workspace, tree.files(), CHANGED);
      ShellCallRounds.Figures one = rounds.measure(service, workspace, changing.subList(0, 1), git);
      progress.printf(
          "1 file: turndiff %.1f ms, git %.1f ms (p50)%n",
          one.calls().medianMillis(), one.commits().medianMillis());
      ShellCallRounds.Figures ten = rounds.measure(service, workspace, changing, git);
      progress.printf(
          "%d files: turndiff %.1f ms, git %.1f ms (p50)%n",
          changing.size(), ten.calls().medianMillis(), ten.commits().medianMillis());
      return new Result(tree, options.rounds(), gitInitial, track, one, ten);
    }
  }
}
