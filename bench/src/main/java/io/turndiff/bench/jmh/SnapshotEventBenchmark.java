package io.turndiff.bench.jmh;

import io.turndiff.api.Turndiff;
import io.turndiff.bench.SyntheticTreeFiles;
import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.model.WorkspacePath;
import io.turndiff.review.PathRecords;
import io.turndiff.review.TurnRecords;
import io.turndiff.store.StoredFileChange;
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
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What the panel's live update of a snapshot call reads, while a panel watches, in an open turn
 * that has recorded {@link #files} files: the records of the one path the call recorded ({@code
 * ReviewQueries.recordsAt}), against the whole turn's records filtered to that path, as it read
 * them before (the anchor). The turn's calls are folded in the setup: neither side pays a fold.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class SnapshotEventBenchmark {

  /** Files the open turn recorded before the call. */
  @Param({"100", "1000"})
  public int files;

  private Path base;
  private Turndiff turndiff;
  private String turn;
  private int next;

  @Setup(Level.Trial)
  public void recordATurn() throws IOException {
    base = Files.createTempDirectory("turndiff-jmh-event");
    Path workspace = Files.createDirectories(base.resolve("workspace"));
    SyntheticTreeFiles.write(workspace, files, 1024);
    turndiff = Turndiff.open(base.resolve("store/turndiff.db"), BoundaryOptions.defaults());
    turn = turndiff.capture().beginTurn(workspace, Optional.of("jmh"), Optional.empty()).turn();
    for (int i = 0; i < files; i++) {
      turndiff.capture().snapshot(turn, Optional.of("call-" + i), List.of("f" + i + ".java"));
    }
    // the fold, once: a read folds the log first
    if (turndiff.queries().records(turn).changes().size() != files) {
      throw new IllegalStateException("the turn did not record its " + files + " files");
    }
  }

  @TearDown(Level.Trial)
  public void close() throws IOException {
    turndiff.close();
    ScratchDirectory.remove(base);
  }

  private WorkspacePath nextPath() {
    next = (next + 1) % files;
    return WorkspacePath.of("f" + next + ".java");
  }

  /** The anchor: the whole turn's records, then the one path's among them. */
  @Benchmark
  public List<StoredFileChange> wholeTurnFiltered() {
    WorkspacePath path = nextPath();
    TurnRecords records = turndiff.queries().records(turn);
    return records.changes().stream().filter(change -> change.path().equals(path)).toList();
  }

  @Benchmark
  public PathRecords recordsOfOnePath() {
    return turndiff.queries().recordsAt(turn, List.of(nextPath()));
  }
}
