package io.turndiff.bench.jmh;

import io.turndiff.api.Turndiff;
import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.model.PathInput;
import io.turndiff.review.FileBlame;
import io.turndiff.review.HistoryEntry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
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
 * {@code turndiff blame} of a 2,000-line source file that 500 turns edited (each rewrote 3 lines
 * and inserted 2 at random places, as an agent's small edits do; every 50th turn left a line
 * changed by hand before the next began), against its anchor: {@code turndiff log} of the same
 * path, which reads the same 500 records from the store without reading their content or diffing.
 * The ratio is what the line-tracking pass costs over listing the history.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class BlameBenchmark {

  static final int TURNS = 500;
  static final int LINES = 2_000;

  private Path base;
  private Path workspace;
  private Turndiff turndiff;

  @Setup(Level.Trial)
  public void fiveHundredTurns() throws IOException {
    base = Files.createTempDirectory("turndiff-jmh-blame");
    workspace = Files.createDirectories(base.resolve("workspace"));
    Random random = new Random(24);
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < LINES; i++) {
      lines.add("    int value" + i + " = compute(" + i + ", " + random.nextInt(1000) + ");");
    }
    Path file = workspace.resolve("Main.java");
    Files.write(file, lines);
    turndiff = Turndiff.open(base.resolve("store/turndiff.db"), BoundaryOptions.defaults());
    for (int t = 0; t < TURNS; t++) {
      String turn =
          turndiff.capture().beginTurn(workspace, Optional.of("jmh"), Optional.empty()).turn();
      turndiff.capture().snapshot(turn, Optional.of("edit"), List.of("Main.java"));
      for (int e = 0; e < 3; e++) {
        lines.set(random.nextInt(lines.size()), "    // turn " + t + " edit " + e);
      }
      for (int e = 0; e < 2; e++) {
        lines.add(random.nextInt(lines.size()), "    call(" + t + ", " + e + ");");
      }
      Files.write(file, lines);
      turndiff.capture().finishTurn(turn);
      if (t % 50 == 49) {
        lines.set(random.nextInt(lines.size()), "    // by hand after turn " + t);
        Files.write(file, lines);
      }
    }
    // the anchor reads stored diffs, not ones it would compute on the spot
    turndiff.diffs().awaitAskedFor();
  }

  @TearDown(Level.Trial)
  public void close() throws IOException {
    turndiff.close();
    ScratchDirectory.remove(base);
  }

  @Benchmark
  public FileBlame blameOfAFileWith500Turns() {
    return turndiff.blame(workspace, PathInput.text("Main.java"));
  }

  /** The anchor: the same path's 500 history entries, without content or line tracking. */
  @Benchmark
  public List<HistoryEntry> logOfTheSamePath() {
    return turndiff.queries().log(workspace, PathInput.text("Main.java"));
  }
}
