package io.turndiff.bench.jmh;

import io.turndiff.api.Turndiff;
import io.turndiff.bench.SmallFileTree;
import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.capture.track.TrackingOptions;
import io.turndiff.capture.track.WatchOptions;
import io.turndiff.hooks.HookOutcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A prompt in a tracked workspace that the service watches, in-process through its hooks (no HTTP),
 * as {@code bench scale} drives it over the service's port: Claude Code's {@code UserPromptSubmit},
 * {@value #CHANGED} files rewritten with no tool call naming them (a shell command's writes, which
 * the watcher finds), then the {@code Stop}. What it times is a begin's and a finish's own work,
 * the statements they run included, without the client, the HTTP edge or the tree's size (a watched
 * scan looks at the changed names); every 50th scan is also checked by a whole walk ({@link
 * WatchOptions#SERVICE}), which shows in the tail, not at the median.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(time = 2)
@Measurement(time = 2)
public class WatchedPromptBenchmark {

  /** Files rewritten in each prompt, as {@code bench scale}'s turns rewrite ten. */
  static final int CHANGED = 10;

  @Param("20000")
  public int files;

  private Path base;

  /** Package-private, as {@link #changing}: the benchmark's test reads what a prompt recorded. */
  Turndiff turndiff;

  private ClaudeCodeSession session;

  /** The files each prompt rewrites. */
  List<Path> changing;

  private int prompt;

  @Setup
  public void trackWorkspace() throws IOException {
    base = Files.createTempDirectory("turndiff-jmh-watched-prompt");
    Path workspace = Files.createDirectories(base.resolve("workspace")).toRealPath();
    SmallFileTree.generate(workspace, files, 42);
    try (Stream<Path> tree = Files.walk(workspace)) {
      List<Path> all = tree.filter(Files::isRegularFile).sorted().toList();
      changing =
          Stream.iterate(0, i -> i + all.size() / CHANGED).limit(CHANGED).map(all::get).toList();
    }
    turndiff =
        Turndiff.builder(base.resolve("store/turndiff.db"))
            .boundary(BoundaryOptions.defaults())
            .watch(WatchOptions.SERVICE)
            .open();
    turndiff
        .capture()
        .tracker()
        .track(workspace, new TrackingOptions(Integer.MAX_VALUE, Long.MAX_VALUE));
    session = new ClaudeCodeSession(ClaudeCodeSession.hooksOf(turndiff), "jmh", workspace);
  }

  @TearDown
  public void close() throws IOException {
    turndiff.close();
    ScratchDirectory.remove(base);
  }

  @Benchmark
  public HookOutcome promptOf10UnnamedWrites() throws IOException {
    String id = "p-" + ++prompt;
    session.prompt(id);
    for (Path file : changing) {
      // rewritten whole to a line of its own, as bench scale's turns rewrite their ten: the same
      // size at every prompt, and the file's name in it so that the ten are ten contents to store,
      // not one. Appended to, each file grew by a line a prompt, from about 200 bytes at the start
      // of a run to some 45 KB at its end, and each prompt's work with it: the Stop's reading and
      // compressing of the ten, the turn's line diffs in the background (what a prompt allocated
      // more than doubled from the first measured iteration to the last)
      Files.writeString(file, "// prompt " + prompt + " of " + file.getFileName() + "\n");
    }
    return session.stop(id);
  }
}
