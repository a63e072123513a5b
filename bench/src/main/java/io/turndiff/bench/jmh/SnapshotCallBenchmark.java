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
 * in the turn; every iteration begins a new turn.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class SnapshotCallBenchmark {

  static final int FILES = 8_000;

  private Path base;
  private Path workspace;
  private Turndiff turndiff;
  private String turn;
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
  public void beginTurn() {
    turn = turndiff.capture().beginTurn(workspace, Optional.of("jmh"), Optional.empty()).turn();
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
      beginTurn();
    }
    return turndiff
        .capture()
        .snapshot(turn, Optional.of("call-" + calls++), List.of("f" + next++ + ".java"));
  }
}
