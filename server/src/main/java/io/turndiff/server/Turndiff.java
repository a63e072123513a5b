package io.turndiff.server;

import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.capture.CaptureService;
import io.turndiff.capture.WorkspaceHandles;
import io.turndiff.query.ReviewQueries;
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

  private Turndiff(Store store, BoundaryOptions options, Duration rewindPause) {
    this.store = store;
    this.workspaces = new WorkspaceHandles(store, options);
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
    return new Turndiff(Store.open(database), options, rewindPause);
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

  @Override
  public void close() {
    try {
      workspaces.close();
    } finally {
      store.close();
    }
  }
}
