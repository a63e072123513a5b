package io.turndiff.bench.jmh;

import io.turndiff.api.Turndiff;
import io.turndiff.bench.SyntheticTreeFiles;
import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.hooks.HookOutcome;
import io.turndiff.hooks.RuntimeHooks;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One tool call's Pre hook as the service handles it, in-process (no HTTP): Claude Code's {@code
 * PreToolUse} of a {@code Write} of a 10 KB source file, each call a file its turn has not named,
 * given to {@link RuntimeHooks} as the hook endpoint gives it — the payload parsed, the session's
 * open turn found, the before-state snapshotted. What {@link SnapshotCallBenchmark} measures, with
 * what a runtime's hook adds on the service's side.
 *
 * <p>Each iteration's prompts are begun in its setup, {@value #SESSIONS} sessions of {@value
 * #FILES} calls each (a call that finds its session's turn full goes on in the next session: an
 * iteration is 1 s, unless told otherwise, which is far fewer calls than they take), and each turn
 * is ended by its Stop in the iteration's teardown, which folds what its calls logged: neither is
 * measured. A file named again in a later iteration is one whose content the store holds by then,
 * as a file the turn before edited.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(time = 1)
@Measurement(time = 1)
public class HookCallBenchmark {

  static final int FILES = 8_000;

  /** Sessions whose prompt is begun for each iteration. */
  static final int SESSIONS = 3;

  private Path base;
  private Path workspace;
  private Turndiff turndiff;
  private final ClaudeCodeSession[] sessions = new ClaudeCodeSession[SESSIONS];
  private String prompt;
  private int session;
  private int next;
  private int calls;
  private int iteration;

  @Setup(Level.Trial)
  public void createWorkspace() throws IOException {
    base = Files.createTempDirectory("turndiff-jmh-hook");
    workspace = Files.createDirectories(base.resolve("workspace")).toRealPath();
    SyntheticTreeFiles.write(workspace, FILES, 10 * 1024);
    turndiff = Turndiff.open(base.resolve("store/turndiff.db"), BoundaryOptions.defaults());
    RuntimeHooks hooks = ClaudeCodeSession.hooksOf(turndiff);
    for (int s = 0; s < SESSIONS; s++) {
      sessions[s] = new ClaudeCodeSession(hooks, "jmh-" + s, workspace);
    }
  }

  @Setup(Level.Iteration)
  public void beginPrompts() {
    prompt = "p-" + ++iteration;
    for (ClaudeCodeSession each : sessions) {
      each.prompt(prompt);
    }
    session = 0;
    next = 0;
  }

  @TearDown(Level.Iteration)
  public void stopPrompts() {
    for (ClaudeCodeSession each : sessions) {
      each.stop(prompt);
    }
  }

  @TearDown(Level.Trial)
  public void close() throws IOException {
    turndiff.close();
    ScratchDirectory.remove(base);
  }

  @Benchmark
  public HookOutcome preToolUseOfA10KbFile() {
    if (next == FILES) {
      nextSession();
    }
    return sessions[session].preWrite(
        prompt, workspace.resolve("f" + next++ + ".java"), "toolu_" + calls++);
  }

  private void nextSession() {
    next = 0;
    session++;
    if (session == SESSIONS) {
      throw new IllegalStateException(
          "more than " + SESSIONS * FILES + " calls in an iteration: give it fewer seconds");
    }
  }
}
