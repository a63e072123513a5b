package io.turndiff.capture.workspace;

import io.turndiff.boundary.BoundaryException;
import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.boundary.RootAtPath;
import io.turndiff.boundary.WorkspaceBoundary;
import io.turndiff.boundary.WorkspacePolicy;
import io.turndiff.model.RequestException;
import io.turndiff.store.Store;
import io.turndiff.store.StoredWorkspace;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The open boundaries (root handles) of the workspaces a process works in: a bounded cache, one
 * handle per stored workspace, the least recently used evicted first, so that a long-lived service
 * holds at most {@code capacity} root descriptors however many workspaces it has seen. An evicted
 * workspace is reopened on demand by its real root and must still be the same directory (device and
 * inode): a root replaced since its session began is refused, never read through.
 *
 * <p>Callers borrow a handle for one operation and give it back by closing the {@link Lease}. A
 * handle leaves the cache when it is evicted, when its workspace is adopted with another root
 * directory, or when its root is found gone from its path (removed, renamed, replaced: looked for
 * each time a handle is opened); it is closed only once it is out of the cache and its last lease
 * is returned, so an operation never has its root closed under it.
 */
public final class WorkspaceHandles implements AutoCloseable {

  public static final int DEFAULT_CAPACITY = 64;

  private final Store store;
  private final BoundaryOptions options;
  private final WorkspacePolicy policy;
  private final int capacity;

  /** Guarded by {@code this}; in access order, the least recently used first. */
  private final LinkedHashMap<Long, Handle> cache = new LinkedHashMap<>(16, 0.75f, true);

  private boolean closed;

  /** One open root; guarded by the enclosing {@link WorkspaceHandles}. */
  private static final class Handle {
    private final WorkspaceBoundary boundary;
    private int leases;
    private boolean outOfCache;

    private Handle(WorkspaceBoundary boundary) {
      this.boundary = boundary;
    }
  }

  /** A borrowed handle: its boundary stays open until this is closed. */
  public final class Lease implements AutoCloseable {
    private final Handle handle;
    private final AtomicBoolean returned = new AtomicBoolean();

    private Lease(Handle handle) {
      this.handle = handle;
    }

    public WorkspaceBoundary boundary() {
      return handle.boundary;
    }

    @Override
    public void close() {
      if (returned.compareAndSet(false, true)) {
        giveBack(handle);
      }
    }
  }

  /**
   * Any directory may be a root (except those never allowed), {@link #DEFAULT_CAPACITY} handles.
   */
  public WorkspaceHandles(Store store, BoundaryOptions options) {
    this(store, options, WorkspacePolicy.anyDirectory(), DEFAULT_CAPACITY);
  }

  public WorkspaceHandles(
      Store store, BoundaryOptions options, WorkspacePolicy policy, int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException(
          "the workspace handle cache needs room for at least one handle, not " + capacity);
    }
    this.store = store;
    this.options = options;
    this.policy = policy;
    this.capacity = capacity;
  }

  public BoundaryOptions options() {
    return options;
  }

  public WorkspacePolicy policy() {
    return policy;
  }

  /**
   * Opens a workspace by the path a runtime gave (for a new turn, or tracking), checked against the
   * policy. The caller owns it until it {@link #adopt}s it (or closes it).
   */
  public WorkspaceBoundary openGiven(Path workspace) {
    WorkspacePolicy.requireNamed(workspace);
    WorkspaceBoundary opened = open(workspace);
    try {
      policy.admit(opened);
    } catch (RuntimeException e) {
      opened.close();
      throw e;
    }
    return opened;
  }

  /**
   * The real path of the directory {@code directory} names, as the boundary resolves it (held to
   * the policy, as {@link #openGiven} is); empty when it cannot be opened as a workspace.
   */
  public Optional<Path> realPathOf(Path directory) {
    WorkspaceBoundary opened;
    try {
      opened = openGiven(directory);
    } catch (RequestException refused) {
      return Optional.empty();
    }
    try {
      return Optional.of(opened.rootReal());
    } finally {
      opened.close();
    }
  }

  private WorkspaceBoundary open(Path root) {
    try {
      return WorkspaceBoundary.open(root, options, store.clock());
    } catch (BoundaryException e) {
      throw new RequestException(RequestException.Problem.WORKSPACE, e.getMessage());
    }
  }

  /**
   * Makes {@code opened} the handle of stored workspace {@code workspaceId} and lends it: the
   * handle already held when it is the same directory ({@code opened} is then closed), else {@code
   * opened}, which replaces a held handle of another directory (a root replaced since).
   */
  public Lease adopt(long workspaceId, WorkspaceBoundary opened) {
    return install(workspaceId, opened, true);
  }

  /**
   * Lends the handle of a stored workspace, reopened (and checked to be the same directory) when
   * not held.
   */
  public Lease borrow(long workspaceId) {
    synchronized (this) {
      requireOpen();
      Handle held = cache.get(workspaceId);
      if (held != null) {
        held.leases++;
        return new Lease(held);
      }
    }
    // without folding: a fold writes no workspace, and a process's first snapshot call (a one-shot
    // command's) opens its workspace here before it appends
    StoredWorkspace workspace =
        store.readWithoutFolding(tx -> tx.workspaces().byId(workspaceId)).orElseThrow();
    if (!workspace.heldBy(store.host())) {
      // same path, another machine's tree: nothing here may be read or written for it
      throw new RequestException(
          RequestException.Problem.WORKSPACE,
          "workspace "
              + workspace.rootReal()
              + " is held by host "
              + workspace.host().orElseThrow()
              + ", not this one ("
              + store.host()
              + "): only a service on that host rewinds, tracks or records turns there");
    }
    WorkspaceBoundary opened = open(Path.of(workspace.rootReal()));
    try {
      if (opened.rootDevice() != workspace.rootDevice()
          || opened.rootInode() != workspace.rootInode()) {
        throw new RequestException(
            RequestException.Problem.WORKSPACE,
            "workspace "
                + workspace.rootReal()
                + " is not the directory its session began in: it was replaced");
      }
      policy.admit(opened);
    } catch (RuntimeException e) {
      opened.close();
      throw e;
    }
    return install(workspaceId, opened, false);
  }

  /**
   * Puts {@code opened} in the cache and lends it, unless a handle of the same workspace is held:
   * that one is lent instead (and {@code opened} closed) when it is the same directory or when
   * {@code replace} is false.
   */
  private Lease install(long workspaceId, WorkspaceBoundary opened, boolean replace) {
    List<WorkspaceBoundary> toClose = new ArrayList<>();
    List<Map.Entry<Long, Handle>> others = List.of();
    Lease lease;
    synchronized (this) {
      if (closed) {
        opened.close();
        requireOpen();
      }
      Handle current = cache.get(workspaceId);
      if (current != null && (!replace || sameDirectory(current.boundary, opened))) {
        toClose.add(opened);
        current.leases++;
        lease = new Lease(current);
      } else {
        if (current != null) {
          cache.remove(workspaceId);
          takeOut(current, toClose);
        }
        Handle handle = new Handle(opened);
        handle.leases = 1;
        cache.put(workspaceId, handle);
        evictBeyondCapacity(toClose);
        lease = new Lease(handle);
        others =
            cache.entrySet().stream()
                .filter(entry -> entry.getValue() != handle)
                .map(entry -> Map.entry(entry.getKey(), entry.getValue()))
                .toList();
      }
    }
    toClose.forEach(WorkspaceBoundary::close);
    dropRootsGoneFromTheirPath(others);
    return lease;
  }

  private static boolean sameDirectory(WorkspaceBoundary a, WorkspaceBoundary b) {
    return a.rootDevice() == b.rootDevice() && a.rootInode() == b.rootInode();
  }

  /** Guarded by {@code this}. */
  private void evictBeyondCapacity(List<WorkspaceBoundary> toClose) {
    Iterator<Handle> eldestFirst = cache.values().iterator();
    while (cache.size() > capacity && eldestFirst.hasNext()) {
      Handle handle = eldestFirst.next();
      eldestFirst.remove();
      takeOut(handle, toClose);
    }
  }

  /**
   * Guarded by {@code this}: the handle leaves the cache, and is closed now when nobody borrows it.
   */
  private static void takeOut(Handle handle, List<WorkspaceBoundary> toClose) {
    handle.outOfCache = true;
    if (handle.leases == 0) {
      toClose.add(handle.boundary);
    }
  }

  /**
   * Releases the handles of workspaces whose root is no longer at its path (an {@code rm -rf}, a
   * move), so that their descriptors do not wait for eviction; their next use reopens by path and
   * is refused. Done each time a new handle joins the cache (a stat per held handle), not on every
   * borrow.
   */
  private void dropRootsGoneFromTheirPath(List<Map.Entry<Long, Handle>> held) {
    List<Map.Entry<Long, Handle>> gone =
        held.stream().filter(entry -> !RootAtPath.stillNames(entry.getValue().boundary)).toList();
    if (gone.isEmpty()) {
      return;
    }
    List<WorkspaceBoundary> toClose = new ArrayList<>();
    synchronized (this) {
      for (Map.Entry<Long, Handle> entry : gone) {
        if (cache.remove(entry.getKey(), entry.getValue())) {
          takeOut(entry.getValue(), toClose);
        }
      }
    }
    toClose.forEach(WorkspaceBoundary::close);
  }

  private void giveBack(Handle handle) {
    boolean close;
    synchronized (this) {
      handle.leases--;
      close = handle.outOfCache && handle.leases == 0;
    }
    if (close) {
      handle.boundary.close();
    }
  }

  /** Guarded by {@code this}. */
  private void requireOpen() {
    if (closed) {
      throw new IllegalStateException("the workspace handles are closed");
    }
  }

  /**
   * How many root handles the cache holds now (borrowed handles already out of it are not counted).
   */
  public synchronized int held() {
    return cache.size();
  }

  /**
   * Closes every handle not borrowed now; a borrowed one is closed when its last lease is returned.
   */
  @Override
  public void close() {
    List<WorkspaceBoundary> toClose = new ArrayList<>();
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      cache.values().forEach(handle -> takeOut(handle, toClose));
      cache.clear();
    }
    toClose.forEach(WorkspaceBoundary::close);
  }
}
