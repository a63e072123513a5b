package io.turndiff.bench.jmh;

import io.turndiff.api.Turndiff;
import io.turndiff.bench.SyntheticTreeFiles;
import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.capture.SnapshotVerdict;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One before-snapshot call of a 10 KB source file in-process: the boundary read, the hash,
 * compression, and the store transaction that records it. Each call records a file not yet recorded
 * in its turn.
 *
 * <p>A call appends its before-state to the store's before log, which the next transaction other
 * than a call folds into the tables: a begin. So the turns are begun in the iteration's setup, not
 * measured, {@value #TURNS} of them in sessions of their own, each taking {@value #FILES} calls; a
 * call that finds its turn full goes on in the next one, begun already. Before, the benchmark began
 * the next turn itself when one was full, and that call folded the 8,000 logged before-states: a
 * third of the method's CPU in every fork's profile, and its p99.99 (docs/performance.md). Only an
 * iteration of more than {@value #TURNS} × {@value #FILES} calls (under 42 µs a call for a second)
 * begins turns inside a measured call, and says so on its standard error.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class SnapshotCallBenchmark {

  static final int FILES = 8_000;

  /** Turns begun for each iteration. */
  static final int TURNS = 3;

  private Path base;
  private Path workspace;
  private Turndiff turndiff;
  private final String[] turns = new String[TURNS];
  private int turn;
  private int next;
  private int calls;

  @Setup(Level.Trial)
  public void createWorkspace() throws IOException {
    base = Files.createTempDirectory("turndiff-jmh-snapshot");
    workspace = Files.createDirectories(base.resolve("workspace"));
    SyntheticTreeFiles.write(workspace, FILES, 10 * 1024);
    turndiff = Turndiff.open(base.resolve("store/turndiff.db"), BoundaryOptions.defaults());
  }

  @Setup(Level.Iteration)
  public void beginTurns() {
    for (int session = 0; session < TURNS; session++) {
      turns[session] =
          turndiff
              .capture()
              .beginTurn(workspace, Optional.of("jmh-" + session), Optional.empty())
              .turn();
    }
    turn = 0;
    next = 0;
  }

  @TearDown(Level.Trial)
  public void close() throws IOException {
    turndiff.close();
    ScratchDirectory.remove(base);
  }

  @Benchmark
  public List<SnapshotVerdict> beforeSnapshotOf10KbFile() {
    if (next == FILES) {
      nextTurn();
    }
    return turndiff
        .capture()
        .snapshot(turns[turn], Optional.of("call-" + calls++), List.of("f" + next++ + ".java"));
  }

  private void nextTurn() {
    next = 0;
    turn++;
    if (turn == TURNS) {
      System.err.println(
          "more than " + TURNS * FILES + " calls in an iteration: turns begun in a measured call");
      beginTurns();
    }
  }
}
