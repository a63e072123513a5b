package io.turndiff.bench;

import io.turndiff.api.Turndiff;
import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.model.PathInput;
import io.turndiff.store.StoreAddress;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The same turns recorded and queried on a SQLite store and on a PostgreSQL database, in one run:
 * per turn, the capture (begin, one snapshot call per touched file, finish) and two queries a
 * reviewer makes (the turn's records, its patch), each on a tree generated once per store.
 */
public final class StoreComparisonBench {

  /** What to run. */
  public record Options(int files, int turnFiles, int turns, int warmup, long seed) {}

  /** The figures of one store, in milliseconds. */
  public record Figures(
      String store,
      int turns,
      double captureMedianMillis,
      double captureP90Millis,
      double recordsMedianMillis,
      double patchMedianMillis) {}

  private final Options options;
  private final PrintStream progress;

  public StoreComparisonBench(Options options, PrintStream progress) {
    this.options = options;
    this.progress = progress;
  }

  /** The figures of the SQLite store in a temporary folder, then of {@code postgres}. */
  public List<Figures> run(StoreAddress postgres) throws Exception {
    Path base = Files.createTempDirectory("turndiff-bench-stores-");
    try {
      List<Figures> figures = new ArrayList<>();
      figures.add(
          measure(
              new StoreAddress.SqliteFile(base.resolve("store/turndiff.db")),
              base.resolve("sqlite")));
      figures.add(measure(postgres, base.resolve("postgres")));
      return figures;
    } finally {
      TurnBench.deleteTree(base);
    }
  }

  private Figures measure(StoreAddress address, Path base) throws Exception {
    Path workspace = base.resolve("workspace");
    Files.createDirectories(workspace);
    SyntheticTree.generate(workspace, options.files(), options.seed());
    Workload workload = new Workload(workspace, options.turnFiles(), 0, options.seed());
    Samples capture = new Samples();
    Samples records = new Samples();
    Samples patch = new Samples();
    String session = "bench-" + Long.toHexString(System.nanoTime());
    try (Turndiff turndiff =
        Turndiff.builder(address).boundary(BoundaryOptions.defaults()).open()) {
      for (int t = 1 - options.warmup(); t <= options.turns(); t++) {
        Workload.Turn plan = workload.next();
        long start = System.nanoTime();
        String turn =
            turndiff.capture().beginTurn(workspace, Optional.of(session), Optional.empty()).turn();
        int call = 0;
        for (String path : plan.touched()) {
          turndiff.capture().snapshot(turn, Optional.of("tool-" + call++), List.of(path));
        }
        long captured = System.nanoTime() - start;
        workload.apply(plan);
        start = System.nanoTime();
        turndiff.capture().finishTurn(turn);
        captured += System.nanoTime() - start;
        start = System.nanoTime();
        turndiff.queries().records(turn);
        long recordsNanos = System.nanoTime() - start;
        start = System.nanoTime();
        turndiff.queries().patch(turn, List.<PathInput>of());
        long patchNanos = System.nanoTime() - start;
        if (t >= 1) {
          capture.add(captured);
          records.add(recordsNanos);
          patch.add(patchNanos);
        }
      }
    }
    Figures figures =
        new Figures(
            address.display(),
            capture.count(),
            capture.medianMillis(),
            capture.p90Millis(),
            records.medianMillis(),
            patch.medianMillis());
    progress.printf(
        "%s: capture %.1f ms/turn (p90 %.1f), records %.1f ms, patch %.1f ms%n",
        figures.store(),
        figures.captureMedianMillis(),
        figures.captureP90Millis(),
        figures.recordsMedianMillis(),
        figures.patchMedianMillis());
    return figures;
  }

  /** The figures as a table, SQLite beside PostgreSQL. */
  public static void print(List<Figures> figures, PrintWriter out) {
    out.printf(
        "%-12s %6s %14s %10s %12s %10s%n",
        "store", "turns", "capture ms", "p90 ms", "records ms", "patch ms");
    for (Figures each : figures) {
      out.printf(
          "%-12s %6d %14.1f %10.1f %12.1f %10.1f%n",
          each.store().startsWith("jdbc:postgresql:") ? "postgresql" : "sqlite",
          each.turns(),
          each.captureMedianMillis(),
          each.captureP90Millis(),
          each.recordsMedianMillis(),
          each.patchMedianMillis());
    }
  }

  /** The figures as JSON fields, by store kind. */
  public static Map<String, Object> json(List<Figures> figures) {
    Map<String, Object> json = new LinkedHashMap<>();
    for (Figures each : figures) {
      Map<String, Object> one = new LinkedHashMap<>();
      one.put("store", each.store());
      one.put("turns", each.turns());
      one.put("capture_median_ms", each.captureMedianMillis());
      one.put("capture_p90_ms", each.captureP90Millis());
      one.put("records_median_ms", each.recordsMedianMillis());
      one.put("patch_median_ms", each.patchMedianMillis());
      json.put(each.store().startsWith("jdbc:postgresql:") ? "postgresql" : "sqlite", one);
    }
    return json;
  }
}
