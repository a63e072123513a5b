package io.turndiff.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.turndiff.api.Json;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Issue 23's scale where peers break: a tree of many small files ({@link SmallFileTree}, 250,000
 * files in 500 directories by default) tracked by a running per-user service and driven as a
 * runtime's hooks drive it, beside git on the same tree. The first index (the service's {@code
 * /v1/workspaces/track}, default budgets) beside {@code git add -A} + the first commit; then
 * watched turns of 10 changed files each: a Codex {@code UserPromptSubmit} (the begin), the 10
 * files rewritten, a {@code Stop} (the finish, which records them), both posted to the service's
 * hook endpoint as the hook client posts them (over its Unix domain socket, a connection a call;
 * the client's own process start left out), and after each turn {@code git status} and {@code git
 * add -A && git commit} of the same tree. Then what the service's process holds resident ({@code
 * VmRSS}, {@code VmHWM}), and the store's size on disk beside the shadow git's after {@code git
 * gc}.
 */
public final class ScaleBench {

  /** Files a turn rewrites, spread over the tree. */
  static final int CHANGED = 10;

  /** The p50 a begin or a finish should reach at 250,000 files (issue 23 item 7). */
  private static final long HOOK_TARGET_NANOS = 15_000_000L;

  /** The service's resident memory at 250,000 files (issue 23 item 7). */
  private static final long RESIDENT_TARGET_BYTES = 250L << 20;

  /**
   * What to run: the tree's size and seed, turns not counted, turns measured, and the seconds the
   * service is left idle after them before its memory is read again (a runtime's service waits
   * between turns; a collector gives memory back then, if at all).
   */
  public record Options(int files, long seed, int warmup, int turns, int idleSeconds) {
    public Options {
      if (files < CHANGED || turns < 1 || warmup < 0 || idleSeconds < 0) {
        throw new IllegalArgumentException(
            "--files must be at least "
                + CHANGED
                + ", --turns positive, --warmup and --idle not negative");
      }
    }
  }

  private final Options options;
  private final PrintStream progress;

  public ScaleBench(Options options, PrintStream progress) {
    this.options = options;
    this.progress = progress;
  }

  /** The figures; times in nanoseconds, sizes in bytes. */
  public record Result(
      Options options,
      SyntheticTree.Summary tree,
      long gitInitialNanos,
      long trackNanos,
      Samples begins,
      Samples finishes,
      Samples gitStatus,
      Samples gitCommits,
      ServiceProcess.Memory afterTrack,
      ServiceProcess.Memory afterTurns,
      ServiceProcess.Memory afterIdle,
      long storeBytes,
      long gitBytes,
      double loadBefore,
      double loadAfter) {

    public void print(PrintWriter out) {
      out.printf(
          "scale: %d files (%.1f MB) in %d directories, %d watched turns of %d files (machine: %d"
              + " cores, load average %.1f before, %.1f after, Java %s)%n",
          tree.files(),
          tree.bytes() / 1e6,
          (tree.files() + SmallFileTree.FILES_PER_DIRECTORY - 1)
              / SmallFileTree.FILES_PER_DIRECTORY,
          options.turns(),
          CHANGED,
          Runtime.getRuntime().availableProcessors(),
          loadBefore,
          loadAfter,
          System.getProperty("java.version"));
      out.printf(
          "first track through the service (default budgets) %.1f s; git add -A + first commit"
              + " %.1f s (git/turndiff %.2fx)%n",
          trackNanos / 1e9, gitInitialNanos / 1e9, (double) gitInitialNanos / trackNanos);
      out.printf("%-48s %9s %9s %9s%n", "ms per watched turn", "p50", "p90", "p99");
      out.println(begins.row("begin (UserPromptSubmit, posted)", 1e6));
      out.println(finishes.row("finish (Stop, posted; records " + CHANGED + " files)", 1e6));
      out.println(gitStatus.row("  git status (same turns)", 1e6));
      out.println(gitCommits.row("  git add -A && git commit (same turns)", 1e6));
      out.printf(
          "  git status/finish (p50) %.1fx; target for a begin and a finish: <= 15 ms p50 (%s)%n",
          ratio(gitStatus, finishes),
          begins.median() <= HOOK_TARGET_NANOS && finishes.median() <= HOOK_TARGET_NANOS
              ? "met"
              : "NOT met");
      out.printf(
          "service resident: %.0f MB after the track, %.0f MB after the turns, %.0f MB after %d s"
              + " idle, peak %.0f MB; target <= 250 MB after the turns (%s)%n",
          afterTrack.residentBytes() / (double) (1 << 20),
          afterTurns.residentBytes() / (double) (1 << 20),
          afterIdle.residentBytes() / (double) (1 << 20),
          options.idleSeconds(),
          peakBytes() / (double) (1 << 20),
          afterTurns.residentBytes() <= RESIDENT_TARGET_BYTES ? "met" : "NOT met");
      out.printf(
          "store on disk %.1f MB; shadow git after git gc %.1f MB (store/git %.2fx)%n",
          storeBytes / 1e6, gitBytes / 1e6, gitBytes > 0 ? (double) storeBytes / gitBytes : 0);
    }

    /** The service's highest residence over the run, as its three readings saw it. */
    long peakBytes() {
      return ServiceProcess.Memory.peakOver(afterTrack, afterTurns, afterIdle);
    }

    public ObjectNode json() {
      ObjectNode node = Json.object();
      node.putObject("tree").put("files", tree.files()).put("bytes", tree.bytes());
      node.put("turns", options.turns());
      node.put("changed_per_turn", CHANGED);
      node.put("load_before", loadBefore);
      node.put("load_after", loadAfter);
      node.put("turndiff_track_ms", trackNanos / 1e6);
      node.put("git_initial_commit_ms", gitInitialNanos / 1e6);
      ObjectNode operations = node.putObject("operations_ms");
      begins.putInto(operations, "turndiff_begin", 1e6);
      finishes.putInto(operations, "turndiff_finish", 1e6);
      gitStatus.putInto(operations, "git_status", 1e6);
      gitCommits.putInto(operations, "git_add_all_commit", 1e6);
      node.putObject("service_memory_bytes")
          .put("resident_after_track", afterTrack.residentBytes())
          .put("resident_after_turns", afterTurns.residentBytes())
          .put("resident_after_idle", afterIdle.residentBytes())
          .put("peak", peakBytes());
      node.putObject("disk_bytes").put("turndiff_store", storeBytes).put("shadow_git_gc", gitBytes);
      node.putObject("ratios")
          .put("git_status_over_turndiff_finish", ratio(gitStatus, finishes))
          .put("git_add_all_commit_over_turndiff_finish", ratio(gitCommits, finishes));
      return node;
    }

    private static double ratio(Samples anchor, Samples measured) {
      return measured.median() > 0 ? (double) anchor.median() / measured.median() : 0;
    }
  }

  public Result run() throws Exception {
    Path base = Files.createTempDirectory("turndiff-bench-scale-");
    try {
      return run(base);
    } finally {
      TurnBench.deleteTree(base);
    }
  }

  private Result run(Path base) throws Exception {
    double loadBefore = ServiceProcess.loadAverage();
    Path workspace = Files.createDirectories(base.resolve("workspace"));
    SyntheticTree.Summary tree = SmallFileTree.generate(workspace, options.files(), options.seed());
    progress.printf("generated %d files, %.1f MB%n", tree.files(), tree.bytes() / 1e6);
    ShadowGit git = new ShadowGit(base.resolve("shadow.git"), workspace);
    long gitInitial = git.init();
    progress.printf("git add -A + first commit: %.1f s%n", gitInitial / 1e9);
    Path store = base.resolve("store/turndiff.db");
    Samples begins = new Samples();
    Samples finishes = new Samples();
    Samples gitStatus = new Samples();
    Samples gitCommits = new Samples();
    long track;
    ServiceProcess.Memory afterTrack;
    ServiceProcess.Memory afterTurns;
    ServiceProcess.Memory afterIdle;
    try (ServiceProcess service = ServiceProcess.start(base, store)) {
      long start = System.nanoTime();
      service.post(
          "/v1/workspaces/track",
          Json.write(Json.object().put("workspace", workspace.toString()), false),
          200);
      track = System.nanoTime() - start;
      afterTrack = service.memory();
      progress.printf(
          "turndiff track: %.1f s, service resident %d MB%n",
          track / 1e9, afterTrack.residentBytes() >> 20);
      List<Path> changing = SmallFileTree.spread(workspace, tree.files(), CHANGED);
      for (int turn = 0; turn < options.warmup() + options.turns(); turn++) {
        String id = "scale-" + turn;
        long begin = post(service, workspace, id, "UserPromptSubmit");
        for (Path file : changing) {
          Files.write(
              file, ("turn " + turn + " of " + file + "\n").getBytes(StandardCharsets.UTF_8));
        }
        long finish = post(service, workspace, id, "Stop");
        int recorded = service.get("/v1/turns/codex:" + id).path("files").size();
        if (recorded != changing.size()) {
          throw new IllegalStateException(
              "turn " + id + " recorded " + recorded + " files, not " + changing.size());
        }
        long status = git.status();
        long commit = git.commitAll("turn " + turn);
        if (turn >= options.warmup()) {
          begins.add(begin);
          finishes.add(finish);
          gitStatus.add(status);
          gitCommits.add(commit);
        }
        progress.printf(
            "turn %d: begin %.1f ms, finish %.1f ms; git status %.1f ms, commit %.1f ms%n",
            turn, begin / 1e6, finish / 1e6, status / 1e6, commit / 1e6);
      }
      afterTurns = service.memory();
      Thread.sleep(options.idleSeconds() * 1000L);
      afterIdle = service.memory();
    }
    // the store measured once its service let it go (its write-ahead log checkpointed), git's
    // packed as git gc packs it
    long storeBytes = DiskUsage.diskBytes(store.getParent());
    git.gc();
    long gitBytes = DiskUsage.diskBytes(git.directory());
    return new Result(
        options,
        tree,
        gitInitial,
        track,
        begins,
        finishes,
        gitStatus,
        gitCommits,
        afterTrack,
        afterTurns,
        afterIdle,
        storeBytes,
        gitBytes,
        loadBefore,
        ServiceProcess.loadAverage());
  }

  /** Posts a Codex hook of {@code event} for turn {@code turn}; its wall time. */
  private static long post(ServiceProcess service, Path workspace, String turn, String event)
      throws Exception {
    String body = HookLatencyBench.payload(workspace, "scale-session", turn, event, null, null);
    long start = System.nanoTime();
    service.hook("codex", body);
    return System.nanoTime() - start;
  }
}
