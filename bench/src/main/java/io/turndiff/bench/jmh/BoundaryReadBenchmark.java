package io.turndiff.bench.jmh;

import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.boundary.Observation;
import io.turndiff.boundary.WorkspaceBoundary;
import io.turndiff.model.Sha256;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
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
 * The per-file cost of reading through the boundary (openat2 + fstat + read + fstat + SHA-256, and
 * the record around it) against its anchor, a plain unchecked {@code Files.readAllBytes} with the
 * same hash, and against the {@code SecureDirectoryStream} fallback; 10,000 files, hot cache, one
 * file per operation.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class BoundaryReadBenchmark {

  private static final int FILES = 10_000;

  @Param({"100", "10240"})
  int size;

  private Path root;
  private WorkspaceBoundary openat2;
  private WorkspaceBoundary fallback;
  private String[] names;
  private Path[] paths;
  private int next;

  @Setup(Level.Trial)
  public void createFiles() throws IOException {
    root = Files.createTempDirectory("turndiff-jmh-read");
    Random random = new Random(1);
    names = new String[FILES];
    paths = new Path[FILES];
    for (int i = 0; i < FILES; i++) {
      names[i] = "d" + (i / 100) + "/f" + i + ".txt";
      paths[i] = root.resolve(names[i]);
      Files.createDirectories(paths[i].getParent());
      byte[] content = new byte[size];
      for (int b = 0; b < size; b++) {
        content[b] = (byte) ('a' + random.nextInt(26));
      }
      Files.write(paths[i], content);
    }
    openat2 = WorkspaceBoundary.open(root);
    fallback = WorkspaceBoundary.open(root, BoundaryOptions.builder().forceFallback(true).build());
  }

  @TearDown(Level.Trial)
  public void delete() throws IOException {
    openat2.close();
    fallback.close();
    try (var walk = Files.walk(root)) {
      walk.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    }
  }

  private int nextIndex() {
    next = next + 1 == FILES ? 0 : next + 1;
    return next;
  }

  /** The anchor: no containment check at all. */
  @Benchmark
  public Sha256 plainReadAndHash() throws IOException {
    return Sha256.of(Files.readAllBytes(paths[nextIndex()]));
  }

  @Benchmark
  public List<Observation> openat2Boundary() {
    return openat2.observe(names[nextIndex()]);
  }

  @Benchmark
  public List<Observation> secureDirectoryStreamFallback() {
    return fallback.observe(names[nextIndex()]);
  }
}
