package io.turndiff.api;

import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.boundary.Observation;
import io.turndiff.boundary.WorkspacePolicy;
import io.turndiff.capture.CaptureService;
import io.turndiff.capture.track.TrackSummary;
import io.turndiff.capture.track.Tracker;
import io.turndiff.capture.track.TrackingOptions;
import io.turndiff.capture.track.WatchOptions;
import io.turndiff.capture.track.WatchStatus;
import io.turndiff.capture.track.WorkspaceStatus;
import io.turndiff.capture.workspace.WorkspaceHandles;
import io.turndiff.export.TurnExport;
import io.turndiff.model.PathInput;
import io.turndiff.model.Snapshot;
import io.turndiff.model.TestHook;
import io.turndiff.model.WorkspacePath;
import io.turndiff.review.BackgroundDiffs;
import io.turndiff.review.CurrentFile;
import io.turndiff.review.FileBlame;
import io.turndiff.review.PendingDiffs;
import io.turndiff.review.ReviewQueries;
import io.turndiff.rewind.RewindService;
import io.turndiff.store.Store;
import io.turndiff.store.StoreAddress;
import io.turndiff.store.StoredTurn;
import io.turndiff.store.StoredWorkspace;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything turndiff does, over one store: capture, rewind and the review queries, sharing the
 * workspace handles they hold open. The command line opens one per command; the HTTP service one
 * for its life.
 */
public final class Turndiff implements AutoCloseable {

  private final Store store;
  private final WorkspaceHandles workspaces;
  private final CaptureService capture;
  private final RewindService rewind;
  private final ReviewQueries queries;
  private final BackgroundDiffs diffs;
  private final TurnExport export;

  private final TestHook hook;

  private Turndiff(Store store, Builder settings) {
    this.store = store;
    this.hook = settings.hook;
    this.workspaces =
        new WorkspaceHandles(store, settings.boundary, settings.policy, settings.openWorkspaces);
    PendingDiffs pending = new PendingDiffs();
    this.diffs = new BackgroundDiffs(store, pending, settings.hook);
    this.capture =
        new CaptureService(
            store, workspaces, settings.watch.withHook(settings.hook), diffs::computeLater);
    this.rewind = new RewindService(store, workspaces, settings.hook, diffs::computeLater);
    this.queries = new ReviewQueries(store, pending);
    this.export = new TurnExport(store, workspaces, queries);
  }

  /**
   * Opens (creating and migrating when needed) the store at {@code database}, with default
   * settings.
   */
  public static Turndiff open(Path database, BoundaryOptions options) {
    return builder(database).boundary(options).open();
  }

  /** Settings for opening the store at {@code database}; {@link Builder#open()} opens it. */
  public static Builder builder(Path database) {
    return new Builder(new StoreAddress.SqliteFile(database));
  }

  /** Settings for opening the store at {@code address}: a SQLite file or a PostgreSQL database. */
  public static Builder builder(StoreAddress address) {
    return new Builder(address);
  }

  /** How a {@link Turndiff} is opened: the composition root's one place for its settings. */
  public static final class Builder {
    private final StoreAddress database;
    private BoundaryOptions boundary = BoundaryOptions.defaults();
    private WorkspacePolicy policy = WorkspacePolicy.anyDirectory();
    private int openWorkspaces = WorkspaceHandles.DEFAULT_CAPACITY;
    private TestHook hook = TestHook.NONE;
    private WatchOptions watch = WatchOptions.OFF;

    private Builder(StoreAddress database) {
      this.database = Objects.requireNonNull(database, "database");
    }

    public Builder boundary(BoundaryOptions options) {
      this.boundary = Objects.requireNonNull(options, "boundary options");
      return this;
    }

    /** Which directories may be workspace roots. */
    public Builder policy(WorkspacePolicy policy) {
      this.policy = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /** How many workspace root handles to keep open at most (least recently used closed first). */
    public Builder openWorkspaces(int count) {
      if (count < 1) {
        throw new IllegalArgumentException(
            "at least one workspace must be kept open, not " + count);
      }
      this.openWorkspaces = count;
      return this;
    }

    /**
     * Whether tracked workspaces are watched with inotify, so that a finish looks only at what
     * changed ({@link WatchOptions#SERVICE} for the service; off by default).
     */
    public Builder watch(WatchOptions options) {
      this.watch = Objects.requireNonNull(options, "watch options");
      return this;
    }

    /** Told when a run reaches a {@link TestHook.Point}; only tests set one. */
    public Builder hook(TestHook hook) {
      this.hook = Objects.requireNonNull(hook, "hook");
      return this;
    }

    public Turndiff open() {
      return new Turndiff(Store.open(database), this);
    }
  }

  public Store store() {
    return store;
  }

  public CaptureService capture() {
    return capture;
  }

  public RewindService rewind() {
    return rewind;
  }

  public ReviewQueries queries() {
    return queries;
  }

  /**
   * Tracks {@code workspace} ({@code turndiff track}, {@code POST /v1/workspaces/track}): indexes
   * every path that is not ignored, with a content baseline, so that turns see what shell commands
   * change; {@code progress} is told how far the read has come.
   */
  public TrackSummary track(Path workspace, TrackingOptions options, Tracker.Progress progress) {
    return capture.tracker().track(workspace, options, progress);
  }

  /** {@link #track(Path, TrackingOptions, Tracker.Progress)}, telling no one how far it came. */
  public TrackSummary track(Path workspace, TrackingOptions options) {
    return capture.tracker().track(workspace, options);
  }

  /** Whether the stored workspace {@code workspaceId} is tracked (it has an index). */
  public boolean isTracked(long workspaceId) {
    return capture.tracker().isTracked(workspaceId);
  }

  /**
   * Whether the directory {@code workspace} names is a tracked workspace, however the name is
   * spelled (through a symlink, with {@code ..}); false for a name the workspace policy refuses.
   */
  public boolean isTracked(Path workspace) {
    return capture.tracker().isTracked(workspace);
  }

  /** What the watcher of this process did since it started ({@code service status}). */
  public WatchStatus watchStatus() {
    return capture.tracker().watchStatus();
  }

  /** What changed in the tracked {@code workspace} since its index ({@code turndiff status}). */
  public WorkspaceStatus status(Path workspace) {
    return capture.tracker().status(workspace);
  }

  /**
   * The real path of {@code directory}, resolved through the boundary, when the workspace policy
   * admits it as a root; empty otherwise.
   */
  public Optional<Path> realPathOf(Path directory) {
    return workspaces.realPathOf(directory);
  }

  /** A turn or a stretch of turns as a git commit or a patch series ({@code turndiff export}). */
  public TurnExport export() {
    return export;
  }

  /**
   * Who last wrote each line of {@code path} in {@code workspace}, as {@code turndiff blame} shows
   * it: the history from the store ({@link ReviewQueries#blame}), and the file now read once
   * through the workspace's boundary, to compare with the last state stored.
   */
  public FileBlame blame(Path workspace, PathInput path) {
    return queries.blame(workspace, path, this::fileNow);
  }

  /**
   * The states now of {@code paths} in the workspace turn {@code turnId} was recorded in, each read
   * once through that workspace's boundary, nothing stored: what a rewind's plan is checked against
   * before it is applied ({@code turndiff mcp}'s plan token).
   */
  public List<Snapshot> statesNow(String turnId, List<WorkspacePath> paths) {
    StoredTurn turn = store.read(tx -> tx.turns().require(turnId));
    try (WorkspaceHandles.Lease lease = workspaces.borrow(turn.workspaceId())) {
      return paths.stream().map(path -> lease.boundary().observeExact(path).snapshot()).toList();
    }
  }

  /** The state of exactly {@code path} now, read through the stored workspace's boundary. */
  private CurrentFile.Now fileNow(StoredWorkspace workspace, WorkspacePath path) {
    try (WorkspaceHandles.Lease lease = workspaces.borrow(workspace.id())) {
      Observation seen = lease.boundary().observeExact(path);
      return new CurrentFile.Now(seen.snapshot(), seen.content());
    }
  }

  /**
   * The line diffs finishes leave pending, computed in the background; a service calls {@link
   * BackgroundDiffs#catchUp} when it starts.
   */
  public BackgroundDiffs diffs() {
    return diffs;
  }

  /** The hook this facade was opened with ({@link TestHook#NONE} outside tests). */
  public TestHook hook() {
    return hook;
  }

  /** Which directories may be workspace roots. */
  public WorkspacePolicy workspacePolicy() {
    return workspaces.policy();
  }

  @Override
  public void close() {
    try {
      // the diffs asked for are stored before the store closes (or stay pending, never half)
      diffs.close();
      // the syncs of rewinds answered already, before the workspaces' handles close
      rewind.close();
      capture.tracker().closeWatches();
      workspaces.close();
    } finally {
      store.close();
    }
  }
}
