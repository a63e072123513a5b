package io.turndiff.bench;

import io.turndiff.api.Turndiff;
import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.capture.track.Tracker;
import io.turndiff.capture.track.TrackingOptions;
import io.turndiff.capture.track.WatchOptions;
import io.turndiff.model.Sha256;
import io.turndiff.rewind.RewindReport;
import io.turndiff.rewind.RewindRequest;
import io.turndiff.store.StoreUsage;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * turndiff against shadow git on the same turns of the same tree, in one run. Per turn: turndiff
 * records each touched path with its own snapshot call before the edit (as a runtime does per tool
 * call) and finishes the turn after it; shadow git commits the whole tree ({@code add -A}) and, in
 * a second repository, only the touched paths; the order alternates between turns. A floor reads
 * and hashes the touched bytes. At the end the last turn is rewound by turndiff and by {@code git
 * checkout} of the same files, and the two results are checked to be the same tree.
 */
public final class TurnBench {

  /** Rewinds of the last turn's files back and forth; the first ones are not counted. */
  private static final int REWIND_ROUNDS = 8;

  private static final int REWIND_WARMUP = 2;

  /**
   * What to run. {@code workspace} is copied first and never modified; without it a tree is
   * generated.
   */
  public record Options(
      Optional<Path> workspace,
      int files,
      int turnFiles,
      int turns,
      int warmup,
      long seed,
      double locality,
      int dirtyWriterMegabytes) {}

  private final Options options;
  private final PrintStream progress;

  public TurnBench(Options options, PrintStream progress) {
    this.options = options;
    this.progress = progress;
  }

  public BenchResult run() throws Exception {
    Path base = Files.createTempDirectory("turndiff-bench-");
    try {
      return run(base);
    } finally {
      deleteTree(base);
    }
  }

  private BenchResult run(Path base) throws Exception {
    Path workspace = base.resolve("workspace");
    Files.createDirectories(workspace);
    SyntheticTree.Summary tree;
    if (options.workspace().isPresent()) {
      tree = copyTree(options.workspace().get(), workspace);
      progress.println(
          "copied "
              + options.workspace().get()
              + ": "
              + tree.files()
              + " files, "
              + tree.bytes()
              + " bytes");
    } else {
      tree = SyntheticTree.generate(workspace, options.files(), options.seed());
      progress.println("generated " + tree.files() + " files, " + tree.bytes() + " bytes");
    }
    Workload workload =
        new Workload(workspace, options.turnFiles(), options.locality(), options.seed());
    ShadowGit gitAll = new ShadowGit(base.resolve("shadow-all.git"), workspace);
    ShadowGit gitTouched = new ShadowGit(base.resolve("shadow-touched.git"), workspace);
    long gitInitial = gitAll.init();
    gitTouched.init();
    long gitInitialBytes = DiskUsage.diskBytes(gitAll.directory());
    progress.println("shadow git initial commit: " + gitInitial / 1_000_000 + " ms");
    Tracking tracking = measureTracking(base, workspace, gitAll);
    progress.printf(
        "turndiff track: %.0f ms; status %.1f ms, git status %.1f ms%n",
        tracking.indexNanos() / 1e6,
        tracking.status().medianMillis(),
        tracking.gitStatus().medianMillis());

    Samples capture = new Samples();
    Samples snapshotCalls = new Samples();
    Samples finish = new Samples();
    Samples commitAll = new Samples();
    Samples commitTouched = new Samples();
    Samples floor = new Samples();
    Path database = base.resolve("store/turndiff.db");
    Workload.Turn last = null;
    String lastTurn = null;
    long storeBytes;
    Samples rewindsTurndiff = new Samples();
    Samples rewindsGit = new Samples();
    Optional<DirtyRewinds> dirtyRewinds = Optional.empty();
    try (Turndiff turndiff = Turndiff.open(database, BoundaryOptions.defaults())) {
      for (int t = 1 - options.warmup(); t <= options.turns(); t++) {
        boolean measured = t >= 1;
        Workload.Turn plan = workload.next();
        long start = System.nanoTime();
        String turn =
            turndiff.capture().beginTurn(workspace, Optional.of("bench"), Optional.empty()).turn();
        long captureNanos = System.nanoTime() - start;
        int call = 0;
        for (String path : plan.touched()) {
          long callStart = System.nanoTime();
          turndiff.capture().snapshot(turn, Optional.of("tool-" + call++), List.of(path));
          long callNanos = System.nanoTime() - callStart;
          if (measured) {
            snapshotCalls.add(callNanos);
          }
          captureNanos += callNanos;
        }
        long floorNanos = readAndHash(workspace, plan.touched());
        workload.apply(plan);
        floorNanos += readAndHash(workspace, plan.touched());
        boolean turndiffFirst = Math.floorMod(t, 2) == 1;
        long finishNanos = 0;
        if (turndiffFirst) {
          finishNanos = timeFinish(turndiff, turn);
        }
        long all = gitAll.commitAll("turn " + t);
        long touchedOnly = gitTouched.commitPaths(plan.touched(), "turn " + t);
        if (!turndiffFirst) {
          finishNanos = timeFinish(turndiff, turn);
        }
        captureNanos += finishNanos;
        if (!measured) {
          continue;
        }
        floor.add(floorNanos);
        finish.add(finishNanos);
        commitAll.add(all);
        commitTouched.add(touchedOnly);
        capture.add(captureNanos);
        last = plan;
        lastTurn = turn;
        if (t % 10 == 0 || t == options.turns()) {
          progress.printf(
              "turn %d/%d: turndiff %.1f ms, git add -A %.1f ms%n",
              t, options.turns(), captureNanos / 1e6, commitAll.quantile(1.0) / 1e6);
        }
      }
      turndiff.store().checkpoint();
      storeBytes = DiskUsage.diskBytes(database);
      StoreUsage usage = StoreUsage.measure(turndiff.store(), Optional.empty());
      progress.printf(
          "store after %d turns: %.1f MB on disk, %d blobs holding %.1f MB%n",
          options.turns(), storeBytes / 1e6, usage.blobs(), usage.blobBytes() / 1e6);

      String afterState = treeDigest(workspace);
      String toRewind =
          rewindRounds(
              turndiff,
              gitAll,
              workspace,
              last,
              lastTurn,
              Optional.empty(),
              rewindsTurndiff,
              rewindsGit);
      if (!treeDigest(workspace).equals(afterState)) {
        throw new IllegalStateException(
            "the rewinds back and forth did not end at the after-state");
      }
      if (options.dirtyWriterMegabytes() > 0) {
        Samples turndiffDirty = new Samples();
        Samples gitDirty = new Samples();
        rewindRounds(
            turndiff,
            gitAll,
            workspace,
            last,
            toRewind,
            Optional.of(base),
            turndiffDirty,
            gitDirty);
        dirtyRewinds = Optional.of(new DirtyRewinds(turndiffDirty, gitDirty));
      }
    }
    long gitBytes = DiskUsage.diskBytes(gitAll.directory());
    gitAll.gc();
    long gitBytesAfterGc = DiskUsage.diskBytes(gitAll.directory());
    return new BenchResult(
        tree,
        options,
        last.edited().size(),
        last.created().size(),
        last.deleted().size(),
        capture,
        snapshotCalls,
        finish,
        commitAll,
        commitTouched,
        floor,
        rewindsTurndiff,
        rewindsGit,
        gitInitial,
        storeBytes,
        gitBytes,
        gitBytesAfterGc,
        tracking,
        gitInitialBytes,
        dirtyRewinds);
  }

  /**
   * The rewinds timed while another process has left {@link Options#dirtyWriterMegabytes()} of
   * dirty pages on the workspace's file system.
   */
  public record DirtyRewinds(Samples turndiff, Samples git) {}

  /**
   * Rewinds of the last turn's files, back and forth ({@link #REWIND_ROUNDS}, an even number: the
   * tree ends as it started): git checkout HEAD~1 / HEAD, turndiff rewinding the turn and then each
   * rewind turn in turn; after every pair both sides must have made the same tree. With {@code
   * dirtyBeside}, a child process leaves dirty pages in a file there right before each timed
   * rewind, git's and turndiff's alike. Returns the turn the next rewind rewinds.
   */
  @SuppressWarnings("try") // the resource is the dirty pages, held while the rewind runs
  private String rewindRounds(
      Turndiff turndiff,
      ShadowGit gitAll,
      Path workspace,
      Workload.Turn last,
      String first,
      Optional<Path> dirtyBeside,
      Samples rewindsTurndiff,
      Samples rewindsGit)
      throws IOException, InterruptedException {
    List<String> existedBefore = new ArrayList<>(last.edited());
    existedBefore.addAll(last.deleted());
    List<String> existedAfter = new ArrayList<>(last.edited());
    existedAfter.addAll(last.created());
    String toRewind = first;
    for (int round = 0; round < REWIND_ROUNDS; round++) {
      boolean towardsBefore = round % 2 == 0;
      long gitNanos;
      try (DirtyWriter dirty = dirtied(dirtyBeside)) {
        long gitStart = System.nanoTime();
        if (towardsBefore) {
          gitAll.checkoutPrevious(existedBefore);
          deleteAll(workspace, last.created());
        } else {
          gitAll.checkoutHead(existedAfter);
          deleteAll(workspace, last.deleted());
        }
        gitNanos = System.nanoTime() - gitStart;
      }
      String byGit = treeDigest(workspace);
      // put the tree back as it was, for turndiff to start from the same state
      if (towardsBefore) {
        gitAll.checkoutHead(existedAfter);
        deleteAll(workspace, last.deleted());
      } else {
        gitAll.checkoutPrevious(existedBefore);
        deleteAll(workspace, last.created());
      }
      RewindReport report;
      long rewindNanos;
      try (DirtyWriter dirty = dirtied(dirtyBeside)) {
        long rewindStart = System.nanoTime();
        report =
            turndiff
                .rewind()
                .rewind(new RewindRequest(toRewind, false, Optional.empty(), false, false));
        rewindNanos = System.nanoTime() - rewindStart;
      }
      // what the command line does once it has printed the report: not the caller's wait, and made
      // here so that the next rewind does not find this one unsynced and sync it first
      turndiff.rewind().makeDurable(report);
      if (!report.complete() || !treeDigest(workspace).equals(byGit)) {
        throw new IllegalStateException("turndiff's rewind and git's checkout disagree: " + report);
      }
      toRewind = report.rewindTurn().orElseThrow();
      if (round >= REWIND_WARMUP) {
        rewindsGit.add(gitNanos);
        rewindsTurndiff.add(rewindNanos);
      }
    }
    return toRewind;
  }

  private DirtyWriter dirtied(Optional<Path> beside) throws IOException, InterruptedException {
    return beside.isPresent()
        ? DirtyWriter.dirty(beside.get(), options.dirtyWriterMegabytes())
        : DirtyWriter.NONE;
  }

  /**
   * The tracking figures: the first index and baseline (in a fresh JVM, as {@code turndiff track}
   * runs it), the same into a second fresh store once the JIT has compiled it (as a running service
   * would), and incremental scans of the unchanged tree against {@code git status}, both warm.
   */
  public record Tracking(
      long indexNanos,
      long warmIndexNanos,
      long baselineDiskBytes,
      Samples status,
      Samples gitStatus,
      Watched watched) {}

  /**
   * A tracked workspace's finish (the index brought up to the tree, as a turn's finish and begin
   * do) with the service's watcher: on the unchanged tree and after a change of {@code changed}
   * files, each next to {@code git status} on the same tree in the same round.
   */
  public record Watched(
      int changed,
      Samples unchanged,
      Samples gitUnchanged,
      Samples afterChange,
      Samples gitAfterChange,
      Samples shellCall,
      Samples gitCommitAll,
      Samples shellCallTen,
      Samples gitCommitAllTen) {}

  private static final int WATCHED_CHANGE = 10;

  /**
   * The budgets the benchmark tracks with: the whole tree, whatever its size (the default budgets,
   * 1,000,000 files and 2 GiB, take a 250,000-file tree, but not every tree the bench can
   * generate).
   */
  static final TrackingOptions WHOLE_TREE = new TrackingOptions(Integer.MAX_VALUE, Long.MAX_VALUE);

  /**
   * The watched finishes: a store of its own opened as {@code turndiff serve} opens it, the first
   * finish the full scan that starts the watch; the changed files get their bytes back at the end.
   */
  private static Watched measureWatched(Path base, Path workspace, ShadowGit git) throws Exception {
    List<Path> files;
    try (Stream<Path> walk = Files.walk(workspace)) {
      files =
          walk.filter(path -> Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS))
              .filter(path -> !workspace.relativize(path).toString().startsWith(".git"))
              .sorted()
              .toList();
    }
    List<Path> changing = new ArrayList<>();
    for (int i = 0; i < WATCHED_CHANGE && !files.isEmpty(); i++) {
      changing.add(files.get(i * files.size() / WATCHED_CHANGE));
    }
    Map<Path, byte[]> original = new LinkedHashMap<>();
    for (Path file : changing) {
      original.put(file, Files.readAllBytes(file));
    }
    Samples unchanged = new Samples();
    Samples gitUnchanged = new Samples();
    Samples afterChange = new Samples();
    Samples gitAfterChange = new Samples();
    Samples shellCall = new Samples();
    Samples gitCommitAll = new Samples();
    Samples shellCallTen = new Samples();
    Samples gitCommitAllTen = new Samples();
    try (Turndiff service =
        Turndiff.builder(base.resolve("watched-store/turndiff.db"))
            .boundary(BoundaryOptions.defaults())
            .watch(WatchOptions.SERVICE)
            .open()) {
      Tracker tracker = service.capture().tracker();
      tracker.track(workspace, WHOLE_TREE);
      String root = workspace.toRealPath().toString();
      long id = service.store().read(tx -> tx.workspaces().byRealRoot(root)).orElseThrow().id();
      for (int round = 0; round < STATUS_WARMUP + STATUS_ROUNDS; round++) {
        long start = System.nanoTime();
        int changes = tracker.refresh(id).size();
        long nanos = System.nanoTime() - start;
        if (changes != 0) {
          throw new IllegalStateException("an unchanged tree shows " + changes + " changes");
        }
        if (round >= STATUS_WARMUP) {
          unchanged.add(nanos);
          gitUnchanged.add(git.status());
        }
      }
      for (int round = 0; round < STATUS_WARMUP + STATUS_ROUNDS; round++) {
        for (Path file : changing) {
          Files.write(file, ("watched round " + round + "\n").getBytes(StandardCharsets.UTF_8));
        }
        long start = System.nanoTime();
        int changes = tracker.refresh(id).size();
        long nanos = System.nanoTime() - start;
        if (changes != changing.size()) {
          throw new IllegalStateException(
              changing.size() + " files changed, the watched finish saw " + changes);
        }
        if (round >= STATUS_WARMUP) {
          afterChange.add(nanos);
          gitAfterChange.add(git.status());
        }
      }
      if (!changing.isEmpty()) {
        ShellCallRounds shellCalls = new ShellCallRounds(STATUS_WARMUP, STATUS_ROUNDS);
        ShellCallRounds.Figures one =
            shellCalls.measure(service, workspace, changing.subList(0, 1), git);
        ShellCallRounds.Figures ten = shellCalls.measure(service, workspace, changing, git);
        shellCall = one.calls();
        gitCommitAll = one.commits();
        shellCallTen = ten.calls();
        gitCommitAllTen = ten.commits();
      }
    } finally {
      for (Map.Entry<Path, byte[]> file : original.entrySet()) {
        Files.write(file.getKey(), file.getValue());
      }
    }
    return new Watched(
        changing.size(),
        unchanged,
        gitUnchanged,
        afterChange,
        gitAfterChange,
        shellCall,
        gitCommitAll,
        shellCallTen,
        gitCommitAllTen);
  }

  private static final int STATUS_WARMUP = 25;
  private static final int STATUS_ROUNDS = 15;

  /** On a store of its own, so that the turns below are measured without tracking. */
  private static Tracking measureTracking(Path base, Path workspace, ShadowGit git)
      throws Exception {
    Path database = base.resolve("tracking-store/turndiff.db");
    try (Turndiff tracking = Turndiff.open(database, BoundaryOptions.defaults())) {
      long start = System.nanoTime();
      tracking.track(workspace, WHOLE_TREE);
      long indexNanos = System.nanoTime() - start;
      tracking.store().checkpoint();
      long baseline = DiskUsage.diskBytes(database);
      Samples status = new Samples();
      Samples gitStatus = new Samples();
      for (int round = 0; round < STATUS_WARMUP + STATUS_ROUNDS; round++) {
        long statusStart = System.nanoTime();
        int changes = tracking.status(workspace).changes().size();
        long statusNanos = System.nanoTime() - statusStart;
        if (changes != 0) {
          throw new IllegalStateException("an unchanged tree shows " + changes + " changes");
        }
        if (round >= STATUS_WARMUP) {
          status.add(statusNanos);
          gitStatus.add(git.status());
        }
      }
      long warmIndexNanos;
      try (Turndiff again =
          Turndiff.open(
              base.resolve("tracking-store-warm/turndiff.db"), BoundaryOptions.defaults())) {
        long warmStart = System.nanoTime();
        again.track(workspace, WHOLE_TREE);
        warmIndexNanos = System.nanoTime() - warmStart;
      }
      return new Tracking(
          indexNanos,
          warmIndexNanos,
          baseline,
          status,
          gitStatus,
          measureWatched(base, workspace, git));
    }
  }

  private static void deleteAll(Path root, List<String> paths) throws IOException {
    for (String path : paths) {
      Files.deleteIfExists(root.resolve(path));
    }
  }

  private static long timeFinish(Turndiff turndiff, String turn) {
    long start = System.nanoTime();
    turndiff.capture().finishTurn(turn);
    return System.nanoTime() - start;
  }

  /** The floor any capture pays: read every touched file that exists and hash it. */
  private static long readAndHash(Path root, List<String> paths) throws IOException {
    long start = System.nanoTime();
    for (String path : paths) {
      Path file = root.resolve(path);
      if (Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
        Sha256.of(Files.readAllBytes(file));
      }
    }
    return System.nanoTime() - start;
  }

  /**
   * A digest of the whole tree: every path with its type, executable bit and bytes or link text.
   */
  static String treeDigest(Path root) throws IOException {
    MessageDigest digest = Sha256.newDigest();
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path path : (Iterable<Path>) walk.sorted()::iterator) {
        digest.update(root.relativize(path).toString().getBytes(StandardCharsets.UTF_8));
        if (Files.isSymbolicLink(path)) {
          digest.update(("L" + Files.readSymbolicLink(path)).getBytes(StandardCharsets.UTF_8));
        } else if (Files.isRegularFile(path)) {
          digest.update((Files.isExecutable(path) ? "X" : "F").getBytes(StandardCharsets.UTF_8));
          digest.update(Files.readAllBytes(path));
        } else {
          digest.update("D".getBytes(StandardCharsets.UTF_8));
        }
      }
    }
    return HexFormat.of().formatHex(digest.digest());
  }

  private static SyntheticTree.Summary copyTree(Path from, Path to) throws IOException {
    int files = 0;
    long bytes = 0;
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path source : (Iterable<Path>) walk::iterator) {
        Path relative = from.relativize(source);
        if (relative.toString().equals(".git") || relative.startsWith(".git")) {
          continue;
        }
        Path target = to.resolve(relative.toString());
        try {
          if (Files.isSymbolicLink(source)) {
            Files.createSymbolicLink(target, Files.readSymbolicLink(source));
          } else if (Files.isDirectory(source)) {
            Files.createDirectories(target);
          } else if (Files.isRegularFile(source)) {
            Files.copy(source, target);
            files++;
            bytes += Files.size(target);
          }
        } catch (IOException e) {
          throw new IOException("cannot copy " + source + " (" + e + ")", e);
        }
      }
    }
    return new SyntheticTree.Summary(files, bytes);
  }

  static void deleteTree(Path root) throws IOException {
    try (Stream<Path> walk = Files.walk(root)) {
      walk.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    }
  }
}
