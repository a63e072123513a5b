package io.turndiff.bench;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.turndiff.api.Turndiff;
import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.rewind.RewindReport;
import io.turndiff.rewind.RewindRequest;
import io.turndiff.store.StoreUsage;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;

/**
 * A turn that changes one big file (a lockfile of {@code megabytes} MB, a few lines in its middle),
 * captured and rewound by turndiff and by shadow git in the same run: the capture (snapshot call
 * and finish against {@code git add} and commit), what the turn adds to the store (against the
 * growth of {@code .git}), and the rewind (against {@code git checkout HEAD~1 -- file}). One
 * warm-up turn first, so that both hold the file before the measured turns.
 */
public final class BigFileBench {

  private static final String FILE = "package-lock.json";

  private final int megabytes;
  private final int turns;
  private final PrintStream progress;

  public BigFileBench(int megabytes, int turns, PrintStream progress) {
    this.megabytes = megabytes;
    this.turns = turns;
    this.progress = progress;
  }

  /**
   * The medians of the measured turns; growth is per turn: the content turndiff stored (compressed
   * blob and chunk bytes) against what the turn's commit added to {@code .git} on disk; at the end,
   * both stores on disk, and {@code .git} once {@code git gc} packed it with deltas.
   */
  public record Result(
      int megabytes,
      int turns,
      Samples capture,
      Samples commit,
      Samples storeGrowth,
      Samples gitGrowth,
      Samples rewind,
      Samples checkout,
      long storeBytes,
      long gitBytes,
      long gitBytesAfterGc) {

    public void print(PrintWriter out) {
      out.printf("a turn changing a %d MB file, %d turns (medians)%n", megabytes, turns);
      out.printf("%-40s %12s %12s %12s%n", "", "turndiff", "shadow git", "git/turndiff");
      row(out, "capture (ms)", capture.medianMillis(), commit.medianMillis());
      row(out, "growth per turn (KB)", storeGrowth.median() / 1e3, gitGrowth.median() / 1e3);
      row(out, "rewind (ms)", rewind.medianMillis(), checkout.medianMillis());
      row(out, "on disk at the end (MB)", storeBytes / 1e6, gitBytes / 1e6);
      row(out, "on disk, git after git gc (MB)", storeBytes / 1e6, gitBytesAfterGc / 1e6);
    }

    private static void row(PrintWriter out, String name, double turndiff, double git) {
      String ratio = turndiff > 0 ? String.format("%.2fx", git / turndiff) : "-";
      out.printf("%-40s %12.1f %12.1f %12s%n", name, turndiff, git, ratio);
    }

    public ObjectNode json() {
      ObjectNode node = JsonNodeFactory.instance.objectNode();
      node.put("megabytes", megabytes).put("turns", turns);
      capture.putInto(node, "capture_ms", 1e6);
      commit.putInto(node, "git_commit_ms", 1e6);
      storeGrowth.putInto(node, "store_growth_bytes", 1);
      gitGrowth.putInto(node, "git_growth_bytes", 1);
      rewind.putInto(node, "rewind_ms", 1e6);
      checkout.putInto(node, "git_checkout_ms", 1e6);
      node.put("store_bytes", storeBytes)
          .put("git_bytes", gitBytes)
          .put("git_bytes_after_gc", gitBytesAfterGc);
      return node;
    }
  }

  public Result run() throws Exception {
    Path base = Files.createTempDirectory("turndiff-bench-big-");
    try {
      return run(base);
    } finally {
      TurnBench.deleteTree(base);
    }
  }

  private Result run(Path base) throws Exception {
    Path workspace = Files.createDirectories(base.resolve("workspace"));
    Path file = workspace.resolve(FILE);
    writeLockfile(file, (long) megabytes * 1_000_000);
    ShadowGit git = new ShadowGit(base.resolve("shadow.git"), workspace);
    git.init();
    Path database = base.resolve("store/turndiff.db");
    Samples capture = new Samples();
    Samples commit = new Samples();
    Samples storeGrowth = new Samples();
    Samples gitGrowth = new Samples();
    Samples rewind = new Samples();
    Samples checkout = new Samples();
    try (Turndiff turndiff = Turndiff.open(database, BoundaryOptions.defaults())) {
      for (int t = 0; t <= turns; t++) {
        boolean measured = t > 0;
        long storeBefore = contentBytes(turndiff);
        long gitBefore = DiskUsage.diskBytes(git.directory());
        long start = System.nanoTime();
        String turn =
            turndiff.capture().beginTurn(workspace, Optional.of("bench"), Optional.empty()).turn();
        turndiff.capture().snapshot(turn, Optional.of("edit"), List.of(FILE));
        long beforeEdit = System.nanoTime() - start;
        editTheMiddle(file, t);
        long finishStart = System.nanoTime();
        turndiff.capture().finishTurn(turn);
        long captureNanos = beforeEdit + System.nanoTime() - finishStart;
        long commitNanos = git.commitPaths(List.of(FILE), "turn " + t);
        long storeAfter = contentBytes(turndiff);
        long gitAfter = DiskUsage.diskBytes(git.directory());

        long checkoutNanos = git.checkoutPrevious(List.of(FILE));
        git.checkoutHead(List.of(FILE));
        long rewindStart = System.nanoTime();
        RewindReport report =
            turndiff
                .rewind()
                .rewind(new RewindRequest(turn, false, Optional.empty(), false, false));
        long rewindNanos = System.nanoTime() - rewindStart;
        // made after the answer, as the command line does once it has printed (not timed)
        turndiff.rewind().makeDurable(report);
        if (!report.complete()) {
          throw new IllegalStateException("the rewind of the big file was not complete: " + report);
        }
        // the undo puts the turn's edit back, so that the next turn edits it further
        RewindReport undo =
            turndiff
                .rewind()
                .rewind(
                    new RewindRequest(
                        report.rewindTurn().orElseThrow(), false, Optional.empty(), false, false));
        turndiff.rewind().makeDurable(undo);
        if (!undo.complete()) {
          throw new IllegalStateException("the undo of the big file's rewind failed: " + undo);
        }
        progress.printf(
            "turn %d: capture %.0f ms (git %.0f ms), +%d bytes (git +%d), rewind %.0f ms"
                + " (git %.0f ms)%n",
            t,
            captureNanos / 1e6,
            commitNanos / 1e6,
            storeAfter - storeBefore,
            gitAfter - gitBefore,
            rewindNanos / 1e6,
            checkoutNanos / 1e6);
        if (measured) {
          capture.add(captureNanos);
          commit.add(commitNanos);
          storeGrowth.add(storeAfter - storeBefore);
          gitGrowth.add(gitAfter - gitBefore);
          rewind.add(rewindNanos);
          checkout.add(checkoutNanos);
        }
      }
      turndiff.store().checkpoint();
    }
    long storeBytes = DiskUsage.diskBytes(database);
    long gitBytes = DiskUsage.diskBytes(git.directory());
    git.gc();
    return new Result(
        megabytes,
        turns,
        capture,
        commit,
        storeGrowth,
        gitGrowth,
        rewind,
        checkout,
        storeBytes,
        gitBytes,
        DiskUsage.diskBytes(git.directory()));
  }

  /** The compressed bytes of the content the store holds, blobs and chunks. */
  private static long contentBytes(Turndiff turndiff) {
    return StoreUsage.measure(turndiff.store(), Optional.empty()).blobBytes();
  }

  /** The lines of a lockfile, {@code bytes} long, written a block at a time. */
  private static void writeLockfile(Path file, long bytes) throws IOException {
    try (FileChannel out =
        FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      StringBuilder block = new StringBuilder();
      long written = 0;
      for (int n = 0; written < bytes; n++) {
        block.append("    \"node_modules/@scope/dependency-").append(n);
        block.append("\": {\"version\": \"").append(n % 89).append('.').append(n % 11);
        block.append(".0\", \"integrity\": \"sha512-").append(Integer.toHexString(n * 7919));
        block.append("\"},\n");
        if (block.length() >= 1 << 16) {
          written += write(out, block, bytes - written);
        }
      }
    }
  }

  private static long write(FileChannel out, StringBuilder block, long room) throws IOException {
    byte[] bytes = block.toString().getBytes(StandardCharsets.US_ASCII);
    int length = (int) Math.min(bytes.length, room);
    out.write(ByteBuffer.wrap(bytes, 0, length));
    block.setLength(0);
    return length;
  }

  /** Overwrites three short runs near the middle, in place: a few lines an agent edited. */
  private static void editTheMiddle(Path file, int turn) throws IOException {
    try (RandomAccessFile edit = new RandomAccessFile(file.toFile(), "rw")) {
      long middle = edit.length() / 2;
      byte[] mark = ("\"edited in turn " + turn + "\"").getBytes(StandardCharsets.US_ASCII);
      for (long offset : new long[] {middle - 40_000, middle, middle + 25_000}) {
        edit.seek(offset);
        edit.write(mark);
      }
    }
  }
}
