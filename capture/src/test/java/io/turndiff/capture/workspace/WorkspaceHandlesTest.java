package io.turndiff.capture.workspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.boundary.Portability;
import io.turndiff.boundary.WorkspacePolicy;
import io.turndiff.capture.CaptureService;
import io.turndiff.fixtures.RecordedChanges;
import io.turndiff.fixtures.StoreRows;
import io.turndiff.fixtures.TestStore;
import io.turndiff.model.RequestException;
import io.turndiff.store.Store;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The workspace handle cache with real workspaces, a real store and real threads: the number of
 * root descriptors the process holds (counted in {@code /proc/self/fd}) stays bounded however many
 * workspaces it sees, a removed workspace's descriptor is released, and a handle evicted while an
 * operation uses it stays open until that operation is done.
 */
class WorkspaceHandlesTest {

  @TempDir Path temp;

  private Path workspaces;
  private Store store;

  @BeforeEach
  void open() throws IOException {
    workspaces = Files.createDirectories(temp.resolve("workspaces"));
    store = TestStore.freshIn(temp);
  }

  @AfterEach
  void close() {
    store.close();
  }

  /** A workspace with {@code files} files {@code f0.txt}…; its real path. */
  private Path workspace(String name, int files) throws IOException {
    Path root = Files.createDirectories(workspaces.resolve(name));
    for (int f = 0; f < files; f++) {
      Files.writeString(root.resolve("f" + f + ".txt"), name + " file " + f + "\n");
    }
    return root.toRealPath();
  }

  /** How many descriptors of this process are open on {@code directory} or anything under it. */
  private static long descriptorsUnder(Path directory) {
    String prefix = directory.toString();
    try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
      return fds.map(
              fd -> {
                try {
                  return Files.readSymbolicLink(fd).toString();
                } catch (IOException closedMeanwhile) {
                  return "";
                }
              })
          .filter(
              target ->
                  target.equals(prefix)
                      || target.startsWith(prefix + "/")
                      || target.equals(prefix + " (deleted)"))
          .count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private long workspaceId(Path root) {
    return store.read(tx -> tx.workspaces().byRealRoot(root.toString())).orElseThrow().id();
  }

  private static void deleteTree(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }

  @Test
  void aServiceThatSeesManyWorkspacesHoldsABoundedNumberOfRootHandles() throws Exception {
    int seen = 100; // more than the 64 handles kept by default
    try (CaptureService capture = new CaptureService(store, BoundaryOptions.defaults())) {
      for (int w = 0; w < seen; w++) {
        Path root = workspace("ws-" + w, 1);
        String turn = capture.beginTurn(root, Optional.empty(), Optional.empty()).turn();
        capture.snapshot(turn, Optional.empty(), List.of("f0.txt"));
        Files.writeString(root.resolve("f0.txt"), "changed\n");
        assertEquals(1, capture.finishTurn(turn).files());
      }
      long held = descriptorsUnder(workspaces);
      assertTrue(held <= 64, "at most 64 workspace roots are held open, not " + held);
    }
    assertEquals(0, descriptorsUnder(workspaces), "closing the service closes every handle");
  }

  @Test
  void aRemovedWorkspaceReleasesItsHandle() throws Exception {
    try (CaptureService capture = new CaptureService(store, BoundaryOptions.defaults())) {
      Path removed = workspace("removed", 1);
      String turn = capture.beginTurn(removed, Optional.empty(), Optional.empty()).turn();
      capture.snapshot(turn, Optional.empty(), List.of("f0.txt"));
      assertEquals(1, descriptorsUnder(removed));
      deleteTree(removed);
      capture.beginTurn(workspace("next", 1), Optional.empty(), Optional.empty());
      assertEquals(
          0, descriptorsUnder(removed), "the removed workspace's root is no longer held open");
      Map<String, Long> rows = StoreRows.count(store);
      RequestException refused =
          assertThrows(
              RequestException.class,
              () -> capture.snapshot(turn, Optional.empty(), List.of("f0.txt")));
      assertEquals(RequestException.Problem.WORKSPACE, refused.problem(), refused.getMessage());
      assertEquals(rows, StoreRows.count(store), "nothing was written");
    }
  }

  @Test
  void concurrentSnapshotsOverMoreWorkspacesThanTheCacheHoldsNeverSeeAClosedRoot()
      throws Exception {
    int capacity = 3;
    int count = 12;
    int files = 25;
    int threads = 8;
    WorkspaceHandles handles =
        new WorkspaceHandles(
            store, BoundaryOptions.defaults(), WorkspacePolicy.anyDirectory(), capacity);
    CaptureService capture = new CaptureService(store, handles);
    List<String> turns = new ArrayList<>();
    for (int w = 0; w < count; w++) {
      turns.add(
          capture
              .beginTurn(workspace("ws-" + w, files), Optional.empty(), Optional.empty())
              .turn());
    }
    List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int worker = t;
      workers.add(
          Thread.ofPlatform()
              .start(
                  () -> {
                    // each file once, visiting the workspaces in turn, so that every few calls
                    // evict a handle in use
                    for (int f = 0; f < files; f++) {
                      for (int w = 0; w < count; w++) {
                        if ((w * files + f) % threads == worker) {
                          try {
                            capture.snapshot(
                                turns.get(w), Optional.empty(), List.of("f" + f + ".txt"));
                          } catch (Throwable e) {
                            failures.add(e);
                          }
                        }
                      }
                    }
                  }));
    }
    for (Thread worker : workers) {
      worker.join();
    }
    assertEquals(List.of(), failures, "no snapshot saw its workspace's root closed");
    assertTrue(
        descriptorsUnder(workspaces) <= capacity,
        "with nothing borrowed, at most "
            + capacity
            + " roots are open, not "
            + descriptorsUnder(workspaces));
    for (String turn : turns) {
      capture.finishTurn(turn);
      assertEquals(
          files, RecordedChanges.of(store, turn).size(), "every snapshot of " + turn + " landed");
    }
    handles.close();
    assertEquals(0, descriptorsUnder(workspaces));
  }

  @Test
  void aHandleEvictedWhileBorrowedStaysOpenUntilItsLastLeaseIsReturned() throws Exception {
    WorkspaceHandles handles =
        new WorkspaceHandles(store, BoundaryOptions.defaults(), WorkspacePolicy.anyDirectory(), 1);
    CaptureService capture = new CaptureService(store, handles);
    Path a = workspace("a", 1);
    Path b = workspace("b", 1);
    capture.beginTurn(a, Optional.empty(), Optional.empty());
    capture.beginTurn(b, Optional.empty(), Optional.empty());
    assertEquals(0, descriptorsUnder(a), "a was evicted when b was opened, and nobody borrowed it");

    WorkspaceHandles.Lease first = handles.borrow(workspaceId(a));
    WorkspaceHandles.Lease second = handles.borrow(workspaceId(a));
    WorkspaceHandles.Lease other = handles.borrow(workspaceId(b));
    assertEquals(1, handles.held(), "b took a's place in the cache");
    assertEquals(1, descriptorsUnder(a), "a is out of the cache but borrowed: still open");
    assertTrue(first.boundary().observe("f0.txt").getFirst().snapshot().captured());
    first.close();
    first.close(); // a lease is returned once, however often it is closed
    assertEquals(1, descriptorsUnder(a), "the second lease still holds a");
    assertTrue(second.boundary().observe("f0.txt").getFirst().snapshot().captured());
    second.close();
    assertEquals(0, descriptorsUnder(a), "the last lease returned closed a");
    other.close();
    assertEquals(1, descriptorsUnder(b), "b stays in the cache");
    handles.close();
    assertEquals(0, descriptorsUnder(b));
    assertThrows(IllegalStateException.class, () -> handles.borrow(workspaceId(b)));
  }

  @Test
  void aRootReplacedWhileItsHandleWasEvictedIsRefused() throws Exception {
    WorkspaceHandles handles =
        new WorkspaceHandles(store, BoundaryOptions.defaults(), WorkspacePolicy.anyDirectory(), 1);
    try (CaptureService capture = new CaptureService(store, handles)) {
      Path a = workspace("a", 1);
      String turn = capture.beginTurn(a, Optional.empty(), Optional.empty()).turn();
      capture.beginTurn(workspace("b", 1), Optional.empty(), Optional.empty());
      Files.move(a, temp.resolve("a-moved"));
      Files.createDirectories(a);
      Files.writeString(a.resolve("f0.txt"), "another directory's file\n");
      Map<String, Long> rows = StoreRows.count(store);
      RequestException refused =
          assertThrows(
              RequestException.class,
              () -> capture.snapshot(turn, Optional.empty(), List.of("f0.txt")));
      assertEquals(RequestException.Problem.WORKSPACE, refused.problem());
      assertTrue(refused.getMessage().contains("replaced"), refused.getMessage());
      assertEquals(rows, StoreRows.count(store), "nothing was written");
    } finally {
      handles.close();
    }
  }

  /**
   * One device numbering for every boundary: a workspace whose turn began through one boundary is
   * reopened through the other as the same directory (they once numbered the device differently,
   * and it was refused as replaced).
   */
  @Test
  void aWorkspaceRegisteredThroughOneBoundaryIsTheSameDirectoryThroughTheOther() throws Exception {
    assumeTrue(
        Portability.current().allows(BoundaryOptions.Mechanism.SECURE_DIRECTORY_STREAM),
        "the posix mode holds roots with openat only");
    Path a = workspace("a", 1);
    BoundaryOptions fallback = BoundaryOptions.builder().forceFallback(true).build();
    for (List<BoundaryOptions> order :
        List.of(
            List.of(BoundaryOptions.defaults(), fallback),
            List.of(fallback, BoundaryOptions.defaults()))) {
      String turn;
      try (CaptureService began = new CaptureService(store, order.get(0))) {
        turn = began.beginTurn(a, Optional.empty(), Optional.empty()).turn();
      }
      try (CaptureService reopened = new CaptureService(store, order.get(1))) {
        assertTrue(
            reopened
                .snapshot(turn, Optional.empty(), List.of("f0.txt"))
                .getFirst()
                .snapshot()
                .captured());
      }
    }
  }
}
