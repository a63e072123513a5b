package io.turndiff.capture;

import io.turndiff.boundary.BoundaryException;
import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.boundary.WorkspaceBoundary;
import io.turndiff.store.Store;
import io.turndiff.store.StoredWorkspace;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The open boundaries of the workspaces a process works in, one per stored workspace, held until closed. A
 * stored workspace is reopened by its real root and must still be the same directory (device and inode):
 * a root replaced since its session began is refused, never read through.
 */
public final class WorkspaceHandles implements AutoCloseable {

  private final Store store;
  private final BoundaryOptions options;
  private final Map<Long, WorkspaceBoundary> open = new ConcurrentHashMap<>();

  public WorkspaceHandles(Store store, BoundaryOptions options) {
    this.store = store;
    this.options = options;
  }

  public BoundaryOptions options() {
    return options;
  }

  /** Opens a workspace by the path a runtime gave (for a new turn). The caller registers, then {@link #adopt}s it. */
  public WorkspaceBoundary openGiven(Path workspace) {
    try {
      return WorkspaceBoundary.open(workspace, options, store.clock());
    } catch (BoundaryException e) {
      throw new RequestException(RequestException.Problem.WORKSPACE, e.getMessage());
    }
  }

  /** Keeps {@code boundary} as the handle of stored workspace {@code workspaceId}, closing one it replaces. */
  public void adopt(long workspaceId, WorkspaceBoundary boundary) {
    WorkspaceBoundary previous = open.put(workspaceId, boundary);
    if (previous != null && previous != boundary) {
      previous.close();
    }
  }

  /** The held boundary of a stored workspace, opened on first use and checked to be the same directory. */
  public WorkspaceBoundary of(long workspaceId) {
    WorkspaceBoundary held = open.get(workspaceId);
    if (held != null) {
      return held;
    }
    StoredWorkspace workspace = store.read(tx -> tx.workspaces().byId(workspaceId)).orElseThrow();
    WorkspaceBoundary opened = openGiven(Path.of(workspace.rootReal()));
    if (opened.rootDevice() != workspace.rootDevice() || opened.rootInode() != workspace.rootInode()) {
      opened.close();
      throw new RequestException(RequestException.Problem.WORKSPACE, "workspace " + workspace.rootReal()
          + " is not the directory its session began in: it was replaced");
    }
    WorkspaceBoundary raced = open.putIfAbsent(workspaceId, opened);
    if (raced != null) {
      opened.close();
      return raced;
    }
    return opened;
  }

  @Override
  public void close() {
    open.values().forEach(WorkspaceBoundary::close);
    open.clear();
  }
}
