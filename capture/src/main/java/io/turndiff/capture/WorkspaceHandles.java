package io.turndiff.capture;

import io.turndiff.boundary.BoundaryException;
import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.boundary.WorkspaceBoundary;
import io.turndiff.store.Store;
import io.turndiff.store.StoredWorkspace;
import java.nio.file.Path;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The open boundaries of the workspaces a process works in, one per stored workspace, held until closed. A
 * stored workspace is reopened by its real root and must still be the same directory (device and inode):
 * a root replaced since its session began is refused, never read through.
 *
 * <p>A held boundary is never closed while the process runs, because a concurrent request may be using it:
 * a later open of the same directory is closed in its favour, and a boundary whose root was replaced is
 * retired (kept open, no longer handed out) until {@link #close()}.
 */
public final class WorkspaceHandles implements AutoCloseable {

  private final Store store;
  private final BoundaryOptions options;
  private final Map<Long, WorkspaceBoundary> open = new ConcurrentHashMap<>();
  private final Queue<WorkspaceBoundary> retired = new ConcurrentLinkedQueue<>();

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

  /**
   * Makes {@code opened} the handle of stored workspace {@code workspaceId} and returns the boundary to use:
   * the one already held when it is the same directory ({@code opened} is then closed), else {@code opened}.
   */
  public WorkspaceBoundary adopt(long workspaceId, WorkspaceBoundary opened) {
    WorkspaceBoundary[] replaced = new WorkspaceBoundary[1];
    WorkspaceBoundary held = open.compute(workspaceId, (id, current) -> {
      if (current == null || current == opened) {
        return opened;
      }
      if (current.rootDevice() == opened.rootDevice() && current.rootInode() == opened.rootInode()) {
        return current;
      }
      replaced[0] = current;
      return opened;
    });
    if (held != opened) {
      opened.close();
    }
    if (replaced[0] != null) {
      retired.add(replaced[0]);
    }
    return held;
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
    retired.forEach(WorkspaceBoundary::close);
    retired.clear();
  }
}
