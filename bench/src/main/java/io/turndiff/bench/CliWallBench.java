package io.turndiff.bench;

import io.turndiff.api.Json;
import io.turndiff.api.wire.WireBeganTurn;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The wall time of one-shot CLI calls as a user or a hook script pays it (process start through
 * exit, the launcher included), against {@code git status} on the same tree in the same run. The
 * calls are interleaved, so that a machine that gets busier slows every row alike.
 */
public final class CliWallBench {

  private final Path launcher;
  private final int files;
  private final int calls;
  private final int warmup;
  private final PrintStream progress;

  public CliWallBench(Path launcher, int files, int calls, int warmup, PrintStream progress) {
    this.launcher = launcher;
    this.files = files;
    this.calls = calls;
    this.warmup = warmup;
    this.progress = progress;
  }

  /** What each row ran, and how the launcher started the JVM. */
  public record Result(
      int files,
      int calls,
      String startUp,
      Samples version,
      Samples status,
      Samples turns,
      Samples show,
      Samples servedStatus,
      Samples servedTurns,
      Samples servedShow,
      Samples gitStatus) {

    public void print(PrintWriter out) {
      out.printf(
          "one CLI call, wall time (process start to exit), %d calls each, tree of %d files;"
              + " start-up: %s (machine: %d cores, Java %s)%n",
          calls,
          files,
          startUp,
          Runtime.getRuntime().availableProcessors(),
          System.getProperty("java.version"));
      out.printf("%-44s %9s %9s %14s%n", "", "median ms", "p90 ms", "git/turndiff");
      row(out, "turndiff --version", version);
      row(out, "turndiff status (tracked workspace)", status);
      row(out, "turndiff turns --workspace", turns);
      row(out, "turndiff show --turn", show);
      row(out, "turndiff status, through the service", servedStatus);
      row(out, "turndiff turns --workspace, through the service", servedTurns);
      row(out, "turndiff show --turn, through the service", servedShow);
      out.printf(
          "%-44s %9.1f %9.1f%n",
          "git status --porcelain (anchor)", gitStatus.medianMillis(), gitStatus.p90Millis());
    }

    private void row(PrintWriter out, String name, Samples samples) {
      out.printf(
          "%-44s %9.1f %9.1f %13.2fx%n",
          name,
          samples.medianMillis(),
          samples.p90Millis(),
          (double) gitStatus.median() / samples.median());
    }
  }

  public Result run() throws IOException, InterruptedException {
    Path base = Files.createTempDirectory("turndiff-cli-bench-");
    try {
      Path workspace = Files.createDirectories(base.resolve("workspace"));
      SyntheticTree.generate(workspace, files, 1);
      ShadowGit git = new ShadowGit(base.resolve("shadow.git"), workspace);
      git.init();
      String store = base.resolve("store.db").toString();
      String turn = trackAndBegin(store, workspace);
      // the same workspace in a second store whose service runs: the launcher's command client
      // has that service answer (docs/service.md, "Commands through the service"), while the first
      // store's commands, with no service, run in a JVM; the rows alternate in one loop
      String served = base.resolve("served.db").toString();
      String servedTurn = trackAndBegin(served, workspace);
      turndiff("--db", served, "service", "start");
      // the first short command trains the launcher's cache when there is none: measure what a
      // user gets from then on
      turndiff("--version");
      awaitTraining();
      String startUp = startUp();
      Samples version = new Samples();
      Samples status = new Samples();
      Samples turns = new Samples();
      Samples show = new Samples();
      Samples servedStatus = new Samples();
      Samples servedTurns = new Samples();
      Samples servedShow = new Samples();
      Samples gitStatus = new Samples();
      for (int i = 0; i < warmup + calls; i++) {
        boolean counted = i >= warmup;
        long v = turndiff("--version");
        long s = turndiff("--db", store, "status", "--workspace", workspace.toString());
        long t = turndiff("--db", store, "turns", "--workspace", workspace.toString());
        long w = turndiff("--db", store, "show", "--turn", turn);
        long ss = turndiff("--db", served, "status", "--workspace", workspace.toString());
        long st = turndiff("--db", served, "turns", "--workspace", workspace.toString());
        long sw = turndiff("--db", served, "show", "--turn", servedTurn);
        long g = git.status();
        if (counted) {
          version.add(v);
          status.add(s);
          turns.add(t);
          show.add(w);
          servedStatus.add(ss);
          servedTurns.add(st);
          servedShow.add(sw);
          gitStatus.add(g);
        }
        progress.printf("call %d/%d%n", i + 1, warmup + calls);
      }
      return new Result(
          files,
          calls,
          startUp,
          version,
          status,
          turns,
          show,
          servedStatus,
          servedTurns,
          servedShow,
          gitStatus);
    } finally {
      stopService(base.resolve("served.db"));
      TurnBench.deleteTree(base);
    }
  }

  /** Tracks {@code workspace} into {@code store} and begins a turn there: the turn's id. */
  private String trackAndBegin(String store, Path workspace)
      throws IOException, InterruptedException {
    turndiff("--db", store, "track", "--workspace", workspace.toString());
    return Json.read(
            call(
                    "--db",
                    store,
                    "turn",
                    "begin",
                    "--workspace",
                    workspace.toString(),
                    "--session",
                    "s1")
                .output(),
            WireBeganTurn.class)
        .orElseThrow()
        .turn();
  }

  /** Stops the service of {@code store} when one was started. */
  private void stopService(Path store) throws IOException, InterruptedException {
    if (Files.exists(store)) {
      call("--db", store.toString(), "service", "stop", "--force", "--wait", "10");
    }
  }

  /** Waits for a training the launcher runs in the background (a few minutes at most). */
  private void awaitTraining() throws InterruptedException {
    Path training = launcher.resolveSibling("cli/target/turndiff.aot.training");
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
    boolean told = false;
    while (Files.exists(training) && System.nanoTime() < deadline) {
      if (!told) {
        progress.println("waiting for the launcher to train its ahead-of-time cache...");
        told = true;
      }
      Thread.sleep(500);
    }
  }

  /** How the launcher starts a short command now: from its trained cache, or not yet. */
  private String startUp() {
    Path cache = launcher.resolveSibling("cli/target/turndiff.aot");
    return Files.isRegularFile(cache)
        ? "ahead-of-time cache " + cache.getFileName()
        : "class-data archive (no ahead-of-time cache trained yet)";
  }

  /** Runs the launcher with {@code args}; nanoseconds from start to exit. */
  private long turndiff(String... args) throws IOException, InterruptedException {
    return call(args).nanos();
  }

  /** One call of the launcher: its wall time and what it printed. */
  private record Call(long nanos, String output) {}

  private Call call(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(launcher.toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().remove("TURNDIFF_DB");
    long start = System.nanoTime();
    Process process = builder.start();
    byte[] output = process.getInputStream().readAllBytes();
    if (!process.waitFor(5, TimeUnit.MINUTES) || process.exitValue() != 0) {
      throw new IOException(
          String.join(" ", command) + " failed: " + new String(output, StandardCharsets.UTF_8));
    }
    return new Call(System.nanoTime() - start, new String(output, StandardCharsets.UTF_8));
  }
}
