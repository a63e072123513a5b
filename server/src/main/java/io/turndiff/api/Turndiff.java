package io.turndiff.api;

import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.boundary.WorkspacePolicy;
import io.turndiff.capture.CaptureService;
import io.turndiff.capture.workspace.WorkspaceHandles;
import io.turndiff.review.ReviewQueries;
import io.turndiff.rewind.RewindService;
import io.turndiff.store.Store;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Everything turndiff does, over one store: capture, rewind and the review queries, sharing the workspace
 * handles they hold open. The command line opens one per command; the HTTP service one for its life.
 */
public final class Turndiff implements AutoCloseable {

  private final Store store;
  private final WorkspaceHandles workspaces;
  private final CaptureService capture;
  private final RewindService rewind;
  private final ReviewQueries queries;

  private Turndiff(Store store, BoundaryOptions options, Duration rewindPause, WorkspacePolicy policy,
                   int openWorkspaces) {
    this.store = store;
    this.workspaces = new WorkspaceHandles(store, options, policy, openWorkspaces);
    this.capture = new CaptureService(store, workspaces);
    this.rewind = new RewindService(store, workspaces, rewindPause);
    this.queries = new ReviewQueries(store);
  }

  /** Opens (creating and migrating when needed) the store at {@code database}. */
  public static Turndiff open(Path database, BoundaryOptions options) {
    return open(database, options, Duration.ZERO);
  }

  /** @param rewindPause a test hook: how long each rewind waits before renaming each staged path into place */
  public static Turndiff open(Path database, BoundaryOptions options, Duration rewindPause) {
    return open(database, options, rewindPause, WorkspacePolicy.anyDirectory(), WorkspaceHandles.DEFAULT_CAPACITY);
  }

  /**
   * @param policy which directories may be workspace roots
   * @param openWorkspaces how many workspace root handles to keep open at most (least recently used closed first)
   */
  public static Turndiff open(Path database, BoundaryOptions options, Duration rewindPause, WorkspacePolicy policy,
                              int openWorkspaces) {
    if (openWorkspaces < 1) {
      throw new IllegalArgumentException("at least one workspace must be kept open, not " + openWorkspaces);
    }
    return new Turndiff(Store.open(database), options, rewindPause, policy, openWorkspaces);
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

  /** Which directories may be workspace roots. */
  public WorkspacePolicy workspacePolicy() {
    return workspaces.policy();
  }

  @Override
  public void close() {
    try {
      workspaces.close();
    } finally {
      store.close();
    }
  }
}
